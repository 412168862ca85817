"""The other turn-based actions of the beginning and main phases: phasing, day and night and the
transforming it brings, schemes set in motion and lore counters (502.1, 502.2, 505.3, 505.4, 726, 904)."""

from __future__ import annotations

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.state import GameState


class PermanentsPhasedFields(TypedDict):
    phased_in: list[int]
    phased_out: list[int]


class PermanentsPhased(GameEvent):
    """502.1, 702.26: the active player's phasing permanents phase out, and those that phased out
    under their control phase in, simultaneously."""

    fields_type = PermanentsPhasedFields


@applies(PermanentsPhased)
def _phased(s: GameState, e: PermanentsPhasedFields) -> None:
    for perm in s.each(e["phased_out"]):
        perm.phased_out = True
    for perm in s.each(e["phased_in"]):
        perm.phased_out = False


class DayNightChangedFields(TypedDict):
    to: str
    rule: str
    transformed: list[int]


class DayNightChanged(GameEvent):
    """502.2, 726.3 (and 726.2 as it first becomes day): ``transformed`` are the daybound and
    nightbound permanents that transform as it changes (702.145)."""

    fields_type = DayNightChangedFields


@applies(DayNightChanged)
def _day_night(s: GameState, e: DayNightChangedFields) -> None:
    s.day_night = e["to"]
    _transform(s, e["transformed"])


class PermanentsTransformedFields(TypedDict):
    permanents: list[int]
    rule: str


class PermanentsTransformed(GameEvent):
    """712, 702.145: permanents turned to their other face (a daybound permanent entering at night)."""

    fields_type = PermanentsTransformedFields


@applies(PermanentsTransformed)
def _transformed(s: GameState, e: PermanentsTransformedFields) -> None:
    _transform(s, e["permanents"])


def _transform(s: GameState, objects: list[int]) -> None:
    for perm in s.each(objects):
        perm.transformed = not perm.transformed


class SchemeSetInMotionFields(TypedDict):
    player: str
    scheme: str


class SchemeSetInMotion(GameEvent):
    """505.3, 904.9: the top scheme of the archenemy's scheme deck is set in motion."""

    fields_type = SchemeSetInMotionFields


@applies(SchemeSetInMotion)
def _scheme(s: GameState, e: SchemeSetInMotionFields) -> None:
    s.schemes.pop(0)
    s.scheme_in_motion = e["scheme"]


class SchemePutOnBottomFields(TypedDict):
    player: str
    scheme: str


class SchemePutOnBottom(GameEvent):
    """904: a scheme that isn't ongoing is put on the bottom of its owner's scheme deck."""

    fields_type = SchemePutOnBottomFields


@applies(SchemePutOnBottom)
def _scheme_bottom(s: GameState, e: SchemePutOnBottomFields) -> None:
    s.schemes.append(e["scheme"])
    s.scheme_in_motion = None


class LoreCounterAddedFields(TypedDict):
    saga: int
    count: int
    total: int


class LoreCounterAdded(GameEvent):
    """714.3a (as a Saga enters) and 505.4 (the precombat main phase): ``total`` counters after ``count`` added."""

    fields_type = LoreCounterAddedFields


@applies(LoreCounterAdded)
def _lore(s: GameState, e: LoreCounterAddedFields) -> None:
    perm = s.permanent(e["saga"])
    if perm is not None:
        perm.counters["lore"] = e["total"]
