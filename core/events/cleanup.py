"""The end of steps: discards (514.1, and 608.2d's on resolution), the cleanup's damage removal and
end of "until end of turn" effects (514.2), and mana pools emptying (500.4)."""

from __future__ import annotations

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.state import GameState


class CardsDiscardedFields(TypedDict):
    player: str
    cards: list[str]
    max_hand_size: int | None
    rule: str


class CardsDiscarded(GameEvent):
    """514.1 (the cleanup discard, with the ``max_hand_size`` it met), 608.2d (a discard a
    resolving ability asked for) or 601.2h (the cards discarded to pay an activated ability's cost);
    ``rule`` says which."""

    fields_type = CardsDiscardedFields


@applies(CardsDiscarded)
def _discarded(s: GameState, e: CardsDiscardedFields) -> None:
    player = s.players[e["player"]]
    for name in e["cards"]:
        player.hand.remove(name)
        player.graveyard.append(name)
    if e["rule"] in ("608.2d", "601.2h"):  # the choice a resolution or an activation's cost waited for
        s.paused = None


class CleanupPerformedFields(TypedDict):
    damage_removed: list[int]
    effects_ended: list[int]


class CleanupPerformed(GameEvent):
    """514.2: damage removal and the end of "until end of turn" effects, simultaneously."""

    fields_type = CleanupPerformedFields


@applies(CleanupPerformed)
def _cleanup(s: GameState, e: CleanupPerformedFields) -> None:
    for perm in s.each(e["damage_removed"]):
        perm.damage = 0
        perm.deathtouched = False
    if e["effects_ended"]:  # (most cleanups end none)
        ended = set(e["effects_ended"])
        s.effects = [eff for eff in s.effects if eff.id not in ended]


class ManaPoolEmptiedFields(TypedDict):
    player: str
    mana: dict[str, int]


class ManaPoolEmptied(GameEvent):
    """500.4."""

    fields_type = ManaPoolEmptiedFields


@applies(ManaPoolEmptied)
def _pool_emptied(s: GameState, e: ManaPoolEmptiedFields) -> None:
    s.players[e["player"]].mana_pool = {}
