"""Several worker processes over one PostgreSQL store (issue 13): a stream attached to one process shows
decisions taken through another at once (LISTEN/NOTIFY, not polling)."""

from __future__ import annotations

import json
import statistics
import threading
import time

import httpx
import pytest

from tests.conftest import postgres_schema
from tests.service_server import bearer, new_game, server

pytestmark = pytest.mark.postgres
SETUP = {
    "starting_player": "alice",
    "players": [{"name": "alice", "library": ["Forest"] * 30, "hand": []}, {"name": "bob", "library": ["Mountain"] * 30, "hand": []}],
}
BOUND_S = 0.5  # the target is 100 ms (measured by `make bench`); this bound only keeps a busy machine from failing the test


def _listening(url: str) -> None:
    deadline = time.monotonic() + 10
    while httpx.get(f"{url}/healthz").json()["streams"] != "listen":
        assert time.monotonic() < deadline, "the server never listened for notifications"
        time.sleep(0.05)


def test_a_stream_attached_to_one_server_shows_decisions_taken_through_another_within_half_a_second() -> None:
    with postgres_schema() as store, server(store) as a, server(store) as b:
        _listening(a)
        game, tokens = new_game(b, SETUP)
        arrivals: dict[int, float] = {}
        attached = threading.Event()
        last = [10**9]

        def follow() -> None:
            with httpx.stream("GET", f"{a}/games/{game}/stream?from=7", headers=bearer(tokens["judge"]), timeout=30) as r:
                attached.set()
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        v = json.loads(line[6:])["v"]
                        arrivals.setdefault(v, time.perf_counter())
                        if v >= last[0]:
                            return

        follower = threading.Thread(target=follow)
        follower.start()
        sent: list[tuple[int, float, float]] = []  # the decision's first version, when it was sent, when it was answered
        try:
            assert attached.wait(10)
            time.sleep(0.2)  # the stream has read what there is and waits
            for i in range(8):
                d = httpx.get(f"{b}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
                if i == 7:
                    last[0] = d["version"] + 1
                began = time.perf_counter()
                r = httpx.post(f"{b}/games/{game}/actions", headers=bearer(tokens[d["player"]]), json={"action": "pass"})
                assert r.status_code == 200
                sent.append((r.json()["events"][0]["v"], began, time.perf_counter()))
                time.sleep(0.3)  # longer than a poll of 50 ms, shorter than the 1 s fallback read
        finally:
            follower.join(timeout=10)
        delays = [arrivals[v] - began for v, began, _ in sent if v in arrivals]
        assert len(delays) == len(sent), (sent, sorted(arrivals))
        after = [max(0.0, arrivals[v] - answered) for v, _, answered in sent]
        print(
            f"\nstream on A, decisions through B: from the request {statistics.median(delays) * 1000:.1f} ms (median),"
            f" {max(delays) * 1000:.1f} ms (max); after B's answer {statistics.median(after) * 1000:.1f} ms, {max(after) * 1000:.1f} ms"
        )
        assert max(delays) < BOUND_S, delays
