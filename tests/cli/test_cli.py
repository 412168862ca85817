"""The command line as users meet it: contract verbs, one-line errors, nothing lost on refusal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.cli import main
from mtg_ledger.replays.scenario import examples

SCENARIOS = examples.directory()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def scenario(tmp_path: Path, **changes: Any) -> Path:
    data = json.loads((SCENARIOS / "contract_example.json").read_text())
    data.update(changes)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    return path


pytestmark = pytest.mark.usefixtures("cli_env")


def test_demo_plays_a_whole_game_to_a_winner_and_prints_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "demo.sqlite")
    code, out, _ = run(capsys, "demo", "--seed", "7", "--db", db)
    assert code == 0
    summary = dict(line.split(None, 1) for line in out.strip().splitlines()[-5:])
    assert int(summary["turns"]) > 2 and int(summary["events"]) > 100
    assert summary["winner"] in ("alice", "bob")
    code, out, _ = run(capsys, "events", summary["game"], "--db", db)
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == int(summary["events"]) and lines[-1]["type"] == "GameEnded"
    assert lines[-1]["winner"] == summary["winner"]


def test_play_runs_the_contract_example_and_state_shows_bolt_on_the_stack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    code, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    assert code == 0
    game = out.strip()
    code, out, _ = run(capsys, "state", game, "--db", db)
    state = json.loads(out)
    assert (state["turn"], state["step"], state["priority"]) == (3, "declare_attackers", "bob")
    assert [s["card"] for s in state["stack"]] == ["Lightning Bolt"]
    bears = next(p for p in state["battlefield"] if p["card"] == "Grizzly Bears")
    assert bears["attacking"] == "bob" and bears["tapped"] and (bears["power"], bears["toughness"]) == (2, 2)


def test_state_at_a_version_shows_the_game_as_it_stood_then(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    _, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    game = out.strip()
    _, out, _ = run(capsys, "events", game, "--db", db, "--from", "2", "--to", "3")
    two, three = (json.loads(x) for x in out.splitlines())
    assert (two["type"], three["type"], three["step"]) == ("TurnBegan", "StepBegan", "untap")
    _, out, _ = run(capsys, "state", game, "--db", db, "--at", "3")
    state = json.loads(out)
    assert (state["version"], state["turn"], state["step"], state["priority"]) == (3, 1, "untap", None)
    _, out, _ = run(capsys, "events", game, "--db", db, "--format", "text", "--to", "2")
    assert "turn 1 begins: alice is the active player" in out


def test_an_illegal_action_exits_2_with_the_rule_and_keeps_what_came_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    actions = json.loads((SCENARIOS / "contract_example.json").read_text())["actions"][:2]
    actions.append({"player": "bob", "action": "cast", "card": "Lightning Bolt", "targets": ["alice"]})
    code, out, err = run(capsys, "play", str(scenario(tmp_path, actions=actions)), "--db", db)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "actions[2]" in err and "rule 117.1" in err and "alice holds priority" in err
    game = err.split("in game ")[1].strip()
    kept = int(err.split("the ")[1].split(" events")[0])
    _, out, _ = run(capsys, "events", game, "--db", db)
    events = [json.loads(x) for x in out.splitlines()]
    assert len(events) == kept and events[-1]["type"] == "PriorityGiven"
    assert any(e["type"] == "LandPlayed" for e in events)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": []}, "players must be a list of two players"),
        ({"format": "chaos"}, "format: 'chaos' is not one of"),
        ({"actions": [{"player": "carol", "action": "pass"}]}, "actions[0]: pass needs \"player\""),
        ({"actions": [{"player": "alice", "action": "cast", "card": "Black Lotus"}]}, "unknown card 'Black Lotus'"),
        ({"actions": [{"action": "dance"}]}, "unknown action 'dance'"),
        ({"seed": "seven"}, "seed: expected a whole number"),
    ],
)
def test_a_malformed_scenario_gets_one_clear_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], message: str
) -> None:
    code, out, err = run(capsys, "play", str(scenario(tmp_path, **change)), "--db", str(tmp_path / "s.sqlite"))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_a_file_that_is_not_json_is_refused_with_its_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"players\": [")
    code, _, err = run(capsys, "play", str(bad), "--db", str(tmp_path / "s.sqlite"))
    assert code == 2 and "not valid JSON" in err and "line 1" in err


def test_unknown_games_and_versions_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    code, _, err = run(capsys, "state", "not-a-uuid", "--db", db)
    assert code == 2 and "is not a game id" in err
    _, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    code, _, err = run(capsys, "events", "00000000-0000-0000-0000-000000000001", "--db", db)
    assert code == 2 and "no game" in err
    code, _, err = run(capsys, "state", out.strip(), "--db", db, "--at", "100000")
    assert code == 2 and "has events 1 to" in err


def test_views_catch_up_and_show_the_cleanup_hand_size_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    _, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    game = out.strip()
    code, out, _ = run(capsys, "views", game, "--db", db)
    views = json.loads(out)
    assert code == 0 and views["caught_up"] > 0
    assert (views["phase_step"]["turn"], views["phase_step"]["step"], views["phase_step"]["priority"]) == (3, "declare_attackers", "bob")
    assert [s["card"] for s in views["stack"]] == ["Lightning Bolt"]
    assert {h["player"]: h["max_hand_size"] for h in views["hand_sizes"]} == {"alice": 7, "bob": 7}
    assert [c["turn"] for c in views["cleanups"]] == [1, 2]
    _, out, _ = run(capsys, "views", game, "--db", db)
    assert json.loads(out)["caught_up"] == 0
