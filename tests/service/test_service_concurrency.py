"""Racing writers (docs/reference/http.md, Writes): on the real PostgreSQL, two server processes on one
store, eight clients sending the same decision with the same expected_version: exactly one wins each
version, the others get 409, and the log never forks. A client that loses its connection after sending
and retries with its Idempotency-Key never stores a decision twice."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from tests.conftest import postgres_schema
from tests.service_server import bearer, ndjson, new_game, server

CLIENTS = 8
ROUNDS = 12
SETUP = {
    "starting_player": "alice",
    "players": [{"name": "alice", "library": ["Forest"] * 30, "hand": []}, {"name": "bob", "library": ["Mountain"] * 30, "hand": []}],
}

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def urls() -> Iterator[tuple[str, str]]:
    with postgres_schema() as store, server(store) as a, server(store) as b:
        yield a, b


def test_eight_clients_racing_one_version_one_wins_the_others_get_409_and_the_log_is_contiguous(urls: tuple[str, str]) -> None:
    game, tokens = new_game(urls[0], SETUP)
    judge = bearer(tokens["judge"])
    clients = [httpx.Client(base_url=urls[i % 2]) for i in range(CLIENTS)]
    try:
        for _ in range(ROUNDS):
            d = clients[0].get(f"/games/{game}/decision", headers=judge).json()
            barrier = threading.Barrier(CLIENTS)
            codes: list[int] = []

            def race(
                client: httpx.Client, version: int = d["version"], player: str = d["player"], barrier: threading.Barrier = barrier, codes: list[int] = codes
            ) -> None:
                barrier.wait()
                r = client.post(f"/games/{game}/actions", headers=bearer(tokens[player]), json={"action": "pass", "expected_version": version})
                codes.append(r.status_code)

            threads = [threading.Thread(target=race, args=(c,)) for c in clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=30)
            assert sorted(codes) == [200] + [409] * (CLIENTS - 1), codes
    finally:
        for c in clients:
            c.close()
    log = ndjson(httpx.get(f"{urls[1]}/games/{game}/events", headers=judge).text)
    assert [e["v"] for e in log] == list(range(1, len(log) + 1))
    assert [e["type"] for e in log].count("PriorityPassed") == ROUNDS
    assert httpx.get(f"{urls[0]}/games/{game}/audit", headers=judge).json()["clean"] is True


def test_a_client_that_loses_its_connection_after_sending_and_retries_with_its_key_stores_the_decision_once(urls: tuple[str, str]) -> None:
    game, tokens = new_game(urls[0], SETUP)
    body = json.dumps({"action": "pass"}).encode()
    host = urlsplit(urls[0])
    request = (
        f"POST /games/{game}/actions HTTP/1.1\r\nHost: {host.netloc}\r\nAuthorization: Bearer {tokens['alice']}\r\n"
        f"Idempotency-Key: lost-1\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    with socket.create_connection((host.hostname, host.port)) as raw:
        raw.sendall(request)  # and hang up without reading the answer
    again = {**bearer(tokens["alice"]), "Idempotency-Key": "lost-1", "Content-Type": "application/json"}
    retries = [httpx.post(f"{url}/games/{game}/actions", headers=again, content=body) for url in urls]
    assert [r.status_code for r in retries] == [200, 200] and retries[0].json() == retries[1].json()
    log = ndjson(httpx.get(f"{urls[1]}/games/{game}/events", headers=bearer(tokens["judge"])).text)
    assert [e["type"] for e in log].count("PriorityPassed") == 1
    assert retries[0].json()["events"][0] == {k: v for k, v in log[retries[0].json()["events"][0]["v"] - 1].items() if k != "hash"}
