"""Paying an activated ability's costs (602.2b, 601.2h): a cost the player pays by a choice of their own,
the cards they discard, waits for that choice with the ability already on the stack."""

from __future__ import annotations

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.state import GameState


class ActivationPausedFields(TypedDict):
    object: int
    player: str
    choice: str
    count: int


class ActivationPaused(GameEvent):
    """602.2b, 601.2h: the ability ``object``, just activated, waits for its controller to choose the cards
    its cost discards (``choice``: discard ``count``); no player holds priority meanwhile."""

    fields_type = ActivationPausedFields


@applies(ActivationPaused)
def _activation_paused(s: GameState, e: ActivationPausedFields) -> None:
    s.priority = None
    s.paused = {"object": e["object"], "player": e["player"], "choice": e["choice"], "count": e["count"], "rule": "601.2h"}
