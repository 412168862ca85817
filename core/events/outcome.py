"""Players leaving the game (104.3, 704.5, 800.4a) and the game's outcome (104.2, 104.4)."""

from __future__ import annotations

from mtg_ledger.core.events.base import Event, GameEvent, applies
from mtg_ledger.core.events.changes import leave_battlefield
from mtg_ledger.core.schema import stored_upcaster
from mtg_ledger.core.state import GameState


class PlayerLost(GameEvent):
    """104.3, 704.5."""

    player: str
    reason: str
    rule: str


@applies(PlayerLost)
def _player_lost(s: GameState, e: Event) -> None:
    name = e["player"]
    player = s.players[name]
    player.lost = True
    player.loss_reason = e["reason"]
    if s.priority == name:
        s.priority = None
    # 800.4a: the objects the player owns leave the game; spells they control cease to exist
    leave_battlefield(s, {p.object for p in s.battlefield if p.owner == name})
    s.stack = [o for o in s.stack if o.controller != name]
    s.pending_triggers = [t for t in s.pending_triggers if t.player != name]
    if s.paused is not None and s.paused["player"] == name:
        s.paused = None
    if s.ordering is not None and s.ordering["player"] == name:
        s.ordering = None
    for perm in s.battlefield:  # 506.4: creatures attacking a player who left are removed from combat
        if perm.attacking == name:
            perm.attacking = None
    s.defending_players = [p for p in s.defending_players if p != name]


class GameEnded(GameEvent):
    """104.2, 104.4: the game's outcome (core.outcome.Outcome). ``winner`` is null for a draw;
    ``winners`` names every winning player, a whole team with shared team turns (805); ``reason`` is
    an ``outcome.Reason`` code. Class version 2 (schema 2): version 1's ``reason`` was free text."""

    class_version = 2
    upcast_v1_v2 = stored_upcaster("GameEnded", 1)

    winner: str | None
    winners: list[str]
    reason: str


@applies(GameEnded)
def _game_ended(s: GameState, e: Event) -> None:
    s.ended = True
    s.winner = e["winner"]
    s.winners = list(e["winners"])
    s.end_reason = e["reason"]
    s.priority = None
