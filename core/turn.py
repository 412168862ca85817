"""The turn structure as data (500.1): an ordered table of phases and steps, ``TURN_PLAN``.

One loop (``core.engine.advance``) walks it, and it reads nothing else to know what comes next. Each
row, a ``StepSpec``, says for one step:

- ``actions``: the turn-based actions as the step begins (an ``Action``, carried out by ``core.steps.ACTIONS``);
- ``priority``: whether players receive priority in it (502.4 and 514.3: not in untap and cleanup),
  and ``priority_if``: a condition under which they receive it all the same (514.3a);
- ``then``: rules that pick the step that follows instead of the plan's next row, tried in order
  (508.8: no attackers, straight to end of combat; 510.4: a second combat damage step; 514.3a:
  another cleanup step);
- ``skipped_by``: on the first step of a phase, the kind of continuous effect (``state.EffectKind``)
  that makes the active team skip the phase (500.10, 805.10);
- ``first_strike``: the condition under which the step begins as 510.4's first combat damage step;
- ``at_end``: the turn-based actions as the step ends (511.3).

Actions, conditions and steps are enums (``Action``, ``Condition``, ``Step``): a misspelt one is a
type error, and the table stays plain data that imports nothing of the engine (the event appliers
read it). ``core.steps`` says what each action and condition stands for. Phases follow
``state.phase_plan``: each turn it starts as the plan's phases in order (``phases()``), effects
insert extra ones (500.8) and a phase leaves it as it begins or is skipped (500.10).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mtg_ledger.core.state import EffectKind


class Phase(StrEnum):
    """The phases of a turn (500.1). The value is the name events and scenario files give the phase."""

    BEGINNING = "beginning"
    PRECOMBAT_MAIN = "precombat_main"
    COMBAT = "combat"
    POSTCOMBAT_MAIN = "postcombat_main"
    ENDING = "ending"


class Step(StrEnum):
    """The steps of a turn (500.1); a main phase is a step of its own name. The value is the name
    events and scenario files give the step."""

    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    PRECOMBAT_MAIN = "precombat_main"
    BEGINNING_OF_COMBAT = "beginning_of_combat"
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    COMBAT_DAMAGE = "combat_damage"
    END_OF_COMBAT = "end_of_combat"
    POSTCOMBAT_MAIN = "postcombat_main"
    END = "end"
    CLEANUP = "cleanup"


class Action(StrEnum):
    """The turn-based actions of the plan (703.4), carried out by ``core.steps.ACTIONS``."""

    UNTAP = "untap"  # 502.1-502.3
    DRAW = "draw"  # 504.1
    PRECOMBAT_MAIN = "precombat_main"  # 505.4, 904.9
    CHOOSE_DEFENDER = "choose_defender"  # 507.1
    DECLARE_ATTACKERS = "declare_attackers"  # 508.1
    DECLARE_BLOCKERS = "declare_blockers"  # 509.1
    COMBAT_DAMAGE = "combat_damage"  # 510.1-510.2
    CLEANUP = "cleanup"  # 514.1-514.2
    REMOVE_FROM_COMBAT = "remove_from_combat"  # 511.3


class Condition(StrEnum):
    """The conditions the plan's rows test, decided by ``core.steps.CONDITIONS``."""

    NO_ATTACKERS_DECLARED = "no_attackers_declared"  # 508.8
    IN_FIRST_STRIKE_STEP = "in_first_strike_step"  # 510.4
    FIRST_STRIKE_STEP_BEGINS = "first_strike_step_begins"  # 510.4
    ACTIONS_OR_TRIGGERS_WAITING = "actions_or_triggers_waiting"  # 514.3a
    PRIORITY_WAS_GIVEN = "priority_was_given"  # 514.3a


@dataclass(frozen=True)
class Goto:
    """After this step, when the condition ``when`` holds, ``step`` follows (as ``rule`` says)."""

    rule: str
    when: Condition
    step: Step


@dataclass(frozen=True)
class StepSpec:
    phase: Phase
    step: Step
    priority: bool  # 502.4 and 514.3: no priority in untap and (normally) cleanup
    rule: str
    actions: Action | None = None  # turn-based actions as the step begins
    priority_if: Condition | None = None  # a condition under which players receive priority all the same
    then: tuple[Goto, ...] = ()
    skipped_by: EffectKind | None = None  # 500.10: the kind of effect that skips the phase this step begins
    first_strike: Condition | None = None  # 510.4: when this step begins as the first combat damage step
    at_end: Action | None = None  # turn-based actions as the step ends


