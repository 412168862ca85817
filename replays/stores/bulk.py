"""Where the ledger meets the library's recorders beyond ``Application.save``:

- a reader opens a store without creating or altering anything (no ``CREATE TABLE``, no
  ``CREATE OR REPLACE FUNCTION``: concurrent start-ups on PostgreSQL made the catalogue fail with
  "tuple concurrently updated");
- a writer creates what is missing, once: on PostgreSQL it first looks, and creates only under a
  transaction-scoped advisory lock, so writers starting together never race each other;
- an import stores its events and snapshots in one transaction, in batches of ``BATCH`` rows and
  outside psycopg's pipeline mode. The library's PostgreSQL ``insert_events`` sends every row as one
  parameter inside a pipeline; with tens of thousands of rows the client could wait in
  ``Pipeline.sync`` while the server waited for the rest of the query (idle in ClientRead, holding
  the table lock), forever. On SQLite the compact recorders (``replays.stores.sqlite``, schema 3) and
  the library's (older files) both write inside the import's one transaction (``_insert_events``);
  the compact ones begin with a write, so the import takes SQLite's lock before it reads anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import AggregateRecorder, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import Environment

BATCH = 1000  # rows per INSERT statement of an import
# An import's transaction waits on its reader between statements (each batch is read, checked and encoded
# as it is stored): on a busy machine that takes longer than the library's idle-in-transaction limit (5 s),
# which ended long imports half way. The limit is raised for the import's own transaction only; a client
# that dies still closes its connection, which ends the transaction at once.
IMPORT_IDLE = "SET LOCAL idle_in_transaction_session_timeout = '120s'"
CREATE_TABLE = "CREATE_TABLE"


def _keys(env: Environment) -> list[str]:
    return env.create_keys(CREATE_TABLE)  # the application-prefixed key first, as the library reads them


def forbid_ddl(env: Environment) -> None:
    """Readers: the library must never create or alter the store's schema."""
    for key in _keys(env):
        env[key] = "n"


@contextmanager
def without_ddl(env: Environment) -> Iterator[None]:
    """Construct recorders without the library's own creation (the ledger creates what is missing)."""
    saved = {key: env.get(key) for key in _keys(env)}
    forbid_ddl(env)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value


def create_schema(recorder: AggregateRecorder) -> None:
    """Create what ``recorder`` needs and is missing (tables, types, the insert function)."""
    if _is_postgres(recorder):
        _create_postgres(recorder)
    elif type(recorder).__module__ in ("mtg_ledger.replays.stores.postgres", "mtg_ledger.replays.stores.pg_saves"):  # ours: under its schema lock
        from mtg_ledger.replays.stores.pg_factory import schema_lock

        with schema_lock(recorder.datastore):  # type: ignore[attr-defined]
            recorder.create_table()  # type: ignore[attr-defined]
    elif hasattr(recorder, "create_table"):
        recorder.create_table()  # SQLite: CREATE TABLE IF NOT EXISTS, inside SQLite's own write lock


def _is_postgres(recorder: object) -> bool:
    return type(recorder).__module__.startswith("eventsourcing.postgres")


def _present(recorder: Any, curs: Any) -> bool:
    schema = recorder.datastore.schema
    curs.execute(
        "SELECT to_regclass(quote_ident(%s) || '.' || quote_ident(%s)) IS NOT NULL AS table_ok,"
        " to_regtype(quote_ident(%s) || '.' || quote_ident(%s)) IS NOT NULL AS type_ok,"
        " (%s::text IS NULL OR EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        "   WHERE n.nspname = %s AND p.proname = %s)) AS function_ok",
        (
            schema,
            recorder.events_table_name,
            schema,
            recorder.stored_event_type_name,
            getattr(recorder, "pg_function_name_insert_events", None),
            schema,
            getattr(recorder, "pg_function_name_insert_events", None),
        ),
    )
    found = curs.fetchone()
    return bool(found["table_ok"] and found["type_ok"] and found["function_ok"])


def _create_postgres(recorder: Any) -> None:
    datastore = recorder.datastore
    with datastore.transaction(commit=False) as curs:
        if _present(recorder, curs):
            datastore.register_type_adapters()
            return
    with datastore.transaction(commit=True) as curs:
        curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"mtg-ledger schema {datastore.schema}",))
        if not _present(recorder, curs):
            curs.execute(
                "SELECT to_regtype(quote_ident(%s) || '.' || quote_ident(%s)) IS NOT NULL AS type_ok",
                (datastore.schema, recorder.stored_event_type_name),
            )
            has_type = curs.fetchone()["type_ok"]
            for statement in recorder.sql_create_statements:
                if "CREATE TYPE" in statement.as_string() and has_type:
                    continue
                curs.execute(statement, prepare=False)
    datastore.register_type_adapters()


def _batches(items: Iterable[StoredEvent]) -> Iterator[list[StoredEvent]]:
    batch: list[StoredEvent] = []
    for item in items:
        batch.append(item)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def insert_game(
    recorder: AggregateRecorder, snapshot_recorder: AggregateRecorder | None, events: Iterable[StoredEvent], snapshots: Iterable[StoredEvent]
) -> None:
    """A game's events and snapshots in one transaction, a batch of rows per statement. ``events`` may
    be a generator: it is read as it is stored (``snapshots`` after it, so they may be made meanwhile)."""
    snapshots = snapshots if snapshot_recorder is not None else []
    if _is_postgres(recorder):
        _insert_postgres(recorder, snapshot_recorder, events, snapshots)
    elif hasattr(recorder, "insert_events_in_transaction"):  # the streams recorder: any number, ids in order
        with recorder.datastore.transaction(commit=True) as curs:  # type: ignore[attr-defined]
            curs.execute(IMPORT_IDLE)
            recorder.insert_events_in_transaction(curs, events)
            if hasattr(snapshot_recorder, "insert_events_in_transaction"):  # save rows' snapshots (replays.stores.pg_saves)
                snapshot_recorder.insert_events_in_transaction(curs, snapshots)  # type: ignore[union-attr]
            else:
                _insert_library_rows(curs, snapshot_recorder, snapshots)
    elif isinstance(recorder, SQLiteAggregateRecorder):  # the compact recorders and the library's
        with recorder.datastore.transaction(commit=True) as c:
            for batch in _batches(events):
                recorder._insert_events(c, batch)
            for batch in _batches(snapshots):
                snapshot_recorder._insert_events(c, batch)  # type: ignore[union-attr]
    else:  # in memory: each call is atomic, and nothing can fail between them but the process
        recorder.insert_events(list(events))
        snapshots = list(snapshots)
        if snapshots:
            snapshot_recorder.insert_events(snapshots)  # type: ignore[union-attr]


def _insert_library_rows(curs: Any, owner: Any, stored: Iterable[StoredEvent]) -> None:
    """Rows of a library PostgreSQL recorder (the snapshots'), a batch per statement, in ``curs``'s transaction."""
    for batch in _batches(stored):
        rows = [owner.construct_pg_stored_event(s.originator_id, s.originator_version, s.topic, s.state) for s in batch]
        curs.execute(owner.insert_events_statement, (rows,))


def _insert_postgres(recorder: Any, snapshot_recorder: Any, events: Iterable[StoredEvent], snapshots: Iterable[StoredEvent]) -> None:
    with recorder.datastore.transaction(commit=True) as curs:
        curs.execute(IMPORT_IDLE)
        recorder._lock_table(curs)  # as the library's own insert: notification ids in commit order
        recorder._notify_channel(curs)
        _insert_library_rows(curs, recorder, events)
        _insert_library_rows(curs, snapshot_recorder, snapshots)
