"""The decision's legal actions (core.choices): every one legal, in the scenario's action form, and
complete where the choice is small enough to list; core.legal's legal_actions is the same listing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.choices import choices
from mtg_ledger.core.command_table import COMMANDS
from mtg_ledger.core.commands import ActivateAbility, Concede, DeclareBlockers, PassPriority
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.rules import is_legal
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.scenario.actions import action_json
from mtg_ledger.replays.scenario import parse_action
from tests.helpers import advance_to
from tests.conftest import examples


@settings(max_examples=examples(8))
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), single_defender=st.booleans())
def test_every_listed_action_is_legal_round_trips_through_its_json_form_and_is_what_legal_actions_lists(
    seed: int, players: int, single_defender: bool
) -> None:
    setup = demo_setup(seed, players)
    if players > 2 and single_defender:  # 507.1: a defending player is chosen each combat
        setup["format"] = "single-defender"
    table = LocalTable.start(setup)
    rng = random.Random(seed)
    for _ in range(400):
        found = choices(table.state)
        if found.decision is None:
            break
        names = list(table.state.turn_order)
        for command in found.actions:
            assert is_legal(table.state, command), command
            action = action_json(command)
            assert action["action"] == COMMANDS[type(command)].kind
            assert parse_action(action, names) == command, action
            assert parse_action({**action_json(command, with_player=False), "player": command.player}, names) == command
        assert list(legal_actions(table.state, allow_concede=True)) == found.actions
        acting = [c for c in found.actions if not isinstance(c, (PassPriority, ActivateAbility, Concede))]
        table.handle(rng.choice(acting) if acting and rng.random() < 0.6 else found.actions[0])


def test_blockers_are_listed_whole_each_subset_each_attacker_rule_509_1a() -> None:
    table = LocalTable.start(
        {
            "starting_player": "alice",
            "players": [
                {"name": "alice", "library": ["Forest"] * 5, "hand": [], "battlefield": ["Grizzly Bears", "Hill Giant"]},
                {"name": "bob", "library": ["Mountain"] * 5, "hand": [], "battlefield": ["Grizzly Bears", "Savannah Lions"]},
            ],
        }
    )
    advance_to(table, 3, "declare_attackers")
    attackers = choices(table.state)
    assert attackers.complete and len([c for c in attackers.actions if not isinstance(c, Concede)]) == 4  # 2 creatures: 2^2 subsets
    table.handle(max(attackers.actions[:-1], key=lambda c: len(c.attackers)))
    advance_to(table, 3, "declare_blockers")
    blocks = choices(table.state)
    declarations = [c for c in blocks.actions if isinstance(c, DeclareBlockers)]
    assert blocks.complete and blocks.decision is not None and blocks.decision.player == "bob"
    assert len(declarations) == 9  # each of two blockers: no block, or one of two attackers


def test_a_division_of_combat_damage_is_given_by_its_shape_rule_510_1c() -> None:
    table = LocalTable.start(
        {
            "starting_player": "alice",
            "players": [
                {"name": "alice", "library": ["Forest"] * 5, "hand": [], "battlefield": ["Hill Giant"]},
                {"name": "bob", "library": ["Mountain"] * 5, "hand": [], "battlefield": ["Grizzly Bears", "Savannah Lions"]},
            ],
        }
    )
    advance_to(table, 3, "declare_attackers")
    table.handle(next(c for c in choices(table.state).actions if getattr(c, "attackers", ())))
    advance_to(table, 3, "declare_blockers")
    both = next(c for c in choices(table.state).actions if isinstance(c, DeclareBlockers) and len(c.blockers) == 2)
    table.handle(both)
    advance_to(table, 3, "combat_damage")
    found = choices(table.state)
    assert found.decision is not None and found.decision.kind == "assign_damage" and not found.complete
    (shape,) = found.shapes
    assert shape["action"] == "assign_damage" and shape["assignments"][0]["damage"] == 3
    assert len(shape["assignments"][0]["among"]) == 2
