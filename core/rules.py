"""Pure checks of player decisions. Checking is separate from applying (python-chess style):
``check(state, command)`` either returns a plan the engine can apply without further checks, or
raises an ``IllegalAction`` naming the rule. ``legal_actions`` (core.legal) uses the same checks.

What is common to every command is checked here (the game goes on, the player is in it, the
command answers the pending decision and comes from the player it is asked of); what is particular
to each is its entry's ``check`` in the command table (core.command_table).
"""

from __future__ import annotations

from mtg_ledger.core import teams
from mtg_ledger.core.command_table import COMMANDS, CommandSpec
from mtg_ledger.core.commands import Command, PassPriority
from mtg_ledger.core.decision import RULE_OF_DECISION, TO_DO, Decision, DecisionKind, pending_decision
from mtg_ledger.core.errors import GameOver, IllegalAction, NotYourPriority, Phrase, WrongTiming
from mtg_ledger.core.plans import Plan
from mtg_ledger.core.state import GameState


def check(state: GameState, command: Command) -> Plan:
    """Return the plan for a legal command; raise IllegalAction (with its rule) otherwise."""
    if state.ended:
        raise GameOver("104.1", "rules.game_is_over_no_more_decisions_can")
    player = command.player
    if player not in state.players:
        raise IllegalAction("102.1", "rules.player_is_not_player_in_this_game", player=player)
    if state.players[player].lost:
        raise IllegalAction("800.4a", "rules.player_has_already_left_game", player=player)
    spec = COMMANDS.get(type(command))
    if spec is None:
        raise IllegalAction("117.1", "rules.unknown_command_command", command=command)
    if spec.answers is not None:  # what a player may do at any time (104.3a: concede) answers no decision
        decision = pending_decision(state)
        if decision is None:
            raise WrongTiming("117.1", "rules.no_player_decision_is_pending")
        if spec.answers == DecisionKind.PRIORITY:
            _holds_priority(state, decision, spec, command)
        else:
            _expect(state, decision, spec, player)
    plan: Plan = spec.check(state, command)
    return plan


def _holds_priority(state: GameState, decision: Decision, spec: CommandSpec[Command, Plan], command: Command) -> None:
    """117.1, 117.3d: actions taken with priority, by the player holding it (or a teammate, 805.5a)."""
    if decision.kind != DecisionKind.PRIORITY:
        raise WrongTiming(decision.rule_cited, "rules.decision_not_for_verb", decision=decision.phrase(), verb=Phrase(spec.verb))
    player = command.player
    if decision.player != player and not teams.teammates(state, decision.player, player):  # 805.5a
        raise NotYourPriority(
            "117.3d" if isinstance(command, PassPriority) else "117.1",
            "rules.player_cannot_verb_other_holds_priority", player=player, verb=Phrase(spec.verb), other=decision.player,
        )


def _expect(state: GameState, decision: Decision, spec: CommandSpec[Command, Plan], player: str) -> None:
    """The answer to a decision other than priority, from the player it is asked of (805.7-805.8: a
    team's combat declarations are the team's, sent by any of its players)."""
    kind = spec.answers
    assert kind is not None
    rule = decision.rule_cited if decision.kind == kind else RULE_OF_DECISION[kind]
    to_do = TO_DO[kind]
    if decision.kind != kind:
        raise WrongTiming(rule, "rules.decision_not_the_time_to", decision=decision.phrase(), to_do=to_do)
    if decision.player == player or (spec.team and teams.teammates(state, decision.player, player)):
        return
    if len(teams.team_of(state, decision.player)) > 1:
        raise WrongTiming(rule, "rules.player_cannot_to_do_team_of_other", player=player, to_do=to_do, other=decision.player)
    raise WrongTiming(rule, "rules.player_cannot_to_do_other_to_do", player=player, to_do=to_do, other=decision.player)


def is_legal(state: GameState, command: Command) -> bool:
    try:
        check(state, command)
    except IllegalAction:
        return False
    return True
