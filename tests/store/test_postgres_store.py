"""The real PostgreSQL store under load: a large import never hangs (it used to wait forever in
psycopg's Pipeline.sync, holding the table lock), reading verbs never create or alter the schema (every
start-up used to run CREATE OR REPLACE FUNCTION, so readers started together failed with "tuple
concurrently updated"), and writers starting together on a fresh schema create it once, in turn."""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.play import play_demo
from tests.conftest import _connect
from tests.log_tools import demo_log, header_of, run, write_raw

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("cli_env")]
LIBRARY = 294  # cards in each library of benchmarks' long game: about 33,500 events, the import that hung
LONGER = 590  # about 67,300 events: more than one PostgreSQL transaction id numbers (65,535)
READER = "mtg_ledger_reader"


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from benchmarks.timetravel import long_log as play_long

    events = play_long(LIBRARY)
    assert len(events) > 33_000
    path = tmp_path_factory.mktemp("long") / "long.mtgl"
    logfile.write(path, "00000000-0000-0000-0000-0000000b16a0", events)
    return path


@pytest.fixture(scope="module")
def longer_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from benchmarks.timetravel import long_log as play_long

    events = play_long(LONGER)
    assert len(events) > 65_535
    path = tmp_path_factory.mktemp("longer") / "longer.mtgl"
    logfile.write(path, "00000000-0000-0000-0000-0000000b16a1", events)
    return path


