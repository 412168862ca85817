"""The HTTP service (docs/reference/http.md) as clients meet it: a real server process on 127.0.0.1, on
SQLite and on the real PostgreSQL."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mtg_ledger.replays.scenario import examples

from mtg_ledger.replays.demo.decks import demo_setup
from tests.conftest import postgres_schema
from tests.service_server import bearer, cli, ndjson, new_game, server, write_json

DECISIONS = 120  # then the player to act concedes: a whole game, short


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    if request.param == "sqlite":
        yield {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path_factory.mktemp("api") / "ledger.sqlite")}
    else:
        with postgres_schema() as env:
            yield env


@pytest.fixture(scope="module")
def url(store: dict[str, str]) -> Iterator[str]:
    with server(store, MTG_LEDGER_MAX_LOG_BYTES="300000") as base:
        yield base


def client_plays(url: str, game: str, me: str, token: str, seed: int, sent: list[tuple[int, dict[str, Any]]], lock: threading.Lock) -> None:
    """One client: waits for its own decisions, answers each from the legal actions it is shown."""
    rng = random.Random(seed)
    with httpx.Client(base_url=url, headers=bearer(token)) as http:
        while True:
            d = http.get(f"/games/{game}/decision").json()
            if d["player"] is None:
                return
            if d["player"] != me:
                time.sleep(0.002)
                continue
            options = [a for a in d["legal"] if a["action"] != "concede"]
            acting = [a for a in options if a["action"] not in ("pass", "activate")]
            if len(sent) >= DECISIONS:
                action = {"action": "concede"}
            else:
                action = rng.choice(acting) if acting and rng.random() < 0.6 else options[0]
            r = http.post(f"/games/{game}/actions", json={**action, "expected_version": d["version"]})
            assert r.status_code == 200, r.text
            with lock:
                sent.append((d["version"], {**action, "player": me}))


def test_a_whole_game_played_through_http_by_two_clients_logs_as_the_cli_and_exports_replays_and_audits_clean(
    url: str, store: dict[str, str], tmp_path: Path
) -> None:
    setup = demo_setup(11, 2)
    game, tokens = new_game(url, setup)
    sent: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()
    clients = [threading.Thread(target=client_plays, args=(url, game, name, tokens[name], i, sent, lock)) for i, name in enumerate(["alice", "bob"])]
    for c in clients:
        c.start()
    for c in clients:
        c.join(timeout=120)
    judge = bearer(tokens["judge"])
    http_log = ndjson(httpx.get(f"{url}/games/{game}/events", headers=judge).text)
    assert http_log[-1]["type"] == "GameEnded" and len(sent) > DECISIONS

    actions = [a for _, a in sorted(sent, key=lambda x: x[0])]
    scenario = write_json(tmp_path / "same.json", {**setup, "actions": actions})
    played = cli("play", str(scenario), store=store)
    assert played.returncode == 0, played.stderr
    cli_log = ndjson(cli("events", played.stdout.strip(), store=store).stdout)
    assert cli_log == http_log  # the same decisions give the same log, byte for byte, hashes included

    exported = httpx.get(f"{url}/games/{game}/export", headers=judge)
    assert exported.status_code == 200 and exported.headers["content-type"] == "application/vnd.mtg-ledger"
    log = tmp_path / "game.mtgl"
    log.write_bytes(exported.content)
    assert cli("replay", str(log), store=store).returncode == 0
    assert cli("audit", str(log), store=store).returncode == 0
    assert httpx.get(f"{url}/games/{game}/audit", headers=judge).json()["clean"] is True
    imported = httpx.post(f"{url}/logs", content=exported.content, headers={"Content-Type": "application/vnd.mtg-ledger"})
    assert imported.status_code == 201 and set(imported.json()["tokens"]) == {"alice", "bob", "judge"}


def test_an_illegal_action_is_422_with_its_rule_and_stores_nothing_rule_733(url: str) -> None:
    game, tokens = new_game(url, _contract())
    before = httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()["version"]
    r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["bob"]), json={"action": "pass"})
    assert r.status_code == 422 and r.json()["rule"] == "117.3d" and "alice holds priority" in r.json()["error"]
    r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["alice"]), json={"action": "play_land", "card": "Forest"})
    assert r.status_code == 422 and r.json()["rule"] == "505.6b"
    assert httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()["version"] == before


def _contract() -> dict[str, Any]:
    data = json.loads(examples.path("contract_example").read_text())
    data.pop("actions")
    return data


def test_expected_version_other_than_the_game_s_is_409_and_stores_nothing(url: str) -> None:
    game, tokens = new_game(url, _contract())
    alice = bearer(tokens["alice"])
    version = httpx.get(f"{url}/games/{game}/decision", headers=alice).json()["version"]
    r = httpx.post(f"{url}/games/{game}/actions", headers=alice, json={"action": "pass", "expected_version": version - 1})
    assert r.status_code == 409 and "error" in r.json()
    assert httpx.get(f"{url}/games/{game}/decision", headers=alice).json()["version"] == version
    r = httpx.post(f"{url}/games/{game}/actions", headers=alice, json={"action": "pass", "expected_version": version})
    assert r.status_code == 200 and r.json()["version"] > version


def test_a_retry_with_the_same_idempotency_key_returns_the_first_response_and_stores_nothing_more(url: str) -> None:
    game, tokens = new_game(url, _contract())
    alice, judge = bearer(tokens["alice"]), bearer(tokens["judge"])
    body = {"action": "pass", "expected_version": 6}
    first = httpx.post(f"{url}/games/{game}/actions", headers={**alice, "Idempotency-Key": "k1"}, json=body)
    again = httpx.post(f"{url}/games/{game}/actions", headers={**alice, "Idempotency-Key": "k1"}, json=body)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    log = ndjson(httpx.get(f"{url}/games/{game}/events", headers=judge).text)
    assert [e["type"] for e in log].count("PriorityPassed") == 1
    other = httpx.post(f"{url}/games/{game}/actions", headers={**alice, "Idempotency-Key": "k1"}, json={"action": "concede"})
    assert other.status_code == 422 and "Idempotency-Key" in other.json()["error"]
    assert len(ndjson(httpx.get(f"{url}/games/{game}/events", headers=judge).text)) == len(log)


def test_tokens_401_when_missing_or_unknown_403_for_another_game_or_a_route_not_theirs(url: str) -> None:
    game, tokens = new_game(url, _contract())
    other, other_tokens = new_game(url, _contract())
    assert httpx.get(f"{url}/games/{game}/state").status_code == 401
    assert httpx.get(f"{url}/games/{game}/state", headers=bearer("mtgl_nobody")).status_code == 401
    assert httpx.get(f"{url}/games/{game}/state", headers=bearer(other_tokens["alice"])).status_code == 403
    for route in ("audit", "export"):
        assert httpx.get(f"{url}/games/{game}/{route}", headers=bearer(tokens["alice"])).status_code == 403
    assert httpx.post(f"{url}/games/{game}/branch?at=6", headers=bearer(tokens["bob"])).status_code == 403
    r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["judge"]), json={"action": "pass"})
    assert r.status_code == 403 and r.json()["error"]
    assert httpx.get(f"{url}/games/{other}/state", headers=bearer(other_tokens["judge"])).status_code == 200


def test_a_player_acts_only_as_themself(url: str) -> None:
    game, tokens = new_game(url, _contract())
    r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["alice"]), json={"action": "pass", "player": "bob"})
    assert r.status_code == 422 and r.json()["field"] == "body.player"
    r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["bob"]), json={"action": "concede"})
    assert r.status_code == 200  # bob concedes for himself (104.3a), whoever holds priority
    assert httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()["players"]["bob"]["lost"] is True


def test_malformed_bodies_are_422_naming_the_field_and_oversized_ones_413(url: str) -> None:
    assert httpx.post(f"{url}/games", content=b"{", headers={"Content-Type": "application/json"}).status_code == 422
    r = httpx.post(f"{url}/games", json={**_contract(), "seed": "7"})
    assert r.status_code == 422 and r.json()["field"] == "body.seed"
    r = httpx.post(f"{url}/games", json={**_contract(), "players": [{"name": "judge"}, {"name": "bob"}]})
    assert r.status_code == 422
    assert httpx.post(f"{url}/games", content=b" " * (1 << 20 + 1), headers={"Content-Type": "application/json"}).status_code == 413
    assert httpx.post(f"{url}/logs", content=b"\x00" * 300_001).status_code == 413
    r = httpx.post(f"{url}/logs", content=b"\x81\xa6format\xa3bad")
    assert r.status_code == 422 and "error" in r.json()


def test_a_branch_gets_tokens_of_its_own_and_the_same_first_events(url: str) -> None:
    game, tokens = new_game(url, _contract())
    judge = bearer(tokens["judge"])
    httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["alice"]), json={"action": "pass"})
    r = httpx.post(f"{url}/games/{game}/branch?at=6", headers=judge)
    assert r.status_code == 201, r.text
    branched = r.json()
    first = ndjson(httpx.get(f"{url}/games/{branched['game']}/events", headers=bearer(branched["tokens"]["judge"])).text)
    assert first == ndjson(httpx.get(f"{url}/games/{game}/events", headers=judge).text)[:6]
    assert httpx.get(f"{url}/games/{branched['game']}/state", headers=judge).status_code == 403


def test_the_service_describes_itself_and_answers_health(url: str) -> None:
    spec = httpx.get(f"{url}/openapi.json").json()
    assert {"/games", "/games/{id}/actions", "/games/{id}/stream", "/logs", "/healthz"} <= set(spec["paths"])
    assert httpx.get(f"{url}/docs").status_code == 200
    assert httpx.get(f"{url}/healthz").json()["ok"] is True
    assert httpx.get(f"{url}/games/00000000-0000-0000-0000-000000000000/state").status_code == 401


def test_an_attack_the_decision_route_lists_by_object_id_is_accepted_by_the_actions_route(url: str) -> None:
    setup = {
        "starting_player": "alice",
        "players": [
            {"name": "alice", "library": ["Forest"] * 5, "hand": [], "battlefield": ["Grizzly Bears", "Grizzly Bears"]},
            {"name": "bob", "library": ["Mountain"] * 5, "hand": []},
        ],
    }
    game, tokens = new_game(url, setup)
    judge = bearer(tokens["judge"])
    while (d := httpx.get(f"{url}/games/{game}/decision", headers=judge).json())["kind"] != "declare_attackers":
        assert httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens[d["player"]]), json={"action": "pass"}).status_code == 200
    every = max((a for a in d["legal"] if a["action"] == "declare_attackers"), key=lambda a: len(a["attackers"]))
    assert [set(a) for a in every["attackers"]] == [{"object", "defender"}] * 2  # two of one name: told apart by object id
    r = httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens["alice"]), json={**every, "expected_version": d["version"]})
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["type"] == "AttackersDeclared" and len(r.json()["events"][0]["attackers"]) == 2
