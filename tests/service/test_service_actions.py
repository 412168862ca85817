"""An action has one definition (``scenario.actions``): the service's body, a scenario file's entry, the
JSON Schemas and the command all come from it, so the CLI and the service accept and refuse the same
actions, in the same words; and the OpenAPI description names its operations and models for the
clients generated from it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.scenario import ScenarioError, parse_action
from mtg_ledger.replays.scenario.actions import ACTION_NAMES
from mtg_ledger.replays.scenario.schema import json_schema
from mtg_ledger.replays.service.app import create_app

SETUP = {
    "starting_player": "alice",
    "players": [
        {"name": "alice", "library": ["Forest"] * 5, "hand": ["Lightning Bolt"], "battlefield": ["Forest", "Mountain", "Grizzly Bears"]},
        {"name": "bob", "library": ["Forest"] * 5, "hand": [], "battlefield": ["Grizzly Bears"]},
    ],
}
NAMES = ["alice", "bob"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    configure_logging(io.StringIO(), level="warning")
    db = tmp_path_factory.mktemp("actions") / "s.sqlite"
    with TestClient(create_app({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}, settings={})) as c:
        yield c


def new_game(client: TestClient) -> tuple[str, dict[str, str]]:
    created = client.post("/games", json=SETUP)
    assert created.status_code == 201, created.text
    return created.json()["game"], created.json()["tokens"]


def send(client: TestClient, body: dict[str, Any]) -> Any:
    game, tokens = new_game(client)
    return client.post(f"/games/{game}/actions", json=body, headers={"Authorization": f"Bearer {tokens['alice']}"})


def test_an_ability_activated_by_object_id_is_taken_by_the_cli_and_the_service_alike_605_3a(client: TestClient) -> None:
    assert parse_action({"player": "alice", "action": "activate", "object": 1}, NAMES) is not None
    r = send(client, {"action": "activate", "object": 1})  # alice's Forest: a mana ability
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["type"] == "ManaAbilityActivated"


def test_an_attacker_named_by_nothing_is_refused_by_both_in_one_line_naming_it(client: TestClient) -> None:
    with pytest.raises(ScenarioError, match=r'^action\.attackers\[0\]\.card: missing key \(or name it by "object"\)$'):
        parse_action({"player": "alice", "action": "declare_attackers", "attackers": [{}]}, NAMES)
    r = send(client, {"action": "declare_attackers", "attackers": [{}]})
    assert r.status_code == 422
    assert r.json() == {"error": 'body.attackers[0].card: missing key (or name it by "object")', "field": "body.attackers[0].card"}


def test_a_spell_in_a_hand_named_by_object_id_is_refused_by_both_for_a_hand_has_no_object_ids(client: TestClient) -> None:
    with pytest.raises(ScenarioError, match=r"action\.card: a card in a hand has no object id"):
        parse_action({"player": "alice", "action": "cast", "card": {"object": 3}}, NAMES)
    r = send(client, {"action": "cast", "card": {"object": 3}})
    assert r.status_code == 422 and r.json()["error"].startswith("body.card: a card in a hand has no object id"), r.text


def test_a_misspelt_key_in_a_body_is_named_with_what_was_meant_as_the_cli_says_it(client: TestClient) -> None:
    r = send(client, {"action": "cast", "card": "Lightning Bolt", "target": ["bob"]})
    assert r.status_code == 422 and r.json() == {"error": 'body.target: unknown key (did you mean "targets"?)', "field": "body.target"}
    r = send(client, {"action": "cats", "card": "Lightning Bolt"})
    assert r.status_code == 422 and r.json()["error"].startswith("body: unknown action 'cats'; known: pass, pass_until")


def test_a_misspelt_action_key_is_named_with_what_was_meant_by_both_not_a_discriminator_error(client: TestClient) -> None:
    with pytest.raises(ScenarioError, match=r'^action\.acton: unknown key \(did you mean "action"\?\)$'):
        parse_action({"player": "alice", "acton": "pass"}, NAMES)
    r = send(client, {"acton": "pass"})
    assert r.status_code == 422 and r.json() == {"error": 'body.acton: unknown key (did you mean "action"?)', "field": "body.acton"}


def test_a_misspelt_card_is_answered_with_the_nearest_names_of_the_pool_by_both(client: TestClient) -> None:
    said = "unknown card 'Lightning Blot': no such card in the card pool; did you mean 'Lightning Bolt', 'Lightning Blast' or 'Lightning Talons'? (rule 108.1)"
    with pytest.raises(ScenarioError) as cli:
        parse_action({"player": "alice", "action": "cast", "card": "Lightning Blot", "targets": ["bob"]}, NAMES)
    assert str(cli.value) == f"action.card: {said}"
    r = send(client, {"action": "cast", "card": "Lightning Blot", "targets": ["bob"]})
    assert r.status_code == 422 and r.json()["error"] == f"body.card: {said}"
    created = client.post("/games", json={**SETUP, "players": [{"name": "alice", "library": ["Forrest"]}, {"name": "bob"}]})
    assert created.status_code == 422 and "did you mean 'Forest'?" in created.json()["error"]
    assert "Grizzly Bears" not in created.json()["error"]  # the nearest names, never the whole pool


def test_a_body_may_name_the_tokens_own_player_as_legal_prints_it_and_never_another(client: TestClient) -> None:
    game, tokens = new_game(client)
    as_alice = {"Authorization": f"Bearer {tokens['alice']}"}
    r = client.post(f"/games/{game}/actions", json={"action": "pass", "player": "bob"}, headers=as_alice)
    assert r.status_code == 422
    assert r.json() == {"error": "body.player: 'bob' is not this token's player, 'alice': leave \"player\" out, or name 'alice'", "field": "body.player"}
    legal = client.get(f"/games/{game}/decision", headers=as_alice).json()["legal"]
    r = client.post(f"/games/{game}/actions", json={**legal[0], "player": "alice"}, headers=as_alice)
    assert r.status_code == 200, r.text


def test_every_body_is_the_scenario_entry_with_expected_version_and_player_optional(client: TestClient) -> None:
    components = client.get("/openapi.json").json()["components"]["schemas"]
    entries = json_schema()["$defs"]
    for name in ACTION_NAMES:
        model = "".join(part.title() for part in name.split("_")) + "Action"
        entry = entries[model]["properties"]
        if name == "pass_until":
            assert model not in components  # over HTTP each player passes for themself
            continue
        body = components[model]["properties"]
        assert set(body) - {"expected_version"} == set(entry), model
        assert "player" not in components[model].get("required", []), model  # the token says who acts
    assert not {"Cast", "Pass", "Activate", "Action"} & set(components)
    assert not any(name.endswith(("-Input", "-Output")) for name in components)


def test_every_operation_has_a_name_a_generated_client_can_use(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    ids = {(path, method): op["operationId"] for path, ops in paths.items() for method, op in ops.items()}
    assert ids[("/games", "post")] == "create_game"
    assert ids[("/games/{id}/actions", "post")] == "act"
    assert ids[("/games/{id}/state", "get")] == "get_state"
    assert ids[("/games/{id}/decision", "get")] == "get_decision"
    assert ids[("/games/{id}/events", "get")] == "get_events"
    assert len(set(ids.values())) == len(ids)
    for path, ops in paths.items():
        for method, op in ops.items():
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok and ok.get("content"), (path, method)  # every answer is described


def test_the_legal_actions_are_typed_as_bodies_and_listed_as_before(client: TestClient) -> None:
    game, tokens = new_game(client)
    decision = client.get(f"/games/{game}/decision", headers={"Authorization": f"Bearer {tokens['alice']}"}).json()
    assert {"action": "pass"} in decision["legal"]
    assert all("expected_version" not in a and "index" not in a for a in decision["legal"])  # what was set, nothing more
    legal = client.get("/openapi.json").json()["components"]["schemas"]["DecisionOut"]["properties"]["legal"]
    assert "discriminator" in json.dumps(legal)


def test_the_log_is_streamed_as_json_lines(client: TestClient, tmp_path: Path) -> None:
    game, tokens = new_game(client)
    with client.stream("GET", f"/games/{game}/events", headers={"Authorization": f"Bearer {tokens['bob']}"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in r.iter_lines() if line]
    assert [e["v"] for e in lines] == list(range(1, len(lines) + 1))
    unknown = client.get("/games/00000000-0000-0000-0000-000000000000/events", headers={"Authorization": f"Bearer {tokens['bob']}"})
    assert unknown.status_code == 403


def test_a_siege_s_controller_chooses_its_protector_over_http_and_is_refused_a_non_opponent_310_11a(client: TestClient) -> None:
    """A free-for-all: alice casts Invasion of Dominaria; as it enters, GET /decision asks her for its
    protector, listing each opponent; herself or a name no player has is refused naming 310.11a."""
    setup = {"format": "free-for-all", "starting_player": "alice", "players": [
        {"name": "alice", "library": ["Plains"] * 8, "hand": ["Invasion of Dominaria"], "battlefield": ["Plains"] * 3},
        {"name": "bob", "library": ["Forest"] * 8, "hand": []},
        {"name": "carol", "library": ["Forest"] * 8, "hand": []},
    ]}
    created = client.post("/games", json=setup).json()
    game, tokens = created["game"], created["tokens"]

    def auth(player: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[player]}"}

    def decision() -> Any:
        return client.get(f"/games/{game}/decision", headers=auth("alice")).json()

    while not (decision()["player"] == "alice" and {"action": "cast", "card": "Invasion of Dominaria"} in decision()["legal"]):
        asked = decision()
        assert asked["kind"] == "priority", asked
        assert client.post(f"/games/{game}/actions", json={"action": "pass"}, headers=auth(asked["player"])).status_code == 200
    assert client.post(f"/games/{game}/actions", json={"action": "cast", "card": "Invasion of Dominaria"}, headers=auth("alice")).status_code == 200
    for player in ("alice", "bob", "carol"):
        assert client.post(f"/games/{game}/actions", json={"action": "pass"}, headers=auth(player)).status_code == 200
    asked = decision()
    assert (asked["kind"], asked["player"], asked["rule"]) == ("choose_protector", "alice", "310.11a")
    assert [a for a in asked["legal"] if a["action"] == "choose_protector"] == [
        {"action": "choose_protector", "protector": "bob"}, {"action": "choose_protector", "protector": "carol"},
    ]
    for wrong in ("alice", "dave"):
        refused = client.post(f"/games/{game}/actions", json={"action": "choose_protector", "protector": wrong}, headers=auth("alice"))
        assert refused.status_code == 422 and refused.json()["rule"] == "310.11a", refused.text
    chosen = client.post(f"/games/{game}/actions", json={"action": "choose_protector", "protector": "carol"}, headers=auth("alice"))
    assert chosen.status_code == 200 and chosen.json()["events"][0] == {**chosen.json()["events"][0], "type": "ProtectorChosen", "player": "carol"}


def test_a_decision_is_answered_alike_whether_its_content_type_names_a_charset_or_not(client: TestClient) -> None:
    """``application/json`` is answered without FastAPI's per-request work (service/fast_actions.py), any other
    JSON content type by the route itself: the same decisions, retries and refusals get the same answers."""
    answers = []
    for content_type in ("application/json", "application/json; charset=utf-8"):
        game, tokens = new_game(client)
        headers = {"Authorization": f"Bearer {tokens['alice']}", "Content-Type": content_type}
        seen = []
        for body, extra in [
            ({"action": "activate", "object": 1}, {"Idempotency-Key": "k1"}),
            ({"action": "activate", "object": 1}, {"Idempotency-Key": "k1"}),  # a retry: the first answer again
            ({"action": "activate", "object": 2}, {"Idempotency-Key": "k1"}),  # the key with another body: 422
            ({"action": "cast", "card": "Lightning Bolt", "targets": ["bob"], "expected_version": 1}, {}),  # stale: 409
            ({"action": "cast", "card": "Lightning Bolt", "targets": ["bob"], "player": "bob"}, {}),  # not this token's player
            ({"action": "cast", "card": "Lightning Bolt", "targets": ["bob"]}, {}),
        ]:
            r = client.post(f"/games/{game}/actions", content=json.dumps(body), headers={**headers, **extra})
            answer = r.json()
            if r.status_code == 200:
                answer = {"version": answer["version"], "events": answer["events"], "receipt_version": answer["receipt"]["version"]}
            seen.append((r.status_code, json.loads(json.dumps(answer).replace(game, "GAME"))))
        judge = client.post(f"/games/{game}/actions", content=b'{"action": "pass"}', headers={**headers, "Authorization": f"Bearer {tokens['judge']}"})
        seen.append((judge.status_code, judge.json()))
        answers.append(seen)
    assert [status for status, _ in answers[0]] == [200, 200, 422, 409, 422, 200, 403]
    assert answers[0] == answers[1]


def test_an_oversized_decision_and_a_defect_are_answered_alike_whether_its_content_type_names_a_charset_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision's body over the limit is 413 and nothing is stored; a defect while deciding is a logged 500
    in the service's words, never a traceback: the same from ``fast_actions.py`` as from the route."""
    log = io.StringIO()
    configure_logging(log, level="warning")
    app = create_app({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "s.sqlite")}, settings={})
    with TestClient(app, raise_server_exceptions=False) as client:
        for content_type in ("application/json", "application/json; charset=utf-8"):
            game, tokens = new_game(client)
            headers = {"Authorization": f"Bearer {tokens['alice']}", "Content-Type": content_type}
            before = client.get(f"/games/{game}/state", headers=headers).json()["version"]
            padded = b'{"action": "pass"' + b" " * (1 << 20) + b"}"
            assert client.post(f"/games/{game}/actions", content=padded, headers=headers).status_code == 413
            streamed = client.post(f"/games/{game}/actions", content=iter([b'{"action": "pass"', b" " * (1 << 20), b"}"]), headers=headers)
            assert streamed.status_code == 413
            assert client.get(f"/games/{game}/state", headers=headers).json()["version"] == before
            with monkeypatch.context() as patched:
                patched.setattr(app.state.games, "act", lambda *args, **kwargs: 1 / 0)
                r = client.post(f"/games/{game}/actions", content=b'{"action": "pass"}', headers=headers)
            assert r.status_code == 500, r.text
            assert r.json() == {"error": "internal error: this is a defect of mtg-ledger, logged on the server"}
    assert log.getvalue().count("ZeroDivisionError") >= 2


def test_a_decision_s_answer_is_the_same_bytes_from_the_fast_path_as_jsonresponse_renders_them(client: TestClient) -> None:
    """``fast_actions.py`` encodes a decision's answer with orjson; ``JSONResponse`` (the route's) with
    ``json.dumps``: byte for byte the same JSON, for real answers and for every kind of value an answer holds."""
    from fastapi.responses import JSONResponse

    from mtg_ledger.core.turn import Step
    from mtg_ledger.replays.service.fast_actions import _encoded

    game, tokens = new_game(client)
    answer = client.post(f"/games/{game}/actions", json={"action": "cast", "card": "Lightning Bolt", "targets": ["bob"]}, headers={"Authorization": f"Bearer {tokens['alice']}"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["events"], answer.json()
    made = {"version": 3, "events": [{"v": 1, "type": "StepBegan", "step": Step.UPKEEP, "hidden": None, "first_strike": False}],
            "receipt": {"game": "é\u2028\"\\\x01 ✓ 𝄞", "n": -(2**63), "list": [True, 0, ""]}}
    for value in (answer.json(), made):
        assert _encoded(value) == JSONResponse(value).body
