"""Materialised views of the ledger: tracking recorders that hold the read-model tables.

Each recorder is one of the library's tracking recorders, so a batch of folded events and the
tracking record of the last notification in it are written in one database transaction: the
views never run ahead of, or behind, their recorded position.

Tables (all keyed by ``game_id``, the game's aggregate id as text)::

    mtgl_game_views     game_id PK, version, state (JSON of views.GameView: what the fold carries)
    mtgl_phase_step     game_id PK, version, turn, phase, step, active_player, priority
    mtgl_stack          (game_id, position) PK, object, card, controller     -- position 0 is the bottom
    mtgl_hand_sizes     (game_id, player) PK, seat, hand_size, max_hand_size (NULL: no maximum),
                        cards_to_discard
    mtgl_cleanup_players (game_id, version, player) PK, turn, player, hand_size, max_hand_size, required,
                        discarded (JSON list of card names)
    mtgl_views_tracking application_name PK, notification_id                -- the library's layout

The tracking table is the views' own (not the library's shared ``tracking`` table), so another
projection of the same application in the same database cannot collide with it.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder, SQLiteTrackingRecorder

from mtg_ledger.projections.folds import fold_many
from mtg_ledger.projections.views import (
    Cleanup,
    GameView,
    Row,
    cleanup_row,
    hand_size_rows,
    phase_step_row,
    stack_rows,
)

TRACKING_TABLE = "mtgl_views_tracking"
TABLES: dict[str, str] = {
    "views": "mtgl_game_views",
    "phase_step": "mtgl_phase_step",
    "stack": "mtgl_stack",
    "hand_sizes": "mtgl_hand_sizes",
    "cleanups": "mtgl_cleanup_players",  # one row per player and cleanup step (VIEW_SCHEMA 3)
}
GameEvents = Sequence[tuple[str, Mapping[str, Any]]]


class ProjectionConflict(IntegrityError):
    """The recorded position is not the one this batch was read after: someone else caught up first."""


class LedgerViews(TrackingRecorder, ABC):
    """The phase/step, stack and hand-size read models of every game in one application."""

    @abstractmethod
    def project(self, events: GameEvents, tracking: Tracking, *, after: int | None) -> None:
        """Fold ``(game_id, event map)`` pairs and record ``tracking``, all or nothing.

        ``after`` is the position the events were read after (``max_tracking_id`` then); if the
        recorded position is no longer that, nothing is written and ProjectionConflict is raised.
        """

    @abstractmethod
    def phase_step(self, game_id: object) -> Row | None: ...

    @abstractmethod
    def stack(self, game_id: object) -> list[Row]: ...

    @abstractmethod
    def hand_sizes(self, game_id: object) -> list[Row]: ...

    @abstractmethod
    def cleanups(self, game_id: object) -> list[Row]: ...


def _conflict(tracking: Tracking, after: int | None, found: int | None) -> ProjectionConflict:
    return ProjectionConflict(
        f"views of {tracking.application_name!r} are at {found}, not {after}: "
        f"cannot record notification {tracking.notification_id}"
    )


def _latest_cleanups(changed: list[tuple[str, Cleanup]]) -> list[tuple[str, Cleanup]]:
    latest: dict[tuple[str, int, str], Cleanup] = {}
    for game_id, c in changed:
        latest[(game_id, c.version, c.player)] = c
    return [(game_id, c) for (game_id, _, _), c in latest.items()]


# --- in memory ---------------------------------------------------------------------------


class POPOLedgerViews(POPOTrackingRecorder, LedgerViews):
    """In-memory views, for unit tests and the POPO store."""

    def __init__(self) -> None:
        super().__init__()
        self._games: dict[str, dict[str, Any]] = {}
        self._cleanups: dict[str, dict[tuple[int, str], Row]] = {}

    def project(self, events: GameEvents, tracking: Tracking, *, after: int | None) -> None:
        with self._database_lock:
            found = self._max_tracking_ids[tracking.application_name]
            if found != after or (after is not None and tracking.notification_id <= after):
                raise _conflict(tracking, after, found)
            views, changed = fold_many(events, self._load)
            # Everything is computed before anything is stored: a failure above leaves no trace.
            for game_id, view in views.items():
                self._games[game_id] = view.to_dict()
            for game_id, c in _latest_cleanups(changed):
                self._cleanups.setdefault(game_id, {})[(c.version, c.player)] = cleanup_row(game_id, c)
            self._insert_tracking(tracking)

    def _load(self, game_id: str) -> GameView | None:
        data = self._games.get(game_id)
        return None if data is None else GameView.stored(data)

    def _view(self, game_id: object) -> GameView | None:
        with self._database_lock:
            return self._load(str(game_id))

    def phase_step(self, game_id: object) -> Row | None:
        view = self._view(game_id)
        return None if view is None else phase_step_row(view)

    def stack(self, game_id: object) -> list[Row]:
        view = self._view(game_id)
        return [] if view is None else stack_rows(view)

    def hand_sizes(self, game_id: object) -> list[Row]:
        view = self._view(game_id)
        return [] if view is None else hand_size_rows(view)

    def cleanups(self, game_id: object) -> list[Row]:
        with self._database_lock:
            rows = self._cleanups.get(str(game_id), {})
            return [dict(rows[k], discarded=list(rows[k]["discarded"])) for k in sorted(rows)]


# --- SQL (SQLite and PostgreSQL) ----------------------------------------------------------

CREATE_TABLES = [
    "CREATE TABLE IF NOT EXISTS {views} ("
    "game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, state TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {phase_step} ("
    "game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, turn INTEGER NOT NULL, "
    "phase TEXT, step TEXT, active_player TEXT, priority TEXT)",
    "CREATE TABLE IF NOT EXISTS {stack} ("
    "game_id TEXT NOT NULL, position INTEGER NOT NULL, object INTEGER NOT NULL, "
    "card TEXT NOT NULL, controller TEXT NOT NULL, PRIMARY KEY (game_id, position))",
    "CREATE TABLE IF NOT EXISTS {hand_sizes} ("
    "game_id TEXT NOT NULL, player TEXT NOT NULL, seat INTEGER NOT NULL, hand_size INTEGER NOT NULL, "
    "max_hand_size INTEGER, cards_to_discard INTEGER NOT NULL, PRIMARY KEY (game_id, player))",
    "CREATE TABLE IF NOT EXISTS {cleanups} ("
    "game_id TEXT NOT NULL, version INTEGER NOT NULL, turn INTEGER NOT NULL, player TEXT NOT NULL, "
    "hand_size INTEGER NOT NULL, max_hand_size INTEGER, required INTEGER NOT NULL, "
    "discarded TEXT NOT NULL, PRIMARY KEY (game_id, version, player))",
]

STATEMENTS = {
    "start_tracking": "INSERT INTO {tracking} (application_name, notification_id) "
    "VALUES (:application_name, :notification_id) "
    "ON CONFLICT (application_name) DO NOTHING RETURNING notification_id",
    "advance_tracking": "UPDATE {tracking} SET notification_id = :notification_id "
    "WHERE application_name = :application_name AND notification_id = :after "
    "RETURNING notification_id",
    "select_position": "SELECT notification_id FROM {tracking} WHERE application_name = :application_name",
    "select_view": "SELECT state FROM {views} WHERE game_id = :game_id",
    "upsert_view": "INSERT INTO {views} (game_id, version, state) VALUES (:game_id, :version, :state) "
    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state",
    "upsert_phase_step": "INSERT INTO {phase_step} (game_id, version, turn, phase, step, active_player, priority) "
    "VALUES (:game_id, :version, :turn, :phase, :step, :active_player, :priority) "
    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, turn = excluded.turn, "
    "phase = excluded.phase, step = excluded.step, active_player = excluded.active_player, "
    "priority = excluded.priority",
    "delete_stack": "DELETE FROM {stack} WHERE game_id = :game_id",
    "insert_stack": "INSERT INTO {stack} (game_id, position, object, card, controller) "
    "VALUES (:game_id, :position, :object, :card, :controller)",
    "delete_hand_sizes": "DELETE FROM {hand_sizes} WHERE game_id = :game_id",
    "insert_hand_sizes": "INSERT INTO {hand_sizes} "
    "(game_id, player, seat, hand_size, max_hand_size, cards_to_discard) "
    "VALUES (:game_id, :player, :seat, :hand_size, :max_hand_size, :cards_to_discard)",
    "upsert_cleanup": "INSERT INTO {cleanups} "
    "(game_id, version, turn, player, hand_size, max_hand_size, required, discarded) "
    "VALUES (:game_id, :version, :turn, :player, :hand_size, :max_hand_size, :required, :discarded) "
    "ON CONFLICT (game_id, version, player) DO UPDATE SET turn = excluded.turn, "
    "hand_size = excluded.hand_size, max_hand_size = excluded.max_hand_size, "
    "required = excluded.required, discarded = excluded.discarded",
    "select_phase_step": "SELECT game_id, turn, phase, step, active_player, priority, version "
    "FROM {phase_step} WHERE game_id = :game_id",
    "select_stack": "SELECT game_id, position, object, card, controller "
    "FROM {stack} WHERE game_id = :game_id ORDER BY position",
    "select_hand_sizes": "SELECT game_id, seat, player, hand_size, max_hand_size, cards_to_discard "
    "FROM {hand_sizes} WHERE game_id = :game_id ORDER BY seat",
    "select_cleanups": "SELECT game_id, version, turn, player, hand_size, max_hand_size, required, discarded "
    "FROM {cleanups} WHERE game_id = :game_id ORDER BY version, player",
}


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class SQLViews(LedgerViews):
    """Folding and table I/O shared by both databases; ``_sql`` holds the dialect's statements."""

    datastore: Any  # SQLiteDatastore or PostgresDatastore: both have transaction(commit=...)
    _sql: dict[str, Any]

    def project(self, events: GameEvents, tracking: Tracking, *, after: int | None) -> None:
        with self.datastore.transaction(commit=True) as c:
            # The tracking row is written first: it takes the write lock before any view is read,
            # and it is a compare-and-set, so a concurrent catch-up cannot fold the same events twice.
            self._advance_tracking(c, tracking, after)
            views, changed = fold_many(events, lambda game_id: self._load(c, game_id))
            for view in views.values():
                self._write(c, view)
            for game_id, cleanup in _latest_cleanups(changed):
                row = cleanup_row(game_id, cleanup)
                c.execute(self._sql["upsert_cleanup"], {**row, "discarded": _dumps(row["discarded"])})

    def _advance_tracking(self, c: Any, tracking: Tracking, after: int | None) -> None:
        params = {
            "application_name": tracking.application_name,
            "notification_id": tracking.notification_id,
            "after": after,
        }
        if after is not None and tracking.notification_id <= after:
            raise _conflict(tracking, after, after)
        c.execute(self._sql["start_tracking" if after is None else "advance_tracking"], params)
        if c.fetchone() is None:
            c.execute(self._sql["select_position"], params)
            found = c.fetchone()
            raise _conflict(tracking, after, None if found is None else found["notification_id"])

    def _load(self, c: Any, game_id: str) -> GameView | None:
        c.execute(self._sql["select_view"], {"game_id": game_id})
        row = c.fetchone()
        return None if row is None else GameView.stored(json.loads(row["state"]))

    def _write(self, c: Any, view: GameView) -> None:
        key = {"game_id": view.game_id}
        c.execute(self._sql["upsert_view"], {**key, "version": view.version, "state": _dumps(view.to_dict())})
        c.execute(self._sql["upsert_phase_step"], phase_step_row(view))
        c.execute(self._sql["delete_stack"], key)
        c.executemany(self._sql["insert_stack"], stack_rows(view))
        c.execute(self._sql["delete_hand_sizes"], key)
        c.executemany(self._sql["insert_hand_sizes"], hand_size_rows(view))

    def _select(self, name: str, game_id: object) -> list[Row]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._sql[name], {"game_id": str(game_id)})
            return [dict(row) for row in c.fetchall()]

    def phase_step(self, game_id: object) -> Row | None:
        rows = self._select("select_phase_step", game_id)
        return rows[0] if rows else None

    def stack(self, game_id: object) -> list[Row]:
        return self._select("select_stack", game_id)

    def hand_sizes(self, game_id: object) -> list[Row]:
        return self._select("select_hand_sizes", game_id)

    def cleanups(self, game_id: object) -> list[Row]:
        return [{**r, "discarded": json.loads(r["discarded"])} for r in self._select("select_cleanups", game_id)]


