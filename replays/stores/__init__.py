"""Which recorder the Ledger stores through.

The library's environment variables choose the store (``PERSISTENCE_MODULE``: POPO, SQLite,
PostgreSQL). On PostgreSQL the Ledger records events through the streams recorder of
``replays.stores.postgres`` (no table lock: writers of different games never wait for each
other), unless ``MTG_LEDGER_PG_RECORDER=library`` asks for the library's own recorder, which locks
the events table on every save (kept for comparison: ``make bench``).
``PERSISTENCE_MODULE=mtg_ledger.replays.stores.postgres`` selects the streams recorder explicitly.

On SQLite a new file gets the compact tables of ``replays.stores.sqlite`` (schema 3), unless
``MTG_LEDGER_SQLITE_RECORDER=library``; a file that already holds the library's tables keeps the
library's recorders (never converted). ``PERSISTENCE_MODULE=mtg_ledger.replays.stores.sqlite`` (or
``...sqlite_factory``, where that factory is) selects the same factory explicitly.
"""

from __future__ import annotations

from typing import Any, Final

from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from mtg_ledger.replays.stores.errors import StoreSetupError

RECORDER_ENV: Final = "MTG_LEDGER_PG_RECORDER"
RECORDERS: Final = ("streams", "library")
LIBRARY_POSTGRES: Final = "eventsourcing.postgres"
STREAMS_POSTGRES: Final = ("mtg_ledger.replays.stores.postgres", "mtg_ledger.replays.stores.pg_factory")  # ours, by name
LIBRARY_SQLITE: Final = ("eventsourcing.sqlite", "eventsourcing.sqlite:Factory", "eventsourcing.sqlite:SQLiteFactory")
OUR_SQLITE: Final = ("mtg_ledger.replays.stores.sqlite", "mtg_ledger.replays.stores.sqlite_factory")  # ours, by name


def construct_factory(env: Environment) -> InfrastructureFactory[Any]:
    """The library's factory for ``env``, with the streams recorder for PostgreSQL unless told otherwise,
    and on SQLite the factory that chooses the compact or the library's tables by what the file holds."""
    choice = (env.get(RECORDER_ENV) or "streams").strip().lower()
    if choice not in RECORDERS:
        raise StoreSetupError(f"{RECORDER_ENV}={choice!r}: expected one of {', '.join(RECORDERS)}")
    module = env.get(InfrastructureFactory.PERSISTENCE_MODULE) or ""
    if (module == LIBRARY_POSTGRES and choice == "streams") or module in STREAMS_POSTGRES:
        from mtg_ledger.replays.stores.pg_factory import Factory  # an optional extra (psycopg)

        return Factory(env)
    if module in LIBRARY_SQLITE or module in OUR_SQLITE:
        from mtg_ledger.replays.stores import sqlite_factory

        return sqlite_factory.Factory(env)
    return InfrastructureFactory.construct(env)
