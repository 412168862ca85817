"""Recording tables: where the engine's facts go. Both compute the chain hash before the event exists."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.domain import Aggregate, Snapshot

from mtg_ledger.core import events as ev
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.core.state import GameState
from mtg_ledger.core.topics import stored_as

if TYPE_CHECKING:
    from mtg_ledger.core.commands import Command
    from mtg_ledger.core.setup import Shuffles

# The engine (``core.engine``: the turn plan, the command table, the cards) is imported where a table
# decides (``start``, ``handle``), not here: a game that is only read is folded by the appliers alone,
# and a reader (``mtg-ledger state``) never loads the decision machinery. The engine imports nothing
# of this module, so the function-level imports hide no circle (tests/unit/test_layers.py).


def _contract_map(version: int, event_class: type[ev.GameEvent], fields: dict[str, Any]) -> dict[str, Any]:
    return {"v": version, "type": event_class.__name__, **fields}


@stored_as("GameSnapshot", "eventsourcing.domain:Snapshot")
class GameSnapshot(Snapshot):
    """A game's state at one version, stored under the schema's name (it names the aggregate by its
    stored name too, ``Game``)."""


@stored_as("Game", "core.table:Game")
class Game(Aggregate):
    """The game aggregate: one game is one stream. Its state is rebuilt by the appliers."""

    Snapshot = GameSnapshot

    def __init__(self) -> None:
        self.state = GameState()

    @classmethod
    def start(cls, setup: dict[str, Any], game_id: UUID) -> Game:
        from mtg_ledger.core import engine

        fields = engine.started_fields(setup)
        digest = chain(GENESIS_HASH, _contract_map(1, ev.GameStarted, fields))
        game = cls._create(ev.GameStarted, id=game_id, hash=digest, **fields)
        engine.begin_game(game, fields)
        return game

    def emit(self, event_class: type[ev.GameEvent], **fields: Any) -> None:
        digest = chain(self.state.last_hash, _contract_map(self.version + 1, event_class, fields))
        self.trigger_event(event_class, hash=digest, **fields)

    def handle(self, command: Command) -> None:
        from mtg_ledger.core import engine

        engine.handle(self, command)


class LocalTable:
    """The same engine without persistence: contract maps in a list (fast tests, replay checks)."""

    def __init__(self) -> None:
        self.state = GameState()
        self.events: list[dict[str, Any]] = []

    @classmethod
    def start(cls, setup: dict[str, Any], recorded: Shuffles | None = None) -> LocalTable:
        from mtg_ledger.core import engine

        table = cls()
        fields = engine.started_fields(setup)
        table.emit(ev.GameStarted, **fields)
        engine.begin_game(table, fields, recorded)
        return table

    def emit(self, event_class: type[ev.GameEvent], **fields: Any) -> None:
        mapping = _contract_map(len(self.events) + 1, event_class, fields)
        mapping["hash"] = chain(self.state.last_hash, mapping)
        self.events.append(mapping)
        apply_event(self.state, mapping)

    def handle(self, command: Command) -> None:
        from mtg_ledger.core import engine

        engine.handle(self, command)
