"""Pure checks of player decisions. Checking is separate from applying (python-chess style):
``check(state, command)`` either returns a plan the engine can apply without further checks, or
raises an ``IllegalAction`` naming the rule. ``legal_actions`` (core.legal) uses the same checks.
"""

from __future__ import annotations

from mtg_ledger.core import combat, teams
from mtg_ledger.core.checks import check_activate, check_cast, check_discard, check_land, check_order
from mtg_ledger.core.commands import (
    ActivateAbility,
    OrderTriggers,
    AssignDamage,
    ChooseDefender,
    CastSpell,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    PassPriority,
    PlayLand,
)
from mtg_ledger.core.decision import RULE_OF_DECISION, Decision, pending_decision
from mtg_ledger.core.errors import GameOver, IllegalAction, NotYourPriority, WrongTiming
from mtg_ledger.core.plans import ConcedePlan, PassPlan, Plan
from mtg_ledger.core.state import GameState

__all__ = ["RULE_OF_DECISION", "Decision", "check", "is_legal", "pending_decision"]


def check(state: GameState, command: Command) -> Plan:
    """Return the plan for a legal command; raise IllegalAction (with its rule) otherwise."""
    if state.ended:
        raise GameOver("104.1", "the game is over: no more decisions can be taken")
    player = command.player
    if player not in state.players:
        raise IllegalAction("102.1", f"{player!r} is not a player in this game")
    if state.players[player].lost:
        raise IllegalAction("800.4a", f"{player} has already left the game")
    if isinstance(command, Concede):
        return ConcedePlan(player)  # 104.3a: a player may concede at any time
    decision = pending_decision(state)
    if decision is None:
        raise WrongTiming("117.1", "no player decision is pending")
    if isinstance(command, ChooseDefender):
        _expect(state, decision, "choose_defender", player)
        return combat.check_choose_defender(state, command)
    if isinstance(command, DeclareAttackers):
        _expect(state, decision, "declare_attackers", player)
        return combat.check_attackers(state, command)
    if isinstance(command, DeclareBlockers):
        _expect(state, decision, "declare_blockers", player)
        return combat.check_blockers(state, command)
    if isinstance(command, AssignDamage):
        _expect(state, decision, "assign_damage", player)
        return combat.check_assign_damage(state, command)
    if isinstance(command, Discard):
        _expect(state, decision, "discard", player)
        return check_discard(state, command, decision.count, decision.rule_cited)
    if isinstance(command, OrderTriggers):
        _expect(state, decision, "order_triggers", player)
        return check_order(state, command)
    if decision.kind != "priority":
        raise WrongTiming(decision.rule_cited, f"{decision.describe()}, not for a {_verb(command)}")
    if decision.player != player and not teams.teammates(state, decision.player, player):  # 805.5a
        raise NotYourPriority(
            "117.3d" if isinstance(command, PassPriority) else "117.1",
            f"{player} cannot {_verb(command)}: {decision.player} holds priority",
        )
    if isinstance(command, PassPriority):
        return PassPlan(player)
    if isinstance(command, PlayLand):
        return check_land(state, command)
    if isinstance(command, CastSpell):
        return check_cast(state, command)
    if isinstance(command, ActivateAbility):
        return check_activate(state, command)
    raise IllegalAction("117.1", f"unknown command {command!r}")


def _verb(command: Command) -> str:
    return {
        PassPriority: "pass priority",
        PlayLand: "play a land",
        CastSpell: "cast a spell",
        ActivateAbility: "activate an ability",
        ChooseDefender: "choice of defending player",
        DeclareAttackers: "declaration of attackers",
        DeclareBlockers: "declaration of blockers",
        AssignDamage: "combat damage assignment",
        Discard: "discard",
    }.get(type(command), type(command).__name__)


# 805.7-805.8: a team's combat declarations are the team's, sent by any of its players
TEAM_DECISIONS = frozenset({"declare_attackers", "declare_blockers", "assign_damage"})


def _expect(state: GameState, decision: Decision, kind: str, player: str) -> None:
    rule = decision.rule_cited if decision.kind == kind else RULE_OF_DECISION[kind]
    if decision.kind != kind:
        raise WrongTiming(rule, f"{decision.describe()}; it is not the time to {kind.replace('_', ' ')}")
    if decision.player == player or (kind in TEAM_DECISIONS and teams.teammates(state, decision.player, player)):
        return
    if len(teams.team_of(state, decision.player)) > 1:
        raise WrongTiming(rule, f"{player} cannot {kind.replace('_', ' ')}: it is for the team of {decision.player} to do")
    raise WrongTiming(rule, f"{player} cannot {kind.replace('_', ' ')}: it is {decision.player}'s to do")



def is_legal(state: GameState, command: Command) -> bool:
    try:
        check(state, command)
    except IllegalAction:
        return False
    return True
