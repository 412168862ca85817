"""Shared test set-up: hypothesis profiles and one environment per event store."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    import psycopg

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fast", max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # make test-fast
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def examples(count: int) -> int:
    """A property's examples: ``count``, or a fifth of it (at least 2) in the fast tier (``make test-fast``)."""
    return max(2, count // 5) if os.environ.get("HYPOTHESIS_PROFILE") == "fast" else count

POSTGRES: dict[str, str] = {
    "POSTGRES_DBNAME": "test",
    "POSTGRES_HOST": "127.0.0.1",
    "POSTGRES_PORT": "5432",
    "POSTGRES_USER": "postgres",
    "POSTGRES_PASSWORD": "",
}
_schema_numbers: Iterator[int] = itertools.count(1)


@pytest.fixture
def postgres_env() -> Iterator[dict[str, str]]:
    """eventsourcing settings for PostgreSQL, in a fresh schema dropped after the test.

    The server must be up: a test using this fixture errors, never skips, when it is down.
    """
    with postgres_schema() as env:
        yield env


@contextmanager
def postgres_schema() -> Iterator[dict[str, str]]:
    """``postgres_env`` for any scope (a module's server process, say)."""
    from psycopg import sql  # the PostgreSQL extra: imported by the tests that use it, so the fast tier runs without it

    schema = f"mtg_ledger_test_{os.getpid()}_{next(_schema_numbers)}"
    with _connect() as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield {"PERSISTENCE_MODULE": "eventsourcing.postgres", **POSTGRES, "POSTGRES_SCHEMA": schema}
    finally:
        with _connect() as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def sqlite_env(tmp_path: Path) -> dict[str, str]:
    """eventsourcing settings for an SQLite file of the test's own."""
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "ledger.sqlite")}


@pytest.fixture
def popo_env() -> dict[str, str]:
    """eventsourcing settings for the default in-memory (POPO) store."""
    return {}


def _connect() -> psycopg.Connection[tuple[object, ...]]:
    import psycopg  # the PostgreSQL extra, as above

    return psycopg.connect(
        dbname=POSTGRES["POSTGRES_DBNAME"],
        host=POSTGRES["POSTGRES_HOST"],
        port=int(POSTGRES["POSTGRES_PORT"]),
        user=POSTGRES["POSTGRES_USER"],
        password=POSTGRES["POSTGRES_PASSWORD"],
        connect_timeout=5,
        autocommit=True,
    )


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line as a user runs it: the SQLite store of --db, no per-decision log lines."""
    monkeypatch.setenv("MTG_LEDGER_LOG_LEVEL", "warning")
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    monkeypatch.delenv("SQLITE_DBNAME", raising=False)
