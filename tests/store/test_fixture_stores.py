"""Stores and log files of schemas 2, 3 and 5, each written once by its own schema's code: today's engine
keeps listing their games, rebuilding them, travelling through their snapshots, replaying, auditing,
branching, importing and exporting them, and the same decisions keep giving the same hashes.

``tests/fixtures/make_fixture_store.py`` wrote them, run in a worktree of each commit:

- ``schema2-store``: commit 0d588cd, the last of schema 2: the library's own tables, rows as msgpack
  maps with hex hashes and ISO timestamps, snapshots of the whole state; plain msgpack log files;
- ``schema3-store``: commit 56a66ed, schema 3: the compact tables, keyframe and delta snapshots;
  zstd-compressed log files.
- ``schema5-store``: the commit that added it (2026-12-04), schema 5 (the card definitions in ``GameStarted``,
  log files in checked blocks) and, on PostgreSQL, the save rows (``replays.stores.pg_saves``): a save a row,
  compressed with the shipped dictionary, snapshots and the feed's offset in the same table.

Each is an SQLite file and a PostgreSQL schema (``NAME-postgres.sql.zst``: pg_dump's inserts, loaded
into a schema of the loopback server), each holding the demo game (seed 7), an Archenemy scenario and
a branch of the demo game played on to its end, with a snapshot every 250 events; ``NAME.json`` and
``NAME-postgres.json`` are what that code read back. Never rewrite them: a change that breaks them
needs an upcaster.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import zstandard

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.core.schema import upgrade_log
from mtg_ledger.core.state import GameState
from mtg_ledger.core.view import state_view
from mtg_ledger.replays import logfile
from mtg_ledger.replays.stores import verify
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.audit import audit, audit_game
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.replays.audit.replay import replay
from tests.conftest import _connect, postgres_schema
from tests.helpers import shown_as_before

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCHEMAS = {"schema2-store": 2, "schema3-store": 3, "schema5-store": 5}
STORES = sorted([*SCHEMAS, *(f"{name}-postgres" for name in SCHEMAS)])


def expected(name: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = json.loads((FIXTURES / f"{name}.json").read_text())
    return found


def games(name: str) -> list[tuple[str, dict[str, Any]]]:
    return sorted(expected(name).items(), key=lambda item: (item[1]["lineage"] is not None, item[1]["events"]))


def open_copy(name: str, tmp_path: Path) -> Ledger:
    path = tmp_path / f"{name}.sqlite"
    shutil.copyfile(FIXTURES / f"{name}.sqlite", path)
    return Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})


def load_dump(name: str, schema: str, connect: Callable[[], Any] = _connect) -> None:
    """The fixture's PostgreSQL schema, under the name ``schema`` (made already, empty), on the loopback
    server or where ``connect`` connects."""
    dumped = zstandard.ZstdDecompressor().decompress((FIXTURES / f"{name}.sql.zst").read_bytes()).decode()
    wrote = "mtg_ledger_fixture_" + name.removesuffix("-postgres").replace("-", "_")
    lines = [line for line in dumped.splitlines() if not line.startswith(("\\", "CREATE SCHEMA "))]  # psql's own commands
    with connect() as connection:
        connection.execute("\n".join(lines).replace(wrote, schema).encode())


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    name = request.param
    if not name.endswith("-postgres"):
        ledger = open_copy(name, tmp_path)
        yield name, ledger
        ledger.close()
        return
    with postgres_schema() as env:
        load_dump(name, env["POSTGRES_SCHEMA"])
        ledger = Ledger(env=env)
        yield name, ledger
        ledger.close()


def test_each_fixture_store_lists_the_games_it_was_written_with(store: tuple[str, Ledger]) -> None:
    name, ledger = store
    assert sorted(map(str, ledger.game_ids())) == sorted(expected(name))


def test_each_game_rebuilds_to_what_its_own_code_read_back(store: tuple[str, Ledger]) -> None:
    name, ledger = store
    for game, was in games(name):
        events = list(ledger.event_maps(UUID(game)))
        assert (len(events), events[-1]["hash"]) == (was["events"], was["final_hash"])
        assert shown_as_before(was["state"], state_view(ledger.state(UUID(game))))
        assert shown_as_before(was["state_at"], state_view(ledger.state(UUID(game), was["at"])))
        assert ledger.lineage(UUID(game)) == was["lineage"]


def test_each_game_replays_and_audits_clean_as_recorded(store: tuple[str, Ledger]) -> None:
    name, ledger = store
    for game, _ in games(name):
        recorded, versions = ledger.recorded_log(UUID(game))
        assert replay(recorded, versions=versions).ok
        assert audit(game, recorded, versions=versions).clean


def test_time_travel_believes_every_stored_snapshot_and_agrees_with_the_events(store: tuple[str, Ledger]) -> None:
    """Around each snapshot its code stored (whole states in schema 2, keyframes and deltas in 3) the
    state read through it is the state the events fold to, and none is turned away."""
    name, ledger = store
    assert ledger.snapshots is not None
    turned_away: list[verify.SnapshotRejected] = []
    for game, _ in games(name):
        snapshots = [row.originator_version for row in ledger.snapshots.recorder.select_events(UUID(game))]
        assert snapshots, f"{name}: game {game} has no snapshot to read through"
        wanted = sorted({v for s in snapshots for v in (s, s + 1, s + 40)})
        state, events, folded = GameState(), list(ledger.event_maps(UUID(game))), 0
        for version in (v for v in wanted if v <= len(events)):
            while folded < version:
                apply_event(state, events[folded])
                folded += 1
            read = verify.load(ledger, UUID(game), version, turned_away.append)
            assert read is not None and read.state.state_hash() == state.state_hash(), f"{name}: {game} at {version}"
    assert turned_away == []


def test_a_fixture_game_branches_and_takes_new_decisions(store: tuple[str, Ledger]) -> None:
    name, ledger = store
    demo = next(game for game, was in games(name) if was["lineage"] is None and was["events"] == 1076)  # the demo game, seed 7
    branch = ledger.branch(UUID(demo), 301)
    for _ in range(20):
        command = choose(ledger.state_now(branch))
        assert command is not None
        ledger.decide(branch, command)
    events = list(ledger.event_maps(branch))
    assert events[:301] == list(ledger.event_maps(UUID(demo), last=301))
    assert len(events) > 301 and ledger.lineage(branch) == {"branched_from": demo, "at_version": 301}
    assert audit_game(ledger, branch).clean  # its first events as recorded, in their older forms (GameStarted's, before schema 5)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_each_log_file_reads_imports_and_audits_as_its_store_holds_the_game(name: str, tmp_path: Path) -> None:
    kept = open_copy(name, tmp_path)
    fresh = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "fresh.sqlite")})
    try:
        for game, was in games(name):
            if "log_file" not in was:
                continue
            header, events = logfile.read(FIXTURES / was["log_file"])
            assert (header["schema"], header["game"], header["events"], header["hash"]) == (SCHEMAS[name], game, was["events"], was["final_hash"])
            assert logfile.integrity(events, header) == []
            assert audit(game, events, header).clean
            versions = logfile.recorded_versions(header)
            imported = fresh.import_events(events, UUID(game), versions=versions)
            assert list(fresh.event_maps(imported)) == list(kept.event_maps(UUID(game))) == upgrade_log(events, versions)
    finally:
        kept.close()
        fresh.close()


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_a_fixture_game_exported_today_is_in_today_s_schema_with_every_hash_as_recorded(name: str, tmp_path: Path) -> None:
    ledger = open_copy(name, tmp_path)
    try:
        for game, was in games(name):
            if "log_file" not in was:
                continue
            with open(tmp_path / "today.mtgl", "wb") as out:
                ledger.export_log(UUID(game), out)
            header, events = logfile.read(tmp_path / "today.mtgl")
            then_header, then = logfile.read(FIXTURES / was["log_file"])
            assert header["schema"] == SCHEMA_VERSION and (header["events"], header["hash"]) == (then_header["events"], then_header["hash"])
            assert events == then  # as recorded: the same maps, the same hashes, whichever schema wrote them
    finally:
        ledger.close()


def test_the_same_decisions_gave_the_same_hashes_under_schema_2_and_schema_3_in_either_store() -> None:
    def hashes(name: str) -> list[tuple[int, str]]:
        return sorted((was["events"], was["final_hash"]) for _, was in games(name))

    assert len({tuple(hashes(name)) for name in STORES if SCHEMAS[name.removesuffix("-postgres")] < 5}) == 1
    # schema 5 records the card definitions in GameStarted: other hashes, the same in SQLite and in PostgreSQL's save rows
    assert hashes("schema5-store") == hashes("schema5-store-postgres") != hashes("schema3-store")