def compile_statements(templates: Mapping[str, str], render: Callable[[str], Any]) -> dict[str, Any]:
    return {name: render(template) for name, template in templates.items()}


class SQLiteLedgerViews(SQLViews, SQLiteTrackingRecorder):
    """The views in the application's SQLite database (same file, same connection pool)."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        names = {**TABLES, "tracking": TRACKING_TABLE}
        self._sql = compile_statements(STATEMENTS, lambda t: t.format(**names))
        # The library's own tracking statements, pointed at this view's tracking table.
        self.insert_tracking_statement = (
            f"INSERT INTO {TRACKING_TABLE} VALUES (:application_name, :notification_id) "
            "ON CONFLICT (application_name) DO UPDATE SET notification_id = :notification_id "
            f"WHERE {TRACKING_TABLE}.notification_id < :notification_id RETURNING notification_id"
        )
        self.select_max_tracking_id_statement = (
            f"SELECT MAX(notification_id) FROM {TRACKING_TABLE} WHERE application_name=?"
        )

    def construct_create_table_statements(self) -> list[str]:
        # Called by the base __init__; skips SQLiteTrackingRecorder's shared "tracking" table.
        statements = SQLiteRecorder.construct_create_table_statements(self)
        statements.append(
            f"CREATE TABLE IF NOT EXISTS {TRACKING_TABLE} (application_name TEXT, notification_id INTEGER, "
            "PRIMARY KEY (application_name)) WITHOUT ROWID"
        )
        statements.extend(t.format(**TABLES) for t in CREATE_TABLES)
        return statements

