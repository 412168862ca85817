"""Player decisions: imperative commands, distinct from the events (facts) they produce.

A card on the battlefield or the stack is named by a ``Ref``: an object id, or a card name with
an index among the objects of that name in the zone (``CardRef("Forest", 1)`` is the second Forest).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Union


@dataclass(frozen=True)
class CardRef:
    card: str
    index: int = 0


Ref = Union[int, CardRef]
Target = Union[str, Ref]  # a player name, or an object


@dataclass(frozen=True)
class PassPriority:
    player: str


def passing(player: Any) -> PassPriority:
    """117.3d: ``player`` passes. One command a player's name, made once (a command is immutable, a pass is most
    of a game's decisions, and a frozen dataclass's ``__init__`` costs a microsecond); any other value as it is."""
    return _passing(player) if type(player) is str else PassPriority(player)


@lru_cache(maxsize=1 << 10)
def _passing(player: str) -> PassPriority:
    return PassPriority(player)


@dataclass(frozen=True)
class PlayLand:
    """A land from hand, by name: a hand is known by card names only, so copies are interchangeable."""

    player: str
    card: str


@dataclass(frozen=True)
class CastSpell:
    """A spell from hand, by name (as ``PlayLand``)."""

    player: str
    card: str
    targets: tuple[Target, ...] = ()
    pay: tuple[Ref, ...] | None = None  # permanents to tap for mana; None: the engine chooses


@dataclass(frozen=True)
class ActivateAbility:
    """602, 605, 606: ``ability`` counts the source's mana abilities first, then the others in the
    order of its text; ``targets`` are what the ability targets (602.2b, 601.2c); ``mana`` the colour a
    mana ability that adds one of several adds ("Add {G} or {W}.", 106.1), None for one that adds one kind."""

    player: str
    source: Ref
    ability: int = 0
    targets: tuple[Target, ...] = ()
    mana: str | None = None


@dataclass(frozen=True)
class ChooseDefender:
    """507.1: the single-defender format's choice of defending player."""

    player: str
    defender: str


@dataclass(frozen=True)
class DeclareAttackers:
    player: str
    attackers: tuple[tuple[Ref, str | Ref | None], ...] = ()  # (creature, player attacked, a planeswalker or battle (506.3) or None: the only player)
    pay: tuple[Ref, ...] | None = None  # permanents to tap for attack costs; None: the engine chooses


@dataclass(frozen=True)
class DeclareBlockers:
    player: str
    blockers: tuple[tuple[Ref, Ref], ...] = ()  # (blocking creature, attacker)


@dataclass(frozen=True)
class AssignDamage:
    """510.1c-d: how attackers divide their combat damage; attackers not named take the default."""

    player: str
    assignments: tuple[tuple[Ref, tuple[tuple[Target, int], ...]], ...] = ()


@dataclass(frozen=True)
class OrderTriggers:
    """603.3b-d: put your waiting triggered abilities on the stack: ``order`` lists them bottom
    first (the last one listed resolves first), each a Ref to the trigger object or its source
    card; ``targets`` gives targets by position in ``order``."""

    player: str
    order: tuple[Ref, ...] = ()
    targets: tuple[tuple[Target, ...] | None, ...] = ()


@dataclass(frozen=True)
class Discard:
    player: str
    cards: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Concede:
    player: str


@dataclass(frozen=True)
class CastTransformed:
    """310.11b: while a defeated Siege's ability resolves, its controller casts the exiled card transformed
    (``cast``) or leaves it in exile."""

    player: str
    cast: bool = True


@dataclass(frozen=True)
class ChooseProtector:
    """310.11a: as a Siege enters, its controller chooses one of their opponents to protect it."""

    player: str
    protector: str


Command = Union[
    PassPriority,
    PlayLand,
    CastSpell,
    ActivateAbility,
    OrderTriggers,
    ChooseDefender,
    DeclareAttackers,
    DeclareBlockers,
    AssignDamage,
    Discard,
    Concede,
    CastTransformed,
    ChooseProtector,
]
