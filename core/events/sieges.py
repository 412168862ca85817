"""A defeated Siege's back face (310.11b): its controller casts it transformed from exile, or declines.
Declared after every older event, so older log headers keep their order."""

from __future__ import annotations

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.state import GameState, StackObject


class SpellCastTransformedFields(TypedDict):
    player: str
    card: str
    object: int
    rule: str


class SpellCastTransformed(GameEvent):
    """310.11b, 712.11a: while its defeat ability resolves, the exiled Siege ``card`` is cast from exile
    transformed, without paying its mana cost (118.9): it is on the stack as ``object``, its back face up,
    above that ability (608.2g)."""

    fields_type = SpellCastTransformedFields


@applies(SpellCastTransformed)
def _cast_transformed(s: GameState, e: SpellCastTransformedFields) -> None:
    s.players[e["player"]].exile.remove(e["card"])
    s.stack.append(StackObject(object=e["object"], card=e["card"], controller=e["player"], context={"transformed": True}))
    s.next_object = e["object"] + 1
    s.spells_cast_this_turn[e["player"]] = s.spells_cast_this_turn.get(e["player"], 0) + 1
    s.passes = []


class CastDeclinedFields(TypedDict):
    player: str
    card: str
    rule: str


class CastDeclined(GameEvent):
    """310.11b: the player chose not to cast the exiled ``card``; it stays in exile."""

    fields_type = CastDeclinedFields


@applies(CastDeclined)
def _declined(s: GameState, e: CastDeclinedFields) -> None:
    pass  # nothing moves: the card stays where it is
