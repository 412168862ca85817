"""A PostgreSQL store backed up with ``pg_dump`` on the loopback server and restored with ``psql`` into a
cluster created minutes ago (``tests.pg_cluster``), whose transaction counter stands far below the one
that numbered the backup's events: every game is listed, read, audited, branched and continued there,
new events come after every restored one, and a projection catches up across the restore."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest
from psycopg import sql

from mtg_ledger.projections.runner import catch_up, make_view, tracking_name
from mtg_ledger.replays.ledger.application import Ledger, last_decision_point
from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.audit import audit_game
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.replays.ledger.play import play_demo
from tests.conftest import POSTGRES, _connect, postgres_schema
from tests.store.test_fixture_stores import STORES, expected, load_dump
from tests.pg_cluster import fresh_cluster, next_xid
from tests.service_server import cli

pytestmark = pytest.mark.postgres


@dataclass
class Backup:
    """What the loopback store held when it was dumped."""

    schema: str
    dump: str
    games: dict[UUID, tuple[int, str]] = field(default_factory=dict)  # game: (events, last hash)
    top_id: int = 0
    tracked: int = 0
    branch: UUID | None = None


def _ids(ledger: Ledger) -> list[int]:
    return [n.id for n in ledger.recorder.select_notifications(None, 100_000)]


@pytest.fixture(scope="module")
def backup() -> Iterator[Backup]:
    with postgres_schema() as env:
        ledger = Ledger(env=env)
        try:
            game = play_demo(ledger, demo_setup(7))
            events = list(ledger.event_maps(game))
            branch = ledger.branch(game, last_decision_point(events[:400]))
            view = make_view(ledger)
            catch_up(ledger, view)
            found = Backup(env["POSTGRES_SCHEMA"], "", branch=branch)
            for g in (game, branch):
                maps = list(ledger.event_maps(g))
                found.games[g] = (len(maps), maps[-1]["hash"])
            found.top_id = max(_ids(ledger))
            found.tracked = view.max_tracking_id(tracking_name(ledger)) or 0
        finally:
            ledger.close()
        dumped = subprocess.run(
            ["pg_dump", "-h", POSTGRES["POSTGRES_HOST"], "-p", POSTGRES["POSTGRES_PORT"], "-U", POSTGRES["POSTGRES_USER"],
             "-n", found.schema, POSTGRES["POSTGRES_DBNAME"]],
            check=True, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        found.dump = dumped.stdout
        yield found


@pytest.fixture(scope="module")
def restored(backup: Backup) -> Iterator[dict[str, str]]:
    with fresh_cluster() as settings:
        subprocess.run(
            ["psql", "-h", settings["POSTGRES_HOST"], "-p", settings["POSTGRES_PORT"], "-U", "postgres", "-d", settings["POSTGRES_DBNAME"],
             "--single-transaction", "-v", "ON_ERROR_STOP=1", "-q", "-f", "-"],
            input=backup.dump, check=True, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        yield {"PERSISTENCE_MODULE": "eventsourcing.postgres", **settings, "POSTGRES_SCHEMA": backup.schema}


def test_the_backup_was_numbered_far_above_the_new_clusters_transaction_counter(backup: Backup, restored: dict[str, str]) -> None:
    assert backup.top_id >> 16 > next_xid(restored), "the case under test: the old server had run more transactions"


def test_a_reader_lists_every_game_of_a_backup_restored_on_a_new_cluster(backup: Backup, restored: dict[str, str]) -> None:
    reader = Ledger(env={**restored, "CREATE_TABLE": "false"}, writes=False)
    try:
        assert sorted(reader.game_ids()) == sorted(backup.games)
        assert max(_ids(reader)) == backup.top_id
    finally:
        reader.close()
    listed = cli("games", "--json", store=restored)
    assert listed.returncode == 0, listed.stderr
    assert sorted(UUID(line["game"]) for line in map(json.loads, listed.stdout.splitlines())) == sorted(backup.games)


def test_every_restored_game_reads_as_stored_and_audits_clean(backup: Backup, restored: dict[str, str]) -> None:
    reader = Ledger(env={**restored, "CREATE_TABLE": "false"}, writes=False)
    try:
        for game, (count, last_hash) in backup.games.items():
            maps = list(reader.event_maps(game))
            assert (len(maps), maps[-1]["hash"]) == (count, last_hash)
            assert audit_game(reader, game).clean
    finally:
        reader.close()


def test_new_events_on_a_restored_store_come_after_every_restored_event(backup: Backup, restored: dict[str, str]) -> None:
    writer = Ledger(env=restored)
    try:
        new_game = writer.start(demo_setup(11))
        assert backup.branch is not None
        for _ in range(5):  # the branch is continued where it was cut
            writer.decide(backup.branch, choose(writer.state_now(backup.branch)))  # type: ignore[arg-type]
        ids = _ids(writer)
        assert ids == sorted(ids)
        newer = [n for n in writer.recorder.select_notifications(backup.top_id, 100_000, inclusive_of_start=False)]
        assert newer and {n.originator_id for n in newer} >= {new_game, backup.branch}
        assert sorted(writer.game_ids()) == sorted([*backup.games, new_game])
        again = writer.branch(backup.branch, last_decision_point(list(writer.event_maps(backup.branch))))
        writer.decide(again, choose(writer.state_now(again)))  # type: ignore[arg-type]
        assert min(n.id for n in writer.recorder.select_notifications(None, 100_000) if n.originator_id == again) > backup.top_id
    finally:
        writer.close()


def test_a_projection_catches_up_across_the_restore(backup: Backup, restored: dict[str, str]) -> None:
    ledger = Ledger(env=restored)
    try:
        view = make_view(ledger)
        name = tracking_name(ledger)
        assert view.max_tracking_id(name) == backup.tracked  # where it stood on the old server
        folded = catch_up(ledger, view)
        assert folded > 0  # the events written on the new cluster, and only those
        assert view.max_tracking_id(name) == max(_ids(ledger))
        assert backup.branch is not None
        shown: Any = view.phase_step(backup.branch)
        state = ledger.state(backup.branch)
        assert shown is not None
        assert (shown["version"], shown["turn"], shown["step"]) == (len(list(ledger.event_maps(backup.branch))), state.turn, state.step)
    finally:
        ledger.close()


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "backups.md"


def test_the_postgresql_backup_guide_runs_as_written_from_the_loopback_server_to_a_new_one(tmp_path: Path) -> None:
    """The guide's blocks, in order, with its database named for this test and its second server's port
    the port of a cluster created for it."""
    database = f"mtgl_guide_{os.getpid()}"
    with _connect() as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(database)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
    try:
        old = {"PERSISTENCE_MODULE": "eventsourcing.postgres", **POSTGRES, "POSTGRES_DBNAME": database, "POSTGRES_SCHEMA": "mtgl"}
        played = cli("play", str(examples.path("contract_example")), store=old)
        assert played.returncode == 0, played.stderr
        game = played.stdout.strip()
        with fresh_cluster() as new:
            guide = GUIDE.read_text().split("\n## PostgreSQL\n")[1]
            script = "\n".join(re.findall(r"```sh\n(.*?)```", guide, re.S)).replace("ledgerdb", database).replace("5433", new["POSTGRES_PORT"])
            env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_"))}
            env.update(GAME=game, MTG_LEDGER_LOG_LEVEL="warning", PATH=f"{Path(sys.executable).parent}:{env['PATH']}")
            done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
            assert done.returncode == 0, done.stdout + done.stderr
            assert game in done.stdout and "clean" in done.stdout.lower()
    finally:
        with _connect() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database)))


@pytest.mark.parametrize("name", [store for store in STORES if store.endswith("-postgres")])
def test_each_fixture_store_lists_its_games_on_a_cluster_created_for_the_test(name: str) -> None:
    """The stores of schemas 2 and 3, written where a server's counter stood far higher, loaded as a backup
    into a server made now: every game they hold is listed, by a reader and by a writer."""
    with fresh_cluster() as settings:
        def connect() -> Any:
            return psycopg.connect(host=settings["POSTGRES_HOST"], port=int(settings["POSTGRES_PORT"]), user="postgres",
                                   dbname=settings["POSTGRES_DBNAME"], autocommit=True)  # fmt: skip

        with connect() as conn:
            conn.execute("CREATE SCHEMA fixture")
        load_dump(name, "fixture", connect)
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", **settings, "POSTGRES_SCHEMA": "fixture"}
        for ledger in (Ledger(env={**env, "CREATE_TABLE": "false"}, writes=False), Ledger(env=env)):
            try:
                assert sorted(map(str, ledger.game_ids())) == sorted(expected(name))
            finally:
                ledger.close()
