"""Game streams in PostgreSQL without a table lock: the application recorder for many writers (issue 13).

The library's ``PostgresApplicationRecorder`` takes ``LOCK TABLE ... IN EXCLUSIVE MODE`` on every save,
so that notification ids commit in the order they are drawn from a sequence. This recorder keeps the
library's table and its interface (``select_notifications``, ``max_notification_id``, ``subscribe``;
projections track a single integer, as before) but never locks the table:

- **Ids come from the writing transaction.** A save is one statement; its events get the ids
  ``(xid << 16) + 1, + 2, ...`` where ``xid`` is the transaction's id (``pg_current_xact_id()``, 64 bits,
  never wraps). Two saves never interleave, and ids order the feed by transaction, then by event.
- **Followers read below a horizon.** ``H`` is the smallest transaction id that may still add rows:
  the oldest in-flight transaction holding ROW EXCLUSIVE on this table (every insert does), or, if
  none, the next id to be assigned. Rows below ``H << 16`` are final: every transaction that wrote them has ended, and every
  transaction still to come has a larger id. A follower never passes over a row that commits later.
- **Writers wait only for their own game**: the (originator_id, originator_version) primary key.
- **NOTIFY right after the commit** (channel ``schema.table``, payload ``game:version,...``) wakes
  followers. Not inside the saving transaction: PostgreSQL serialises the commits of notifying
  transactions (a lock on "database 0" taken before the commit and held through its WAL flush), which
  would bring a global queue back at commit time. A writer dying between its commit and its NOTIFY
  wakes nobody, so followers also re-read every SAFETY_RECHECK_S while idle.

What it gives up: ids are sparse (``xid << 16``), one transaction holds at most 65,535 events, and the
feed trails the oldest open save on the table (a writer stalled 2 s delays the *feed*, never other
writers). See the README, "Scaling out on PostgreSQL".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

import psycopg
from eventsourcing import postgres as library
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    DataError,
    InterfaceError,
    Notification,
    NotSupportedError,
    OperationalError,
    ProcessRecorder,
    ProgrammingError,
    StoredEvent,
    Subscription,
)
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier, Literal

ID_BITS = 16
PER_TRANSACTION = (1 << ID_BITS) - 1  # events one transaction may record: ids xid<<16 + 1 .. + 65,535
SCHEMA_LOCK = 0x6D74676C  # "mtgl": pg_advisory_lock(SCHEMA_LOCK, hashtext(schema)) while creating tables
PAYLOAD_BYTES = 7900  # NOTIFY payloads must stay under 8,000 bytes; past this the payload is empty
HELD_BACK_RECHECK_S = 0.25  # a follower held back by an open save re-reads after this, in case it aborts
SAFETY_RECHECK_S = 1.0  # an idle follower re-reads after this, in case a writer died before its NOTIFY


class StreamsRecorder(library.PostgresApplicationRecorder):
    """The library's events table and interface, with ids from transaction ids and no table lock."""

    def __init__(self, datastore: library.PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        schema, table = Identifier(datastore.schema), Identifier(events_table_name)
        names = {"schema": schema, "table": table}
        self.lock_table_statements = []  # the point of this class
        # One channel per schema and table (the library's is the table's name alone, shared by schemas).
        self.channel_name = f"{datastore.schema}.{events_table_name}".encode()[:63].decode(errors="ignore")
        self.sql_create_statements = [
            SQL(
                "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
                "originator_id {id_type} NOT NULL, originator_version bigint NOT NULL, topic text, state bytea, "
                "notification_id bigint NOT NULL, "  # no sequence: (xid << 16) + n, given by the insert
                "PRIMARY KEY (originator_id, originator_version)) "
                "WITH (autovacuum_enabled = true, autovacuum_vacuum_threshold = 100000000, "
                "autovacuum_vacuum_scale_factor = 0.5, autovacuum_analyze_threshold = 1000, "
                "autovacuum_analyze_scale_factor = 0.01)"
            ).format(id_type=Identifier(datastore.originator_id_type), **names),
            SQL("CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {schema}.{table} (notification_id ASC)").format(
                index=Identifier(self.notification_id_index_name), **names
            ),
        ]
        self.regclass = Literal(".".join('"' + name.replace('"', '""') + '"' for name in (datastore.schema, events_table_name)))
        self._insert = SQL(
            "WITH base AS MATERIALIZED ("
            " SELECT COALESCE(MAX(t.notification_id), x.lo) AS id"  # earlier inserts of this transaction
            " FROM (SELECT pg_current_xact_id()::text::bigint << {bits} AS lo) AS x"
            " LEFT JOIN {schema}.{table} AS t ON t.notification_id > x.lo AND t.notification_id < x.lo + {span}"
            " GROUP BY x.lo), "
            "inserted AS ("
            " INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state, notification_id)"
            " SELECT e.i, e.v, e.t, e.s, base.id + e.n FROM base,"
            " unnest(%(ids)s::{id_type}[], %(versions)s::bigint[], %(topics)s::text[], %(states)s::bytea[])"
            " WITH ORDINALITY AS e(i, v, t, s, n)"
            " RETURNING notification_id) "
            "SELECT notification_id FROM inserted"
        ).format(bits=ID_BITS, span=1 << ID_BITS, id_type=Identifier(datastore.originator_id_type), **names)
        self._used_in_transaction = SQL(
            "SELECT pg_current_xact_id_if_assigned() IS NULL"
            " OR EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'relation' AND pid = pg_backend_pid()"
            "  AND mode = 'RowExclusiveLock' AND relation = {regclass}::regclass) AS ordered,"
            " (SELECT COUNT(*) FROM {schema}.{table} WHERE pg_current_xact_id_if_assigned() IS NOT NULL"
            "  AND notification_id > pg_current_xact_id_if_assigned()::text::bigint << {bits}"
            "  AND notification_id < (pg_current_xact_id_if_assigned()::text::bigint + 1) << {bits}) AS used"
        ).format(regclass=self.regclass, bits=ID_BITS, **names)
        self._notify = SQL("SELECT pg_notify(%s, %s)")
        self._lock_for_insert = SQL("LOCK TABLE {schema}.{table} IN ROW EXCLUSIVE MODE").format(**names)
        # The oldest transaction that may still add rows: reading the snapshot's next id first, then the
        # locks, so a writer that has no id yet when the locks are read can only get a larger one. Every
        # insert holds ROW EXCLUSIVE on the table; other modes (readers, autovacuum's ANALYZE) never add rows.
        self._horizon = SQL(
            "SELECT LEAST(s.next, MIN(s.next - (((s.next & 4294967295) - l.xid) & 4294967295))) AS horizon "
            "FROM (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS next) AS s "
            "LEFT JOIN (SELECT x.transactionid::text::bigint AS xid FROM pg_locks AS r JOIN pg_locks AS x"
            " ON x.virtualtransaction = r.virtualtransaction AND x.locktype = 'transactionid'"
            " AND x.mode = 'ExclusiveLock' AND x.granted"
            " WHERE r.locktype = 'relation' AND r.mode = 'RowExclusiveLock' AND r.relation = {regclass}::regclass"
            " AND r.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS l ON true "
            "GROUP BY s.next"
        ).format(regclass=self.regclass)
        self._select = SQL(
            "SELECT originator_id, originator_version, topic, state, notification_id"
            " FROM {schema}.{table} WHERE notification_id < %s"
        ).format(**names)
        self._max = SQL("SELECT MAX(notification_id) FROM {schema}.{table} WHERE notification_id < %s").format(**names)
        self._beyond = SQL("SELECT EXISTS (SELECT 1 FROM {schema}.{table} WHERE notification_id >= %s)").format(**names)

    # --- writing -----------------------------------------------------------------------------

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Records the events in one statement (its own transaction); returns their notification ids."""
        if not stored_events:
            return None
        if kwargs.get("tracking") is not None:
            raise NotSupportedError("the streams recorder records no tracking with events (no process applications)")
        self._check_size(len(stored_events))
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            ids = self._insert_rows(curs, stored_events)  # one statement: committed when it returns
            try:
                curs.execute(self._notify, (self.channel_name, notify_payload(stored_events)), prepare=True)
            except psycopg.Error:
                pass  # the save stands (a retry would record it twice); followers re-read within SAFETY_RECHECK_S
            return ids

    def insert_events_in_transaction(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent]) -> list[int]:
        """Records the events inside the caller's open transaction (several calls may share one).

        The transaction must not have written anything else before its first call here: its id
        has to be taken while it holds this table's lock, or followers could pass its rows by.
        """
        row = curs.execute(self._used_in_transaction).fetchone()
        assert row is not None
        if not row["ordered"]:
            raise ProgrammingError("record events before any other write in the transaction (its id orders the feed)")
        self._check_size(row["used"] + len(stored_events))
        curs.execute(self._lock_for_insert)
        if not stored_events:
            return []
        ids = self._insert_rows(curs, stored_events)
        curs.execute(self._notify, (self.channel_name, notify_payload(stored_events)))  # delivered at the caller's commit
        return ids

    @staticmethod
    def _check_size(count: int) -> None:
        if count > PER_TRANSACTION:
            raise DataError(f"{count} events in one transaction: the streams recorder takes at most {PER_TRANSACTION:,}")

    def _insert_rows(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent]) -> list[int]:
        params = {
            "ids": [e.originator_id for e in stored_events],
            "versions": [e.originator_version for e in stored_events],
            "topics": [e.topic for e in stored_events],
            "states": [e.state for e in stored_events],
        }
        curs.execute(self._insert, params, prepare=True)
        ids = sorted(row["notification_id"] for row in curs.fetchall())
        if len(ids) != len(stored_events):
            raise ProgrammingError(f"recorded {len(ids)} of {len(stored_events)} events")
        return ids

    # --- following -----------------------------------------------------------------------------

    def _below(self, curs: Cursor[DictRow]) -> int:
        """The first notification id followers may not read yet (every id below it is final)."""
        row = curs.execute(self._horizon, prepare=True).fetchone()
        assert row is not None
        return int(row["horizon"]) << ID_BITS

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """The library's semantics (ids ascending from ``start``, up to ``stop``, ``limit``, ``topics``),
        over the final part of the feed only."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            params: list[Any] = [self._below(curs)]  # its own statement: rows are read in a later snapshot
            statement = self._select
            if start is not None:
                statement += SQL(" AND notification_id >= %s") if inclusive_of_start else SQL(" AND notification_id > %s")
                params.append(start)
            if stop is not None:
                statement += SQL(" AND notification_id <= %s")
                params.append(stop)
            if topics:
                statement += SQL(" AND topic = ANY(%s)")
                params.append(list(topics))
            statement += SQL(" ORDER BY notification_id LIMIT %s")
            params.append(limit)
            curs.execute(statement, params, prepare=True)
            return [
                Notification(
                    id=row["notification_id"],
                    originator_id=row["originator_id"],
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
                for row in curs.fetchall()
            ]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def max_notification_id(self) -> int | None:
        """The largest id a follower can read now (None: nothing recorded, or nothing final yet)."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            below = self._below(curs)
            row = curs.execute(self._max, (below,), prepare=True).fetchone()
            assert row is not None
            found: int | None = row["max"]
            return found

    def held_back(self) -> bool:
        """Whether committed rows wait behind an open save (followers will get them when it ends)."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            below = self._below(curs)
            row = curs.execute(self._beyond, (below,), prepare=True).fetchone()
            assert row is not None
            return bool(row["exists"])

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[ApplicationRecorder]:
        return StreamsSubscription(recorder=self, gt=gt, topics=topics)

    # --- schema ----------------------------------------------------------------------------------

    def _create_table(self, curs: Cursor[DictRow]) -> None:
        super()._create_table(curs)
        adopt_library_table(curs, self)


def adopt_library_table(curs: Cursor[DictRow], recorder: StreamsRecorder) -> None:
    """Takes over a table the library's recorder made (ids from a sequence): the old ids stay, new
    ones start above them, and the sequence default goes, so the two recorders can never mix."""
    schema, table = recorder.datastore.schema, recorder.events_table_name
    default = curs.execute(
        "SELECT column_default FROM information_schema.columns"
        " WHERE table_schema = %s AND table_name = %s AND column_name = 'notification_id'",
        (schema, table),
    ).fetchone()
    if default is None or default["column_default"] is None:
        return
    names = {"schema": Identifier(schema), "table": Identifier(table)}
    row = curs.execute(
        SQL("SELECT COALESCE(MAX(notification_id), 0) AS top, pg_current_xact_id()::text::bigint << {bits} AS lo FROM {schema}.{table}").format(
            bits=ID_BITS, **names
        )
    ).fetchone()
    assert row is not None
    if row["top"] >= row["lo"]:
        raise OperationalError(f"{schema}.{table}: ids up to {row['top']} reach past this transaction's range ({row['lo']})")
    curs.execute(SQL("ALTER TABLE {schema}.{table} ALTER COLUMN notification_id DROP DEFAULT").format(**names))


def notify_payload(stored_events: Sequence[StoredEvent]) -> str:
    """``game:version,...``: each stream the save touched and its last version ('' when too long)."""
    last: dict[str, int] = {}
    for e in stored_events:
        key = str(e.originator_id)
        last[key] = max(e.originator_version, last.get(key, e.originator_version))
    payload = ",".join(f"{key}:{version}" for key, version in last.items())
    return payload if len(payload) <= PAYLOAD_BYTES else ""


class StreamsSubscription(library.PostgresSubscription):
    """The library's LISTEN/NOTIFY subscription, which also re-reads every HELD_BACK_RECHECK_S while
    rows are held back by an open save (an abort notifies nobody), and every SAFETY_RECHECK_S otherwise."""

    def _loop_on_pull(self) -> None:
        recorder = self._recorder
        assert isinstance(recorder, StreamsRecorder)
        try:
            self._pull()
            while not self._has_been_stopped:
                self._has_been_notified.wait(timeout=HELD_BACK_RECHECK_S if recorder.held_back() else SAFETY_RECHECK_S)
                self._pull()
        except BaseException as e:  # the library's handling: the error surfaces in __next__
            if self._thread_error is None:
                self._thread_error = e
            self.stop()


def connection_kwargs(datastore: library.PostgresDatastore) -> dict[str, Any]:
    """What ``psycopg.connect`` needs for a connection of its own (outside the pool) to the datastore's
    database: the advisory lock's, a LISTEN session's."""
    pool = datastore.pool
    given: Any = pool.kwargs or {}
    kwargs = {k: v for k, v in given.items() if k != "row_factory"}
    if pool.get_password_func is not None:
        kwargs["password"] = pool.get_password_func()
    return {**kwargs, "autocommit": True, "connect_timeout": max(1, int(pool.timeout))}


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


class Factory(library.PostgresFactory):
    """The library's PostgreSQL factory with the streams recorder for events, and every table
    created under one advisory lock (workers starting together never race), only when
    CREATE_TABLE allows it (reading verbs set CREATE_TABLE=false and run no DDL)."""

    application_recorder_class = StreamsRecorder
    _deferring = False

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
        return self._created(super().application_recorder)

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        return self._created(partial(super().aggregate_recorder, purpose))

    def tracking_recorder(
        self, tracking_recorder_class: type[library.TPostgresTrackingRecorder] | None = None
    ) -> library.TPostgresTrackingRecorder:
        return self._created(partial(super().tracking_recorder, tracking_recorder_class))

    def process_recorder(self) -> ProcessRecorder:
        raise NotSupportedError("process applications keep eventsourcing.postgres (the streams recorder records no tracking)")
