"""`make fault` (issue 13): ``serve --workers 2`` on the loopback PostgreSQL, clients playing many games,
and faults under load; afterwards nothing acknowledged is lost and nothing is stored twice.

Not part of `make test` (the file name is not ``test_*``): it restarts the PostgreSQL cluster, which other
test runs on this machine notice for a second or so. Bounded: about 25 s, loopback only.

1. ``GAMES`` games, one client thread each, plays decisions with an ``Idempotency-Key`` and the
   ``expected_version`` it read; after a dropped connection, a timeout or a 503 it sends the same request
   again (honouring ``Retry-After``) until it gets an answer. One more client follows game 0's live stream,
   resuming with ``Last-Event-ID`` whenever its connection drops.
2. ``KILLS`` times, one worker process is killed with SIGKILL mid-load; ``serve`` starts another.
3. Once, the PostgreSQL cluster restarts (``pg_ctlcluster VERSION main restart``): the workers reconnect,
   clients get 503 with ``Retry-After`` meanwhile (``MONITORS`` more clients ask every 10 ms, to see them). The cluster is up again before the test returns, even
   when it fails.
4. Then, for every game in the store: its log is contiguous, its hash chain holds (over the maps as
   recorded), it replays and audits clean; the events after its start are exactly the events of the
   decisions acknowledged with 200, each once (nothing acknowledged missing, no retry stored twice);
   no client ever got a 409, a 422 or a 5xx other than 503; the follower saw every event of game 0 once, in order.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import httpx
import pytest

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.logfile import header_for, integrity
from mtg_ledger.replays.audit.replay import replay
from tests.conftest import POSTGRES, postgres_schema
from tests.service_server import bearer, ndjson, worker_pids, workers

pytestmark = pytest.mark.postgres

GAMES = 8
KILLS = 3
MONITORS = 3  # clients asking every 10 ms while the database restarts
WARM_UP_S = 3.0  # load before the first fault
BETWEEN_S = 2.0  # load between faults, once the killed worker is back
AFTER_S = 4.0  # load after the database is back
DEADLINE_S = 30.0  # the longest any one request may take, retries included, before the test fails
LOOPBACK = ("127.0.0.1", "localhost", "::1")
SETUP = {
    "starting_player": "alice",
    "players": [
        {"name": "alice", "library": ["Forest", "Llanowar Elves", "Forest", "Grizzly Bears"] * 20, "hand": ["Forest", "Llanowar Elves"]},
        {"name": "bob", "library": ["Mountain", "Lightning Bolt", "Mountain", "Hill Giant"] * 20, "hand": ["Mountain"]},
    ],
}


@dataclass
class Tally:
    """What every client saw."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: dict[int, int] = field(default_factory=dict)
    dropped: int = 0  # requests that got no answer (a killed worker, a timeout): sent again
    unavailable_without_retry_after: int = 0
    unavailable_at: list[float] = field(default_factory=list)
    longest: float = 0.0

    def count(self, status: int | str) -> None:
        with self.lock:
            if isinstance(status, int):
                self.statuses[status] = self.statuses.get(status, 0) + 1
            else:
                self.dropped += 1


RECEIPTS_ADDED = ("commitments", "salts")  # the keys a player's copy of an event gains for receipts (docs/receipts.md)


