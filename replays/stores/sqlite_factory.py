"""Opening a SQLite store: the factory the Ledger is given on SQLite, which chooses the compact recorders
(``replays.stores.sqlite``) for a new file and the library's for a file that holds the library's tables,
a new file's page size, and the connections' pool."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Final

from eventsourcing import sqlite as library
from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, InterfaceError, NotSupportedError, ProcessRecorder
from eventsourcing.utils import Environment, EnvType

from mtg_ledger.replays.stores.sqlite import EVENTS, CompactAggregateRecorder, CompactApplicationRecorder

RECORDER_ENV: Final = "MTG_LEDGER_SQLITE_RECORDER"
RECORDERS: Final = ("compact", "library")
PAGE_SIZE: Final = 1024
STATEMENTS: Final = 64  # prepared statements each connection keeps
LIBRARY_EVENTS: Final = "stored_events"  # the library's table: its presence means the library's layout


class Pool(library.SQLiteConnectionPool):
    """The library's pool, with connections that keep ``STATEMENTS`` prepared statements (the
    library's keep one, and a save here runs four: each would be prepared again every time)."""

    def _create_connection(self) -> library.SQLiteConnection:
        try:
            c = sqlite3.connect(
                database=self.db_name,
                uri=True,
                check_same_thread=False,
                isolation_level=None,  # autocommit: the library's transactions BEGIN themselves
                cached_statements=STATEMENTS,
                timeout=self.lock_timeout or library.SQLITE3_DEFAULT_LOCK_TIMEOUT,
            )
        except (sqlite3.Error, TypeError) as e:
            raise InterfaceError(e) from e
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:  # as the library: WAL for files
            mode = c.execute("PRAGMA journal_mode").fetchone()[0]
            if mode.lower() != "wal":
                c.execute("PRAGMA journal_mode=WAL")
                self.journal_mode_was_changed_to_wal = True
            self.is_journal_mode_wal = True
        c.row_factory = sqlite3.Row
        return library.SQLiteConnection(sqlite_conn=c, max_age=self.max_age)


def _plain_path(db_name: str) -> Path | None:
    """The file of a plain database name (None for memory and URI names)."""
    if library.SQLiteConnectionPool.detect_memory_mode(db_name) or db_name.startswith("file:"):
        return None
    return Path(db_name)


def new_file(path: Path) -> None:
    """A new file's page size, set before WAL is turned on (after which SQLite cannot change it)."""
    try:
        con = sqlite3.connect(path)
        try:
            con.execute(f"PRAGMA page_size={PAGE_SIZE}")
            con.execute("PRAGMA journal_mode=WAL")
        finally:
            con.close()
    except sqlite3.Error as e:  # the library's word for it, as its own connections would say
        raise InterfaceError(e) from e


class Factory(library.SQLiteFactory):
    """The library's SQLite factory, with the compact recorders for a new file and the library's
    for a file that already holds the library's tables."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        choice = (self.env.get(RECORDER_ENV) or "compact").strip().lower()
        if choice not in RECORDERS:
            raise ValueError(f"{RECORDER_ENV}={choice!r}: expected one of {', '.join(RECORDERS)}")
        db_name = self.datastore.pool.db_name
        path = _plain_path(db_name)
        if choice == "compact" and path is not None and self.env_create_table() and (not path.exists() or path.stat().st_size == 0):
            new_file(path)
        layout = self._layout()
        self.compact = layout == "compact" or (layout is None and choice == "compact")
        if self.compact:  # before any recorder uses it; the library's pool opened one connection, to look
            old = self.datastore.pool
            self.datastore.pool = Pool(db_name=db_name, lock_timeout=old.lock_timeout)
            old.close()

    def _layout(self) -> str | None:
        """Which recorders' tables the store holds already ("compact", "library"), None if neither."""
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)", (LIBRARY_EVENTS, EVENTS))
            names = {row[0] for row in c.fetchall()}
        if LIBRARY_EVENTS in names:
            return "library"
        return "compact" if EVENTS in names else None

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        if not self.compact:
            return super().aggregate_recorder(purpose)
        recorder = CompactAggregateRecorder(self.datastore, events_table_name=purpose)
        if self.env_create_table():
            recorder.create_table()
        return recorder

    def application_recorder(self) -> ApplicationRecorder:
        if not self.compact or self.env.get(self.APPLICATION_RECORDER_TOPIC):
            return super().application_recorder()
        recorder = CompactApplicationRecorder(self.datastore)
        if self.env_create_table():
            recorder.create_table()
        return recorder

    def process_recorder(self) -> ProcessRecorder:
        if self.compact:
            raise NotSupportedError("process applications keep the library's SQLite tables (MTG_LEDGER_SQLITE_RECORDER=library)")
        return super().process_recorder()
