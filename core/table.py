"""Recording tables: where the engine's facts go. Both compute the chain hash before the event exists."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

from eventsourcing.domain import Aggregate, Snapshot

from mtg_ledger.core import events as ev
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import GENESIS_HASH, chain, chain_fields
from mtg_ledger.core.state import GameState
from mtg_ledger.core.topics import stored_as
from mtg_ledger.core.when_used import is_pending

if TYPE_CHECKING:
    from mtg_ledger.core.commands import Command
    from mtg_ledger.core.setup import Shuffles

# The engine (``core.engine``: the turn plan, the command table, the cards) is imported where a table
# decides (``start``, ``handle``), not here: a game that is only read is folded by the appliers alone,
# and a reader (``mtg-ledger state``) never loads the decision machinery. The engine imports nothing
# of this module, so the function-level imports hide no circle (tests/unit/test_layers.py).


# The msgpack of an event's fields (keys sorted at every level), as its chain hash encoded them: kept on
# an event ``Game.emit`` makes, for its stored row (``replays.stores.recorded``); not one of its fields.
FIELDS_BYTES: Final = "_fields_bytes"
_FIELD_SETS: dict[type, frozenset[str]] = {}  # each event class's contract fields, as a set


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

    def emit(self, event_class: type[ev.GameEvent], fields: dict[str, Any]) -> None:
        """The event's chain hash, then the event: made and applied as the library's ``trigger_event`` and
        ``mutate`` would (its ids, version and timestamp; the aggregate's version and time; pending),
        without their layers, when ``fields`` are exactly its contract fields; else through them, whose
        checks say what is wrong."""
        version = self._version + 1
        kind = event_class.__name__
        digest, body = chain_fields(self.state.last_hash, version, kind, fields)
        expected = _FIELD_SETS.get(event_class)
        if expected is None and not is_pending(event_class) and ev.EVENT_TYPES.get(kind) is event_class:
            expected = _FIELD_SETS[event_class] = frozenset(event_class.field_names)
        if expected is None or fields.keys() != expected:
            self.trigger_event(event_class, hash=digest, **fields)
            return
        timestamp = event_class.create_timestamp()
        event = object.__new__(event_class)  # as the library's mapper makes one it reads
        object.__setattr__(event, "__dict__", {
            "originator_id": self._id, "originator_version": version, "timestamp": timestamp, "hash": digest, **fields, FIELDS_BYTES: body,
        })
        apply_event(self.state, {"v": version, "type": kind, **fields, "hash": digest})
        self._version = version
        self._modified_on = timestamp
        self._pending_events.append(event)

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
        table.emit(ev.GameStarted, fields)
        engine.begin_game(table, fields, recorded)
        return table

    def emit(self, event_class: type[ev.GameEvent], fields: dict[str, Any]) -> None:
        mapping = _contract_map(len(self.events) + 1, event_class, fields)
        mapping["hash"] = chain(self.state.last_hash, mapping)
        self.events.append(mapping)
        apply_event(self.state, mapping)

    def handle(self, command: Command) -> None:
        from mtg_ledger.core import engine

        engine.handle(self, command)
