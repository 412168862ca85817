"""The moves of the engine's loop (core.engine): what it does next, named by a ``Move`` (``engine.MOVES``
says what each stands for). A decision's record (core.apply_commands) names the move the loop resumes with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache


class Move(StrEnum):  # a str: looked up in engine.MOVES by its string's hash, in C (an Enum's is a Python call)
    BEGIN_TURN = "begin turn"  # 500.1
    NEXT_STEP = "next step"  # 500.1, 500.8, 500.10
    TURN_BASED_ACTIONS = "turn-based actions"  # 703.4
    PRIORITY_OR_END = "priority or end"  # 117.3a, 502.4, 514.3
    END_STEP = "end step"  # 500.2, 500.4
    PRIORITY = "priority"  # 117.5: a player receives priority
    AFTER_A_PASS = "after a pass"  # 117.4


@dataclass(frozen=True)
class Next:
    """The move the loop makes next; ``player`` for the moves that concern one player."""

    move: Move
    player: str | None = None


BEGIN_TURN = Next(Move.BEGIN_TURN)
NEXT_STEP = Next(Move.NEXT_STEP)
TURN_BASED_ACTIONS = Next(Move.TURN_BASED_ACTIONS)
PRIORITY_OR_END = Next(Move.PRIORITY_OR_END)
END_STEP = Next(Move.END_STEP)


# One of each a player, made once (a ``Next`` is immutable): asked at every pass and every priority.
@lru_cache(maxsize=1 << 10)
def priority_to(player: str) -> Next:
    return Next(Move.PRIORITY, player)


@lru_cache(maxsize=1 << 10)
def passed_by(player: str) -> Next:
    return Next(Move.AFTER_A_PASS, player)
