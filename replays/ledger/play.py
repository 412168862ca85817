"""Running scenarios and the demo against a ``Ledger``: one decision, one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from mtg_ledger.replays.demo import policy
from mtg_ledger.core.commands import AssignDamage, Command, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.decision import DecisionKind, pending_decision
from mtg_ledger.core.state import GameState
from mtg_ledger.core.turn import STEP_NAMES, spec
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.scenario import PassUntil, Scenario, ScenarioError

MAX_DECISIONS = 100_000  # a runaway guard for the demo policy, far above any real game


@dataclass
class ActionFailed(Exception):
    """An action of a scenario was refused; everything before it is stored."""

    index: int
    action: object
    error: Exception
    game_id: UUID

    def __str__(self) -> str:
        return f"actions[{self.index}]: {self.error}"


def pass_until_step(state: GameState, target: PassUntil) -> Command | None:
    """The next decision ``pass_until`` takes for whoever must decide, or None where it stops.

    It passes priority and declares no attackers or blockers; it stops at the first decision of
    the target step of the target turn, where a decision has no default, and where the game ends.
    """
    decision = pending_decision(state)
    if decision is None:
        return None
    here = (state.turn, STEP_NAMES.index(state.step)) if state.step else (state.turn, -1)
    goal = (target.turn, STEP_NAMES.index(target.step))
    again = state.turn == target.turn and spec(target.step).phase in state.phase_plan  # 500.8: an extra phase to come
    if here >= goal and not (again and here != goal):
        if here > goal or state.step != target.step:
            raise ScenarioError(
                f"pass_until turn {target.turn} {target.step}: no decision was asked for in that step "
                f"(the game is now at turn {state.turn} {state.step}). A step may be skipped (508.8: no declare "
                "blockers or combat damage step without attackers; 500.10) or ask for no decision (502.4: untap; "
                "514.3: cleanup)"
            )
        return None
    if decision.kind == DecisionKind.PRIORITY:
        return PassPriority(decision.player)
    if decision.kind == DecisionKind.DECLARE_ATTACKERS:
        return DeclareAttackers(decision.player, ())
    if decision.kind == DecisionKind.DECLARE_BLOCKERS:
        return DeclareBlockers(decision.player, ())
    if decision.kind == DecisionKind.ASSIGN_DAMAGE:
        return AssignDamage(decision.player, ())  # the default division (510.1c)
    # a discard, the choice of a defending player, of a Siege's protector or of casting a Siege transformed has no default
    return None  # stop here


def play_scenario(ledger: Ledger, scenario: Scenario) -> UUID:
    game_id = ledger.start(scenario.setup)
    for index, action in enumerate(scenario.actions):
        try:
            if isinstance(action, PassUntil):
                while (command := pass_until_step(ledger.state_now(game_id), action)) is not None:
                    ledger.decide(game_id, command)
            else:
                ledger.decide(game_id, action)
        except (IllegalAction, ScenarioError) as error:
            raise ActionFailed(index, action, error, game_id) from error
    return game_id


def play_demo(ledger: Ledger, setup: dict[str, object]) -> UUID:
    game_id = ledger.start(setup)
    for _ in range(MAX_DECISIONS):
        state = ledger.state_now(game_id)
        command = policy.choose(state)
        if command is None:
            return game_id
        ledger.decide(game_id, command)
    raise RuntimeError(f"the demo game {game_id} did not end within {MAX_DECISIONS} decisions")
