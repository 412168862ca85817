"""What a card is, as data: the definition every card of the pool (``core.pool``) is written in.

Oracle text is kept exactly as printed; the effect primitives (``core.effects``) implement it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtg_ledger.core.effects import ActivatedAbility, CounterUnlessPays, Effect, ManaAbility, PumpSelfUntilEndOfTurn, TriggeredAbility
from mtg_ledger.core.mana import ManaCost, parse_cost
from mtg_ledger.core.statics import Static


PROWESS = TriggeredAbility(  # 702.108a
    "you_cast_noncreature",
    (PumpSelfUntilEndOfTurn(1, 1),),
    text="Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.",
)


@dataclass(frozen=True)
class CardDef:
    name: str
    types: tuple[str, ...]
    oracle: str
    cost: str = ""  # printed mana cost, "{1}{G}"; lands have none
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    target: str | None = None  # "any" (115.4) or "creature"
    effects: tuple[Effect, ...] = ()
    mana_abilities: tuple[ManaAbility, ...] = ()
    keywords: frozenset[str] = frozenset()  # flying, reach, vigilance, trample, first strike, double strike, haste, phasing
    attack_tax: int = 0  # Ghostly Prison: {N} for each creature attacking its controller (508.1d, 508.1h)
    no_maximum_hand_size: bool = False  # "You have no maximum hand size." (402.2)
    triggers: tuple[TriggeredAbility, ...] = ()
    activated: tuple[ActivatedAbility, ...] = ()  # non-mana activated abilities, numbered after the mana abilities
    doesnt_untap: bool = False  # "... doesn't untap during your untap step." (502.3)
    grants_haste_to: tuple[str, ...] = ()  # "<Subtypes> you control have haste."
    daybound: bool = False  # 702.145
    nightbound: bool = False
    back: CardDef | None = None  # the back face of a transforming double-faced card (712)
    colors: tuple[str, ...] = ()  # for tokens, which have no mana cost (111.4)
    mana_cost: ManaCost = field(init=False)
    final_chapter: int = field(init=False)  # 714.2d: a Saga's final chapter number (0 for anything else)
    # keywords also: deathtouch, defender, flash, hexproof, indestructible, lifelink, menace, prowess, ward
    loyalty: int | None = None  # a planeswalker's printed loyalty: it enters with that many loyalty counters (306.5b)
    defense: int | None = None  # a battle's printed defense: it enters with that many defense counters (310.4b)
    enchant: str | None = None  # an Aura's "Enchant <what>" (303.4a, 702.5): "creature"; the Aura spell targets one (303.4a)
    statics: tuple[Static, ...] = ()  # static abilities (604): core.statics
    ward: str | None = None  # "Ward {N}" (702.21a): the cost ("{2}"), with "ward" among the keywords
    # every triggered ability, as the engine numbers them: ``triggers`` (as written), then those its keywords
    # bring (prowess, ward); derived, never written in a card's data
    triggered: tuple[TriggeredAbility, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mana_cost", parse_cost(self.cost))
        object.__setattr__(self, "final_chapter", max((t.chapter for t in self.triggers if t.event == "chapter"), default=0))
        keyworded: list[TriggeredAbility] = []
        if "prowess" in self.keywords:  # 702.108a: prowess is a triggered ability
            keyworded.append(PROWESS)
        if self.ward is not None:  # 702.21a: so is ward
            keyworded.append(TriggeredAbility("becomes_target", (CounterUnlessPays(self.ward),), text=f"Ward {self.ward}"))
        object.__setattr__(self, "triggered", (*self.triggers, *keyworded))

    @property
    def spell_target(self) -> str | None:
        """What the spell targets (601.2c): its own target, or an Aura's enchant (303.4a)."""
        return self.target or self.enchant

    def is_type(self, card_type: str) -> bool:
        return card_type in self.types

    @property
    def is_permanent_card(self) -> bool:
        """110.4: artifact, creature, enchantment, land, planeswalker and battle cards."""
        return not ({"Instant", "Sorcery"} & set(self.types))

    @property
    def sorcery_speed(self) -> bool:
        """307.1 and 505.6a: everything but instants is cast only at sorcery speed; 702.8a: flash lifts it."""
        return not self.is_type("Instant") and "flash" not in self.keywords
