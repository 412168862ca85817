"""The outcome of a game (104) as a value: why it ended, a closed set of codes, and who won.

``GameEnded`` records an outcome from schema version 2 on: ``reason`` is one of the codes below
and ``winners`` names every winning player (a whole team in Archenemy, 805 and 904; nobody in a
draw). How a code reads in words is the text rendering's business (``replays.text``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Reason(str, Enum):
    """Why the game ended (the ``GameEnded.reason`` codes)."""

    LAST_PLAYER_STANDING = "last_player_standing"  # 104.2a: every opponent (every opposing team's player) left the game
    CONCESSION = "concession"  # 104.3a: the game ended because the last opponent left it by conceding
    ALL_PLAYERS_LOST = "all_players_lost"  # 104.4a: every player still in the game lost at once: a draw
    DRAW = "draw"  # 104.4: a draw for another reason (104.4b-c); the engine records none of these yet


DRAWS = frozenset({Reason.ALL_PLAYERS_LOST, Reason.DRAW})


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners``: every winning player, in turn order (a whole team, even its
    players who had already left the game, 805); ``winner``: the one the contract's ``winner`` field
    names, a winning player still in the game (the team's primary player, 805.2). A draw has neither."""

    reason: Reason
    winner: str | None = None
    winners: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.reason in DRAWS and (self.winner is not None or self.winners):
            raise ValueError(f"a game that ends with {self.reason.value} is a draw: nobody wins it")
        if self.reason not in DRAWS and self.winner not in self.winners:
            raise ValueError(f"a game that ends with {self.reason.value} has a winner among its winners")

    @property
    def draw(self) -> bool:
        return self.reason in DRAWS

    def fields(self) -> dict[str, Any]:
        """The fields of the ``GameEnded`` event that records this outcome."""
        return {"winner": self.winner, "winners": list(self.winners), "reason": self.reason.value}

    @classmethod
    def of(cls, event: dict[str, Any]) -> Outcome:
        """The outcome a schema-2 ``GameEnded`` map records."""
        return cls(Reason(event["reason"]), event["winner"], tuple(event["winners"]))
