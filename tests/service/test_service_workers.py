"""Several worker processes over one PostgreSQL store (issue 13): a stream attached to one process shows
decisions taken through another at once (LISTEN/NOTIFY, not polling), a worker killed with SIGKILL is
replaced while the others go on answering, and a stop ends live streams at once."""

from __future__ import annotations

import os
import signal
import statistics
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import postgres_schema
from tests.service_server import Follower, bearer, healthy, new_game, server, worker_pids, workers

pytestmark = pytest.mark.postgres
SETUP = {
    "starting_player": "alice",
    "players": [{"name": "alice", "library": ["Forest"] * 30, "hand": []}, {"name": "bob", "library": ["Mountain"] * 30, "hand": []}],
}
BOUND_S = 0.5  # the target is 100 ms (measured by `make bench`); this bound only keeps a busy machine from failing the test


def _listening(url: str) -> None:
    deadline = time.monotonic() + 10
    while (r := httpx.get(f"{url}/healthz")).status_code != 200 or r.json()["streams"] != "listen":
        assert time.monotonic() < deadline, "the server never listened for notifications"
        time.sleep(0.05)


def test_a_stream_attached_to_one_server_shows_decisions_taken_through_another_within_half_a_second() -> None:
    with postgres_schema() as store, server(store) as a, server(store) as b:
        _listening(a)
        game, tokens = new_game(b, SETUP)
        sent: list[tuple[int, float, float]] = []  # the decision's first version, when it was sent, when it was answered
        with Follower(a, game, tokens["judge"], 7) as follower:
            time.sleep(0.2)  # the stream has read what there is and waits
            for i in range(8):
                d = httpx.get(f"{b}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
                if i == 7:
                    follower.stop_at = d["version"] + 1
                began = time.perf_counter()
                r = httpx.post(f"{b}/games/{game}/actions", headers=bearer(tokens[d["player"]]), json={"action": "pass"})
                assert r.status_code == 200
                sent.append((r.json()["events"][0]["v"], began, time.perf_counter()))
                time.sleep(0.3)  # longer than a poll of 50 ms, shorter than the 1 s fallback read
        arrivals = follower.arrivals
        delays = [arrivals[v] - began for v, began, _ in sent if v in arrivals]
        assert len(delays) == len(sent), (sent, sorted(arrivals))
        after = [max(0.0, arrivals[v] - answered) for v, _, answered in sent]
        print(
            f"\nstream on A, decisions through B: from the request {statistics.median(delays) * 1000:.1f} ms (median),"
            f" {max(delays) * 1000:.1f} ms (max); after B's answer {statistics.median(after) * 1000:.1f} ms, {max(after) * 1000:.1f} ms"
        )
        assert max(delays) < BOUND_S, delays


def test_a_worker_killed_with_sigkill_is_replaced_and_the_server_answers_meanwhile() -> None:
    with postgres_schema() as store, workers(store, 2) as (process, url):
        game, tokens = new_game(url, SETUP)
        before = worker_pids(process.pid)
        os.kill(before[0], signal.SIGKILL)
        answered = 0
        deadline = time.monotonic() + 20
        while True:
            try:
                with httpx.Client(base_url=url) as fresh:  # a new connection: whichever worker accepts it answers
                    r = fresh.get(f"/games/{game}/decision", headers=bearer(tokens["judge"]))
                assert r.status_code == 200
                answered += 1
            except httpx.TransportError:
                pass  # a connection the killed worker had already accepted dies with it
            now = worker_pids(process.pid)
            if now != [p for p in before if p != before[0]] and len(now) >= 2:
                break
            assert time.monotonic() < deadline, "the killed worker was never replaced"
            time.sleep(0.05)
        assert before[0] not in now and before[1] in now and answered >= 1
        while not healthy(url):
            assert time.monotonic() < deadline
        d = httpx.get(f"{url}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
        assert httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens[d["player"]]), json={"action": "pass"}).status_code == 200


def test_a_stop_ends_the_live_streams_of_every_worker_at_once() -> None:
    with postgres_schema() as store, workers(store, 2) as (process, url):
        game, tokens = new_game(url, SETUP)
        ended: list[float] = []

        def follow() -> None:
            with httpx.stream("GET", f"{url}/games/{game}/stream", headers=bearer(tokens["judge"]), timeout=30) as r:
                for _ in r.iter_lines():
                    pass
            ended.append(time.perf_counter())

        followers = [threading.Thread(target=follow) for _ in range(4)]  # on either worker, or both
        for f in followers:
            f.start()
        time.sleep(1.0)
        asked = time.perf_counter()
        process.send_signal(signal.SIGTERM)
        for f in followers:
            f.join(timeout=20)
        assert process.wait(timeout=20) == 0
        assert len(ended) == 4 and max(ended) - asked < 2.0, [round(e - asked, 2) for e in ended]


def test_workers_print_nothing_past_the_servers_address_at_the_default_log_level() -> None:
    with postgres_schema() as store, workers(store, 2) as (process, url):
        game, tokens = new_game(url, SETUP)
        for _ in range(6):
            d = httpx.get(f"{url}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
            assert httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens[d["player"]]), json={"action": "pass"}).status_code == 200
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=20)
    assert out == ""  # a spawned worker once logged every decision to stdout, and blocked once the pipe filled


def test_each_worker_listens_on_a_socket_of_its_own_on_the_one_port_so_the_kernel_spreads_connections() -> None:
    with postgres_schema() as store, workers(store, 3) as (process, url):
        port = int(url.rsplit(":", 1)[1])
        listening = [
            line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
            if line.split()[1].endswith(f":{port:04X}") and line.split()[3] == "0A"  # 0A: LISTEN
        ]  # fmt: skip
        assert len(listening) == 3  # SO_REUSEPORT: one queue per worker (one shared queue left one worker nearly every connection)
