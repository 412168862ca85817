"""Card definitions as data, with a small set of effect primitives.

Oracle text is kept exactly as printed; the primitives implement it fully for this card pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.errors import UnknownCard
from core.mana import ManaCost, parse_cost


@dataclass(frozen=True)
class DealDamage:
    """"deals N damage to <target>" (120.3)."""

    amount: int


@dataclass(frozen=True)
class PumpUntilEndOfTurn:
    """"<target> gets +P/+T [and gains <keywords>] until end of turn" (611.2; layers 6 and 7c;
    ends in cleanup, 514.2)."""

    power: int
    toughness: int
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class DrawCards:
    """"Draw N cards" (121.2)."""

    count: int


Effect = DealDamage | PumpUntilEndOfTurn | DrawCards


@dataclass(frozen=True)
class ManaAbility:
    """"{T}: Add {C}." A mana ability (605.1a): no stack, no target."""

    produces: str  # one of W U B R G C


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
    keywords: frozenset[str] = frozenset()  # "flying", "reach", "vigilance", "trample", "first strike", "double strike"
    attack_tax: int = 0  # Ghostly Prison: {N} for each creature attacking its controller (508.1d, 508.1h)
    no_maximum_hand_size: bool = False  # "You have no maximum hand size." (402.2)
    mana_cost: ManaCost = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mana_cost", parse_cost(self.cost))

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


def _basic(name: str, land_type: str, color: str) -> CardDef:
    return CardDef(
        name=name,
        types=("Land",),
        supertypes=("Basic",),
        subtypes=(land_type,),
        oracle=f"({{T}}: Add {{{color}}}.)",
        mana_abilities=(ManaAbility(color),),
    )


CARDS: dict[str, CardDef] = {
    c.name: c
    for c in (
        _basic("Plains", "Plains", "W"),
        _basic("Island", "Island", "U"),
        _basic("Swamp", "Swamp", "B"),
        _basic("Mountain", "Mountain", "R"),
        _basic("Forest", "Forest", "G"),
        CardDef(
            name="Grizzly Bears",
            cost="{1}{G}",
            types=("Creature",),
            subtypes=("Bear",),
            power=2,
            toughness=2,
            oracle="",
        ),
        CardDef(
            name="Llanowar Elves",
            cost="{G}",
            types=("Creature",),
            subtypes=("Elf", "Druid"),
            power=1,
            toughness=1,
            oracle="{T}: Add {G}.",
            mana_abilities=(ManaAbility("G"),),
        ),
        CardDef(
            name="Hill Giant",
            cost="{3}{R}",
            types=("Creature",),
            subtypes=("Giant",),
            power=3,
            toughness=3,
            oracle="",
        ),
        CardDef(
            name="Savannah Lions",
            cost="{W}",
            types=("Creature",),
            subtypes=("Cat",),
            power=2,
            toughness=1,
            oracle="",
        ),
        CardDef(
            name="Lightning Bolt",
            cost="{R}",
            types=("Instant",),
            oracle="Lightning Bolt deals 3 damage to any target.",
            target="any",
            effects=(DealDamage(3),),
        ),
        CardDef(
            name="Giant Growth",
            cost="{G}",
            types=("Instant",),
            oracle="Target creature gets +3/+3 until end of turn.",
            target="creature",
            effects=(PumpUntilEndOfTurn(3, 3),),
        ),
        CardDef(
            name="Divination",
            cost="{2}{U}",
            types=("Sorcery",),
            oracle="Draw two cards.",
            effects=(DrawCards(2),),
        ),
        CardDef(
            name="Youthful Knight",
            cost="{1}{W}",
            types=("Creature",),
            subtypes=("Human", "Knight"),
            power=2,
            toughness=1,
            oracle="First strike",
            keywords=frozenset({"first strike"}),
        ),
        CardDef(
            name="Fencing Ace",
            cost="{1}{W}",
            types=("Creature",),
            subtypes=("Human", "Soldier"),
            power=1,
            toughness=1,
            oracle="Double strike",
            keywords=frozenset({"double strike"}),
        ),
        CardDef(
            name="Serra Angel",
            cost="{3}{W}{W}",
            types=("Creature",),
            subtypes=("Angel",),
            power=4,
            toughness=4,
            oracle="Flying, vigilance",
            keywords=frozenset({"flying", "vigilance"}),
        ),
        CardDef(
            name="Giant Spider",
            cost="{3}{G}",
            types=("Creature",),
            subtypes=("Spider",),
            power=2,
            toughness=4,
            oracle="Reach",
            keywords=frozenset({"reach"}),
        ),
        CardDef(
            name="Colossal Dreadmaw",
            cost="{4}{G}{G}",
            types=("Creature",),
            subtypes=("Dinosaur",),
            power=6,
            toughness=6,
            oracle="Trample",
            keywords=frozenset({"trample"}),
        ),
        CardDef(
            name="Ghostly Prison",
            cost="{2}{W}",
            types=("Enchantment",),
            oracle="Creatures can't attack you unless their controller pays {2} for each creature they control that's attacking you.",
            attack_tax=2,
        ),
        CardDef(
            name="Kindled Fury",
            cost="{R}",
            types=("Instant",),
            oracle="Target creature gets +1/+0 and gains first strike until end of turn.",
            target="creature",
            effects=(PumpUntilEndOfTurn(1, 0, ("first strike",)),),
        ),
        CardDef(
            name="Spellbook",
            cost="{0}",
            types=("Artifact",),
            oracle="You have no maximum hand size.",
            no_maximum_hand_size=True,
        ),
    )
}


def card(name: str) -> CardDef:
    """The definition of a card by its English name, or UnknownCard."""
    try:
        return CARDS[name]
    except KeyError:
        raise UnknownCard("108.1", f"unknown card {name!r}: no such card in the card pool") from None
