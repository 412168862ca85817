"""What a card is to the rules: the definition a card's plain data compiles to (``core.vocabulary``).

Oracle text is kept exactly as printed; the effect primitives (``core.effects``) and static abilities
(``core.statics``) implement it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtg_ledger.core.effects import ActivatedAbility, Effect, ManaAbility, TriggeredAbility
from mtg_ledger.core.mana import ManaCost, parse_cost
from mtg_ledger.core.statics import AttackTax, DoesntUntap, GrantKeyword, NoMaximumHandSize, Static


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
    triggers: tuple[TriggeredAbility, ...] = ()
    activated: tuple[ActivatedAbility, ...] = ()  # non-mana activated abilities, numbered after the mana abilities
    daybound: bool = False  # 702.145
    nightbound: bool = False
    back: CardDef | None = None  # the back face of a transforming double-faced card (712)
    colors: tuple[str, ...] = ()  # 105.2 (a token's, which has no mana cost: 111.4)
    color_identity: tuple[str, ...] = ()  # 903.4
    statics: tuple[Static, ...] = ()  # static abilities (604), in Oracle-text order
    loyalty: int | None = None  # 306.5b
    defense: int | None = None  # 310.4b
    mana_cost: ManaCost = field(init=False)
    final_chapter: int = field(init=False)  # 714.2d: a Saga's final chapter number (0 for anything else)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mana_cost", parse_cost(self.cost))
        object.__setattr__(self, "final_chapter", max((t.chapter for t in self.triggers if t.event == "chapter"), default=0))

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

    def is_type(self, card_type: str) -> bool:
        return card_type in self.types

    @property
    def is_permanent_card(self) -> bool:
        """110.4: artifact, creature, enchantment, land, planeswalker and battle cards."""
        return not ({"Instant", "Sorcery"} & set(self.types))

    @property
    def sorcery_speed(self) -> bool:
        """307.1 and 505.6a: everything but instants is cast only at sorcery speed."""
        return not self.is_type("Instant")
