"""The turn structure as data (500.1): an ordered table of phases and steps, ``TURN_PLAN``.

One loop (``core.engine.advance``) walks it, and it reads nothing else to know what comes next. Each
row, a ``StepSpec``, says for one step:

- ``actions``: the turn-based actions as the step begins, by name (``core.steps.ACTIONS``);
- ``priority``: whether players receive priority in it (502.4 and 514.3: not in untap and cleanup),
  and ``priority_if``: a condition under which they receive it all the same (514.3a);
- ``then``: rules that pick the step that follows instead of the plan's next row, tried in order
  (508.8: no attackers, straight to end of combat; 510.4: a second combat damage step; 514.3a:
  another cleanup step);
- ``skipped_by``: on the first step of a phase, the kind of effect that makes the active team skip
  the phase (500.10, 805.10);
- ``first_strike``: the condition under which the step begins as 510.4's first combat damage step;
- ``at_end``: the turn-based actions as the step ends (511.3), by name.

Conditions are named too (``core.steps.CONDITIONS``), so this table stays plain data. Phases follow
``state.phase_plan``: each turn it starts as the plan's phases in order (``phases()``), effects
insert extra ones (500.8) and a phase leaves it as it begins or is skipped (500.10).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Goto:
    """After this step, when the condition ``when`` holds, ``step`` follows (as ``rule`` says)."""

    rule: str
    when: str  # a condition's name (core.steps.CONDITIONS)
    step: str


@dataclass(frozen=True)
class StepSpec:
    phase: str
    step: str
    priority: bool  # 502.4 and 514.3: no priority in untap and (normally) cleanup
    rule: str
    actions: str | None = None  # turn-based actions as the step begins (core.steps.ACTIONS)
    priority_if: str | None = None  # a condition under which players receive priority all the same
    then: tuple[Goto, ...] = ()
    skipped_by: str | None = None  # 500.10: the kind of effect that skips the phase this step begins
    first_strike: str | None = None  # 510.4: when this step begins as the first combat damage step
    at_end: str | None = None  # turn-based actions as the step ends (core.steps.ACTIONS)


TURN_PLAN: tuple[StepSpec, ...] = (
    StepSpec("beginning", "untap", False, "502", actions="untap"),
    StepSpec("beginning", "upkeep", True, "503"),
    StepSpec("beginning", "draw", True, "504", actions="draw"),
    StepSpec("precombat_main", "precombat_main", True, "505", actions="precombat_main"),
    StepSpec("combat", "beginning_of_combat", True, "507", actions="choose_defender", skipped_by="skip_combat"),
    StepSpec(
        "combat", "declare_attackers", True, "508", actions="declare_attackers",
        then=(Goto("508.8", "no_attackers_declared", "end_of_combat"),),
    ),
    StepSpec("combat", "declare_blockers", True, "509", actions="declare_blockers"),
    StepSpec(
        "combat", "combat_damage", True, "510", actions="combat_damage", first_strike="first_strike_step_begins",
        then=(Goto("510.4", "in_first_strike_step", "combat_damage"),),
    ),
    StepSpec("combat", "end_of_combat", True, "511", at_end="remove_from_combat"),
    StepSpec("postcombat_main", "postcombat_main", True, "505"),
    StepSpec("ending", "end", True, "513"),
    StepSpec(
        "ending", "cleanup", False, "514", actions="cleanup", priority_if="actions_or_triggers_waiting",
        then=(Goto("514.3a", "priority_was_given", "cleanup"),),
    ),
)

# --- reading the plan (at call time: a plan edited in place of TURN_PLAN is read the same way) ---


def spec(step: str) -> StepSpec:
    """The row of a step."""
    for row in TURN_PLAN:
        if row.step == step:
            return row
    raise KeyError(step)


_Index = tuple[tuple[StepSpec, ...], tuple[str, ...], dict[str, StepSpec]]
_index: list[_Index] = []  # what phases() and first_step() read off the plan, for the plan they read it off


def _indexed() -> _Index:
    """The plan's phases and each phase's first step, read off the plan once for as long as it is the plan
    (every event of a replay asks; a plan edited in place of TURN_PLAN is read again)."""
    if not _index or _index[0][0] is not TURN_PLAN:
        names = tuple(dict.fromkeys(row.phase for row in TURN_PLAN))
        _index[:] = [(TURN_PLAN, names, {phase: next(r for r in TURN_PLAN if r.phase == phase) for phase in names})]
    return _index[0]


def phases() -> tuple[str, ...]:
    """The phases of a turn, in order (500.1)."""
    return _indexed()[1]


def first_step(phase: str) -> StepSpec:
    """The step a phase begins with."""
    return _indexed()[2][phase]


def row_after(row: StepSpec) -> StepSpec | None:
    """The plan's next row in the same phase, or None when ``row`` is the phase's last step."""
    index = TURN_PLAN.index(row)
    following = TURN_PLAN[index + 1] if index + 1 < len(TURN_PLAN) else None
    return following if following is not None and following.phase == row.phase else None


# --- the plan as it is written, for the outer shell (scenario files name steps) ----------------

STEP_NAMES: tuple[str, ...] = tuple(s.step for s in TURN_PLAN)
PHASES: tuple[str, ...] = phases()
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})
