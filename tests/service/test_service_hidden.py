"""A player's token never reaches another player's hidden cards through any route (rules 400.2, 401.2,
402.3), and live following: the stream resumes with Last-Event-ID and carries decisions stored by
another server process on the same store."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.service_server import Follower, bearer, card_names, ndjson, new_game, server

# bob's cards are his alone: alice may see them only once they are public
SECRET = {"Lightning Bolt", "Hill Giant", "Serra Angel", "Divination", "Island"}
SETUP = {
    "starting_player": "alice",
    "players": [
        {"name": "alice", "library": ["Forest"] * 10, "hand": ["Forest", "Llanowar Elves"]},
        {"name": "bob", "library": ["Serra Angel", "Divination", "Island", "Hill Giant"], "hand": ["Lightning Bolt", "Island", "Hill Giant"]},
    ],
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path_factory.mktemp("hidden") / "ledger.sqlite")}


@pytest.fixture(scope="module")
def url(store: dict[str, str]) -> Iterator[str]:
    with server(store) as base:
        yield base


def read_stream(url: str, game: str, token: str, headers: dict[str, str] | None = None, stop_at: int = 0) -> list[dict[str, Any]]:
    """Frames of the stream up to version ``stop_at`` (or the game's end)."""
    import json

    frames: list[dict[str, Any]] = []
    with httpx.stream("GET", f"{url}/games/{game}/stream", headers={**bearer(token), **(headers or {})}, timeout=10) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        frame: dict[str, Any] = {}
        for line in r.iter_lines():
            if line.startswith("id: "):
                frame["id"] = int(line[4:])
            elif line.startswith("data: "):
                frame["data"] = json.loads(line[6:])
            elif line == "" and frame:
                frames.append(frame)
                if frame["id"] >= stop_at > 0:
                    break
                frame = {}
    return frames


def test_a_player_s_token_never_reaches_the_opponent_s_hidden_cards_through_any_route(url: str) -> None:
    game, tokens = new_game(url, SETUP)
    alice = bearer(tokens["alice"])
    seen: list[Any] = []
    while True:  # alice passes through turn 1; bob draws in turn 2 and must not be seen drawing Serra Angel
        d = httpx.get(f"{url}/games/{game}/decision", headers=alice).json()
        seen.append(d)
        state = httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()
        if state["turn"] == 2 and state["step"] == "precombat_main":
            break
        actor = d["player"]
        r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens[actor]), json={"action": "pass"})
        if actor == "alice":
            seen.append(r.json())
    final = httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()
    assert "Serra Angel" in final["players"]["bob"]["hand"]  # the judge sees what bob drew
    seen.append(httpx.get(f"{url}/games/{game}/state", headers=alice).json())
    seen.append(httpx.get(f"{url}/games/{game}/state?at=3", headers=alice).json())
    seen.append(ndjson(httpx.get(f"{url}/games/{game}/events", headers=alice).text))
    seen.append(read_stream(url, game, tokens["alice"], stop_at=final["version"]))
    assert not card_names(seen) & SECRET
    assert httpx.get(f"{url}/games/{game}/export", headers=alice).status_code == 403
    assert httpx.get(f"{url}/games/{game}/audit", headers=alice).status_code == 403
    bob_sees = httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["bob"])).json()
    assert "Serra Angel" in bob_sees["players"]["bob"]["hand"] and bob_sees["players"]["alice"]["hand"] == [None] * 2
    assert "hash" in ndjson(httpx.get(f"{url}/games/{game}/events", headers=bearer(tokens["judge"])).text)[0]


def test_the_stream_resumes_after_last_event_id_and_starts_from_the_version_asked(url: str) -> None:
    game, tokens = new_game(url, SETUP)
    everything = read_stream(url, game, tokens["bob"], stop_at=6)
    assert [f["id"] for f in everything] == [1, 2, 3, 4, 5, 6]
    resumed = read_stream(url, game, tokens["bob"], headers={"Last-Event-ID": "4"}, stop_at=6)
    assert [f["id"] for f in resumed] == [5, 6] and resumed[0]["data"] == everything[4]["data"]
    assert [f["id"] for f in read_stream(url, game, tokens["bob"], headers={}, stop_at=6)][-1] == 6
    assert [f["id"] for f in _from(url, game, tokens["bob"], 5)] == [5, 6]


