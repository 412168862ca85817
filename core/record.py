"""Recording facts: every event goes through ``emit``, which then records the abilities it triggers (603.2)."""

from __future__ import annotations

from typing import Any, Protocol

from mtg_ledger.core import events as ev
from mtg_ledger.core.state import GameState
from mtg_ledger.core import player_statics, triggers


class Table(Protocol):
    state: GameState

    def emit(self, event_class: type[ev.GameEvent], fields: dict[str, Any]) -> None:
        """Record the event of ``fields`` (its contract fields; read, never changed or kept)."""


def emit(table: Table, event_class: type[ev.GameEvent], **fields: Any) -> None:
    table.emit(event_class, fields)  # the map of the keywords as it is: one copy fewer an event than **fields again
    if event_class.__name__ not in triggers.TRIGGERING:
        return
    for found in triggers.detect(table.state, {"type": event_class.__name__, **fields}):
        table.emit(ev.AbilityTriggered, {"object": table.state.next_object, **found})


def draw(table: Table, player: str) -> None:
    """121.2; 121.4: drawing from an empty library is remembered for 704.5b."""
    library = table.state.players[player].library
    if library:
        emit(table, ev.CardDrawn, player=player, card=library[0])
    else:
        emit(table, ev.EmptyLibraryDrawAttempted, player=player)


def gain_life(table: Table, player: str, amount: int, source: int | None) -> None:
    """119.3; 119.7: a player who can't gain life gains none (nothing is recorded)."""
    if player_statics.can_gain_life(table.state, player):
        emit(table, ev.LifeGained, player=player, amount=amount, source=source)