TURN_PLAN: tuple[StepSpec, ...] = (
    StepSpec(Phase.BEGINNING, Step.UNTAP, False, "502", actions=Action.UNTAP),
    StepSpec(Phase.BEGINNING, Step.UPKEEP, True, "503"),
    StepSpec(Phase.BEGINNING, Step.DRAW, True, "504", actions=Action.DRAW),
    StepSpec(Phase.PRECOMBAT_MAIN, Step.PRECOMBAT_MAIN, True, "505", actions=Action.PRECOMBAT_MAIN),
    StepSpec(
        Phase.COMBAT, Step.BEGINNING_OF_COMBAT, True, "507", actions=Action.CHOOSE_DEFENDER, skipped_by=EffectKind.SKIP_COMBAT,
    ),
    StepSpec(
        Phase.COMBAT, Step.DECLARE_ATTACKERS, True, "508", actions=Action.DECLARE_ATTACKERS,
        then=(Goto("508.8", Condition.NO_ATTACKERS_DECLARED, Step.END_OF_COMBAT),),
    ),
    StepSpec(Phase.COMBAT, Step.DECLARE_BLOCKERS, True, "509", actions=Action.DECLARE_BLOCKERS),
    StepSpec(
        Phase.COMBAT, Step.COMBAT_DAMAGE, True, "510", actions=Action.COMBAT_DAMAGE, first_strike=Condition.FIRST_STRIKE_STEP_BEGINS,
        then=(Goto("510.4", Condition.IN_FIRST_STRIKE_STEP, Step.COMBAT_DAMAGE),),
    ),
    StepSpec(Phase.COMBAT, Step.END_OF_COMBAT, True, "511", at_end=Action.REMOVE_FROM_COMBAT),
    StepSpec(Phase.POSTCOMBAT_MAIN, Step.POSTCOMBAT_MAIN, True, "505"),
    StepSpec(Phase.ENDING, Step.END, True, "513"),
    StepSpec(
        Phase.ENDING, Step.CLEANUP, False, "514", actions=Action.CLEANUP, priority_if=Condition.ACTIONS_OR_TRIGGERS_WAITING,
        then=(Goto("514.3a", Condition.PRIORITY_WAS_GIVEN, Step.CLEANUP),),
    ),
)

# --- reading the plan ---------------------------------------------------------------------------

_ROWS: dict[str, StepSpec] = {row.step: row for row in TURN_PLAN}
_PHASES: tuple[Phase, ...] = tuple(dict.fromkeys(row.phase for row in TURN_PLAN))
_FIRST_STEPS: dict[str, StepSpec] = {phase: next(r for r in TURN_PLAN if r.phase == phase) for phase in _PHASES}


def spec(step: str) -> StepSpec:
    """The row of a step."""
    return _ROWS[step]


def phases() -> tuple[Phase, ...]:
    """The phases of a turn, in order (500.1)."""
    return _PHASES


def first_step(phase: str) -> StepSpec:
    """The step a phase begins with."""
    return _FIRST_STEPS[phase]


def row_after(row: StepSpec) -> StepSpec | None:
    """The plan's next row in the same phase, or None when ``row`` is the phase's last step."""
    if _ROWS.get(row.step) is row:  # a row of the plan (every caller's): its next one, looked up once
        return _AFTER[row.step]
    index = TURN_PLAN.index(row)
    following = TURN_PLAN[index + 1] if index + 1 < len(TURN_PLAN) else None
    return following if following is not None and following.phase == row.phase else None


_AFTER: dict[str, StepSpec | None] = {  # row_after of each row of the plan, by its step (each is in one row)
    row.step: (
        TURN_PLAN[i + 1] if i + 1 < len(TURN_PLAN) and TURN_PLAN[i + 1].phase == row.phase else None
    )
    for i, row in enumerate(TURN_PLAN)
}


# --- the plan as it is written, for the outer shell (scenario files name steps) ----------------

STEP_NAMES: tuple[str, ...] = tuple(s.step.value for s in TURN_PLAN)
MAIN_STEPS = frozenset({Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN})
