"""The application service: load a game, take one decision, save it, in one transaction.

What it raises is in ``replays.ledger_errors``; its imports, branches and lineage in ``replays.ledger_logs``
(both re-exported here).

``Ledger`` is an ``eventsourcing`` Application over the library's persistence (POPO, SQLite,
PostgreSQL, chosen by the library's environment variables), with our msgpack transcoder.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from functools import cached_property
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import EventStore, InfrastructureFactory, IntegrityError, Mapper, PersistenceError, Recording, Transcoder
from eventsourcing.utils import Environment, EnvType

from mtg_ledger.core import events as ev
from mtg_ledger.core.when_used import complete_all
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game
from mtg_ledger.replays.stores import bulk as storage
from mtg_ledger.replays.stores import verify
from mtg_ledger.replays.ledger.collecting import stored
from mtg_ledger.replays.ledger.live import LIVE_GAMES, LIVE_GAMES_ENV, LiveGames
from mtg_ledger.replays.ledger.errors import GameExists, GameNotFound, NotADecisionPoint, StreamNotEmpty, VersionConflict, WriteConflict
from mtg_ledger.replays.ledger.logs import get_logger
from mtg_ledger.replays.ledger.queries import Queries
from mtg_ledger.replays.stores.recorded import SchemaMapper
from mtg_ledger.replays.stores import construct_factory
from mtg_ledger.replays.stores.transcoder import MsgpackTranscoder

# What only a writer, an import or an export needs is imported where it is used, so that a reader
# (`mtg-ledger state`) loads the checked read and the appliers, not the decision machinery (the
# engine, the rules' checks), the snapshot writer or the log files (``imports``, re-exported below).
if TYPE_CHECKING:  # for the type checker alone: the ledger reads logs, the audit (which loads the scenario's models) checks them
    from structlog.typing import FilteringBoundLogger

    from mtg_ledger.core.commands import Command
    from mtg_ledger.replays.audit.replay_window import Rereadable
    from mtg_ledger.replays.ledger.imports import LINEAGE, Lineage, LogRefused, last_decision_point
    from mtg_ledger.replays.ledger.snapshotting import Snapshots

_FROM_IMPORTS = ("LINEAGE", "Lineage", "LogRefused", "last_decision_point")  # re-exported from ``imports``, loaded when first asked for


def __getattr__(name: str) -> Any:
    if name in _FROM_IMPORTS:
        from mtg_ledger.replays.ledger import imports

        return getattr(imports, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


INFO = 20  # the standard library's logging.INFO, which structlog's levels are
SNAPSHOT_INTERVAL_ENV = "MTG_LEDGER_SNAPSHOT_INTERVAL"
SNAPSHOT_INTERVAL = 250  # events between snapshots (keyframes and deltas): chosen from `make bench` (see README)


class Ledger(Queries, Application[UUID]):
    """Stores every game as one stream of contract events, with snapshots for time travel.

    Every read checks what it reads (``replays.verify``); a reader (``writes=False``) never creates or
    alters the store's schema (``replays.storage``).
    """

    name = "mtgledger"
    is_snapshotting_enabled = True

    def __init__(self, env: dict[str, str] | None = None, *, writes: bool = True) -> None:
        self.writes = writes
        if writes:
            # A writer makes events and compiles cards: their classes are made dataclasses now (core.when_used),
            # before its first decision, or a thread of the service, meets one. A reader folds the rows' maps
            # and compiles only the kinds its game's cards are written in.
            from mtg_ledger.core import vocabulary  # noqa: F401  # declares the card vocabulary's kinds

            complete_all()
        super().__init__(env)
        self._live: LiveGames[Game] = LiveGames(int(self.env.get(LIVE_GAMES_ENV) or LIVE_GAMES))  # games this process plays
        self._saved: LiveGames[int] = LiveGames(self._live.size)  # the version of each this process last saved
        self.snapshot_interval = int(self.env.get(SNAPSHOT_INTERVAL_ENV) or SNAPSHOT_INTERVAL)

    @cached_property
    def _snapshots(self) -> Snapshots:
        """When this process snapshots its games (a writer's; loaded when first used)."""
        from mtg_ledger.replays.ledger.snapshotting import Snapshots

        return Snapshots(self.snapshot_interval)

    @cached_property
    def _rules(self) -> tuple[Callable[[GameState, Command], Any], Callable[[Game, Command, Any], None]]:
        """The rules' check and the engine's apply of a checked decision, loaded when first used (a reader
        never loads the decision machinery) and then at hand, not imported again at every decision."""
        from mtg_ledger.core.engine import apply_decision
        from mtg_ledger.core.rules import check

        return check, apply_decision

    @cached_property
    def logger(self) -> FilteringBoundLogger:
        """Bound when first used: a ledger that only reads never loads the logging library."""
        return get_logger().bind(store=type(self.recorder).__name__)

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        environment = super().construct_env(name, env)
        if not self.writes:
            storage.forbid_ddl(environment)
        return environment

    def construct_factory(self, env: Environment) -> InfrastructureFactory[Any]:
        return construct_factory(env)  # on PostgreSQL, the streams recorder (replays.stores)

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()

    def construct_mapper(self) -> Mapper[UUID]:
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=SchemaMapper)

    def construct_recorder(self) -> Any:
        return self._created(super().construct_recorder)

    def construct_snapshot_store(self) -> EventStore[UUID]:
        store: EventStore[UUID] = self._created(super().construct_snapshot_store)
        return store

    def _created(self, construct: Callable[[], Any]) -> Any:
        """The library constructs, the ledger creates what is missing (writers only, one at a time)."""
        wanted = getattr(self.factory, "env_create_table", None)  # in memory (POPO) there is nothing to create
        create = wanted() if wanted is not None else False
        with storage.without_ddl(self.env):  # type: ignore[arg-type]  # the application keeps an Environment
            made = construct()
        if create:
            storage.create_schema(made.recorder if isinstance(made, EventStore) else made)
        return made

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """The library's ``save``, collecting the aggregates' events without its protocol checks (``Collected``)."""
        return stored(self, objs, kwargs, recordings=True)

    # --- commands -------------------------------------------------------------------------

    def start(self, setup: dict[str, Any], game_id: UUID | None = None, also: Sequence[Aggregate] = ()) -> UUID:
        """Start a game from a setup (scenario players, format, seed, shuffle); runs to the first decision.
        ``also``'s events (the game's access tokens) are saved in the same transaction. The game records
        the definitions of its cards from the card pool as it is now (``replays.cards.pin``)."""
        from mtg_ledger.replays.cards import pin

        began = time.perf_counter()
        game = Game.start(pin(setup), game_id or uuid4())
        count = len(game.pending_events)
        try:
            self._save(game, *also)
        except IntegrityError:
            if self.exists(game.id):
                raise GameExists(game.id) from None
            raise
        self._live[game.id] = game
        self._saved[game.id] = game.version
        self._log("game started", game, count, began)
        return game.id

    def decide(
        self,
        game_id: UUID,
        command: Command,
        expected_version: int | None = None,
        also: Callable[[Game, list[dict[str, Any]]], list[Aggregate]] | None = None,
        stored: int | None = None,
        absent: Sequence[UUID] = (),
    ) -> list[dict[str, Any]]:
        """Check and apply one decision; everything it causes is saved in one transaction. Returns the
        new events' maps.

        An illegal decision raises its ``IllegalAction`` and stores nothing (733.1). The decision is
        checked against the game as stored: ``expected_version`` other than its version raises
        ``WriteConflict``, and so does losing the race to another writer (the store's unique version
        decides: ``VersionConflict``); nothing is stored either way. ``also`` gives aggregates to save in
        the same transaction as the decision's events (an idempotency record), from the game and the new
        event maps. ``stored``: the game's last stored version as the caller has just read it (``versions``,
        in the same breath as what else it reads), so that it is not read again. ``absent``: streams (a
        player's key...) that must hold nothing when the decision is stored, else ``StreamNotEmpty`` and
        nothing stored: checked in the save's transaction where the store can (``decides_unread``), else read first.

        Where the store checks that a save follows its game's last stored event, under its write lock
        (``checks_predecessor``: the compact SQLite tables), a game this process holds as it last saved
        it is decided on with no read before: if the store has moved on (another writer, a restored backup),
        the save fails on that check, nothing is stored, and the decision is taken again on the game as
        stored, as though it had come a moment later. So is a decision refused on that copy while the
        store holds more: nothing is answered from a game the store has moved past.
        """
        if absent and not self.decides_unread and any(self.versions(*absent).values()):
            raise StreamNotEmpty(f"one of {', '.join(map(str, absent))} holds events")
        live = self._live.get(game_id) if stored is None and getattr(self.recorder, "checks_predecessor", False) else None
        if live is not None and self._saved.get(game_id) == live.version:
            held = live.version
            try:
                return self._decide(live, command, expected_version, also, absent)
            except StreamNotEmpty:
                raise
            except Exception:  # a refusal, a conflict...: final only if the store holds the game as held
                stored = self.last_version(game_id)
                if stored == held:
                    raise
        return self._decide(self.current(game_id, stored), command, expected_version, also, absent)

    @property
    def decides_unread(self) -> bool:
        """Whether the store checks in a decision's save both that it follows the game's last stored event
        and that its ``absent`` streams hold nothing: a decision then needs nothing read before it."""
        return bool(getattr(self.recorder, "checks_predecessor", False) and getattr(self.recorder, "checks_absent", False))

    def _decide(
        self, game: Game, command: Command, expected_version: int | None,
        also: Callable[[Game, list[dict[str, Any]]], list[Aggregate]] | None, absent: Sequence[UUID] = (),
    ) -> list[dict[str, Any]]:
        check, apply_decision = self._rules
        began = time.perf_counter()
        if expected_version is not None and expected_version != game.version:
            raise WriteConflict(game.id, expected_version, game.version)
        plan = check(game.state, command)  # a refusal raises here, before anything is triggered
        before = game.version
        try:
            apply_decision(game, command, plan)
            new = [e.to_map() for e in game.pending_events if isinstance(e, ev.GameEvent)]
            self._save(game, *(also(game, new) if also else ()), maps=new, absent=absent if self.decides_unread else ())
        except BaseException as e:
            # An in-memory game is never trusted after a failure: the next decision reloads it
            # from the store, which holds only what was saved.
            self._live.pop(game.id, None)
            if isinstance(e, IntegrityError) and not isinstance(e, StreamNotEmpty):
                raise VersionConflict(game.id, before + 1) from None
            raise
        self._saved[game.id] = game.version
        self._log("decision", game, len(new), began, command=type(command).__name__, player=command.player)
        return new

    def _save(self, game: Game, *also: Aggregate, maps: list[dict[str, Any]] | None = None, absent: Sequence[UUID] = ()) -> None:
        """Save the new events (and ``also``'s, in the same transaction), and snapshot the state right
        before each turn they begin, when due (``replays.ledger.snapshotting``): in the same transaction
        where the store takes snapshots so, else after it. ``maps``: the new events' maps, when the caller
        has made them; ``absent``: streams the store checks hold nothing (``decides_unread`` stores only)."""
        checked = {"absent": absent} if absent else {}
        if self.snapshots is None:
            stored(self, (game, *also), checked, recordings=False)
            return
        if maps is None:
            maps = [e.to_map() for e in game.pending_events if isinstance(e, ev.GameEvent)]
        taken = self._snapshots.before(self, game, maps, early=getattr(self.recorder, "saves_snapshots", False))
        try:
            stored(self, (game, *also), {**checked, "snapshots": taken} if taken else checked, recordings=False)  # in the save's transaction
        except BaseException:
            self._snapshots.forget(game.id)
            raise
        self._snapshots.after(self, game, maps, taken)

    def _log(self, what: str, game: Game, count: int, began: float, **extra: Any) -> None:
        """An ``info`` line, its fields made only when the logger's level lets it through."""
        enabled = getattr(self.logger, "is_enabled_for", None)  # structlog's filtering loggers have it
        if enabled is not None and not enabled(INFO):
            return
        self.logger.info(
            what,
            game=str(game.id),
            version=game.version,
            events=count,
            duration_ms=round((time.perf_counter() - began) * 1000, 3),
            **extra,
        )

    # --- logs in and out: replays.ledger.imports --------------------------------------------

    def import_log(
        self, header: dict[str, Any], events: Rereadable, game_id: UUID | None = None,
        progress: Callable[[int], None] | None = None, also: Sequence[Aggregate] = (),
    ) -> UUID:
        """A log file's events stored as a game, only if it audits clean (``imports.import_log``)."""
        from mtg_ledger.replays.ledger import imports

        return imports.import_log(self, header, events, game_id, progress, also)

    def import_events(
        self, events: list[dict[str, Any]], game_id: UUID, progress: Callable[[int], None] | None = None,
        versions: dict[str, int] | None = None, also: Sequence[Aggregate] = (),
    ) -> UUID:
        """Checked contract maps stored as a game, in one transaction (``imports.import_events``)."""
        from mtg_ledger.replays.ledger import imports

        return imports.import_events(self, events, game_id, progress, versions, also)

    def export_log(self, game_id: UUID, out: BinaryIO) -> dict[str, Any]:
        """The game's log file written to ``out``, checked row by row (``imports.export_log``)."""
        from mtg_ledger.replays.ledger import imports

        return imports.export_log(self, game_id, out)

    def branch(self, game_id: UUID, at: int, new_id: UUID | None = None, also: Sequence[Aggregate] = ()) -> UUID:
        """A new game whose log is the first ``at`` events of ``game_id`` (``imports.branch``)."""
        from mtg_ledger.replays.ledger import imports

        return imports.branch(self, game_id, at, new_id, also)

    def lineage(self, game_id: UUID) -> dict[str, Any] | None:
        """Where a branched game came from, or None."""
        from mtg_ledger.replays.ledger import imports

        return imports.lineage(self, game_id)

    # --- queries: every one checks what it reads ---------------------------------------------

    def current(self, game_id: UUID, stored: int | None = None) -> Game:
        """The game as stored now: this process's own copy while the store holds no more than it saved
        (one query, or ``stored``: the last version the caller has just read), or read, checked (another
        process stored more). Callers serialise the writes to one game; read-only: do not mutate."""
        game = self._live.get(game_id)
        if game is None or (self.last_version(game_id) if stored is None else stored) != game.version:
            game = self._live[game_id] = self.game(game_id)
        return game

    def last_version(self, game_id: UUID) -> int:
        """The version of the last event row the store holds for the game (0: none)."""
        return self.versions(game_id)[game_id]

    def versions(self, *ids: UUID) -> dict[UUID, int]:
        """The version of the last row the store holds of each of these streams (0: none): a game, a
        player's key, an idempotency record... In one statement where the recorder can (``last_versions``:
        the streams recorder, the compact SQLite tables), one each otherwise."""
        with self.reading(ids[0]):
            together = getattr(self.recorder, "last_versions", None)
            if together is not None:
                found: dict[UUID, int] = together(ids)
                return found
            out = {}
            for stream in ids:
                last = self.recorder.select_events(stream, desc=True, limit=1)
                out[stream] = last[0].originator_version if last else 0
            return out

    @contextmanager
    def reading(self, game_id: UUID) -> Iterator[None]:
        try:
            yield
        except PersistenceError as e:
            if verify.missing_table(e):  # a store nobody has written to yet (readers create nothing)
                raise GameNotFound(game_id) from None
            raise

    def _load(self, game_id: UUID, version: int | None) -> Game:
        def rejected(e: verify.SnapshotRejected) -> None:
            self.logger.warning("snapshot rejected, rebuilt from the events", game=str(game_id), version=e.version, reason=e.reason)

        with self.reading(game_id):
            game = verify.load(self, game_id, version, rejected)
        if game is None:
            raise GameNotFound(game_id)
        return game

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game as it stood after event ``version`` (default: now), checked (``replays.verify``)."""
        return self._load(game_id, version)

    def state_now(self, game_id: UUID) -> GameState:
        """The state of a game this process plays, as it last saved it, without asking the store
        (read-only: do not mutate); ``decide`` checks against the store before it builds on it."""
        game = self._live.get(game_id)
        return (game or self.current(game_id)).state

    def state(self, game_id: UUID, version: int | None = None) -> GameState:
        """Time travel: the state right after event ``version`` (default: now), read from the nearest
        snapshot and checked (``--at``)."""
        return self.game(game_id, version).state


__all__ = [
    "GameExists", "GameNotFound", "LINEAGE", "Ledger", "Lineage", "LogRefused", "NotADecisionPoint", "StreamNotEmpty",
    "VersionConflict", "WriteConflict", "last_decision_point",
]
