"""One table per kind of thing (STYLE.md): every command is one entry of the core command table and one
form of the replays' form table, and each command round-trips through its scenario action form."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import get_args

from mtg_ledger.core import commands
from mtg_ledger.core import events as ev
from mtg_ledger.core.command_table import COMMANDS, RECORDED
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CardRef,
    CastSpell,
    CastTransformed,
    ChooseDefender,
    ChooseProtector,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
)
from mtg_ledger.core.decision import RULE_OF_DECISION
from mtg_ledger.replays.scenario.actions import FORMS, action_json
from mtg_ledger.replays.demo.policy import PLAYS
from mtg_ledger.replays.scenario import ACTIONS, parse_action
from mtg_ledger.replays.scenario.schema import ACTION_NAMES

NAMES = ["alice", "bob"]

# One of each command, every optional field given, in each of the ways a scenario names an object.
EXAMPLES: list[Command] = [
    PassPriority("alice"),
    PlayLand("alice", "Forest"),
    CastSpell("alice", "Lightning Bolt", targets=("bob",), pay=(3, CardRef("Mountain", 1))),
    CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)),
    ActivateAbility("alice", CardRef("Llanowar Elves", 2)),
    ActivateAbility("bob", 7, 1),
    OrderTriggers("alice", (4, CardRef("Luminarch Aspirant")), ((9,), None)),
    ChooseDefender("alice", "bob"),
    DeclareAttackers("alice", ((5, "bob"), (CardRef("Grizzly Bears", 1), None)), pay=(2,)),
    DeclareBlockers("bob", ((6, 5), (CardRef("Giant Spider"), CardRef("Serra Angel")))),
    AssignDamage("alice", ((5, ((6, 2), ("bob", 1))),)),
    Discard("bob", ("Forest", "Island")),
    Concede("bob"),
    CastTransformed("alice"),
    CastTransformed("alice", False),
    ChooseProtector("alice", "bob"),
]


def _command_classes() -> set[type]:
    """Every decision declared in core.commands: a dataclass with a ``player``."""
    return {
        cls for cls in vars(commands).values()
        if isinstance(cls, type) and is_dataclass(cls) and "player" in {f.name for f in fields(cls)}
    }


def test_every_command_is_one_entry_of_the_core_table_and_one_form_of_the_replays_table() -> None:
    assert set(get_args(Command)) == _command_classes() == set(COMMANDS)
    kinds = [spec.kind for spec in COMMANDS.values()]
    assert len(kinds) == len(set(kinds))
    assert set(FORMS) == set(kinds)


def test_the_scenario_parser_and_its_schema_know_every_kind_and_pass_until_besides() -> None:
    assert set(ACTIONS) == set(ACTION_NAMES) == {*FORMS, "pass_until"}


def test_every_decision_the_rules_ask_for_is_answered_by_an_entry_of_the_table_and_played_by_the_demo() -> None:
    assert {spec.answers for spec in COMMANDS.values()} == {*RULE_OF_DECISION, None}  # None: conceding, at any time (104.3a)
    assert set(PLAYS) == set(RULE_OF_DECISION)


def test_each_event_that_records_a_decision_is_read_back_by_exactly_one_entry() -> None:
    claimed = [event for spec in COMMANDS.values() for event in spec.recorded]
    assert len(claimed) == len(set(claimed)) == len(RECORDED)
    assert set(claimed) <= set(ev.EVENT_TYPES)


def test_every_command_type_round_trips_through_its_scenario_action_form() -> None:
    assert {type(c) for c in EXAMPLES} == set(COMMANDS)
    for command in EXAMPLES:
        action = action_json(command)
        assert action["action"] == COMMANDS[type(command)].kind and action["player"] == command.player
        assert parse_action(action, NAMES) == command, action
        body = action_json(command, with_player=False)  # the service's body form
        assert "player" not in body and parse_action({**body, "player": command.player}, NAMES) == command
