"""What goes wrong before a store is in use: a setting to fix (a user error), or a store that cannot be
opened or answers with an error (a store failure); and the library's words for sqlite3's errors."""

from __future__ import annotations

import sqlite3

from eventsourcing import persistence

# sqlite3's errors that the library's transactions give its own words (most derived first; any other: PersistenceError)
_SQLITE: list[tuple[type[sqlite3.Error], type[persistence.PersistenceError]]] = [(getattr(sqlite3, name), getattr(persistence, name)) for name in (
    "InterfaceError", "DataError", "OperationalError", "IntegrityError", "InternalError", "ProgrammingError", "NotSupportedError", "DatabaseError")]


class StoreSetupError(ValueError):
    """A setting that chooses or reaches the store is missing or wrong (``--db``, ``PERSISTENCE_MODULE``,
    ``POSTGRES_*``): one line naming the setting to fix, a user error (exit status 2)."""


class StoreFailure(RuntimeError):
    """The store could not be opened or answered with an error (exit 3)."""


class StreamNotEmpty(persistence.IntegrityError):
    """A save that stood only if some streams held nothing (``insert_events(..., absent=ids)``) found one of
    them written: nothing of the save was kept."""


def library_error(error: sqlite3.Error) -> persistence.PersistenceError:
    """What the library's SQLite transaction raises for ``error``, for a statement run outside one."""
    return next((ours(error) for raw, ours in _SQLITE if isinstance(error, raw)), persistence.PersistenceError(error))