@pytest.fixture
def pg(postgres_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The CLI reads the library's variables from the environment, as a user sets them."""
    env = {**postgres_env, "MTG_LEDGER_PG_RECORDER": "library"}  # the library's recorder, its insert function included
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


def _cli(env: dict[str, str], *argv: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own, with psycopg's pure-Python libpq binding where the system has
    libpq (the implementation under which the pipelined import hung most often)."""
    child = {**os.environ, **env, "MTG_LEDGER_LOG_LEVEL": "warning"}
    if ctypes.util.find_library("pq"):
        child["PSYCOPG_IMPL"] = "python"
    return subprocess.run([sys.executable, "-m", "mtg_ledger.replays.cli", *argv], env=child, capture_output=True, text=True, timeout=timeout)


def _stored_events(env: dict[str, str]) -> int:
    """Events the store holds: its save rows' sizes, or its rows in the library's layout (MTG_LEDGER_PG_RECORDER=library)."""
    schema = sql.Identifier(env["POSTGRES_SCHEMA"])
    with _connect() as conn:
        if env.get("MTG_LEDGER_PG_RECORDER") == "library":
            found = conn.execute(sql.SQL("SELECT COUNT(*) FROM {}.mtgledger_events").format(schema)).fetchone()
        else:
            found = conn.execute(sql.SQL("SELECT SUM(size) FROM {}.mtgledger_saves WHERE kind = 0").format(schema)).fetchone()
    assert found is not None
    return int(found[0] or 0)


# --- 5. a large import ---------------------------------------------------------------------------------


def test_a_33500_event_log_imports_into_postgresql_three_times_in_a_row_in_bounded_time(long_log: Path, postgres_env: dict[str, str]) -> None:
    events = logfile.read(long_log)[1]
    for attempt in range(3):
        began = time.monotonic()
        done = _cli(postgres_env, "import", str(long_log), "--new-id", timeout=60)
        assert (done.returncode, done.stderr) == (0, ""), f"import {attempt + 1}"
        assert time.monotonic() - began < 30, f"import {attempt + 1} took {time.monotonic() - began:.1f} s"
    assert _stored_events(postgres_env) == 3 * len(events)
    done = _cli(postgres_env, "state", done.stdout.strip(), timeout=30)
    assert done.returncode == 0 and f'"version": {len(events)},' in done.stdout


def test_a_log_longer_than_one_transaction_id_numbers_imports_into_postgresql_whole_and_in_order(longer_log: Path, postgres_env: dict[str, str]) -> None:
    events = logfile.read(longer_log)[1]
    done = _cli(postgres_env, "import", str(longer_log), timeout=300)
    assert (done.returncode, done.stderr) == (0, "")
    game = done.stdout.strip()
    ledger = Ledger(env={**postgres_env, "CREATE_TABLE": "false"}, writes=False)
    try:
        fed = [n for n in ledger.recorder.select_notifications(None, 200_000) if str(n.originator_id) == game]
        assert [n.originator_version for n in fed] == list(range(1, len(events) + 1)), "the feed holds every event, in order"
        assert [n.id for n in fed] == sorted(n.id for n in fed)
    finally:
        ledger.close()
    done = _cli(postgres_env, "audit", game, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_import_never_enters_psycopgs_pipeline_mode(pg: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadlock needs a pipeline whose results are not read while it keeps writing: the import
    writes bounded batches in one ordinary transaction instead."""
    log = demo_log()
    path = write_raw(tmp_path / "log.mtgl", header_of(log), log)

    def no_pipeline(*args: object, **kwargs: object) -> None:
        raise AssertionError("the import entered pipeline mode")

    monkeypatch.setattr(psycopg.Connection, "pipeline", no_pipeline)
    code, _, err = run(capsys, "import", str(path))
    assert (code, err) == (0, "")
    assert _stored_events(pg) == len(log)


# --- 6. readers never create or alter the schema ---------------------------------------------------------


@pytest.fixture
def stored_game(pg: dict[str, str]) -> Iterator[str]:
    ledger = Ledger(env=pg)
    try:
        yield str(play_demo(ledger, demo_setup(3)))
    finally:
        ledger.close()


def _insert_function_xmin(env: dict[str, str]) -> str:
    with _connect() as conn:
        found = conn.execute(
            "SELECT p.xmin::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = %s AND p.proname = %s",
            (env["POSTGRES_SCHEMA"], "es_insert_events_uuid"),
        ).fetchone()
    assert found is not None
    return str(found[0])


READING = [["state"], ["state", "--at", "400"], ["events"], ["step", "--from", "390", "--to", "400"], ["audit"], ["replay"], ["export", "-o", "{out}"]]


def test_reading_verbs_work_for_a_database_role_that_may_create_nothing(
    stored_game: str, pg: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = sql.Identifier(pg["POSTGRES_SCHEMA"])
    with _connect() as conn:
        conn.execute(f"DO $$ BEGIN CREATE ROLE {READER} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, sql.Identifier(READER)))
        conn.execute(sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(schema, sql.Identifier(READER)))
    monkeypatch.setenv("POSTGRES_USER", READER)
    before = _insert_function_xmin(pg)
    for verb in READING:
        argv = [a.replace("{out}", str(tmp_path / "g.mtgl")) for a in verb]
        code, _, err = run(capsys, argv[0], stored_game, *argv[1:])
        wrote = argv[0] == "export"  # a verb that writes a file confirms it on stderr, one line
        assert code == 0 and (err.startswith(f"{tmp_path / 'g.mtgl'}: ") and err.count("\n") == 1 if wrote else err == ""), " ".join(verb)
    assert _insert_function_xmin(pg) == before


def test_reading_verbs_started_together_all_succeed_and_leave_the_catalogue_alone(
    stored_game: str, pg: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mtg_ledger.replays.cli import main

    monkeypatch.setenv("POSTGRES_POOL_SIZE", "1")
    monkeypatch.setenv("POSTGRES_MAX_OVERFLOW", "1")
    before = _insert_function_xmin(pg)
    verbs = [["state", stored_game], ["state", stored_game, "--at", "300"], ["events", stored_game, "--to", "50"]] * 8
    with ThreadPoolExecutor(len(verbs)) as pool:
        codes = list(pool.map(main, verbs))
    _, err = capsys.readouterr()
    assert codes == [0] * len(verbs) and "concurrently" not in err and "Traceback" not in err
    assert _insert_function_xmin(pg) == before


def test_writers_starting_together_on_a_fresh_schema_create_it_once(postgres_env: dict[str, str]) -> None:
    env = {**postgres_env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "1"}

    def start(_: int) -> str:
        ledger = Ledger(env=env)
        try:
            return str(ledger.start(demo_setup(1)))
        finally:
            ledger.close()

    with ThreadPoolExecutor(12) as pool:
        games = list(pool.map(start, range(12)))
    assert len(set(games)) == 12
    assert _stored_events(postgres_env) > 12 * 10
