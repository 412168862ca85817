"""Opening the streams recorder's store: the factory the Ledger is given on PostgreSQL, which creates every
table under one advisory lock, and connections of their own for that lock and for LISTEN sessions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

import psycopg
from eventsourcing import postgres as library
from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, NotSupportedError, OperationalError, ProcessRecorder

from mtg_ledger.replays.stores.postgres import SCHEMA_LOCK, StreamsRecorder


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
