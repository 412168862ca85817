"""Naming a permanent by its object id, {"object": N} (docs/reference/scenario-files.md), in every place a
scenario names one: attackers, blockers, targets, pay, activate and assign_damage; and discard,
whose cards are in a hand, where a card has no object id. Each scenario is played with `play`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.cli import main

pytestmark = pytest.mark.usefixtures("cli_env")

# alice's permanents are objects 1 to 4, bob's 5 and 6 (numbered in seat order, docs/reference/scenario-files.md)
ALICE = ["Grizzly Bears", "Mountain", "Forest", "Colossal Dreadmaw"]
BOB = ["Hill Giant", "Grizzly Bears"]


class Played:
    def __init__(self, code: int, events: list[dict[str, Any]], err: str) -> None:
        self.code, self.events, self.err = code, events, err

    def last(self, kind: str) -> dict[str, Any]:
        return [e for e in self.events if e["type"] == kind][-1]


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], actions: list[dict[str, Any]], alice_hand: list[str] = ()) -> Played:
    scenario = {
        "seed": 1,
        "starting_player": "alice",
        "players": [
            {"name": "alice", "library": ["Forest"] * 5, "hand": list(alice_hand), "battlefield": ALICE},
            {"name": "bob", "library": ["Forest"] * 5, "hand": [], "battlefield": BOB},
        ],
        "actions": actions,
    }
    path = tmp_path / "objects.json"
    path.write_text(json.dumps(scenario))
    db = str(tmp_path / "objects.sqlite")
    code = main(["play", str(path), "--db", db])
    out, err = capsys.readouterr()
    if code != 0:  # a malformed scenario is refused whole, before a game starts
        return Played(code, [], err)
    assert main(["events", out.strip(), "--db", db]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return Played(code, events, err)


def attack_with_bears(defender_blocks: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [
        {"action": "pass_until", "turn": 1, "step": "declare_attackers"},
        {"player": "alice", "action": "declare_attackers", "attackers": [{"object": 1, "defender": "bob"}]},
    ]
    if defender_blocks is not None:
        actions += [
            {"action": "pass_until", "turn": 1, "step": "declare_blockers"},
            {"player": "bob", "action": "declare_blockers", "blockers": defender_blocks},
        ]
    return actions


def test_an_attacker_named_by_its_object_id_attacks_508_1a(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = play(tmp_path, capsys, attack_with_bears())
    assert game.code == 0, game.err
    assert game.last("AttackersDeclared")["attackers"] == [{"object": 1, "card": "Grizzly Bears", "defender": "bob"}]


def test_a_blocker_and_its_attacker_named_by_their_object_ids_block_509_1a(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = play(tmp_path, capsys, attack_with_bears([{"object": 6, "attacker": {"object": 1}}]))
    assert game.code == 0, game.err
    assert game.last("BlockersDeclared")["blockers"] == [{"object": 6, "card": "Grizzly Bears", "attacker": 1}]


def test_a_card_key_holding_a_number_is_refused_with_the_object_form_in_the_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play(tmp_path, capsys, attack_with_bears([{"card": 6, "attacker": "Grizzly Bears"}]))
    assert game.code == 2
    assert 'blockers[0].card: expected a card name, got 6; an object id is written {"object": 6}' in game.err


def test_a_spells_target_and_the_land_paying_for_it_named_by_their_object_ids_601_2c_601_2h(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bolt = {"player": "alice", "action": "cast", "card": "Lightning Bolt", "targets": [{"object": 5}], "pay": [{"object": 2}]}
    game = play(tmp_path, capsys, [bolt, {"player": "alice", "action": "pass"}, {"player": "bob", "action": "pass"}], ["Lightning Bolt"])
    assert game.code == 0, game.err
    cast = game.last("SpellCast")
    assert (cast["targets"], cast["paid_with"]) == ([5], [2])
    assert game.last("DamageDealt")["target"] == 5


def test_an_ability_of_a_permanent_named_by_its_object_id_is_activated_605_3a(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    actions = [
        {"player": "alice", "action": "activate", "object": 3},
        {"player": "alice", "action": "activate", "card": {"object": 2}},
    ]
    game = play(tmp_path, capsys, actions)
    assert game.code == 0, game.err
    assert [(e["source"], e["mana"]) for e in game.events if e["type"] == "ManaAbilityActivated"] == [(3, "G"), (2, "R")]


def test_combat_damage_divided_among_objects_named_by_their_ids_510_1c(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    actions = [
        {"action": "pass_until", "turn": 1, "step": "declare_attackers"},
        {"player": "alice", "action": "declare_attackers", "attackers": [{"object": 4}]},
        {"action": "pass_until", "turn": 1, "step": "declare_blockers"},
        {"player": "bob", "action": "declare_blockers", "blockers": [{"object": 6, "attacker": {"object": 4}}]},
        {"action": "pass_until", "turn": 1, "step": "combat_damage"},
        {"player": "alice", "action": "assign_damage",
         "assignments": [{"attacker": {"object": 4}, "damage": [{"target": {"object": 6}, "amount": 2}, {"target": "bob", "amount": 4}]}]},
    ]
    game = play(tmp_path, capsys, actions)
    assert game.code == 0, game.err
    assert [(a["source"], a["target"], a["amount"]) for a in game.last("CombatDamageDealt")["assignments"]] == [
        (4, 6, 2), (4, "bob", 4), (6, 4, 2)
    ]


def test_a_card_in_hand_is_discarded_by_name_and_has_no_object_id_to_name_it_by_514_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    to_cleanup = [{"action": "pass_until", "turn": 1, "step": "end"}, {"player": "alice", "action": "pass"}, {"player": "bob", "action": "pass"}]
    hand = ["Forest"] * 7 + ["Lightning Bolt"]
    game = play(tmp_path, capsys, [*to_cleanup, {"player": "alice", "action": "discard", "cards": [{"card": "Lightning Bolt"}]}], hand)
    assert game.code == 0, game.err
    assert game.last("CardsDiscarded")["cards"] == ["Lightning Bolt"]
    refused = play(tmp_path, capsys, [*to_cleanup, {"player": "alice", "action": "discard", "cards": [{"object": 9}]}], hand)
    assert refused.code == 2
    assert "cards[0]: a card in a hand has no object id" in refused.err
