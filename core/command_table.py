"""The command table: every kind of player decision, registered once, with what the rules need of it.

Each ``CommandSpec`` says, for one command type: its ``kind`` (the name of its scenario action,
docs/reference/scenario-files.md, whose JSON form is the outer shell's: ``replays.actions.FORMS``), the decision it
answers (``answers``: a kind of ``core.decision.Decision``, or None for an action a player may take
at any time), how it is named in the rules' sentences (``verb``, the message id of its name in ``core.errors.ENGLISH``), whether any player of the team
may send it (``team``, 805.7-805.8), its ``check`` (state, command -> its typed plan, or an
``IllegalAction`` naming the rule), its ``apply`` (records the checked plan and names the move
the engine's loop makes next), its ``candidates`` (state, decision -> the answers of its type
worth asking the rules about, core.candidates) and the events that record it (``recorded``: each
event type with how the command is read back from it, for a replay).

Dispatch reads the table: ``rules.check``, ``engine.apply_decision``, ``legal.legal_actions``,
``choices.choices`` and the replay's ``decision_at``. Adding a command is one entry here and one form
in ``replays.actions``; tests/rules/test_command_table.py fails while either is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mtg_ledger.core import candidates as cand
from mtg_ledger.core import apply_commands, checks, combat, sieges
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CastSpell,
    CastTransformed,
    ChooseDefender,
    ChooseProtector,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
)
from mtg_ledger.core.decision import Decision, DecisionKind
from mtg_ledger.core.moves import Next
from mtg_ledger.core.record import Table
from mtg_ledger.core.state import GameState

C = TypeVar("C")  # the command type
P = TypeVar("P")  # the plan its check returns and its apply records
Reader = Callable[[dict[str, Any], Decision, GameState], C | None]  # an event's contract map -> the command it records


@dataclass(frozen=True)
class CommandSpec(Generic[C, P]):
    kind: str
    answers: DecisionKind | None
    verb: str
    check: Callable[[GameState, C], P]
    apply: Callable[[Table, C, P], Next | None]
    candidates: Callable[[GameState, Decision], cand.Options[C]]
    recorded: Mapping[str, Reader[C]]
    team: bool = False


COMMANDS: dict[type, CommandSpec[Any, Any]] = {
    PassPriority: CommandSpec(
        kind="pass", answers=DecisionKind.PRIORITY, verb="rules.verb_pass",
        check=checks.check_pass, apply=apply_commands.apply_pass, candidates=cand.passes,
        recorded={"PriorityPassed": apply_commands.priority_passed},
    ),
    PlayLand: CommandSpec(
        kind="play_land", answers=DecisionKind.PRIORITY, verb="rules.verb_play_land",
        check=checks.check_land, apply=apply_commands.apply_land, candidates=cand.lands,
        recorded={"LandPlayed": apply_commands.land_played},
    ),
    CastSpell: CommandSpec(
        kind="cast", answers=DecisionKind.PRIORITY, verb="rules.verb_cast",
        check=checks.check_cast, apply=apply_commands.apply_cast, candidates=cand.casts,
        recorded={"SpellCast": apply_commands.spell_cast},
    ),
    ActivateAbility: CommandSpec(
        kind="activate", answers=DecisionKind.PRIORITY, verb="rules.verb_activate",
        check=checks.check_activate, apply=apply_commands.apply_activation, candidates=cand.activations,
        recorded={"AbilityActivated": apply_commands.ability_activated, "ManaAbilityActivated": apply_commands.mana_ability_activated},
    ),
    OrderTriggers: CommandSpec(
        kind="order_triggers", answers=DecisionKind.ORDER_TRIGGERS, verb="rules.verb_order_triggers",
        check=checks.check_order, apply=apply_commands.apply_order, candidates=cand.orders,
        recorded={"TriggeredAbilitiesStacked": apply_commands.triggers_stacked},
    ),
    ChooseDefender: CommandSpec(
        kind="choose_defender", answers=DecisionKind.CHOOSE_DEFENDER, verb="rules.verb_choose_defender",
        check=combat.check_choose_defender, apply=apply_commands.apply_defender, candidates=cand.defenders,
        recorded={"DefendingPlayerChosen": apply_commands.defender_chosen},
    ),
    DeclareAttackers: CommandSpec(
        kind="declare_attackers", answers=DecisionKind.DECLARE_ATTACKERS, verb="rules.verb_declare_attackers",
        check=combat.check_attackers, apply=apply_commands.apply_attackers, candidates=cand.attacks,
        recorded={"AttackersDeclared": apply_commands.attackers_declared},
        team=True,  # 805.7-805.8
    ),
    DeclareBlockers: CommandSpec(
        kind="declare_blockers", answers=DecisionKind.DECLARE_BLOCKERS, verb="rules.verb_declare_blockers",
        check=combat.check_blockers, apply=apply_commands.apply_blockers, candidates=cand.blocks,
        recorded={"BlockersDeclared": apply_commands.blockers_declared},
        team=True,  # 805.7-805.8
    ),
    AssignDamage: CommandSpec(
        kind="assign_damage", answers=DecisionKind.ASSIGN_DAMAGE, verb="rules.verb_assign_damage",
        check=combat.check_assign_damage, apply=apply_commands.apply_damage, candidates=cand.divisions,
        recorded={"CombatDamageDealt": apply_commands.damage_dealt},
        team=True,  # 805.7-805.8
    ),
    Discard: CommandSpec(
        kind="discard", answers=DecisionKind.DISCARD, verb="rules.verb_discard",
        check=checks.check_discard, apply=apply_commands.apply_discard, candidates=cand.discards,
        recorded={"CardsDiscarded": apply_commands.cards_discarded},
    ),
    Concede: CommandSpec(
        kind="concede", answers=None, verb="rules.verb_concede",  # 104.3a: a player may concede at any time
        check=checks.check_concede, apply=apply_commands.apply_concession, candidates=cand.concessions,
        recorded={"PlayerLost": apply_commands.conceded},
    ),
    CastTransformed: CommandSpec(
        kind="cast_transformed", answers=DecisionKind.CAST_TRANSFORMED, verb="rules.verb_cast_transformed",
        check=sieges.check_cast_transformed, apply=sieges.apply_cast_transformed, candidates=sieges.candidates,
        recorded={"SpellCastTransformed": sieges.cast_transformed, "CastDeclined": sieges.declined},
    ),
    ChooseProtector: CommandSpec(
        kind="choose_protector", answers=DecisionKind.CHOOSE_PROTECTOR, verb="rules.verb_choose_protector",
        check=sieges.check_choose_protector, apply=sieges.apply_choose_protector, candidates=sieges.protectors,
        recorded={"ProtectorChosen": sieges.protector_was_chosen},
    ),
}


def answering(kind: DecisionKind) -> list[CommandSpec[Any, Any]]:
    """The entries that answer a decision of this kind, in the table's order (those taken at any time included)."""
    return _ANSWERING[kind]


_ANSWERING = {kind: [spec for spec in COMMANDS.values() if spec.answers in (kind, None)] for kind in DecisionKind}


RECORDED: dict[str, Reader[Any]] = {event: read for spec in COMMANDS.values() for event, read in spec.recorded.items()}
"""Each event type that records a decision, with how the command is read back from it."""
