"""The command table: every kind of player decision, registered once, with what the rules need of it.

Each ``CommandSpec`` says, for one command type: its ``kind`` (the name of its scenario action,
CONTRACT section 2), the decision it
answers (``answers``: a kind of ``core.decision.Decision``, or None for an action a player may take
at any time), how it is named in the rules' sentences (``verb``), whether any player of the team
may send it (``team``, 805.7-805.8), its ``check`` (state, command -> its typed plan, or an
``IllegalAction`` naming the rule) and its ``apply`` (records the checked plan and names the move
the engine's loop makes next).

Dispatch reads the table: ``rules.check`` and ``engine.apply_decision``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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
    team: bool = False


COMMANDS: dict[type, CommandSpec[Any, Any]] = {
    PassPriority: CommandSpec("pass", "priority", "pass priority", checks.check_pass, decide.pass_priority),
    PlayLand: CommandSpec("play_land", "priority", "play a land", checks.check_land, decide.play_land),
    CastSpell: CommandSpec("cast", "priority", "cast a spell", checks.check_cast, decide.cast_spell),
    ActivateAbility: CommandSpec("activate", "priority", "activate an ability", checks.check_activate, decide.activate_ability),
    OrderTriggers: CommandSpec("order_triggers", "order_triggers", "order triggers", checks.check_order, decide.order_triggers),
    ChooseDefender: CommandSpec(
        "choose_defender", "choose_defender", "choice of defending player", combat.check_choose_defender, decide.choose_defender
    ),
    DeclareAttackers: CommandSpec(
        "declare_attackers", "declare_attackers", "declaration of attackers", combat.check_attackers, decide.declare_attackers, team=True
    ),
    DeclareBlockers: CommandSpec(
        "declare_blockers", "declare_blockers", "declaration of blockers", combat.check_blockers, decide.declare_blockers, team=True
    ),
    AssignDamage: CommandSpec(
        "assign_damage", "assign_damage", "combat damage assignment", combat.check_assign_damage, decide.assign_damage, team=True
    ),
    Discard: CommandSpec("discard", "discard", "discard", checks.check_discard, decide.discard),
    Concede: CommandSpec("concede", None, "concede", checks.check_concede, decide.concede),  # 104.3a: at any time
}
