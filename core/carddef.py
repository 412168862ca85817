"""What a card is to the rules: the definition a card's plain data compiles to (``core.vocabulary``).

Oracle text is kept exactly as printed; the effect primitives (``core.effects``) and static abilities
(``core.statics``) implement it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtg_ledger.core.effects import (
    ActivatedAbility,
    CounterUnlessPays,
    Effect,
    ExileThenMayCastTransformed,
    ManaAbility,
    ManaChoiceAbility,
    PumpSelfUntilEndOfTurn,
    TriggeredAbility,
)
from mtg_ledger.core.mana import ManaCost, parse_cost
from mtg_ledger.core.statics import AttackTax, DoesntUntap, GrantKeyword, NoMaximumHandSize, Static


PROWESS = TriggeredAbility(  # 702.108a
    "you_cast_noncreature",
    (PumpSelfUntilEndOfTurn(1, 1),),
    text="Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.",
)

# 310.11b: "Sieges have the intrinsic ability 'When the last defense counter is removed from this permanent,
# exile it, then you may cast it transformed without paying its mana cost.'"
SIEGE_DEFEATED = TriggeredAbility(
    "defeated",
    (ExileThenMayCastTransformed(),),
    text="When the last defense counter is removed from this permanent, exile it, then you may cast it transformed without paying its mana cost.",
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
    targets: tuple[str, ...] = ()  # a spell with several targets (601.2c): one spec a target, in the order its text names them
    effects: tuple[Effect, ...] = ()
    mana_abilities: tuple[ManaAbility | ManaChoiceAbility, ...] = ()
    # flying, reach, vigilance, trample, first strike, double strike, haste, phasing, deathtouch, defender,
    # flash, hexproof, indestructible, lifelink, menace, prowess, ward (core.vocabulary.KEYWORDS)
    keywords: frozenset[str] = frozenset()
    triggers: tuple[TriggeredAbility, ...] = ()
    activated: tuple[ActivatedAbility, ...] = ()  # non-mana activated abilities, numbered after the mana abilities
    daybound: bool = False  # 702.145
    nightbound: bool = False
    back: CardDef | None = None  # the back face of a transforming double-faced card (712)
    colors: tuple[str, ...] = ()  # 105.2 (a token's, which has no mana cost: 111.4)
    color_identity: tuple[str, ...] = ()  # 903.4
    statics: tuple[Static, ...] = ()  # static abilities (604), in Oracle-text order
    loyalty: int | None = None  # a planeswalker's printed loyalty: it enters with that many loyalty counters (306.5b)
    defense: int | None = None  # a battle's printed defense: it enters with that many defense counters (310.4b)
    enchant: str | None = None  # an Aura's "Enchant <what>" (303.4a, 702.5): "creature"; the Aura spell targets one (303.4a)
    ward: str | None = None  # "Ward {N}" (702.21a): the cost ("{2}"), with "ward" among the keywords
    mana_cost: ManaCost = field(init=False)
    final_chapter: int = field(init=False)  # 714.2d: a Saga's final chapter number (0 for anything else)
    # every triggered ability, as the engine numbers them: ``triggers`` (as written), then those its keywords
    # bring (prowess, ward), then a Siege's (310.11b); derived, never written in a card's data
    triggered: tuple[TriggeredAbility, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mana_cost", parse_cost(self.cost))
        object.__setattr__(self, "final_chapter", max((t.chapter for t in self.triggers if t.event == "chapter"), default=0))
        keyworded: list[TriggeredAbility] = []
        if "prowess" in self.keywords:  # 702.108a: prowess is a triggered ability
            keyworded.append(PROWESS)
        if self.ward is not None:  # 702.21a: so is ward
            keyworded.append(TriggeredAbility("becomes_target", (CounterUnlessPays(self.ward),), text=f"Ward {self.ward}"))
        if self.is_siege and self.back is not None:
            # 310.11b. A definition of a Siege without its back face (as games recorded before the pool held
            # one did) has no face to cast: it is read as it was then, without the ability
            keyworded.append(SIEGE_DEFEATED)
        object.__setattr__(self, "triggered", (*self.triggers, *keyworded))

    @property
    def spell_target(self) -> str | None:
        """What the spell targets (601.2c): its own target, or an Aura's enchant (303.4a)."""
        return self.target or self.enchant

    @property
    def spell_targets(self) -> tuple[str, ...]:
        """601.2c: the spec of each target the spell has, in order (none, one, or its ``targets``)."""
        return self.targets or specs_of(self.spell_target)

    @property
    def attack_tax(self) -> int:
        """508.1d, 508.1h: {N} for each creature attacking this permanent's controller."""
        return sum(s.amount for s in self.statics if isinstance(s, AttackTax))

    @property
    def no_maximum_hand_size(self) -> bool:
        """402.2: its controller has no maximum hand size."""
        return any(isinstance(s, NoMaximumHandSize) for s in self.statics)

    @property
    def doesnt_untap(self) -> bool:
        """502.3: it doesn't untap during its controller's untap step."""
        return any(isinstance(s, DoesntUntap) for s in self.statics)

    def grants(self, keyword: str) -> frozenset[str]:
        """The subtypes of the permanents its controller controls that it gives ``keyword`` (layer 6)."""
        return frozenset(t for s in self.statics if isinstance(s, GrantKeyword) and s.keyword == keyword for t in s.subtypes)

    @property
    def is_siege(self) -> bool:
        """310.11: a battle with the battle type Siege."""
        return "Battle" in self.types and "Siege" in self.subtypes

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


def specs_of(target: str | None) -> tuple[str, ...]:
    """A single target spec as the tuple of specs a spell or ability's targets are checked against."""
    return () if target is None else (target,)