def call(http: httpx.Client, tally: Tally, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """One request, sent again (the same request: same key, same body) until it gets an answer other than 503."""
    began = time.monotonic()
    while True:
        assert time.monotonic() - began < DEADLINE_S, f"{method} {path}: no answer within {DEADLINE_S} s"
        try:
            r = http.request(method, path, **kwargs)
        except httpx.TransportError:  # the worker was killed, or the answer never came: send it again
            tally.count("dropped")
            time.sleep(0.05)
            continue
        tally.count(r.status_code)
        if r.status_code != 503:
            with tally.lock:
                tally.longest = max(tally.longest, time.monotonic() - began)
            return r
        with tally.lock:
            tally.unavailable_at.append(time.monotonic())
            if "Retry-After" not in r.headers:
                tally.unavailable_without_retry_after += 1
        time.sleep(min(float(r.headers.get("Retry-After", "1")), 1.0) / 4)  # a fraction: the test measures how soon service resumes


@dataclass
class Player:
    """One game, played by one client until told to stop; what was acknowledged, by key."""

    url: str
    tally: Tally
    seed: int
    game: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    created_version: int = 0
    acknowledged: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> the 200 answer
    refused: list[str] = field(default_factory=list)
    error: BaseException | None = None

    def start(self) -> None:
        with httpx.Client(base_url=self.url, timeout=10) as http:
            r = call(http, self.tally, "POST", "/games", json=SETUP)  # before the faults: a game created twice would only be a stray game
            assert r.status_code == 201, r.text
            self.game, self.tokens, self.created_version = r.json()["game"], r.json()["tokens"], r.json()["version"]

    def play(self, stop: threading.Event) -> None:
        rng = random.Random(self.seed)
        try:
            with httpx.Client(base_url=self.url, timeout=5) as http:
                while not stop.is_set():
                    d = call(http, self.tally, "GET", f"/games/{self.game}/decision", headers=bearer(self.tokens["judge"]))
                    assert d.status_code == 200, d.text
                    decision = d.json()
                    if decision["player"] is None:
                        return  # the game is over
                    options = [a for a in decision["legal"] if a["action"] != "concede"] or decision["legal"]
                    action = rng.choice(options)
                    key = f"{self.game}:{len(self.acknowledged)}"
                    headers = {**bearer(self.tokens[decision["player"]]), "Idempotency-Key": key}
                    r = call(http, self.tally, "POST", f"/games/{self.game}/actions", headers=headers, json={**action, "expected_version": decision["version"]})
                    if r.status_code != 200:
                        self.refused.append(f"{r.status_code} {r.text}")
                        return
                    self.acknowledged[key] = r.json()
        except BaseException as e:  # noqa: BLE001 - reported by the test
            self.error = e


class Follower(threading.Thread):
    """Follows one game's live stream as the judge; resumes with Last-Event-ID after every drop."""

    def __init__(self, url: str, game: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.game, self.token = url, game, token
        self.versions: list[int] = []
        self.resumed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            headers = bearer(self.token)
            if self.versions:
                headers["Last-Event-ID"] = str(self.versions[-1])
            try:
                with httpx.stream("GET", f"{self.url}/games/{self.game}/stream", headers=headers, timeout=httpx.Timeout(5, read=3)) as r:
                    if r.status_code != 200:
                        time.sleep(0.1)
                        continue
                    for line in r.iter_lines():
                        if line.startswith("id: "):
                            self.versions.append(int(line[4:]))
                        if line == "event: GameEnded" or self.stop.is_set():
                            return
            except httpx.TransportError:
                pass
            self.resumed += 1


class Monitor(threading.Thread):
    """Asks for a game's pending decision every 10 ms, as a client arriving at any moment would, giving up
    on an answer after 0.1 s: sees the 503s while the database restarts (a fraction of a second here: the
    playing clients are mostly waiting on a request in flight, which the worker carries through it)."""

    def __init__(self, url: str, game: str, token: str, tally: Tally) -> None:
        super().__init__(daemon=True)
        self.url, self.game, self.token, self.tally = url, game, token, tally
        self.stop = threading.Event()

        self.seen: list[tuple[float, float, int]] = []  # when sent, how long it took, the status

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=0.1) as http:
            while not self.stop.wait(0.01):
                began = time.monotonic()
                try:
                    r = http.get(f"/games/{self.game}/decision", headers=bearer(self.token))
                except httpx.TransportError:
                    self.tally.count("dropped")
                    continue
                self.seen.append((began, time.monotonic() - began, r.status_code))
                self.tally.count(r.status_code)
                if r.status_code == 503:
                    with self.tally.lock:
                        self.tally.unavailable_at.append(time.monotonic())
                        if "Retry-After" not in r.headers:
                            self.tally.unavailable_without_retry_after += 1


def restart_postgres() -> float:
    """``pg_ctlcluster VERSION main restart``; returns how long it took."""
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    began = time.monotonic()
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"], check=True, capture_output=True, timeout=60)
    return time.monotonic() - began


def postgres_back_up() -> None:
    """The cluster accepting connections again, whatever happened (other test runs share it)."""
    for _ in range(60):
        if subprocess.run(["pg_isready", "-q", "-h", POSTGRES["POSTGRES_HOST"], "-p", POSTGRES["POSTGRES_PORT"]]).returncode == 0:
            return
        version = sorted(os.listdir("/etc/postgresql"))[-1]
        subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"], capture_output=True, timeout=60)
        time.sleep(1)
    raise AssertionError("PostgreSQL is not accepting connections again")


def replaced(process: subprocess.Popen[str], killed: int, deadline: float) -> None:
    while True:
        now = worker_pids(process.pid)
        if killed not in now and len(now) == 2:
            return
        assert time.monotonic() < deadline, "the killed worker was never replaced"
        time.sleep(0.05)


def test_under_load_killed_workers_and_a_database_restart_lose_nothing_acknowledged_and_store_no_retry_twice() -> None:
    assert POSTGRES["POSTGRES_HOST"] in LOOPBACK, "the fault test restarts a loopback PostgreSQL only"
    assert shutil.which("pg_ctlcluster") and os.path.isdir("/etc/postgresql"), "the fault test needs pg_ctlcluster (Debian's postgresql-common)"
    began = time.monotonic()
    tally = Tally()
    with tempfile.TemporaryFile("w+") as server_log, postgres_schema() as store:
        with workers(store, 2, stderr=server_log) as (process, url):
            players = [Player(url, tally, seed=i) for i in range(GAMES)]
            for p in players:
                p.start()
            follower = Follower(url, players[0].game, players[0].tokens["judge"])
            follower.start()
            stop = threading.Event()
            threads = [threading.Thread(target=p.play, args=(stop,)) for p in players]
            for t in threads:
                t.start()
            kills: list[int] = []
            restart_took = restart_began = 0.0
            monitors: list[Monitor] = []
            try:
                time.sleep(WARM_UP_S)
                for k in range(KILLS):
                    victim = worker_pids(process.pid)[k % 2]
                    os.kill(victim, signal.SIGKILL)
                    kills.append(victim)
                    replaced(process, victim, time.monotonic() + 20)
                    time.sleep(BETWEEN_S)
                before_restart = sum(len(p.acknowledged) for p in players)
                monitors = [Monitor(url, players[i].game, players[i].tokens["judge"], tally) for i in range(MONITORS)]
                for m in monitors:
                    m.start()
                    time.sleep(0.007)  # staggered: one of them is free whenever the database goes
                restart_began = time.monotonic()
                try:
                    restart_took = restart_postgres()
                finally:
                    postgres_back_up()
                time.sleep(AFTER_S)
            finally:
                stop.set()
                for m in monitors:
                    m.stop.set()
                for t in threads:
                    t.join(timeout=DEADLINE_S + 5)
            after_restart = sum(len(p.acknowledged) for p in players) - before_restart
            assert not any(t.is_alive() for t in threads), "a client never finished its last decision"
            for p in players:
                assert p.error is None, f"game {p.game}: {p.error!r}\n{_tail(server_log)}"
                assert p.refused == [], f"game {p.game}: refused {p.refused}"
            # the follower catches up with game 0 as it ended up
            judge0 = bearer(players[0].tokens["judge"])
            final0 = httpx.get(f"{url}/games/{players[0].game}/decision", headers=judge0).json()["version"]
            catch_up = time.monotonic() + 10
            while (not follower.versions or follower.versions[-1] < final0) and time.monotonic() < catch_up:
                time.sleep(0.05)
            follower.stop.set()
            service_logs = {p.game: ndjson(httpx.get(f"{url}/games/{p.game}/events", headers=bearer(p.tokens["judge"])).text) for p in players}
            audits = {p.game: httpx.get(f"{url}/games/{p.game}/audit", headers=bearer(p.tokens["judge"])).json() for p in players}
        ledger = Ledger(env={**store, "CREATE_TABLE": "false", "MTGLEDGER_CREATE_TABLE": "false"})
        try:
            stored_games = [str(g) for g in ledger.game_ids()]
            recorded = {g: ledger.recorded_log(UUID(g)) for g in stored_games}
        finally:
            ledger.close()

    acknowledged = sum(len(p.acknowledged) for p in players)
    outage = (max(tally.unavailable_at) - min(tally.unavailable_at)) if tally.unavailable_at else 0.0
    print(
        f"\nfault test, {time.monotonic() - began:.0f} s: {GAMES} games, {acknowledged} decisions acknowledged"
        f" ({after_restart} after the database restart), {KILLS} workers killed, PostgreSQL restarted in {restart_took:.1f} s;"
        f" answers {dict(sorted(tally.statuses.items()))}, {tally.dropped} requests dropped and sent again;"
        f" 503s (with Retry-After) over {outage:.1f} s; the longest request, retries included, {tally.longest:.1f} s;"
        f" the follower resumed {follower.resumed} times and saw {len(follower.versions)} events"
    )
    for m in monitors:
        print("a monitor's requests around the restart (s after it began, s taken, status):", _timeline(m.seen, restart_began, restart_took))
    assert not any(status >= 500 and status != 503 for status in tally.statuses), tally.statuses
    assert tally.statuses.get(503, 0) >= 1, "no client saw a 503 while the database restarted"
    assert tally.unavailable_without_retry_after == 0
    assert tally.dropped >= 1, "no request was in flight on a killed worker: the kills tested nothing"
    assert after_restart >= GAMES, "the workers did not take decisions again after the database restart"

    assert sorted(stored_games) == sorted(p.game for p in players)  # nothing created twice either
    for p in players:
        log = service_logs[p.game]
        maps, versions = recorded[p.game]
        assert [e["v"] for e in log] == list(range(1, len(log) + 1)), f"game {p.game}: the log has a gap or a repeat"
        assert integrity(maps, header_for(p.game, maps, versions)) == [], f"game {p.game}: the hash chain is broken"
        assert replay(maps, versions=versions).ok, f"game {p.game}: the log does not replay"
        assert audit(p.game, maps, versions=versions).clean and audits[p.game]["clean"] is True
        # after the start, exactly the acknowledged decisions' events, each once, in the order they were acknowledged
        answered = [e for answer in p.acknowledged.values() for e in answer["events"]]
        assert [e["v"] for e in answered] == list(range(p.created_version + 1, len(log) + 1)), f"game {p.game}: acknowledged {len(p.acknowledged)} decisions, stored otherwise"
        for seen, stored in zip(answered, log[p.created_version :], strict=True):  # a player's copy: hidden values are null
            # (what receipts add to a player's copy, the commitments and salts, is not part of the stored event)
            assert all(value is None or stored.get(name) == value for name, value in seen.items() if name not in RECEIPTS_ADDED), (seen, stored)
    assert follower.versions == list(range(1, final0 + 1)), "the live stream of game 0 missed or repeated an event"


def _timeline(seen: list[tuple[float, float, int]], began: float, took: float) -> str:
    """Runs of one status, and any request slower than 0.2 s, from the restart's start to 2 s after its end."""
    out: list[str] = []
    for at, duration, status in seen:
        offset = at - began
        if not -0.1 <= offset <= took + 2:
            continue
        if duration > 0.2 or not out or not out[-1].endswith(f" {status}"):
            out.append(f"{offset:+.2f} {duration:.2f} {status}")
    return "; ".join(out)


def _tail(log: Any) -> str:
    log.seek(0)
    return "server's stderr:\n" + "".join(log.readlines()[-30:])


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(pytest.main([__file__, "-q", "-s"]))
