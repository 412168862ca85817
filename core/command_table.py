"""The command table: every kind of player decision, registered once, with what the rules need of it.

Each ``CommandSpec`` says, for one command type: its ``kind`` (the name of its scenario action,
CONTRACT section 2), the decision it
answers (``answers``: a kind of ``core.decision.Decision``, or None for an action a player may take
at any time), how it is named in the rules' sentences (``verb``), whether any player of the team
may send it (``team``, 805.7-805.8), its ``check`` (state, command -> its typed plan, or an
``IllegalAction`` naming the rule), its ``apply`` (records the checked plan and names the move
the engine's loop makes next) and its ``candidates`` (state, decision -> the answers of its type
worth asking the rules about, core.candidates).

Dispatch reads the table: ``rules.check``, ``engine.apply_decision``, ``legal.legal_actions`` and
``choices.choices``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mtg_ledger.core import candidates as cand
from mtg_ledger.core import checks, combat, decide
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CastSpell,
    ChooseDefender,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
)
from mtg_ledger.core.decision import RULE_OF_DECISION, Decision
from mtg_ledger.core.moves import Next
from mtg_ledger.core.record import Table
from mtg_ledger.core.state import GameState

C = TypeVar("C")  # the command type
P = TypeVar("P")  # the plan its check returns and its apply records


@dataclass(frozen=True)
class CommandSpec(Generic[C, P]):
    kind: str
    answers: str | None
    verb: str
    check: Callable[[GameState, C], P]
    apply: Callable[[Table, C, P], Next | None]
    candidates: Callable[[GameState, Decision], cand.Options[C]]
    team: bool = False


COMMANDS: dict[type, CommandSpec[Any, Any]] = {
    PassPriority: CommandSpec("pass", "priority", "pass priority", checks.check_pass, decide.pass_priority, cand.passes),
    PlayLand: CommandSpec("play_land", "priority", "play a land", checks.check_land, decide.play_land, cand.lands),
    CastSpell: CommandSpec("cast", "priority", "cast a spell", checks.check_cast, decide.cast_spell, cand.casts),
    ActivateAbility: CommandSpec(
        "activate", "priority", "activate an ability", checks.check_activate, decide.activate_ability, cand.activations
    ),
    OrderTriggers: CommandSpec(
        "order_triggers", "order_triggers", "order triggers", checks.check_order, decide.order_triggers, cand.orders
    ),
    ChooseDefender: CommandSpec(
        "choose_defender", "choose_defender", "choice of defending player", combat.check_choose_defender, decide.choose_defender,
        cand.defenders,
    ),
    DeclareAttackers: CommandSpec(
        "declare_attackers", "declare_attackers", "declaration of attackers", combat.check_attackers, decide.declare_attackers,
        cand.attacks, team=True,
    ),
    DeclareBlockers: CommandSpec(
        "declare_blockers", "declare_blockers", "declaration of blockers", combat.check_blockers, decide.declare_blockers,
        cand.blocks, team=True,
    ),
    AssignDamage: CommandSpec(
        "assign_damage", "assign_damage", "combat damage assignment", combat.check_assign_damage, decide.assign_damage,
        cand.divisions, team=True,
    ),
    Discard: CommandSpec("discard", "discard", "discard", checks.check_discard, decide.discard, cand.discards),
    Concede: CommandSpec("concede", None, "concede", checks.check_concede, decide.concede, cand.concessions),  # 104.3a: at any time
}


def answering(kind: str) -> list[CommandSpec[Any, Any]]:
    """The entries that answer a decision of this kind, in the table's order (those taken at any time included)."""
    return _ANSWERING[kind]


_ANSWERING = {kind: [spec for spec in COMMANDS.values() if spec.answers in (kind, None)] for kind in RULE_OF_DECISION}
