"""How the service is run: an admin token for creating games, and several worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import postgres_schema
from tests.service_server import bearer, server

SETUP = {"players": [{"name": "alice", "library": ["Forest"] * 5, "hand": []}, {"name": "bob", "library": ["Mountain"] * 5, "hand": []}]}


def test_with_an_admin_token_set_only_its_holder_creates_games_or_imports_logs(tmp_path: Path) -> None:
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "admin.sqlite")}
    with server(store, MTG_LEDGER_ADMIN_TOKEN="s3cret") as url:
        assert httpx.post(f"{url}/games", json=SETUP).status_code == 401
        assert httpx.post(f"{url}/games", json=SETUP, headers=bearer("guess")).status_code == 401
        assert httpx.post(f"{url}/logs", content=b"x", headers=bearer("guess")).status_code == 401
        created = httpx.post(f"{url}/games", json=SETUP, headers=bearer("s3cret"))
        assert created.status_code == 201
        game, tokens = created.json()["game"], created.json()["tokens"]
        assert httpx.get(f"{url}/games/{game}/state", headers=bearer("s3cret")).status_code == 401  # not a game's token
        assert httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["bob"])).status_code == 200


@pytest.mark.postgres
def test_serve_with_two_workers_serves_one_store_on_one_port() -> None:
    with postgres_schema() as store:
        env = {**os.environ, **store, "MTG_LEDGER_LOG_LEVEL": "warning"}
        process = subprocess.Popen(
            [sys.executable, "-m", "mtg_ledger.replays.cli", "serve", "--port", "0", "--workers", "2"], env=env, stdout=subprocess.PIPE, text=True
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("mtg-ledger serving on ") and "(2 workers)" in line
            url = line.split()[3]
            deadline = time.monotonic() + 20
            while True:
                try:
                    if httpx.get(f"{url}/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline
                time.sleep(0.1)
            created = httpx.post(f"{url}/games", json=SETUP).json()
            for _ in range(10):  # whichever worker answers reads the same store
                r = httpx.get(f"{url}/games/{created['game']}/decision", headers=bearer(created["tokens"]["judge"]))
                assert r.status_code == 200 and r.json()["player"] == "alice"
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0


def test_serve_with_two_workers_on_sqlite_is_refused_in_one_line_that_names_postgresql(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_"))}
    done = subprocess.run(
        [sys.executable, "-m", "mtg_ledger.replays.cli", "serve", "--port", "0", "--workers", "2", "--db", str(tmp_path / "one.sqlite")],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "needs PostgreSQL" in done.stderr and "SQLite" in done.stderr
    assert not (tmp_path / "one.sqlite").exists()
