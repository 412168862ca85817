"""The turn structure as data (500.1): an ordered table of phases and steps.

One loop in ``core.engine`` walks it; each row says whether players receive priority in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.state import GameState


@dataclass(frozen=True)
class StepSpec:
    phase: str
    step: str
    priority: bool  # 502.4 and 514.3: no priority in untap and (normally) cleanup
    rule: str


TURN_PLAN: tuple[StepSpec, ...] = (
    StepSpec("beginning", "untap", False, "502"),
    StepSpec("beginning", "upkeep", True, "503"),
    StepSpec("beginning", "draw", True, "504"),
    StepSpec("precombat_main", "precombat_main", True, "505"),
    StepSpec("combat", "beginning_of_combat", True, "507"),
    StepSpec("combat", "declare_attackers", True, "508"),
    StepSpec("combat", "declare_blockers", True, "509"),
    StepSpec("combat", "combat_damage", True, "510"),
    StepSpec("combat", "end_of_combat", True, "511"),
    StepSpec("postcombat_main", "postcombat_main", True, "505"),
    StepSpec("ending", "end", True, "513"),
    StepSpec("ending", "cleanup", False, "514"),
)
STEP_NAMES: tuple[str, ...] = tuple(s.step for s in TURN_PLAN)
_BY_STEP = {s.step: s for s in TURN_PLAN}
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})


def spec(step: str) -> StepSpec:
    return _BY_STEP[step]


def next_step(state: GameState) -> StepSpec | None:
    """The step that follows the current one this turn, or None when the turn is over."""
    if state.step is None:
        return TURN_PLAN[0]
    if state.step == "declare_attackers" and not state.declared_attackers:
        # 508.8: only when no creature was declared as an attacker; an attacker removed since
        # still leaves the declare blockers and combat damage steps to happen.
        return _BY_STEP["end_of_combat"]
    if state.step == "combat_damage" and state.first_strike_step:
        return _BY_STEP["combat_damage"]  # 510.4: the second combat damage step
    index = STEP_NAMES.index(state.step)
    return TURN_PLAN[index + 1] if index + 1 < len(TURN_PLAN) else None


def next_player(state: GameState, after: str) -> str:
    """The next player still in the game after ``after``, in turn order (101.4, 117.3d)."""
    order = state.turn_order
    i = order.index(after)
    for k in range(1, len(order) + 1):
        candidate = order[(i + k) % len(order)]
        if not state.players[candidate].lost:
            return candidate
    return after
