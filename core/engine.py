"""The engine: applies checked decisions and walks the turn plan until the next decision.

It works on any ``Table`` (the ``Game`` aggregate, or the in-memory ``LocalTable``): it reads
``table.state`` and records facts through ``core.record.emit``.

One loop, ``advance``, does all the walking: while the game is not over and not waiting for a
player, it makes the next move, and each move says which move follows. The moves read the turn plan
(``core.turn.TURN_PLAN``) and nothing else to know what a step does: which step comes next (its
``then`` rules, the plan's next row, or the next phase of ``state.phase_plan``), whether its phase
is skipped, its turn-based actions, whether players receive priority in it, and what happens as it
ends. A decision is applied by its entry of the command table (``core.command_table``), which
records it and names the move the loop resumes with. Nothing recurses: a whole turn of passes runs at the same stack depth.

Checks come in a fixed order. Before a player would receive priority: state-based actions, then
triggered abilities waiting to go on the stack, repeated until neither applies (117.5, 704.3,
603.3); then, after every pass, whether all players passed in succession, so that the top object
resolves or, with an empty stack, the step ends (117.4, 500.2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core import steps, teams, triggers
from mtg_ledger.core import events as ev
from mtg_ledger.core import turn as turn_plan
from mtg_ledger.core.commands import Command
from mtg_ledger.core.command_table import COMMANDS
from mtg_ledger.core.moves import BEGIN_TURN, END_STEP, NEXT_STEP, PRIORITY_OR_END, TURN_BASED_ACTIONS, Move, Next, priority_to
from mtg_ledger.core.entering import starting_permanents
from mtg_ledger.core.plans import Plan
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.resolve import resolve_top
from mtg_ledger.core.rules import check
from mtg_ledger.core.sba import state_based_actions
from mtg_ledger.core.setup import Shuffles, shuffle_and_draw, started_fields
from mtg_ledger.core.state import GameState

__all__ = ["advance", "apply_decision", "begin_game", "handle", "started_fields"]


def advance(table: Table, todo: Next | None) -> None:
    """The loop: make moves until the game waits for a decision (a move returns None) or is over."""
    while todo is not None and not table.state.ended:
        todo = MOVES[todo.move](table, todo)


def begin_game(table: Table, started: dict[str, Any], recorded: Shuffles | None = None) -> None:
    """After GameStarted: the starting permanents' counters (306.5b, 310.4b), shuffles (recorded),
    opening hands (103.5), then turn 1."""
    starting_permanents(table)
    shuffle_and_draw(table, started, recorded)
    advance(table, BEGIN_TURN)


def handle(table: Table, command: Command) -> None:
    """Check a decision, record it, and run the game to the next decision."""
    apply_decision(table, command, check(table.state, command))


def apply_decision(table: Table, command: Command, checked: Plan) -> None:
    """Record a checked decision (``checked``: the plan ``rules.check`` returned for it), then walk on."""
    advance(table, COMMANDS[type(command)].apply(table, command, checked))


# --- the moves -----------------------------------------------------------------------------


def begin_turn(table: Table, _: Next) -> Next:
    s = table.state
    active = s.turn_order[0] if s.active_player is None else teams.next_team_player(s, s.active_player)  # 805.4
    emit(table, ev.TurnBegan, turn=s.turn + 1, active_player=active, state_hash=s.state_hash())  # 500.1
    team = teams.active_team(s)  # 805.4: the team's turn is each of its players' turn
    ending = [e.id for e in s.effects if e.until == "next_turn" and e.player in team]
    if ending:  # 611.2a: "until your next turn" ends as that turn begins
        emit(table, ev.EffectsEnded, effects=ending, rule="611.2a")
    return NEXT_STEP


def next_row(s: GameState) -> turn_plan.StepSpec | None:
    """The step that follows the current one this turn, or None when the turn is over: the current
    row's ``then`` rules, else the plan's next row in the same phase, else the first step of the next
    phase still to come (500.8, 500.10: ``state.phase_plan``)."""
    if s.step is not None:
        row = turn_plan.spec(s.step)
        for goto in row.then:
            if steps.CONDITIONS[goto.when](s):
                return turn_plan.spec(goto.step)
        following = turn_plan.row_after(row)
        if following is not None:
            return following
    return turn_plan.first_step(s.phase_plan[0]) if s.phase_plan else None


def begin_next_step(table: Table, _: Next) -> Next:
    s = table.state
    row = next_row(s)
    if row is None:
        return BEGIN_TURN
    if row.skipped_by is not None:  # 500.10: a skipped phase doesn't begin
        # 805.10: an effect that makes a player of the active team skip a phase makes the team skip it
        team = teams.active_team(s)
        skip = next((e for e in s.effects if e.kind == row.skipped_by and e.player in team), None)
        if skip is not None:
            emit(table, ev.PhaseSkipped, phase=row.phase, source=skip.source, player=skip.player, effect=skip.id)
            return NEXT_STEP
    first_strike = row.first_strike is not None and steps.CONDITIONS[row.first_strike](s)
    emit(table, ev.StepBegan, turn=s.turn, phase=row.phase, step=row.step.value, first_strike=first_strike)
    return TURN_BASED_ACTIONS


def _row(s: GameState) -> turn_plan.StepSpec:
    """The plan's row of the current step."""
    assert s.step is not None
    return turn_plan.spec(s.step)


