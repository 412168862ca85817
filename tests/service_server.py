"""A real ``mtg-ledger serve`` process on 127.0.0.1 for the service's tests: started on a free port,
waited for (``/healthz``), stopped with SIGTERM; and small clients for it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from mtg_ledger.replays.cards import live_pool

CARD_NAMES = frozenset(live_pool().catalog.names())


@contextmanager
def server(store: dict[str, str], **settings: str) -> Iterator[str]:
    """A server over ``store`` (eventsourcing variables); yields its base URL."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_"))}
    env.update(store)
    env.update(settings)
    env["MTG_LEDGER_LOG_LEVEL"] = "warning"
    command = [sys.executable, "-m", "mtg_ledger.replays.cli", "serve", "--port", "0"]
    if "SQLITE_DBNAME" in store:
        command += ["--db", store["SQLITE_DBNAME"]]
    with running(command, env) as url:
        yield url


@contextmanager
def running(command: list[str], env: dict[str, str], cwd: Path | None = None) -> Iterator[str]:
    """``mtg-ledger serve ... --port 0`` started as ``command``: yields its URL once it answers; stopped with
    SIGTERM, which it must obey within 15 s, exiting 0."""
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # "mtg-ledger serving on http://127.0.0.1:PORT", once it listens
        if not line.startswith("mtg-ledger serving on "):
            process.kill()
            raise RuntimeError(f"the server did not start: {line!r} {process.stderr.read() if process.stderr else ''}")
        url = line.split()[3]
        deadline = time.monotonic() + 60  # a worker still starting may not answer for seconds on a busy machine
        while not healthy(url):
            assert time.monotonic() < deadline, "the server never became healthy"
            time.sleep(0.05)
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                stopped = process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise AssertionError("the server did not stop within 15 s of SIGTERM") from None
            assert stopped == 0, f"the server stopped with status {stopped}"


@contextmanager
def workers(store: dict[str, str], count: int, stderr: Any = subprocess.DEVNULL) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``serve --workers count`` over ``store``; yields the process and its URL once every worker answers."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_"))}
    env.update(store, MTG_LEDGER_LOG_LEVEL="warning")
    process = subprocess.Popen(
        [sys.executable, "-m", "mtg_ledger.replays.cli", "serve", "--port", "0", "--workers", str(count)],
        env=env, stdout=subprocess.PIPE, stderr=stderr, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[3]
        deadline = time.monotonic() + 60
        while len(worker_pids(process.pid)) < count or not healthy(url):
            assert time.monotonic() < deadline, "the workers never became healthy"
            time.sleep(0.1)
        yield process, url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def worker_pids(parent: int) -> list[int]:
    """The worker processes of ``serve --workers N`` (the spawned children of its process)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == parent and b"spawn_main" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return sorted(found)


def healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(url: str, setup: dict[str, Any]) -> tuple[str, dict[str, str]]:
    r = httpx.post(f"{url}/games", json=setup, timeout=30)  # a server's first game reads the card pool: slow on a busy machine
    assert r.status_code == 201, r.text
    return r.json()["game"], r.json()["tokens"]


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


def card_names(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if value in CARD_NAMES else set()
    if isinstance(value, dict):
        return set().union(set(), *(card_names(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(card_names(v) for v in value))
    return set()


def cli(*argv: str, store: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own, on the same store."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_"))}
    env.update(store)
    env["MTG_LEDGER_LOG_LEVEL"] = "warning"
    extra = ["--db", store["SQLITE_DBNAME"]] if "SQLITE_DBNAME" in store else []
    return subprocess.run([sys.executable, "-m", "mtg_ledger.replays.cli", *argv, *extra], env=env, capture_output=True, text=True, timeout=120)


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


class Follower:
    """A client following a game's stream from version ``first``, in a thread of its own, noting when each
    event arrives (``arrivals``: version -> perf_counter). It stops after event ``stop_at``, which a test
    sets before it sends the last decision. As a context manager: attached on entry, joined on exit."""

    def __init__(self, url: str, game: str, token: str, first: int) -> None:
        self.arrivals: dict[int, float] = {}
        self.stop_at = 10**9
        self._attached = threading.Event()
        self._thread = threading.Thread(target=self._follow, args=(f"{url}/games/{game}/stream?from={first}", token))

    def _follow(self, address: str, token: str) -> None:
        with httpx.stream("GET", address, headers=bearer(token), timeout=30) as r:
            self._attached.set()
            for line in r.iter_lines():
                if line.startswith("data: "):
                    v = json.loads(line[6:])["v"]
                    self.arrivals.setdefault(v, time.perf_counter())
                    if v >= self.stop_at:
                        return

    def __enter__(self) -> Follower:
        self._thread.start()
        assert self._attached.wait(10), "the stream never answered"
        return self

    def __exit__(self, *_: object) -> None:
        self._thread.join(timeout=10)
