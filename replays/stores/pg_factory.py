"""Opening a PostgreSQL store: the factory the Ledger is given on PostgreSQL, which chooses the recorders by
what the schema holds (the save rows of ``replays.stores.pg_saves`` for a new store; the streams recorder's
row an event for a store that has its table), creates every table under one advisory lock, and opens
connections of their own for that lock and for LISTEN sessions."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

import psycopg
from eventsourcing import postgres as library
from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, NotSupportedError, OperationalError, ProcessRecorder

from mtg_ledger.replays.stores.errors import StoreSetupError
from mtg_ledger.replays.stores.pg_feed import quoted
from mtg_ledger.replays.stores.pg_saves import SaveSnapshotsRecorder, SavesRecorder
from mtg_ledger.replays.stores.pg_saves_sql import saves_table_name
from mtg_ledger.replays.stores.postgres import SCHEMA_LOCK, StreamsRecorder, connection_kwargs


@contextmanager
def schema_lock(datastore: library.PostgresDatastore) -> Iterator[None]:
    """One process at a time creates or migrates this schema's tables: a session advisory lock on a
    connection of its own (the creating statements use the pool's)."""
    try:
        conn = psycopg.connect(**connection_kwargs(datastore))
    except psycopg.OperationalError as e:  # the server is down or refuses us: the library's word for it
        raise OperationalError(str(e)) from e
    with conn:
        conn.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (SCHEMA_LOCK, datastore.schema))
        yield  # released when the connection closes


R = TypeVar("R")


class LastUsedFirst(library.ConnectionPool):
    """The library's pool, lending the connection returned last (psycopg's lends the one idle longest). A
    process that saves from one thread at a time then writes through one server session: its statements
    stay prepared there, and the table's pages fill one after another. Each session that inserts keeps a
    page of its own to fill (PostgreSQL's target block, known to no other session until it moves on), so
    lent in turn, the sessions left three pages part-empty at the end of the demo game: 16 KiB of its
    168 KiB. The idle longest are still the first closed when the pool shrinks."""

    def _get_ready_connection(self, timeout: float | None) -> Any:
        self._pool.rotate(1)  # under the pool's lock: the last returned (at the right) is lent next
        return super()._get_ready_connection(timeout)


# The ledger's statements are prepared once a session and run with new values: an insert's arrays, a game's
# id. PostgreSQL plans the first five runs of each for their values, then keeps planning anew whenever the
# plan for any values looks costlier than those did, which an insert's (arrays of unknown length) always
# does: planning the save's statement again at every save cost 0.17 ms of the server's 0.25 (EXPLAIN
# ANALYZE, 50 saves of 4 events). Every statement here finds its rows through an index on its values' columns,
# whatever the values: one plan serves them all. Given with the session's other options (PGOPTIONS kept).
GENERIC_PLANS = "-c plan_cache_mode=force_generic_plan"

LAYOUT_ENV = "MTG_LEDGER_PG_LAYOUT"  # "saves" (a new store's, the default) or "events" (a row an event)
LAYOUTS = ("saves", "events")


class Factory(library.PostgresFactory):
    """The library's PostgreSQL factory with our recorders for events and snapshots: save rows
    (``pg_saves``) in a new store or one that holds them, the streams recorder's row an event in a store
    that holds its table (or where MTG_LEDGER_PG_LAYOUT=events asks for it). Every table is created under
    one advisory lock (workers starting together never race), only when CREATE_TABLE allows it (reading
    verbs set CREATE_TABLE=false and run no DDL)."""

    application_recorder_class = StreamsRecorder
    _deferring = False
    _saves: bool | None = None

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._notifying: list[StreamsRecorder] = []  # the recorders whose saves it notifies
        self.layout = (self.env.get(LAYOUT_ENV) or "saves").strip().lower()
        if self.layout not in LAYOUTS:
            raise StoreSetupError(f"{LAYOUT_ENV}={self.layout!r}: expected one of {', '.join(LAYOUTS)}")
        pool = self.datastore.pool
        if type(pool) is library.ConnectionPool:  # the same pool, not yet open: only its lending changes
            pool.__class__ = LastUsedFirst  # type: ignore[assignment]
        if isinstance(pool.kwargs, dict):  # every session plans each prepared statement once (GENERIC_PLANS)
            pool.kwargs["options"] = f"{os.environ.get('PGOPTIONS', '')} {GENERIC_PLANS}".strip()

    def saves(self) -> bool:
        """Whether this store's games are save rows: a store holding the row-an-event table keeps it."""
        if self._saves is None:
            prefix = self.env.name.lower() or "stored"
            schema = self.datastore.schema
            with self.datastore.transaction(commit=False) as curs:
                row = curs.execute(
                    "SELECT to_regclass(%s) IS NOT NULL AS events, to_regclass(%s) IS NOT NULL AS saves",
                    (f"{quoted(schema)}.{quoted(prefix + '_events')}", f"{quoted(schema)}.{quoted(saves_table_name(prefix))}"),
                ).fetchone()
            assert row is not None
            self._saves = bool(row["saves"]) or (not row["events"] and self.layout == "saves")
        return self._saves

    def env_create_table(self) -> bool:
        return not self._deferring and super().env_create_table()

    def _created(self, make: Callable[[], R]) -> R:
        self._deferring = True
        try:
            recorder = make()
        finally:
            self._deferring = False
        if self.env_create_table():
            with schema_lock(self.datastore):
                recorder.create_table()  # type: ignore[attr-defined]
        return recorder

    def application_recorder(self) -> ApplicationRecorder:
        if self.saves() and not self.env.get(self.APPLICATION_RECORDER_TOPIC):
            table = saves_table_name(self.env.name.lower() or "stored")
            recorder: ApplicationRecorder = self._created(lambda: SavesRecorder(self.datastore, events_table_name=table))
        else:
            recorder = self._created(super().application_recorder)
        if isinstance(recorder, StreamsRecorder):
            self._notifying.append(recorder)
        return recorder

    def close(self) -> None:
        """The saves' NOTIFYs sent (``replays.stores.pg_notify``), then the connections closed."""
        try:
            for recorder in self._notifying:
                recorder.notices.close()
        finally:
            super().close()

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        if self.saves() and purpose == "snapshots":
            table = saves_table_name(self.env.name.lower() or "stored")
            return self._created(lambda: SaveSnapshotsRecorder(self.datastore, events_table_name=table))
        return self._created(partial(super().aggregate_recorder, purpose))

    def tracking_recorder(
        self, tracking_recorder_class: type[library.TPostgresTrackingRecorder] | None = None
    ) -> library.TPostgresTrackingRecorder:
        return self._created(partial(super().tracking_recorder, tracking_recorder_class))

    def process_recorder(self) -> ProcessRecorder:
        raise NotSupportedError("process applications keep eventsourcing.postgres (the streams recorder records no tracking)")