def turn_based_actions(table: Table, _: Next) -> Next | None:
    """The current step's turn-based actions; None where they wait for a player's decision."""
    row = _row(table.state)
    if row.actions is not None and not steps.ACTIONS[row.actions](table):
        return None
    return PRIORITY_OR_END


def priority_or_end(table: Table, _: Next) -> Next:
    """After the turn-based actions: the active player receives priority, or the step ends."""
    s = table.state
    row = _row(s)
    if row.priority or (row.priority_if is not None and steps.CONDITIONS[row.priority_if](s)):
        return priority_to(teams.acting(s) or s.active_player or s.turn_order[0])
    return END_STEP


def end_step(table: Table, _: Next) -> Next:
    s = table.state
    row = _row(s)
    emit(table, ev.StepEnded, turn=s.turn, step=row.step.value)  # 500.2
    if row.at_end is not None:
        steps.ACTIONS[row.at_end](table)
    for name in s.turn_order:  # 500.4
        pool = s.players[name].mana_pool
        if pool:
            emit(table, ev.ManaPoolEmptied, player=name, mana=dict(pool))
    return NEXT_STEP


def give_priority(table: Table, todo: Next) -> None:
    """117.5, 603.3: state-based actions, then waiting triggers onto the stack (each player in APNAP
    order, 603.3b), repeated until neither applies; then the player receives priority. Either way
    the game then waits: for that player, or for one who must order their triggers."""
    s = table.state
    assert todo.player is not None
    player = todo.player
    while True:
        state_based_actions(table)
        if s.ended:
            return None
        if not s.pending_triggers:
            break
        for controller in teams.apnap(s):
            mine = [t for t in s.pending_triggers if t.player == controller]
            if not mine:
                continue
            if triggers.needs_choice(s, mine):
                emit(table, ev.TriggerOrderAsked, player=controller, priority_to=player)
                return None
            order, targets, removed = triggers.default_stacking(s, mine)
            emit(table, ev.TriggeredAbilitiesStacked, player=controller, objects=order, targets=targets, removed=removed)
    if s.players[player].lost:  # 805.5: the team has priority; it passes on only if none of it is left
        left = teams.live_members(s, teams.team_of(s, player))
        player = left[0] if left else teams.next_team_player(s, player)
    emit(table, ev.PriorityGiven, player=player)
    return None


def after_pass(table: Table, todo: Next) -> Next | None:
    """117.4: all players passed in succession: resolve the top object, or end the step."""
    s = table.state
    assert todo.player is not None
    if not teams.all_passed(s):
        return priority_to(teams.next_team_player(s, todo.player))  # 117.3d
    if not s.stack:
        return END_STEP
    if resolve_top(table):
        return priority_to(teams.acting(s) or s.live_players()[0])  # 117.3b
    return None  # 608.2d: the resolution waits for a choice


MOVES: dict[Move, Callable[[Table, Next], Next | None]] = {
    Move.BEGIN_TURN: begin_turn,
    Move.NEXT_STEP: begin_next_step,
    Move.TURN_BASED_ACTIONS: turn_based_actions,
    Move.PRIORITY_OR_END: priority_or_end,
    Move.END_STEP: end_step,
    Move.PRIORITY: give_priority,
    Move.AFTER_A_PASS: after_pass,
}
