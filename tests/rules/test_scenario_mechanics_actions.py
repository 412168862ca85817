"""The scenario actions of CONTRACT 7 for the schema-5 mechanics: a declare_attackers defender may be a
planeswalker or battle, ``{"object": N}`` or ``{"card": NAME}`` (506.3, 508.1b); ``activate`` takes
``targets`` (602.2b); each command is written back to the same action."""

from __future__ import annotations

import pytest

from mtg_ledger.core.commands import ActivateAbility, CardRef, DeclareAttackers
from mtg_ledger.replays.scenario import parse_action
from mtg_ledger.replays.scenario.actions import action_json

NAMES = ("alice", "bob")


@pytest.mark.parametrize(
    ("defender", "meant"),
    [({"object": 7}, 7), ({"card": "Jace Beleren"}, CardRef("Jace Beleren")), ("bob", "bob")],
)
def test_a_declare_attackers_defender_is_a_player_or_a_planeswalker_or_battle_508_1b(defender, meant):
    action = {"player": "alice", "action": "declare_attackers", "attackers": [{"card": "Grizzly Bears", "defender": defender}]}
    command = parse_action(action, NAMES)
    assert command == DeclareAttackers("alice", ((CardRef("Grizzly Bears"), meant),))
    assert parse_action(action_json(command), NAMES) == command


def test_an_activate_action_names_the_abilitys_targets_602_2b():
    action = {"player": "alice", "action": "activate", "card": "Jace Beleren", "ability": 1, "targets": ["bob"]}
    command = parse_action(action, NAMES)
    assert command == ActivateAbility("alice", CardRef("Jace Beleren"), 1, ("bob",))
    assert parse_action(action_json(command), NAMES) == command
