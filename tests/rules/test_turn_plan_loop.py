"""The turn structure is data walked by one loop (500.1): TURN_PLAN is the one table the engine
reads to know what a step does and what follows, and a whole turn runs without the Python stack
growing from step to step."""

from __future__ import annotations

import sys
from typing import Any

from mtg_ledger.core import events as ev
from mtg_ledger.core import steps, turn
from mtg_ledger.core.commands import PassPriority
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.table import LocalTable
from tests.helpers import events_of, two_players

LIBRARY = {"library": ["Forest"] * 20, "hand": []}  # nothing to cast, nobody to attack with: only passes


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


class DepthTable(LocalTable):
    """A LocalTable that notes how deep in the Python stack each event is recorded, counted from
    the frame that handed it the decision (``base``)."""

    base = 0
    depths: list[tuple[str, int]]

    def emit(self, event_class: type[ev.GameEvent], fields: dict[str, Any]) -> None:
        self.depths.append((event_class.__name__, _stack_depth() - self.base))
        super().emit(event_class, fields)


def pass_turns(table: LocalTable, turns: int) -> None:
    """Everyone passes whenever they hold priority, until turn ``turns`` is over."""
    while table.state.turn <= turns:
        decision = pending_decision(table.state)
        assert decision is not None and decision.kind == "priority", decision
        if isinstance(table, DepthTable):
            table.base = _stack_depth()
        table.handle(PassPriority(decision.player))


def test_every_step_of_turns_of_passes_begins_at_the_same_bounded_python_stack_depth() -> None:
    """No recursion from step to step, nor from turn to turn: the untap step (no priority, 502.4)
    running on into the upkeep, and the cleanup into the next turn, stay in one loop."""
    DepthTable.depths = []
    table = DepthTable.start(two_players(alice=LIBRARY, bob=LIBRARY))
    table.depths = []
    pass_turns(table, 6)

    began = [depth for name, depth in table.depths if name in ("TurnBegan", "StepBegan")]
    assert len(began) >= 6 * 10  # TurnBegan and 9 steps a turn (508.8: no blockers or damage steps)
    assert len(set(began)) == 1  # every turn and every step begins at the same depth
    assert max(depth for _, depth in table.depths) <= began[0] + 4  # and nothing records much deeper


def test_turns_of_passes_fit_in_a_small_recursion_limit() -> None:
    """The loop needs about 16 frames above the caller's, whatever the number of turns; the engine
    that called one step from the last needed 28 for the same turns."""
    table = LocalTable.start(two_players(alice=LIBRARY, bob=LIBRARY))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_stack_depth() + 22)
    try:
        pass_turns(table, 4)
    finally:
        sys.setrecursionlimit(limit)
    assert table.state.turn == 5


def _steps_of_turn(table: LocalTable, n: int) -> list[str]:
    return [e["step"] for e in events_of(table, "StepBegan") if e["turn"] == n]


def test_500_1_a_turn_of_passes_walks_the_plan_in_order_and_508_8_skips_blockers_and_damage_without_attackers() -> None:
    table = LocalTable.start(two_players(alice=LIBRARY, bob=LIBRARY))
    pass_turns(table, 2)
    assert _steps_of_turn(table, 2) == [
        "untap", "upkeep", "draw", "precombat_main",
        "beginning_of_combat", "declare_attackers", "end_of_combat", "postcombat_main", "end", "cleanup",
    ]


def test_every_turn_based_action_and_condition_the_plan_may_name_is_carried_out() -> None:
    """The plan names its actions and conditions by enum (a misspelt one is a type error); each of
    them stands for a function of core.steps, so no step of any plan reaches one that does nothing."""
    assert set(steps.ACTIONS) == set(turn.Action)
    assert set(steps.CONDITIONS) == set(turn.Condition)
