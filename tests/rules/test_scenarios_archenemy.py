"""An Archenemy game played from a scenario file through the command line (904, 805)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.cli import main
from mtg_ledger.replays.scenario import examples

SCENARIO = examples.path("archenemy")


pytestmark = pytest.mark.usefixtures("cli_env")


def test_an_archenemy_scenario_sets_schemes_in_motion_and_the_team_shares_its_turn_904_805(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "a.sqlite")
    assert main(["play", str(SCENARIO), "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["events", game, "--db", db]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    schemes = [e["scheme"] for e in events if e["type"] == "SchemeSetInMotion"]
    assert schemes == ["Behold the Power of Destruction", "Your Puny Minds Cannot Fathom"]
    destroyed = next(e for e in events if e["type"] == "PermanentsPutIntoGraveyard")
    assert sorted(p["card"] for p in destroyed["permanents"]) == ["Hill Giant", "Spellbook"]
    assert [e["player"] for e in events if e["type"] == "LandPlayed"] == ["alice", "bob"]
    assert main(["state", game, "--db", db]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["players"]["eve"]["life"] == 40 - 2  # the Grizzly Bears attacked her
    assert state["players"]["eve"]["max_hand_size"] is None  # until her next turn (Your Puny Minds Cannot Fathom)
    assert (state["turn"], state["step"], state["active_player"]) == (3, "precombat_main", "eve")


def play(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """An example scenario (replays/examples) played through the CLI: its events and the judge's view of its state."""
    db = str(tmp_path / "team.sqlite")
    assert main(["play", str(SCENARIO.parent / name), "--db", db]) == 0, capsys.readouterr().err
    game = capsys.readouterr().out.strip()
    assert main(["events", game, "--db", db]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["state", game, "--db", db]) == 0
    return events, json.loads(capsys.readouterr().out)


def in_turn(events: list[dict[str, Any]], turn: int, kind: str) -> list[dict[str, Any]]:
    """The events of type ``kind`` recorded during ``turn``."""
    out, current = [], 0
    for e in events:
        current = e["turn"] if e["type"] == "TurnBegan" else current
        if current == turn and e["type"] == kind:
            out.append(e)
    return out


def test_302_6_805_4_a_teammates_creatures_are_ready_on_the_teams_next_turn_from_a_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, state = play("archenemy_teammate_summoning_sickness.json", tmp_path, capsys)
    elves = next(p["object"] for p in state["battlefield"] if p["card"] == "Llanowar Elves")
    assert [e["source"] for e in in_turn(events, 4, "ManaAbilityActivated")] == [elves]  # Giant Growth paid with the Elves
    attacked = in_turn(events, 4, "AttackersDeclared")
    assert [(e["player"], [a["card"] for a in e["attackers"]]) for e in attacked] == [("bob", ["Grizzly Bears"])]
    assert state["players"]["eve"]["life"] == 40 - 5
    assert not any(p["summoning_sick"] for p in state["battlefield"])


def test_726_3_805_4_day_and_night_count_the_spells_of_every_player_of_the_active_team_from_a_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, state = play("archenemy_day_night_team_spells.json", tmp_path, capsys)
    changes = [(turn, [e["to"] for e in in_turn(events, turn, "DayNightChanged")]) for turn in range(1, 6)]
    # turn 2: eve cast a spell; turn 3: bob, the team's teammate, did; turn 4: eve cast none;
    # turn 5: alice and bob cast one each, two for the team
    assert changes == [(1, ["day"]), (2, []), (3, []), (4, ["night"]), (5, ["day"])]
    assert state["day_night"] == "day" and state["players"]["eve"]["life"] == 40 - 9


def test_500_10_805_10_moment_of_silence_on_a_teammate_skips_the_teams_combat_from_a_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, state = play("archenemy_skip_team_combat.json", tmp_path, capsys)
    assert [(e["phase"], e["player"]) for e in in_turn(events, 2, "PhaseSkipped")] == [("combat", "bob")]
    assert [e["phase"] for e in in_turn(events, 2, "StepBegan") if e["phase"] == "combat"] == []
    assert state["players"]["eve"]["life"] == 40  # alice's Grizzly Bears never attacked
    assert [e["kind"] for e in state["effects"]] == ["no_max_hand_size"]  # the skip was used up (eve's scheme remains)


def test_509_1a_805_9_a_teammate_blocks_for_the_attacked_primary_player_from_a_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, state = play("archenemy_team_blocks.json", tmp_path, capsys)
    blocks = [(e["player"], [(b["card"], b["attacker"]) for b in e["blockers"]]) for e in in_turn(events, 1, "BlockersDeclared")]
    attacker = in_turn(events, 1, "AttackersDeclared")[0]["attackers"][0]
    assert (attacker["card"], attacker["defender"]) == ("Grizzly Bears", "alice")
    assert blocks == [("bob", [("Hill Giant", attacker["object"])])]
    assert state["players"]["alice"]["life"] == 20
    assert [p["card"] for p in state["battlefield"]] == ["Hill Giant"]
