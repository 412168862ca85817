"""The command line's store, opened on first use (CONTRACT section 1).

A verb that only reads opens it without creating anything: no SQLite file where there is none, and
none of the library's CREATE TABLE or CREATE FUNCTION statements (``CREATE_TABLE=false``), on
SQLite as on PostgreSQL. A verb that needs no store (``audit FILE``, ``example``) never opens one.
"""

from __future__ import annotations

import os
from pathlib import Path

from eventsourcing.persistence import InfrastructureFactoryError, PersistenceError

from mtg_ledger.replays.app import Ledger

DEFAULT_DB = "mtg-ledger.sqlite"
SQLITE_MODULES = ("eventsourcing.sqlite", "sqlite")


class NoStore(LookupError):
    """A reading verb found no store where it was told to look (a user error, exit 2)."""


class StoreFailure(RuntimeError):
    """The store could not be opened or answered with an error (exit 3)."""


def store_env(db: str | None) -> dict[str, str]:
    """The library's environment for the chosen store: the variables win unless they ask for SQLite."""
    module = os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    if module not in SQLITE_MODULES:
        return {}
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": db or os.environ.get("SQLITE_DBNAME") or DEFAULT_DB,
    }


def _in_memory(name: str) -> bool:
    return ":memory:" in name or "mode=memory" in name


def _no_table(error: Exception) -> bool:
    text = str(error)
    return "no such table" in text or "does not exist" in text


class Store:
    """Opens the ``Ledger`` the first time ``ledger`` is asked for; ``reading`` opens it read-only in spirit."""

    def __init__(self, db: str | None, *, reading: bool) -> None:
        self.db = db
        self.reading = reading
        self._ledger: Ledger | None = None

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            self._ledger = self._open()
        return self._ledger

    def where(self, ledger: Ledger | None = None) -> str:
        env = store_env(self.db)
        if env:
            return env["SQLITE_DBNAME"]
        get = ledger.env.get if ledger is not None else os.environ.get
        return f"PostgreSQL database {get('POSTGRES_DBNAME')!r}, schema {get('POSTGRES_SCHEMA') or 'public'!r}"

    def _open(self) -> Ledger:
        env = store_env(self.db)
        if self.reading:
            name = env.get("SQLITE_DBNAME")
            if name is not None and not _in_memory(name) and not Path(name).exists():
                raise NoStore(f"no store at {name} (reading verbs never create one; `play`, `demo` and `import` write one)")
            env["CREATE_TABLE"] = env[f"{Ledger.name.upper()}_CREATE_TABLE"] = "false"
        try:
            ledger = Ledger(env=env, writes=not self.reading)
        except (PersistenceError, InfrastructureFactoryError, OSError) as e:
            raise StoreFailure(f"cannot open the store ({self.where()}): {e}") from e
        if self.reading:
            try:
                ledger.recorder.max_notification_id()
            except PersistenceError as e:
                ledger.close()
                if _no_table(e):
                    raise NoStore(f"no mtg-ledger store in {self.where(ledger)}: it has no event table") from None
                raise
        return ledger

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None
