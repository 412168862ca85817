"""Scenario files are checked strictly against their schema: a misspelt or unknown key is an error
naming its path, every way the contract names a card is accepted, and editors get the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest

from mtg_ledger.core.turn import STEP_NAMES
from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.cli import main
from mtg_ledger.replays.scenario import ScenarioError, parse
from mtg_ledger.replays.scenario.schema import ACTION_NAMES, SchemaViolation, Step, check_scenario, json_schema

pytestmark = pytest.mark.usefixtures("cli_env")


def contract_example(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(examples.text("contract_example"))
    data.update(changes)
    return data


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any]) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    code = main(["play", str(path), "--db", str(tmp_path / "s.sqlite")])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(actoins=d.pop("actions")), 'actoins: unknown key (did you mean "actions"?)'),
        (lambda d: d["actions"][8].update(target=d["actions"][8].pop("targets")), 'actions[8].target: unknown key (did you mean "targets"?)'),
        (lambda d: d["players"][1].update(hnad=["Forest"]), 'players[1].hnad: unknown key (did you mean "hand"?)'),
        (lambda d: d["actions"][6]["attackers"][0].update(defendr="bob"), "actions[6].attackers[0].defendr: unknown key"),
        (lambda d: d["actions"][0].update(turn="1"), "actions[0].turn: expected a whole number, got '1'"),
        (lambda d: d["actions"][0].update(step="main"), "actions[0].step: 'main' is not one of untap, upkeep"),
        (lambda d: d.update(shuffle="yes"), "shuffle: expected true or false, got 'yes'"),
    ],
)
def test_a_misspelt_key_or_a_wrong_type_is_one_error_line_naming_its_path_and_nothing_is_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, message: str
) -> None:
    data = contract_example()
    change(data)
    code, out, err = play(tmp_path, capsys, data)
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and f"scenario.json: {message}" in err
    assert not (tmp_path / "s.sqlite").exists()  # checked before the store is even opened


def test_every_way_the_contract_names_a_card_or_a_permanent_is_accepted() -> None:
    ref_forms: list[Any] = ["Grizzly Bears", {"card": "Grizzly Bears", "index": 1}, {"object": 4}]
    actions: list[dict[str, Any]] = [{"action": "pass_until", "turn": 3, "step": "declare_attackers"}]
    for ref in ref_forms:
        named = ref if isinstance(ref, dict) else {"card": ref}
        actions += [
            {"player": "alice", "action": "cast", "card": "Lightning Bolt", "targets": [ref, "bob"], "pay": [ref]},
            {"player": "alice", "action": "activate", "card": ref, "ability": 0},
            {"player": "alice", "action": "declare_attackers", "attackers": [ref, {**named, "defender": "bob"}], "pay": [ref]},
            {"player": "bob", "action": "declare_blockers", "blockers": [{**named, "attacker": ref}]},
            {"player": "alice", "action": "assign_damage", "assignments": [{"attacker": ref, "damage": [{"target": ref, "amount": 2}]}]},
            {"player": "alice", "action": "order_triggers", "order": [ref, {**named, "targets": [ref]}]},
        ]
    actions += [{"player": "alice", "action": "choose_defender", "defender": "bob"}, {"player": "bob", "action": "concede"}]
    actions += [{"player": "alice", "action": "discard", "cards": ["Forest", {"card": "Forest", "index": 1}]}]  # a hand: by name only
    actions += [{"player": "alice", "action": "cast_transformed", "cast": False}]  # names nothing: the card the Siege's ability exiled
    actions += [{"player": "alice", "action": "choose_protector", "protector": "bob"}]  # a player, as choose_defender
    check_scenario(contract_example(actions=actions, **{"$schema": "./scenario.schema.json"}))
    assert {a["action"] for a in actions} == set(ACTION_NAMES) - {"pass", "play_land"}


@pytest.mark.parametrize(
    "action",
    [
        {"player": "alice", "action": "cast", "card": {"object": 3}},
        {"player": "alice", "action": "play_land", "card": 3},
        {"player": "alice", "action": "discard", "cards": [{"object": 3}]},
    ],
    ids=["cast", "play_land", "discard"],
)
def test_a_card_in_a_hand_has_no_object_id_so_the_schema_refuses_one_where_a_hand_card_is_named(action: dict[str, Any]) -> None:
    with pytest.raises(SchemaViolation, match=r"actions\[0\]\.cards?(\[0\])?: a card in a hand has no object id"):
        check_scenario(contract_example(actions=[action]))
    hand_card = json_schema()["$defs"]["CastAction"]["properties"]["card"]
    assert "object" not in json.dumps(hand_card)


def test_the_rules_still_speak_for_what_the_shape_allows_but_the_game_does_not() -> None:
    with pytest.raises(ScenarioError, match=r"actions\[0\]: pass needs \"player\", one of alice, bob"):
        parse(contract_example(actions=[{"player": "carol", "action": "pass"}]))
    with pytest.raises(ScenarioError, match=r"players must be a list of two players .*rule 100.1a"):
        parse(contract_example(players=[]))


def test_decide_refuses_an_action_with_an_unknown_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    path.write_text(examples.text("contract_example"))
    db = str(tmp_path / "s.sqlite")
    assert main(["play", str(path), "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    code = main(["decide", game, '{"player": "bob", "action": "pass", "expected": 3}', "--db", db])
    _, err = capsys.readouterr()
    assert code == 2 and "actions[0].expected: unknown key" in err


def test_schema_prints_a_json_schema_editors_can_use_that_forbids_unknown_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].endswith("/draft/2020-12/schema") and schema["title"] == "mtg-ledger scenario"
    assert schema["additionalProperties"] is False and "$schema" in schema["properties"]
    actions = schema["properties"]["actions"]["items"]
    assert set(actions["discriminator"]["mapping"]) == set(ACTION_NAMES)
    assert all(d.get("additionalProperties") is False for d in schema["$defs"].values() if d.get("type") == "object")
    assert main(["schema", "-o", str(tmp_path / "scenario.schema.json")]) == 0
    assert json.loads((tmp_path / "scenario.schema.json").read_text()) == schema


def test_the_steps_an_editor_offers_are_the_engines_steps() -> None:
    assert get_args(Step) == tuple(STEP_NAMES)


def test_a_scenario_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(SchemaViolation, match="scenario: expected an object"):
        check_scenario(["not", "a", "scenario"])
