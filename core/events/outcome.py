"""Players leaving the game (104.3, 704.5, 800.4a) and the game's outcome (104.2, 104.4)."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import UPCASTERS, Event, GameEvent, applies, stored_upcaster
from mtg_ledger.core.events.changes import leave_battlefield
from mtg_ledger.core.outcome import Reason
from mtg_ledger.core.state import GameState


class PlayerLostFields(TypedDict):
    player: str
    reason: str
    rule: str


class PlayerLost(GameEvent):
    """104.3, 704.5."""

    fields_type = PlayerLostFields


@applies(PlayerLost)
def _player_lost(s: GameState, e: PlayerLostFields) -> None:
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
    if s.paused is not None and (s.paused["player"] == name or _left(s, s.paused)):
        s.paused = None  # their choice, or another player's choice for an object of theirs that left the stack
    if s.ordering is not None and s.ordering["player"] == name:
        s.ordering = None
    for perm in s.battlefield:  # 506.4: creatures attacking a player who left are removed from combat
        if perm.attacking == name:
            perm.attacking = None
            perm.attacking_object = None
    s.defending_players = [p for p in s.defending_players if p != name]


V1_REASONS = (  # the free texts schema 1 wrote, in core.sba of that version
    ("all players lost simultaneously", Reason.ALL_PLAYERS_LOST),
    (" is the only player left in the game", Reason.LAST_PLAYER_STANDING),
    ("every opponent of the team of ", Reason.LAST_PLAYER_STANDING),
)


def reason_of_v1(text: Any, winner: Any) -> Reason:
    """The code for a schema-1 ``GameEnded.reason`` text; a text no version wrote reads as a draw
    when nobody won, otherwise as the last player (or team) standing."""
    if isinstance(text, str):
        if text in {r.value for r in Reason}:  # already a code: upcasting twice changes nothing
            return Reason(text)
        for words, reason in V1_REASONS:
            if words in text:
                return reason
    return Reason.DRAW if winner is None else Reason.LAST_PLAYER_STANDING


def _game_ended_v1_v2(event: Event) -> Event:
    """GameEnded 1 -> 2: ``reason`` from free text to a code; ``winners`` from ``winner`` where a
    log lacks it (one winner, or nobody in a draw)."""
    winner = event.get("winner")
    winners = event.get("winners")
    if winners is None:
        winners = [] if winner is None else [winner]
    return {**event, "winners": list(winners), "reason": reason_of_v1(event.get("reason"), winner).value}


UPCASTERS[("GameEnded", 1)] = _game_ended_v1_v2


class GameEndedFields(TypedDict):
    winner: str | None
    winners: list[str]
    reason: str


class GameEnded(GameEvent):
    """104.2, 104.4: the game's outcome (core.outcome.Outcome). ``winner`` is null for a draw;
    ``winners`` names every winning player, a whole team with shared team turns (805); ``reason`` is
    an ``outcome.Reason`` code. Class version 2 (schema 2): version 1's ``reason`` was free text."""

    fields_type = GameEndedFields

    class_version = 2
    upcast_v1_v2 = stored_upcaster("GameEnded", 1)



@applies(GameEnded)
def _game_ended(s: GameState, e: GameEndedFields) -> None:
    s.ended = True
    s.winner = e["winner"]
    s.winners = list(e["winners"])
    s.end_reason = e["reason"]
    s.priority = None


def _left(s: GameState, paused: dict[str, Any]) -> bool:
    """The object a paused choice is about has left: a resolving object the stack, or a Siege whose
    protector is being chosen (310.11a) the battlefield."""
    if paused["choice"] == "choose_protector":
        return s.permanent(paused["object"]) is None
    return all(o.object != paused["object"] for o in s.stack)
