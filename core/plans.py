"""Plans: what a checked decision does, for the engine to record without checking again.

``rules.check`` returns one for every legal command (the combat ones come from ``core.combat``);
each of the engine's decisions records the fields of its plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Union

from mtg_ledger.core.combat import AttackPlan, BlockPlan, DamagePlan, DefenderPlan


@dataclass(frozen=True)
class PassPlan:
    player: str


def pass_plan(player: Any) -> PassPlan:
    """A checked pass (117.3d): one plan a player's name, made once, as ``commands.passing``."""
    return _pass_plan(player) if type(player) is str else PassPlan(player)


@lru_cache(maxsize=1 << 10)
def _pass_plan(player: str) -> PassPlan:
    return PassPlan(player)


@dataclass(frozen=True)
class LandPlan:
    player: str
    card: str


@dataclass(frozen=True)
class CastPlan:
    player: str
    card: str
    targets: list[Any]
    taps: list[tuple[int, str, str]]  # (object, card, color) mana abilities activated while casting
    mana_spent: dict[str, int]


@dataclass(frozen=True)
class ManaAbilityPlan:
    """605.3a: a mana ability, activated without using the stack."""

    player: str
    source: int
    card: str
    mana: str


@dataclass(frozen=True)
class AbilityPlan:
    player: str
    source: int
    card: str
    ability: int
    taps: list[tuple[int, str, str]]
    mana_spent: dict[str, int]
    targets: list[Any] = field(default_factory=list)  # 602.2b, 601.2c
    loyalty: int | None = None  # a loyalty ability's cost (606.4)
    sacrifice: bool = False  # the source is sacrificed to pay the cost (701.21)
    tap: bool = False  # the source is tapped to pay the cost (107.5)
    life: int = 0  # the life paid as part of the cost (119.4)
    discard: int = 0  # the cards to discard as part of the cost, chosen as it is paid (601.2h)


@dataclass(frozen=True)
class StackPlan:
    player: str
    order: list[int]
    targets: dict[str, list[Any]]
    removed: list[int]


@dataclass(frozen=True)
class DiscardPlan:
    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class ConcedePlan:
    player: str


@dataclass(frozen=True)
class CastTransformedPlan:
    """310.11b: the exiled Siege ``card``, cast transformed (``cast``) or left in exile."""

    player: str
    card: str
    cast: bool


@dataclass(frozen=True)
class ProtectorPlan:
    """310.11a: the Siege ``object``, entering, protected by ``protector``."""

    player: str
    object: int
    protector: str


Plan = Union[
    PassPlan, LandPlan, CastPlan, ManaAbilityPlan, AbilityPlan, StackPlan, DefenderPlan, AttackPlan,
    BlockPlan, DamagePlan, DiscardPlan, ConcedePlan, CastTransformedPlan, ProtectorPlan,
]
