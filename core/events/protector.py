"""A permanent entering that waits for its controller's choice: a Siege's protector, chosen among more
than one opponent (310.11a)."""

from __future__ import annotations

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.state import GameState

CHOICE = "choose_protector"  # the choice ``state.paused`` waits for


class ProtectorAskedFields(TypedDict):
    object: int
    player: str
    rule: str


class ProtectorAsked(GameEvent):
    """310.11a: the Siege ``object`` is entering the battlefield and its controller ``player`` has more than
    one opponent to choose as its protector; the game waits for the choice (recorded by ProtectorChosen)
    and no player holds priority meanwhile."""

    fields_type = ProtectorAskedFields


@applies(ProtectorAsked)
def _protector_asked(s: GameState, e: ProtectorAskedFields) -> None:
    s.priority = None
    s.paused = {"object": e["object"], "player": e["player"], "choice": CHOICE, "count": 0, "rule": e["rule"]}