def _from(url: str, game: str, token: str, first: int) -> list[dict[str, Any]]:
    import json

    out = []
    with httpx.stream("GET", f"{url}/games/{game}/stream?from={first}", headers=bearer(token), timeout=10) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                out.append({"id": json.loads(line[6:])["v"]})
                if out[-1]["id"] >= 6:
                    break
    return out


def test_a_follower_of_one_server_sees_decisions_taken_through_another_within_100_ms(url: str, store: dict[str, str]) -> None:
    game, tokens = new_game(url, SETUP)
    sent: list[tuple[int, float]] = []
    with Follower(url, game, tokens["judge"], 7) as follower, server(store) as other:  # another process on the same store
        for i in range(6):
            d = httpx.get(f"{other}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
            if i == 5:
                follower.stop_at = d["version"] + 1  # the first version of the last decision, known before it is sent
            began = time.perf_counter()
            r = httpx.post(f"{other}/games/{game}/actions", headers=bearer(tokens[d["player"]]), json={"action": "pass"})
            assert r.status_code == 200
            sent.append((r.json()["events"][0]["v"], began))
            time.sleep(0.2)
    arrivals = follower.arrivals
    delays = [arrivals[v] - began for v, began in sent if v in arrivals]
    assert len(delays) == len(sent), (sent, sorted(arrivals))
    assert statistics.median(delays) < 0.1, delays


def test_keys_persist_in_the_store_a_retry_after_a_restart_gets_the_first_answer(tmp_path: Path) -> None:
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "restart.sqlite")}
    body = {"action": "pass", "expected_version": 6}
    with server(store) as first_server:
        game, tokens = new_game(first_server, SETUP)
        headers = {**bearer(tokens["alice"]), "Idempotency-Key": "after-restart"}
        first = httpx.post(f"{first_server}/games/{game}/actions", headers=headers, json=body)
    with server(store) as second_server:
        again = httpx.post(f"{second_server}/games/{game}/actions", headers=headers, json=body)
        log = ndjson(httpx.get(f"{second_server}/games/{game}/events", headers=bearer(tokens["judge"])).text)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert [e["type"] for e in log].count("PriorityPassed") == 1


def test_a_log_whose_chain_holds_but_whose_events_are_nonsense_is_refused_422_and_nothing_is_stored(url: str, store: dict[str, str]) -> None:
    import msgpack

    from mtg_ledger.core.hashing import GENESIS_HASH, chain
    from mtg_ledger.replays.logfile import header_for

    game, tokens = new_game(url, SETUP)
    events = ndjson(httpx.get(f"{url}/games/{game}/events", headers=bearer(tokens["judge"])).text)
    before = len(ndjson(httpx.get(f"{url}/games/{game}/events", headers=bearer(tokens["judge"])).text))
    for broken in ({"players": "nobody"}, {"type": "NoSuchEvent"}, {"turn": [[1, {"x": None}]]}, {7: "seven"}):
        forged = [dict(e) for e in events]
        forged[1].update(broken)
        previous = GENESIS_HASH
        for e in forged:  # re-hashed whole: the chain holds, the content is nonsense
            e["hash"] = chain(previous, {k: v for k, v in e.items() if not isinstance(k, int)}) if any(isinstance(k, int) for k in e) else chain(previous, e)
            previous = e["hash"]
        packer = msgpack.Packer(use_bin_type=True)
        data = packer.pack(header_for(game, forged)) + b"".join(packer.pack(e) for e in forged)
        r = httpx.post(f"{url}/logs", content=data, headers={"Content-Type": "application/vnd.mtg-ledger"})
        assert r.status_code == 422 and r.json()["error"], (broken, r.text)
    assert len(ndjson(httpx.get(f"{url}/games/{game}/events", headers=bearer(tokens["judge"])).text)) == before
