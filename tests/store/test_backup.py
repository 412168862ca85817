"""``mtg-ledger backup``: a copy of an SQLite store taken while a real ``serve`` process writes to it
(games created and decisions taken over HTTP from a thread) is a consistent store of its own: it lists
its games, each audits clean and is a prefix of the live game, and play continues in it. A backup never
overwrites a file, and on PostgreSQL settings it points to pg_dump."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.service_server import bearer, cli, new_game, server

SETUP = {"players": [{"name": "alice", "library": ["Forest"] * 20, "hand": []}, {"name": "bob", "library": ["Mountain"] * 20, "hand": []}]}
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "backups.md"
MAX_GAMES = 6
MAX_WRITES = 400  # the writer's bound; it stops sooner when the test is done with it
WRITING_S = 60.0


class Writer:
    """Creates games and takes decisions in them over HTTP, in a thread, until stopped (or bounded)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.games: dict[str, dict[str, str]] = {}  # game id -> tokens, as each creation is answered
        self.writes = 0
        self.stop = threading.Event()
        self.failure: str | None = None
        self._thread = threading.Thread(target=self._write)

    def _write(self) -> None:
        deadline = time.monotonic() + WRITING_S
        with httpx.Client(base_url=self.url, timeout=30) as client:
            while not self.stop.is_set() and self.writes < MAX_WRITES and time.monotonic() < deadline:
                if len(self.games) < MAX_GAMES and self.writes % 10 == 0:
                    game, tokens = new_game(self.url, SETUP)
                    self.games[game] = tokens
                elif not self._decide(client, list(self.games)[self.writes % len(self.games)]):
                    self.failure = f"a decision was refused after {self.writes} writes"
                    return
                self.writes += 1

    def _decide(self, client: httpx.Client, game: str) -> bool:
        tokens = self.games[game]
        decision = client.get(f"/games/{game}/decision", headers=bearer(tokens["judge"])).json()
        if decision["player"] is None:  # this game is over: nothing to decide
            return True
        action = {k: v for k, v in decision["legal"][0].items() if k != "player"}
        return client.post(f"/games/{game}/actions", headers=bearer(tokens[decision["player"]]), json=action).status_code == 200

    def alive(self) -> bool:
        return self._thread.is_alive()

    def __enter__(self) -> Writer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self._thread.join(timeout=WRITING_S)
        assert self.failure is None, self.failure


def listed(db: Path) -> list[dict[str, Any]]:
    done = cli("games", "--json", store=_sqlite(db))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _sqlite(db: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}


def test_a_backup_taken_while_serve_writes_lists_audits_clean_and_continues(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.sqlite", tmp_path / "backup.sqlite"
    with server(_sqlite(live)) as url, Writer(url) as writer:
        while len(writer.games) < 3 and writer.alive():
            time.sleep(0.05)
        before = set(writer.games), writer.writes
        done = cli("backup", str(copy), store=_sqlite(live))
        after = set(writer.games), writer.writes
    assert done.returncode == 0, done.stderr
    assert after[1] > before[1], "nothing was written while the backup ran"
    games = listed(copy)
    assert (done.stdout, done.stderr) == ("", f"{copy}: a copy of {live} ({len(games)} games, {copy.stat().st_size} bytes)\n")
    assert before[0] <= {g["game"] for g in games} <= after[0]
    for game in games:
        audit = cli("audit", game["game"], store=_sqlite(copy))
        assert audit.returncode == 0 and audit.stdout.splitlines()[1].startswith("clean: "), audit.stdout + audit.stderr
        copied = cli("events", game["game"], store=_sqlite(copy)).stdout
        assert cli("events", game["game"], "--to", str(game["events"]), store=_sqlite(live)).stdout == copied
    going_on = next(g["game"] for g in games if not g["ended"])
    legal = json.loads(cli("legal", going_on, store=_sqlite(copy)).stdout)
    decided = cli("decide", going_on, json.dumps(legal["legal"][0]), store=_sqlite(copy))
    assert decided.returncode == 0, decided.stderr
    assert json.loads(cli("legal", going_on, store=_sqlite(copy)).stdout)["version"] > legal["version"]
    assert cli("audit", going_on, store=_sqlite(copy)).returncode == 0


def test_a_backup_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.sqlite", tmp_path / "backup.sqlite"
    assert cli("demo", "--quiet", store=_sqlite(live)).returncode == 0
    copy.write_text("keep me")
    done = cli("backup", str(copy), store=_sqlite(live))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"mtg-ledger: {copy} already exists: a backup never overwrites a file; name a new one\n"
    assert copy.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == ["backup.sqlite"]


@pytest.mark.postgres
def test_a_backup_on_postgresql_settings_points_to_pg_dump(postgres_env: dict[str, str], tmp_path: Path) -> None:
    done = cli("backup", str(tmp_path / "backup.sqlite"), store=postgres_env)
    assert (done.returncode, done.stdout) == (2, "")
    assert "back PostgreSQL up with pg_dump (see docs/backups.md)" in done.stderr and len(done.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_the_shell_examples_of_the_backup_guide_run_as_written(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    script = "\n".join(re.findall(r"```sh\n(.*?)```", GUIDE.read_text().split("\n## PostgreSQL\n")[0], re.S)).replace("--port 8000", f"--port {port}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_", "MTG_LEDGER_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "backups/games-monday.sqlite: a copy of games.sqlite (1 game, " in done.stderr  # a confirmation: stderr, as git
    assert "clean: 161 events" in done.stdout
    assert {p.name for p in (tmp_path / "backups").iterdir()} >= {"games-monday.sqlite", "games-shell.sqlite"}
