"""The turn-structure scenario files, run through the command line as a user would: `play`, then the
log (`events`) and the judge's view (`state`) checked for what the turn's special rules did."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.cli import main
from mtg_ledger.replays.scenario import examples

SCENARIOS = examples.directory()


pytestmark = pytest.mark.usefixtures("cli_env")


class Played:
    """A scenario played into its own store: its events and its final state, as the CLI prints them."""

    def __init__(self, path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        db = str(tmp_path / "turn.sqlite")
        assert main(["play", str(path), "--db", db]) == 0, capsys.readouterr().err
        game = capsys.readouterr().out.strip()
        assert main(["events", game, "--db", db]) == 0
        self.events: list[dict[str, Any]] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert main(["state", game, "--db", db]) == 0
        self.state: dict[str, Any] = json.loads(capsys.readouterr().out)

    def of(self, event_type: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == event_type]

    def steps(self, turn: int) -> list[str]:
        return [e["step"] for e in self.of("StepBegan") if e["turn"] == turn]

    def after(self, event: dict[str, Any]) -> list[str]:
        return [e["type"] for e in self.events if e["v"] > event["v"]]

    def player(self, name: str) -> dict[str, Any]:
        return self.state["players"][name]

    def permanents(self, card: str) -> list[dict[str, Any]]:
        return [p for p in self.state["battlefield"] if p["card"] == card]


@pytest.fixture
def play(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    return lambda name: Played(SCENARIOS / name, tmp_path, capsys)


def test_phyrexian_arena_scenario_draws_and_loses_a_life_in_each_of_alices_upkeeps_603_3(play):
    game = play("turn_phyrexian_arena.json")

    triggered = game.of("AbilityTriggered")
    assert [(e["player"], e["card"]) for e in triggered] == [("alice", "Phyrexian Arena")] * 2
    first_upkeep = next(e for e in game.of("StepBegan") if e["step"] == "upkeep")
    assert game.after(first_upkeep)[:3] == ["AbilityTriggered", "TriggeredAbilitiesStacked", "PriorityGiven"]
    assert [(e["player"], e["amount"]) for e in game.of("LifeLost")] == [("alice", 1), ("alice", 1)]
    assert (game.state["turn"], game.state["step"], game.state["stack"]) == (3, "upkeep", [])
    assert game.player("alice")["life"] == 18 and game.player("alice")["hand"] == ["Island", "Forest"]


def test_cleanup_megrim_scenario_gives_priority_in_cleanup_and_then_a_second_cleanup_step_514_3a(play):
    game = play("turn_cleanup_megrim.json")

    assert game.steps(1).count("cleanup") == 2
    first, second = (e for e in game.of("StepBegan") if e["step"] == "cleanup")
    assert game.after(first)[:5] == ["CardsDiscarded", "AbilityTriggered", "CleanupPerformed", "TriggeredAbilitiesStacked", "PriorityGiven"]
    assert game.after(second)[:3] == ["CleanupPerformed", "StepEnded", "TurnBegan"]
    assert [(e["target"], e["amount"]) for e in game.of("DamageDealt")] == [("alice", 2)]
    assert game.player("alice")["life"] == 18 and game.player("alice")["graveyard"] == ["Hill Giant"]
    assert (game.state["turn"], game.state["step"], game.state["priority"]) == (2, "upkeep", "bob")


def test_teferis_imp_scenario_orders_triggers_pauses_for_the_discard_and_feeds_megrim_603_3b_608_2d(play):
    game = play("turn_phasing_teferis_imp.json")

    assert [(e["phased_in"], e["phased_out"]) for e in game.of("PermanentsPhased")] == [([], [1]), ([1], [])]
    assert [e["player"] for e in game.of("TriggerOrderAsked")] == ["alice", "alice"]
    imp, arena = (e["object"] for e in game.of("AbilityTriggered")[:2])
    assert game.of("TriggeredAbilitiesStacked")[0]["objects"] == [arena, imp]  # listed bottom first
    paused = game.of("ResolutionPaused")
    assert [(e["object"], e["player"], e["choice"]) for e in paused] == [(imp, "alice", "discard")]
    assert [(e["cards"], e["rule"]) for e in game.of("CardsDiscarded")] == [(["Lightning Bolt"], "608.2d")]
    megrim = [e for e in game.of("AbilityTriggered") if e["card"] == "Megrim"]
    assert [(e["player"], e["context"]) for e in megrim] == [("bob", {"player": "alice"})]
    resolved = [e["card"] for e in game.of("ObjectResolved")]
    assert resolved == ["Teferi's Imp", "Megrim", "Phyrexian Arena", "Phyrexian Arena", "Teferi's Imp"]
    assert game.player("alice")["life"] == 16  # Megrim 2, the Arena twice 1
    assert game.player("alice")["hand"] == ["Island", "Swamp", "Plains", "Mountain"]
    assert not game.permanents("Teferi's Imp")[0]["phased_out"]


def test_day_night_scenario_turns_night_then_day_and_transforms_village_watch_both_ways_726_3(play):
    game = play("turn_day_night.json")

    changes = game.of("DayNightChanged")
    assert [(e["to"], e["rule"]) for e in changes] == [("day", "726.2"), ("night", "502.2"), ("day", "502.2")]
    assert changes[1]["transformed"] == [1]
    entered = game.of("PermanentsTransformed")
    assert [(e["permanents"], e["rule"]) for e in entered] == [([9], "702.145")]
    assert sorted(changes[2]["transformed"]) == [1, 9]
    attackers = game.of("AttackersDeclared")[-1]["attackers"]
    assert sorted(a["object"] for a in attackers) == [1, 9]  # the one cast this turn has haste
    assert game.player("bob")["life"] == 7  # Bolt 3, two Village Reavers 5 each
    assert game.state["day_night"] == "day"
    assert [(p["power"], p["toughness"]) for p in game.permanents("Village Watch")] == [(4, 3), (4, 3)]


def test_saga_scenario_adds_lore_counters_makes_two_knights_and_sacrifices_history_of_benalia_after_chapter_iii_714(play):
    game = play("turn_saga.json")

    assert [(e["count"], e["total"]) for e in game.of("LoreCounterAdded")] == [(1, 1), (1, 2), (1, 3)]
    assert [e["context"]["chapter"] for e in game.of("AbilityTriggered")] == [1, 2, 3]
    assert [e["token"] for e in game.of("TokenCreated")] == ["Knight", "Knight"]
    sacrificed = game.of("PermanentsPutIntoGraveyard")
    assert [(e["permanents"][0]["card"], e["rule"]) for e in sacrificed] == [("History of Benalia", "714.4")]
    just_before = next(e for e in game.events if e["v"] == sacrificed[0]["v"] - 1)
    assert (just_before["type"], just_before["card"]) == ("ObjectResolved", "History of Benalia")  # chapter III left the stack
    assert game.player("alice")["graveyard"] == ["History of Benalia"]
    knights = game.permanents("Knight")
    assert [(k["power"], k["toughness"], k["tapped"]) for k in knights] == [(4, 3, False), (4, 3, False)]  # vigilance
    assert game.player("bob")["life"] == 12 and game.state["step"] == "end"


def test_relentless_assault_scenario_has_the_bears_attack_in_two_combat_phases_500_8(play):
    game = play("turn_relentless_assault.json")

    combat = ["beginning_of_combat", "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat"]
    assert game.steps(1)[3:] == ["precombat_main", *combat, "postcombat_main", *combat, "postcombat_main", "end", "cleanup"]
    assert [e["phase"] for e in game.of("ExtraPhaseAdded")] == ["combat", "postcombat_main"]
    assert [e["permanents"] for e in game.of("PermanentsUntappedByEffect")] == [[1]]
    assert len(game.of("CombatDamageDealt")) == 2 and game.player("bob")["life"] == 16


def test_moment_of_silence_scenario_skips_alices_combat_but_not_bobs_next_turn_500_10(play):
    game = play("turn_moment_of_silence.json")

    skipped = game.of("PhaseSkipped")
    assert [(e["phase"], e["player"]) for e in skipped] == [("combat", "alice")]
    assert "beginning_of_combat" not in game.steps(1)
    assert "beginning_of_combat" in game.steps(2)
    assert game.player("alice")["life"] == 18 and game.player("bob")["life"] == 20
    assert game.state["effects"] == [] and (game.state["turn"], game.state["step"]) == (2, "end")


def test_colossus_scenario_stays_tapped_in_the_untap_step_and_untaps_for_9_in_the_upkeep_502_3_602_5b(play):
    game = play("turn_colossus.json")

    turn3 = next(e for e in game.of("TurnBegan") if e["turn"] == 3)
    assert not [e for e in game.of("PermanentsUntapped") if e["v"] > turn3["v"] and 1 in e["permanents"]]
    activated = game.of("AbilityActivated")
    assert [(e["source"], e["card"], e["ability"], e["mana_spent"]) for e in activated] == [(1, "Colossus of Sardia", 0, {"G": 9})]
    assert [(e["permanents"], e["source"]) for e in game.of("PermanentsUntappedByEffect")] == [([1], 1)]
    colossus = game.permanents("Colossus of Sardia")[0]
    assert not colossus["tapped"] and all(p["tapped"] for p in game.permanents("Forest"))
    assert game.player("bob")["life"] == 11 and (game.state["turn"], game.state["step"]) == (3, "upkeep")


def test_activating_colossus_outside_the_upkeep_exits_2_and_keeps_what_came_before_602_5b(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((SCENARIOS / "turn_colossus.json").read_text())
    data["actions"] = data["actions"][:3] + [
        {"action": "pass_until", "turn": 3, "step": "draw"},
        {"player": "alice", "action": "activate", "card": "Colossus of Sardia", "ability": 0},
    ]
    path = tmp_path / "late.json"
    path.write_text(json.dumps(data))
    db = str(tmp_path / "late.sqlite")

    assert main(["play", str(path), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "actions[4]" in err and "602.5b" in err
    game = re.search(r"in game ([0-9a-f-]{36})", err).group(1)
    assert main(["state", game, "--db", db]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["turn"], state["step"], state["priority"], state["stack"]) == (3, "draw", "alice", [])
    assert next(p for p in state["battlefield"] if p["card"] == "Colossus of Sardia")["tapped"]
