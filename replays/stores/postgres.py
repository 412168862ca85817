"""Game streams in PostgreSQL without a table lock: the application recorder for many writers.

The library's ``PostgresApplicationRecorder`` takes ``LOCK TABLE ... IN EXCLUSIVE MODE`` on every save,
so that notification ids commit in the order they are drawn from a sequence. This recorder keeps the
library's table and its interface (``select_notifications``, ``max_notification_id``, ``subscribe``;
projections track a single integer, as before) but never locks the table:

- **Ids come from the writing transaction.** A save is one statement; its events get the ids
  ``((xid + offset) << 16) + 1, + 2, ...`` where ``xid`` is the transaction's id (``pg_current_xact_id()``,
  64 bits, never wraps) and ``offset`` makes ids independent of the cluster that wrote them (a restored
  backup, a promoted replica: ``replays.stores.pg_feed``). Two saves never interleave, and ids order the
  feed by transaction, then by event.
- **Followers read below a horizon.** ``H`` is the smallest transaction id that may still add rows:
  the oldest in-flight transaction holding ROW EXCLUSIVE on this table (every insert does), or, if
  none, the next id to be assigned. Rows below ``(H + offset) << 16`` are final: every transaction that
  wrote them has ended, and every transaction still to come has a larger id. A follower never passes
  over a row that commits later.
- **Writers wait only for their own game**: the (originator_id, originator_version) primary key.
- **NOTIFY after the commit** (channel ``schema.table``, payload ``game:version,...``) wakes
  followers. Not inside the saving transaction: PostgreSQL serialises the commits of notifying
  transactions (a lock on "database 0" taken before the commit and held through its WAL flush), which
  would bring a global queue back at commit time. The process's notifier thread sends it, for the saves
  of a couple of milliseconds together (``replays.stores.pg_notify``): the saving thread does not wait
  for it. A writer dying between its commit and its NOTIFY wakes nobody, so followers also re-read every
  SAFETY_RECHECK_S while idle.

What it gives up: ids are sparse, and the feed trails the oldest open save on the table (a writer
stalled 2 s delays the *feed*, never other writers). See docs/postgresql.md and the README,
"Scaling out on PostgreSQL".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing import postgres as library
from eventsourcing.persistence import (
    ApplicationRecorder,
    DataError,
    InterfaceError,
    Notification,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    StoredEvent,
    Subscription,
)
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from mtg_ledger.replays.stores.pg_arrays import Byteas, Int8s, Texts, TextUuids, Uuids
from mtg_ledger.replays.stores.pg_feed import PER_TRANSACTION, FeedStatements, Rendered, quoted, readable_below
from mtg_ledger.replays.stores.pg_notify import NOTIFY, PAYLOAD_BYTES, Channel, Notifier, payloads

SCHEMA_LOCK = 0x6D74676C  # "mtgl": pg_advisory_lock(SCHEMA_LOCK, hashtext(schema)) while creating tables
HELD_BACK_RECHECK_S = 0.25  # a follower held back by an open save re-reads after this, in case it aborts
SAFETY_RECHECK_S = 1.0  # an idle follower re-reads after this, in case a writer died before its NOTIFY
BATCH = 1000  # rows per INSERT statement inside a transaction (an import's)
# The NOTIFYs' connection (``replays.stores.pg_notify``) gives up soon on a server that does not answer: a NOTIFY
# late by more than a second is worth no more than the followers' own re-read.
NOTICE_CONNECTION = {"connect_timeout": 2, "tcp_user_timeout": 5000}


class StreamsRecorder(library.PostgresApplicationRecorder):
    """The library's events table and interface, with ids from transaction ids and no table lock."""

    def __init__(self, datastore: library.PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        schema, table = Identifier(datastore.schema), Identifier(events_table_name)
        names = {"schema": schema, "table": table}
        self.lock_table_statements = []  # the point of this class
        # One channel per schema and table (the library's is the table's name alone, shared by schemas).
        self.channel_name = f"{datastore.schema}.{events_table_name}".encode()[:63].decode(errors="ignore")
        self.feed = FeedStatements(datastore.schema, events_table_name, datastore.originator_id_type)
        self._feed_ready = False  # the _feed table is there (checked by the statements until it is)
        self.sql_create_statements = [
            SQL(
                "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
                "originator_id {id_type} NOT NULL, originator_version bigint NOT NULL, topic text, state bytea, "
                "notification_id bigint NOT NULL, "  # no sequence: ((xid + offset) << 16) + n, given by the insert
                "PRIMARY KEY (originator_id, originator_version)) "
                "WITH (autovacuum_enabled = true, autovacuum_vacuum_threshold = 100000000, "
                "autovacuum_vacuum_scale_factor = 0.5, autovacuum_analyze_threshold = 1000, "
                "autovacuum_analyze_scale_factor = 0.01)"
            ).format(id_type=Identifier(datastore.originator_id_type), **names),
            SQL("CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {schema}.{table} (notification_id ASC)").format(
                index=Identifier(self.notification_id_index_name), **names
            ),
            *self.feed.create,
        ]
        channel = Channel(lambda: psycopg.connect(**{**connection_kwargs(datastore), **NOTICE_CONNECTION}), self.channel_name)
        self.notices = Notifier(channel, done=channel.close)  # the NOTIFY after each save (its own thread and connection)
        self._select = SQL(
            "SELECT originator_id, originator_version, topic, state, notification_id"
            " FROM {schema}.{table} WHERE notification_id < %s"
        ).format(**names)
        self._max = SQL("SELECT MAX(notification_id) FROM {schema}.{table} WHERE notification_id < %s").format(**names)
        self._beyond = SQL("SELECT EXISTS (SELECT 1 FROM {schema}.{table} WHERE notification_id >= %s)").format(**names)
        self._last_versions = Rendered(SQL(
            "SELECT s.id::text AS id, (SELECT MAX(t.originator_version) FROM {schema}.{table} AS t WHERE t.originator_id = s.id) AS version"
            " FROM unnest(%b::{id_type}[]) AS s(id)"
        ).format(id_type=Identifier(datastore.originator_id_type), **names))
        self._insert = Rendered(self.feed.insert)  # the statements of every decision, rendered once
        self._ids = Uuids if datastore.originator_id_type == "uuid" else TextUuids

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def last_versions(self, originator_ids: Sequence[UUID | str]) -> dict[UUID | str, int]:
        """The version of each stream's last row (0: none), in one statement."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._last_versions.on(curs), (self._ids(originator_ids),), prepare=True)  # binary (``pg_arrays``)
            found = {row["id"]: row["version"] for row in curs.fetchall()}
        return {i: int(found.get(str(i)) or 0) for i in originator_ids}

    # --- writing -----------------------------------------------------------------------------

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Records the events in one statement (its own transaction); returns their notification ids."""
        if not stored_events:
            return None
        if kwargs.get("tracking") is not None:
            raise NotSupportedError("the streams recorder records no tracking with events (no process applications)")
        if len(stored_events) > PER_TRANSACTION:  # more than one transaction id numbers: an import's path
            with self.datastore.transaction(commit=True) as curs:
                return self.insert_events_in_transaction(curs, stored_events)
        self._need_feed()
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            ids = self._insert_rows(curs, stored_events, None)  # one statement: committed when it returns
            if not ids:  # another cluster's rows lie above this one's ids: raise the offset, then save
                self.adopt()
                ids = self._insert_rows(curs, stored_events, None)
            self._check_count(ids, stored_events)
        self.notices.add(last_versions(stored_events))  # committed: notified whatever becomes of the request
        return ids

    def insert_events_in_transaction(self, curs: Cursor[DictRow], stored_events: Iterable[StoredEvent]) -> list[int]:
        """Records the events inside the caller's open transaction (several calls may share one), any
        number of them: past 65,535 under one transaction id, each further 65,535 in a subtransaction.

        The transaction must not have written anything else before its first call here: its id
        has to be taken while it holds this table's lock, or followers could pass its rows by.
        """
        row = curs.execute(self.feed.ordered).fetchone()
        assert row is not None
        if not row["ordered"]:
            raise ProgrammingError("record events before any other write in the transaction (its id orders the feed)")
        self._need_feed()
        self._adopt_first(curs)
        curs.execute(self.feed.lock_for_insert)
        slot = curs.execute(self.feed.slot).fetchone()
        assert slot is not None
        xid, room = int(slot["xid"]), PER_TRANSACTION - int(slot["used"])
        ids: list[int] = []
        chunk: list[StoredEvent] = []
        last: dict[str, int] = {}
        for event in stored_events:
            if room == 0:
                ids += self._insert_all(curs, chunk, xid)
                chunk, xid, room = [], self._subtransaction_id(curs), PER_TRANSACTION
            chunk.append(event)
            last[str(event.originator_id)] = event.originator_version
            room -= 1
        ids += self._insert_all(curs, chunk, xid)
        if ids:  # delivered at the caller's commit
            curs.execute(NOTIFY, (self.channel_name, payload(last)))
        return ids

    def _insert_all(self, curs: Cursor[DictRow], chunk: list[StoredEvent], xid: int) -> list[int]:
        ids: list[int] = []
        for i in range(0, len(chunk), BATCH):
            batch = chunk[i : i + BATCH]
            found = self._insert_rows(curs, batch, xid)
            self._check_count(found, batch)
            ids += found
        return ids

    def _subtransaction_id(self, curs: Cursor[DictRow]) -> int:
        """A further transaction id for this transaction: a savepoint's, taken by a write of its own (to a
        temporary table dropped at commit: nothing another session sees or waits for). Released into its
        parent at once: its id stays locked until the whole transaction ends."""
        curs.execute("SAVEPOINT mtg_ledger_ids")
        curs.execute("CREATE TEMPORARY TABLE IF NOT EXISTS mtg_ledger_ids (one integer) ON COMMIT DROP")
        curs.execute("INSERT INTO mtg_ledger_ids VALUES (1)")
        row = curs.execute(self.feed.slot).fetchone()
        curs.execute("RELEASE SAVEPOINT mtg_ledger_ids")
        assert row is not None and int(row["used"]) == 0
        return int(row["xid"])

    def _adopt_first(self, curs: Cursor[DictRow]) -> None:
        """Inside a transaction the offset can't be raised (its lock would wait for this transaction):
        a transaction that has written nothing yet raises it first, in a transaction of its own."""
        if curs.execute("SELECT pg_current_xact_id_if_assigned() IS NULL AS fresh").fetchone()["fresh"]:  # type: ignore[index]
            row = curs.execute(self.feed.horizon).fetchone()
            assert row is not None
            if row["foreign_top"] is not None:
                self.adopt()

    @staticmethod
    def _check_count(ids: Sequence[int], stored_events: Sequence[StoredEvent]) -> None:
        if len(ids) != len(stored_events):
            raise DataError(
                f"recorded {len(ids)} of {len(stored_events)} events: rows of another cluster lie above this"
                " transaction's ids (the offset is raised by a transaction that has written nothing yet)"
            )

    def _insert_rows(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], xid: int | None) -> list[int]:
        params = {  # binary arrays of their own types (``pg_arrays``): built in one pass
            "xid": xid,
            "ids": self._ids([e.originator_id for e in stored_events]),
            "versions": Int8s([e.originator_version for e in stored_events]),
            "topics": Texts([e.topic for e in stored_events]),
            "states": Byteas([e.state for e in stored_events]),
        }
        curs.execute(self._insert.on(curs), params, prepare=True)
        return sorted(row["notification_id"] for row in curs.fetchall())

    def create_table(self) -> None:
        """The schema if it is missing, the table, its index and the _feed table, then the offset raised
        above another cluster's rows if there are any (a store restored from a backup)."""
        with self.datastore.transaction(commit=True) as curs:  # CREATE SCHEMA needs CREATE on the database, even IF NOT EXISTS
            if curs.execute("SELECT to_regnamespace(%s) IS NULL AS missing", (quoted(self.datastore.schema),)).fetchone()["missing"]:  # type: ignore[index]
                curs.execute(SQL("CREATE SCHEMA IF NOT EXISTS {}").format(Identifier(self.datastore.schema)))
        super().create_table()
        self._feed_ready = True
        with self.datastore.transaction(commit=False) as curs:
            row = curs.execute(self.feed.horizon).fetchone()
        if row is not None and row["foreign_top"] is not None:
            self.adopt()

    def adopt(self) -> int:
        """Raises the offset above another cluster's rows (a restored backup, a promoted replica), in a
        transaction of its own, under a lock that waits for the inserts in flight; returns the offset."""
        self._need_feed()
        with self.datastore.transaction(commit=True) as curs:
            for statement in self.feed.adopt:
                curs.execute(statement)
            row = curs.fetchone()
            assert row is not None
            return int(row["xid_offset"])

    def _need_feed(self) -> None:
        """A writer on a store older than the _feed table creates it (under the schema lock)."""
        if not self._feed_ready:
            with self.datastore.transaction(commit=False) as curs:
                ready = curs.execute(SQL("SELECT to_regclass({}) IS NOT NULL AS ok").format(self.feed.feed_regclass)).fetchone()
            if not (ready and ready["ok"]):
                with self.datastore.transaction(commit=True) as curs:  # the lock of every schema change, for this transaction
                    curs.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (SCHEMA_LOCK, self.datastore.schema))
                    for statement in self.feed.create:
                        curs.execute(statement)
            self._feed_ready = True

    # --- following -----------------------------------------------------------------------------

    def _below(self, curs: Cursor[DictRow]) -> int:
        """The first notification id followers may not read yet (every id below it is final)."""
        row = curs.execute(self.feed.horizon if self._feed_ready else self.feed.legacy_horizon, prepare=True).fetchone()
        assert row is not None
        if not self._feed_ready and row["ready"]:  # a writer has made the _feed table meanwhile
            self._feed_ready = True
            return self._below(curs)
        return readable_below(int(row["horizon"]), int(row["next"]), int(row["xid_offset"]), row["foreign_top"])

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
    """Takes over a table the library's recorder made (ids from a sequence): the old ids stay, and the
    sequence default goes, so the two recorders can never mix. New ids lie above the old ones: a
    sequence's ids are far below ``xid << 16``, and any that are not are another cluster's to the
    feed's rule (``replays.stores.pg_feed``)."""
    schema, table = recorder.datastore.schema, recorder.events_table_name
    default = curs.execute(
        "SELECT column_default FROM information_schema.columns"
        " WHERE table_schema = %s AND table_name = %s AND column_name = 'notification_id'",
        (schema, table),
    ).fetchone()
    if default is None or default["column_default"] is None:
        return
    names = {"schema": Identifier(schema), "table": Identifier(table)}
    curs.execute(SQL("ALTER TABLE {schema}.{table} ALTER COLUMN notification_id DROP DEFAULT").format(**names))


def connection_kwargs(datastore: library.PostgresDatastore) -> dict[str, Any]:
    """What ``psycopg.connect`` needs for a connection of its own (outside the pool) to the datastore's
    database: the advisory lock's, a LISTEN session's, the NOTIFYs'."""
    pool = datastore.pool
    given: Any = pool.kwargs or {}
    kwargs = {k: v for k, v in given.items() if k != "row_factory"}
    if pool.get_password_func is not None:
        kwargs["password"] = pool.get_password_func()
    return {**kwargs, "autocommit": True, "connect_timeout": max(1, int(pool.timeout))}


def last_versions(stored_events: Sequence[StoredEvent]) -> dict[str, int]:
    """Each stream the save touched and its last version."""
    last: dict[str, int] = {}
    for e in stored_events:
        key = str(e.originator_id)
        last[key] = max(e.originator_version, last.get(key, e.originator_version))
    return last


def payload(last: dict[str, int]) -> str:
    """``game:version,...`` of each stream's last version in one NOTIFY's payload (``pg_notify.payloads``); ''
    when they need more than one (every follower woken)."""
    found = payloads(last)
    return found[0] if len(found) == 1 and len(found[0]) <= PAYLOAD_BYTES else ""


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
