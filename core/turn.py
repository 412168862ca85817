"""The turn structure as data (500.1): an ordered table of phases and steps.

One loop in ``core.engine`` walks it; each row says whether players receive priority in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtg_ledger.core.state import GameState


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
PHASES: tuple[str, ...] = ("beginning", "precombat_main", "combat", "postcombat_main", "ending")
FIRST_STEP: dict[str, str] = {"beginning": "untap", "precombat_main": "precombat_main", "combat": "beginning_of_combat",
                              "postcombat_main": "postcombat_main", "ending": "end"}
_BY_STEP = {s.step: s for s in TURN_PLAN}
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})


def spec(step: str) -> StepSpec:
    return _BY_STEP[step]


def next_step(state: GameState) -> StepSpec | None:
    """The step that follows the current one this turn, or None when the turn is over.

    Steps follow TURN_PLAN within a phase; phases follow ``state.phase_plan``, which effects edit
    (500.8 extra phases, 500.10 skipped ones).
    """
    step = state.step
    if step is not None:
        if step == "declare_attackers" and not state.declared_attackers:
            # 508.8: only when no creature was declared as an attacker; an attacker removed since
            # still leaves the declare blockers and combat damage steps to happen.
            return _BY_STEP["end_of_combat"]
        if step == "combat_damage" and state.first_strike_step:
            return _BY_STEP["combat_damage"]  # 510.4: the second combat damage step
        if step == "cleanup" and state.priority_given_this_step:
            return _BY_STEP["cleanup"]  # 514.3a: another cleanup step
        index = STEP_NAMES.index(step)
        if index + 1 < len(TURN_PLAN) and TURN_PLAN[index + 1].phase == TURN_PLAN[index].phase:
            return TURN_PLAN[index + 1]
    if not state.phase_plan:
        return None
    return _BY_STEP[FIRST_STEP[state.phase_plan[0]]]


def next_player(state: GameState, after: str) -> str:
    """The next player still in the game after ``after``, in turn order, a team counting as one (101.4, 117.3d, 805.5)."""
    from mtg_ledger.core.teams import next_team_player

    return next_team_player(state, after)
