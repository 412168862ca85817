"""The combat scenario files, run through the command line as a user would: `play`, then the
log (`events`) and the judge's view (`state`) checked for what happened in combat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.cli import main
from mtg_ledger.replays.scenario import examples

SCENARIOS = examples.directory()


pytestmark = pytest.mark.usefixtures("cli_env")


class Played:
    """A scenario played into its own store: its events and its final state, as the CLI prints them."""

    def __init__(self, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        db = str(tmp_path / "combat.sqlite")
        assert main(["play", str(SCENARIOS / name), "--db", db]) == 0, capsys.readouterr().err
        game = capsys.readouterr().out.strip()
        assert main(["events", game, "--db", db]) == 0
        self.events: list[dict[str, Any]] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert main(["state", game, "--db", db]) == 0
        self.state: dict[str, Any] = json.loads(capsys.readouterr().out)

    def of(self, event_type: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == event_type]

    def damage_steps(self) -> list[bool]:
        return [e["first_strike"] for e in self.of("StepBegan") if e["step"] == "combat_damage"]

    def dealt(self) -> list[list[tuple[int, Any, int]]]:
        return [[(a["source"], a["target"], a["amount"]) for a in e["assignments"]] for e in self.of("CombatDamageDealt")]

    def life(self) -> dict[str, int]:
        return {name: p["life"] for name, p in self.state["players"].items()}

    def permanent(self, card: str) -> dict[str, Any]:
        return next(p for p in self.state["battlefield"] if p["card"] == card)


@pytest.fixture
def play(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    return lambda name: Played(name, tmp_path, capsys)


def test_first_strike_scenario_kills_the_blocking_bears_before_they_deal_damage_510_4(play):
    game = play("combat_first_strike.json")  # Youthful Knight (1) attacks, Grizzly Bears (2) block

    assert game.damage_steps() == [True, False]
    first, second = game.of("CombatDamageDealt")
    assert (first["first_strike"], first["first_strikers"]) == (True, [1])
    assert game.dealt() == [[(1, 2, 2)], []]
    assert game.state["players"]["bob"]["graveyard"] == ["Grizzly Bears"]
    assert game.permanent("Youthful Knight")["damage"] == 0
    assert (game.state["step"], game.life()) == ("end_of_combat", {"alice": 20, "bob": 20})


def test_trample_scenario_splits_the_dreadmaws_damage_between_the_bears_and_bob_702_19b(play):
    game = play("combat_trample.json")  # Colossal Dreadmaw (1) blocked by Grizzly Bears (2)

    assert game.damage_steps() == [False]
    assert game.dealt() == [[(1, 2, 3), (1, "bob", 3), (2, 1, 2)]]
    assert game.life()["bob"] == 17
    assert game.state["players"]["bob"]["graveyard"] == ["Grizzly Bears"]
    assert game.permanent("Colossal Dreadmaw")["damage"] == 2


def test_ghostly_prison_scenario_taps_the_four_named_plains_before_the_attack_508_1h(play):
    game = play("combat_ghostly_prison.json")  # Bears (1), Lions (2), Plains (3-7); bob's Ghostly Prison (8)

    types = [e["type"] for e in game.events]
    declared_at = types.index("AttackersDeclared")
    assert types[declared_at - 4 : declared_at] == ["ManaAbilityActivated"] * 4
    assert [e["source"] for e in game.of("ManaAbilityActivated")] == [4, 5, 6, 7]
    declared = game.of("AttackersDeclared")[0]
    assert declared["costs_paid"] == [{"source": 8, "card": "Ghostly Prison", "player": "bob", "creatures": 2, "generic": 4}]
    assert declared["mana_spent"] == {"W": 4}
    assert [p["tapped"] for p in game.state["battlefield"] if p["card"] == "Plains"] == [False, True, True, True, True]
    assert game.life()["bob"] == 16


def test_free_for_all_scenario_attacks_two_opponents_who_block_in_turn_order_802_2_509_1(play):
    game = play("combat_free_for_all.json")  # alice: Bears (1) at bob, Lions (2) at carol; carol's Hill Giant (4)

    declared = game.of("AttackersDeclared")[0]
    assert [(a["object"], a["defender"]) for a in declared["attackers"]] == [(1, "bob"), (2, "carol")]
    assert [(e["player"], e["blockers"]) for e in game.of("BlockersDeclared")] == [
        ("bob", []),
        ("carol", [{"object": 4, "card": "Hill Giant", "attacker": 2}]),
    ]
    assert game.dealt() == [[(1, "bob", 2), (2, 4, 2), (4, 2, 3)]]
    assert game.life() == {"alice": 20, "bob": 18, "carol": 20}
    assert game.state["players"]["alice"]["graveyard"] == ["Savannah Lions"]


def test_single_defender_scenario_attacks_only_the_chosen_player_507_1(play):
    game = play("combat_single_defender.json")

    chosen = game.of("DefendingPlayerChosen")
    assert [(e["player"], e["chooser"]) for e in chosen] == [("carol", "alice")]
    assert game.events[chosen[0]["v"] - 2]["type"] == "StepBegan"  # before anyone got priority in that step
    assert [(a["object"], a["defender"]) for a in game.of("AttackersDeclared")[0]["attackers"]] == [(1, "carol")]
    assert [e["player"] for e in game.of("BlockersDeclared")] == ["carol"]  # bob is not asked
    assert game.life() == {"alice": 20, "bob": 20, "carol": 18}


def test_double_strike_and_kindled_fury_scenario_deals_damage_in_both_steps_702_4b_702_7c(play):
    game = play("combat_double_strike_kindled_fury.json")  # Fencing Ace (1), Grizzly Bears (2)

    assert game.damage_steps() == [True, False]
    assert game.dealt() == [[(1, "bob", 1)], [(1, "bob", 1), (2, "bob", 3)]]
    cast = game.of("SpellCast")[0]
    first_step, second_step = [e["v"] for e in game.of("StepBegan") if e["step"] == "combat_damage"]
    assert (cast["card"], cast["targets"]) == ("Kindled Fury", [2]) and first_step < cast["v"] < second_step
    assert game.life()["bob"] == 15
    assert game.permanent("Grizzly Bears")["keywords"] == ["first strike"]
