"""The moves of the engine's loop (core.engine): what it does next, named. A decision's record
(core.decide) names the move the loop resumes with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Next:
    """The move the loop makes next; ``player`` for the moves that concern one player."""

    move: str
    player: str | None = None


BEGIN_TURN = Next("begin turn")
NEXT_STEP = Next("next step")
TURN_BASED_ACTIONS = Next("turn-based actions")
PRIORITY_OR_END = Next("priority or end")
END_STEP = Next("end step")


def priority_to(player: str) -> Next:
    return Next("priority", player)


def passed_by(player: str) -> Next:
    return Next("after a pass", player)
