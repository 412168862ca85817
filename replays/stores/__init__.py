"""Which recorder the Ledger stores through.

The library's environment variables choose the store (``PERSISTENCE_MODULE``: POPO, SQLite,
PostgreSQL). On PostgreSQL the Ledger records events through the streams recorder of
``replays.stores.postgres`` (no table lock: writers of different games never wait for each
other), unless ``MTG_LEDGER_PG_RECORDER=library`` asks for the library's own recorder, which locks
the events table on every save (kept for comparison: ``make bench``).
``PERSISTENCE_MODULE=mtg_ledger.replays.stores.postgres`` selects the streams recorder explicitly.
"""

from __future__ import annotations

from typing import Any, Final

from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

RECORDER_ENV: Final = "MTG_LEDGER_PG_RECORDER"
RECORDERS: Final = ("streams", "library")
LIBRARY_POSTGRES: Final = "eventsourcing.postgres"


def construct_factory(env: Environment) -> InfrastructureFactory[Any]:
    """The library's factory for ``env``, with the streams recorder for PostgreSQL unless told otherwise."""
    choice = (env.get(RECORDER_ENV) or "streams").strip().lower()
    if choice not in RECORDERS:
        raise ValueError(f"{RECORDER_ENV}={choice!r}: expected one of {', '.join(RECORDERS)}")
    module = env.get(InfrastructureFactory.PERSISTENCE_MODULE) or ""
    if module == LIBRARY_POSTGRES and choice == "streams":
        from mtg_ledger.replays.stores.postgres import Factory  # an optional extra (psycopg)

        return Factory(env)
    return InfrastructureFactory.construct(env)
