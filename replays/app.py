"""The application service: load a game, take one decision, save it, in one transaction.

``Ledger`` is an ``eventsourcing`` Application over the library's persistence (POPO, SQLite,
PostgreSQL, chosen by the library's environment variables), with our msgpack transcoder.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from uuid import UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.domain import event as recorded_as
from eventsourcing.persistence import InfrastructureFactory, IntegrityError, Mapper, Transcoder
from eventsourcing.utils import Environment, get_topic

from mtg_ledger.core import events as ev
from mtg_ledger.core.commands import Command
from mtg_ledger.core.engine import apply_decision
from mtg_ledger.core.apply import apply_event
from mtg_ledger.core.rules import check, pending_decision
from mtg_ledger.core.schema import class_versions, upgrade_log
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game
from mtg_ledger.core.topics import STORED, stored_as
from mtg_ledger.replays.logs import get_logger
from mtg_ledger.replays.recorded import RecordedFormMapper, in_recorded_form, read_recorded
from mtg_ledger.replays.stores import construct_factory
from mtg_ledger.replays.transcoder import MsgpackTranscoder


class GameNotFound(LookupError):
    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id} in this store")


class GameExists(ValueError):
    def __init__(self, game_id: object) -> None:
        super().__init__(f"game {game_id} is already in this store (import it under a new id with --new-id)")


class NotADecisionPoint(ValueError):
    """A branch must start where a player is being asked for a decision."""


class WriteConflict(RuntimeError):
    """A write that stated the version it expected found another (or lost the race to store the game's
    next version to another writer): nothing of it was stored."""

    def __init__(self, game_id: object, expected: int | None, found: int | None) -> None:
        if expected is None:
            what = f"another decision was stored in game {game_id} first"
        else:
            what = f"game {game_id} is at version {found}, not the expected {expected}"
        super().__init__(f"{what}: nothing was stored; read the game again and decide anew")
        self.expected = expected
        self.found = found


SNAPSHOT_INTERVAL_ENV = "MTG_LEDGER_SNAPSHOT_INTERVAL"
SNAPSHOT_INTERVAL = 1000  # events between snapshots: chosen from `make bench` (see README)
LINEAGE = UUID("6f1d0c52-8d0b-4c39-9c2e-3b5f4b7e1a10")


@stored_as("Lineage", "replays.app:Lineage")
class Lineage(Aggregate):
    """Where a branched game came from (its log is the first ``at_version`` events of ``branched_from``)."""

    @recorded_as("Branched")
    def __init__(self, game: str, branched_from: str, at_version: int) -> None:
        self.game = game
        self.branched_from = branched_from
        self.at_version = at_version

    @staticmethod
    def create_id(game: str, branched_from: str, at_version: int) -> UUID:
        return uuid5(LINEAGE, game)


stored_as("Branched", "replays.app:Lineage.Branched")(Lineage.Branched)  # type: ignore[attr-defined]  # made by @recorded_as


class Ledger(Application[UUID]):
    """Stores every game as one stream of contract events, with snapshots for time travel."""

    name = "mtgledger"
    is_snapshotting_enabled = True

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self._live: dict[UUID, Game] = {}  # games this process is playing, as last saved
        self.logger = get_logger().bind(store=type(self.recorder).__name__)
        self.snapshot_interval = int(self.env.get(SNAPSHOT_INTERVAL_ENV) or SNAPSHOT_INTERVAL)

    def construct_factory(self, env: Environment) -> InfrastructureFactory[Any]:
        return construct_factory(env)  # on PostgreSQL, the streams recorder (replays.stores)

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()

    def construct_mapper(self) -> Mapper[UUID]:
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=RecordedFormMapper)

    # --- commands -------------------------------------------------------------------------

    def start(self, setup: dict[str, Any], game_id: UUID | None = None) -> UUID:
        """Start a game from a setup (scenario players, format, seed, shuffle); runs to the first decision."""
        began = time.perf_counter()
        game = Game.start(setup, game_id or uuid4())
        count = len(game.pending_events)
        self._save(game, 0)
        self._live[game.id] = game
        self._log("game started", game, count, began)
        return game.id

    def decide(self, game_id: UUID, command: Command) -> int:
        """Check and apply one decision; everything it causes is saved in one transaction.

        An illegal decision raises its ``IllegalAction`` and stores nothing (733.1). Returns the
        number of events recorded.
        """
        began = time.perf_counter()
        game = self._game(game_id)
        plan = check(game.state, command)  # a refusal raises here, before anything is triggered
        before = game.version
        try:
            apply_decision(game, command, plan)
            count = len(game.pending_events)
            self._save(game, before)
        except BaseException:
            # An in-memory game is never trusted after a failure: the next decision reloads it
            # from the store, which holds only what was saved.
            self._live.pop(game_id, None)
            raise
        self._log("decision", game, count, began, command=type(command).__name__, player=command.player)
        return count

    def _save(self, game: Game, before: int, *also: Aggregate) -> None:
        """Save the new events (and ``also``'s, in the same transaction); take a snapshot when they
        cross a multiple of the interval."""
        self.save(game, *also)
        if self.snapshots is not None and game.version // self.snapshot_interval > before // self.snapshot_interval:
            self.snapshots.put([Game.Snapshot.take(game)])

    def _log(self, what: str, game: Game, count: int, began: float, **extra: Any) -> None:
        self.logger.info(
            what,
            game=str(game.id),
            version=game.version,
            events=count,
            duration_ms=round((time.perf_counter() - began) * 1000, 3),
            **extra,
        )

    # --- writes from several clients at once (the HTTP service) -----------------------------

    def start_with(self, setup: dict[str, Any], game_id: UUID, also: list[Aggregate]) -> Game:
        """``start``, saving ``also`` (the game's access tokens) in the same transaction."""
        game = Game.start(setup, game_id)
        self._save(game, 0, *also)
        return game

    def fresh(self, game_id: UUID) -> Game:
        """The game as stored now: this process's copy, brought up to date with whatever another
        process stored since (one query), or loaded. Callers serialise the writes to one game."""
        game = self._live.get(game_id)
        if game is None:
            game = self.game(game_id)
        else:
            newer = self.events.get(game_id, gt=game.version)
            game = project_game(game, newer) or game
        self._live[game_id] = game
        return game

    def decide_at(
        self,
        game_id: UUID,
        command: Command,
        expected_version: int | None = None,
        records: Callable[[Game, list[dict[str, Any]]], list[Aggregate]] | None = None,
    ) -> tuple[Game, list[dict[str, Any]]]:
        """``decide`` for racing writers: checked against the stored version, not a cached one.

        ``expected_version`` other than the game's version raises ``WriteConflict`` (nothing stored);
        so does losing the race to another process (the store's unique version decides). ``records``
        gives aggregates to save in the same transaction as the decision's events (an idempotency
        record), from the game and the new event maps. Returns the game and the new event maps.
        """
        began = time.perf_counter()
        game = self.fresh(game_id)
        if expected_version is not None and expected_version != game.version:
            raise WriteConflict(game_id, expected_version, game.version)
        plan = check(game.state, command)
        before = game.version
        try:
            apply_decision(game, command, plan)
            new = [e.to_map() for e in game.pending_events if isinstance(e, ev.GameEvent)]
            self._save(game, before, *(records(game, new) if records else ()))
        except IntegrityError:
            self._live.pop(game_id, None)
            raise WriteConflict(game_id, expected_version, None) from None
        except BaseException:
            self._live.pop(game_id, None)
            raise
        self._log("decision", game, len(new), began, command=type(command).__name__, player=command.player)
        return game, new

    # --- queries --------------------------------------------------------------------------

    def _game(self, game_id: UUID) -> Game:
        game = self._live.get(game_id)
        if game is None:
            game = self.game(game_id)
            self._live[game_id] = game
        return game

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game as it stood after event ``version`` (default: now)."""
        try:
            game = self.repository.get(game_id, version=version, projector_func=project_game)
        except AggregateNotFoundError:
            raise GameNotFound(game_id) from None
        assert isinstance(game, Game)
        return game

    def state_now(self, game_id: UUID) -> GameState:
        """The current state of a game this process plays (read-only: do not mutate)."""
        return self._game(game_id).state

    def state(self, game_id: UUID, version: int | None = None) -> GameState:
        return self.game(game_id, version).state

    def event_maps(self, game_id: UUID, first: int | None = None, last: int | None = None) -> Iterator[dict[str, Any]]:
        """The contract maps of the game's events, versions ``first`` to ``last`` inclusive."""
        gt = None if first is None else first - 1
        found = False
        for event in self.events.get(game_id, gt=gt, lte=last):
            found = True
            assert isinstance(event, ev.GameEvent)
            yield event.to_map()
        if not found and first is None and last is None:
            raise GameNotFound(game_id)

    def recorded_log(self, game_id: UUID, last: int | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """The game's event maps as recorded (before any upcasting), and the class versions they
        were recorded in: what audit, replay, export and branch work on."""
        maps, versions = read_recorded(self.mapper, self.recorder, game_id, last)
        if not maps:
            raise GameNotFound(game_id)
        return maps, versions

    def at(self, game_id: UUID, version: int) -> GameState:
        """Time travel: the state right after event ``version``, from the nearest snapshot (CONTRACT section 1, ``--at``)."""
        return self.state(game_id, version)

    # --- logs in and out --------------------------------------------------------------------

    def import_events(
        self,
        events: list[dict[str, Any]],
        game_id: UUID,
        progress: Callable[[int], None] | None = None,
        versions: dict[str, int] | None = None,
    ) -> UUID:
        """Store checked contract maps as a game, all in one transaction (never half an import).

        ``versions``: the class versions the maps were recorded in (a log file's ``event_versions``);
        None: this engine's. An event recorded in an older form is stored in that form, under its
        class version, so that its hash keeps covering what is stored; reading it upcasts it.
        """
        if self._exists(game_id):
            raise GameExists(game_id)
        current = events if versions is None else upgrade_log(events, versions)  # SchemaError: nothing stored
        engine_versions = class_versions()
        now = ev.GameEvent.create_timestamp()
        domain, stored = [], []
        for recorded, e in zip(events, current, strict=True):
            cls = ev.EVENT_TYPES[e["type"]]
            fields = {k: v for k, v in e.items() if k not in ("v", "type", "hash")}
            extra = {"originator_topic": get_topic(Game)} if cls is ev.GameStarted else {}
            # every GameEvent has a hash field (a dataclass field mypy can't see: the library's metaclass makes it)
            domain.append(cls(originator_id=game_id, originator_version=e["v"], timestamp=now, hash=e["hash"], **fields, **extra))  # type: ignore[call-arg]
            version = engine_versions[e["type"]] if versions is None else versions.get(e["type"], 1)
            if version != engine_versions[e["type"]]:
                stored.append(in_recorded_form(cls, game_id, recorded, version, timestamp=now, **extra))
            else:
                stored.append(domain[-1])
        self.events.put(stored)
        if self.snapshots is not None:  # an optimisation for time travel, after the import itself
            game: Any = None
            for i, domain_event in enumerate(domain, start=1):
                game = domain_event.mutate(game)
                if progress is not None and i % 1000 == 0:
                    progress(i)
                if i % self.snapshot_interval == 0:
                    self.snapshots.put([Game.Snapshot.take(game)])
        return game_id

    def branch(self, game_id: UUID, at: int) -> UUID:
        """A new game whose log is the first ``at`` events of ``game_id``; its lineage is recorded."""
        recorded, versions = self.recorded_log(game_id, last=at) if at >= 1 else ([], {})
        events = upgrade_log(recorded, versions)
        if len(events) != at or at < 1:
            raise NotADecisionPoint(f"--at {at}: game {game_id} has events 1 to {self.game(game_id).version}")
        state = self.at(game_id, at)
        if pending_decision(state) is None and not state.ended:
            earlier = last_decision_point(events)
            hint = f"branch at {earlier}, the last decision point before it" if earlier else "no decision was asked for yet"
            raise NotADecisionPoint(f"--at {at}: after event {at} the engine is still at work (nobody is asked for a decision); {hint}")
        new_id = uuid4()
        self.import_events(recorded, new_id, versions=versions)
        self.save(Lineage(game=str(new_id), branched_from=str(game_id), at_version=at))
        return new_id

    def lineage(self, game_id: UUID) -> dict[str, Any] | None:
        try:
            record: Lineage = self.repository.get(uuid5(LINEAGE, str(game_id)))
        except AggregateNotFoundError:
            return None
        return {"branched_from": record.branched_from, "at_version": record.at_version}

    def _exists(self, game_id: UUID) -> bool:
        return bool(self.recorder.select_events(game_id, limit=1))

    def game_ids(self) -> list[UUID]:
        """Every game in the store, in the order they started."""
        ids: list[UUID] = []
        start = 1
        while True:
            batch = self.recorder.select_notifications(start=start, limit=1000, topics=_STARTED_TOPICS)
            if not batch:
                return ids
            ids.extend(n.originator_id for n in batch)  # type: ignore[misc]
            start = batch[-1].id + 1


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """The library's projector without its per-event runtime Protocol check (60% of a rebuild)."""
    for event in events:
        game = event.mutate(game)
    return game


_STARTED_TOPICS = [name for name, cls in STORED.items() if cls is ev.GameStarted]  # today's name and its aliases


def last_decision_point(events: list[dict[str, Any]]) -> int:
    """The last version in ``events`` after which a player is asked for a decision (0: none)."""
    state = GameState()
    found = 0
    for e in events:
        apply_event(state, e)
        if pending_decision(state) is not None:
            found = e["v"]
    return found
