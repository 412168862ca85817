"""Walks of battlefield lists, remembered by the list walked, so that the next walk of the same list starts
from the last one (``core.characteristics.watched``, ``core.tapped``), or takes again what it found of the runs
not written since (``RunWalks``: the state hash's runs, a snapshot's delta). No I/O, no clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from mtg_ledger.core.written import writes, written_after

W = TypeVar("W")


class Walks(Generic[W]):
    """Walks of battlefield lists, remembered by the list walked (``walked_on`` tells whether one still
    holds), for a few lists at a time: a writer's game and the copy it folds for its snapshots, or the
    games a service decides in turn, each find their own. A cache: a walk forgotten is made again."""

    def __init__(self, limit: int = 32) -> None:
        self._limit = limit
        self._walks: dict[int, tuple[list[Any], W]] = {}  # id(list): the list (kept, so the id stays its own) and its walk

    def get(self, battlefield: list[Any]) -> W | None:
        found = self._walks.get(id(battlefield))
        return found[1] if found is not None and found[0] is battlefield else None

    def put(self, battlefield: list[Any], walk: W) -> None:
        if len(self._walks) >= self._limit:
            self._walks.clear()  # one dict, replaced item by item: threads see a walk or none
        self._walks[id(battlefield)] = (battlefield, walk)


def walked_on(battlefield: list[Any], count: int, last: Any) -> bool:
    """Whether a walk of this battlefield list's first ``count`` permanents (the last of them ``last``),
    remembered by ``Walks``, still holds, so that the next one may start there: in place a battlefield list
    only grows at its end (a permanent leaving makes a new list: ``core.events.changes``). The same list
    changed otherwise (that last permanent moved) is walked whole."""
    return count <= len(battlefield) and (count == 0 or battlefield[count - 1] is last)


class _RunWalk:
    """A look at a battlefield list's runs: how many records it had, the last of them, ``writes()`` before it
    read any, each run's finding, and each record's place (made when first needed)."""

    __slots__ = ("walked", "last", "place", "runs", "places_of")

    def __init__(self, walked: int, last: Any, place: int, runs: list[Any]) -> None:
        self.walked, self.last, self.place, self.runs = walked, last, place, runs
        self.places_of: dict[int, int] | None = None  # id(record) -> its place, for the first ``walked``


class RunWalks(Generic[W]):
    """Looks at battlefield lists run by run (``size`` records each), each whole run's finding remembered: the
    next look at the same list is given again the findings of the runs none of whose records was written since
    (``core.written``), and may take them without reading those records. In place a battlefield list only grows
    at its end (``walked_on``), so a run of the same list holds the same records. A list not looked at yet, one
    changed otherwise, or writes no longer all kept: no finding is given. A cache: it changes how long a look
    takes, never what it finds."""

    def __init__(self, size: int, limit: int = 32) -> None:
        self.size = size
        self._walks: Walks[_RunWalk] = Walks(limit)

    def since(self, records: list[Any]) -> tuple[int, list[W | None]]:
        """``writes()`` now, before any record is read, and each run's finding of the last look at the same list
        (None: a record of the run written since, or no finding then); [] when none can be given."""
        place = writes()
        walk = self._walks.get(records)
        if walk is None or not walked_on(records, walk.walked, walk.last):
            return place, []
        since = written_after(walk.place, len(records))  # (many writes since, most of other games': look again)
        if since is None:
            return place, []
        index = walk.places_of
        if index is None:
            index = walk.places_of = {id(r): i for i, r in enumerate(records[: walk.walked])}
        if len(index) != walk.walked:  # a record at two places: a write to it would reach one of its runs
            return place, []
        kept: list[W | None] = list(walk.runs)
        for at in map(index.get, since):
            if at is not None and at < walk.walked:  # (a place beyond it: the index extended for a later walk)
                kept[at // self.size] = None
        return place, kept

    def look(self, records: list[Any], find: Callable[[list[Any]], W], holds: Callable[[W, list[Any]], bool] | None = None) -> list[W]:
        """Each run's finding, one a run: the last look's where none of the run's records was written since and,
        given ``holds``, it still holds for the run's records (the run sliced only then); else ``find``'s, of the
        run's records. Remembered for the next look."""
        place, kept = self.since(records)
        runs: list[W] = []
        for r, start in enumerate(range(0, len(records), self.size)):
            old = kept[r] if r < len(kept) else None
            if old is not None and (holds is None or holds(old, records[start : start + self.size])):
                runs.append(old)
            else:
                runs.append(find(records[start : start + self.size]))
        self.found(records, place, list(runs))
        return runs

    def found(self, records: list[Any], place: int, runs: list[W | None]) -> None:
        """Remember this look's findings, one a run (``place``: ``since``'s); a run not whole is never given
        again."""
        runs = list(runs)
        if runs and len(records) % self.size:
            runs[-1] = None
        old = self._walks.get(records)
        walk = _RunWalk(len(records), records[-1] if records else None, place, runs)
        if old is not None and old.places_of is not None and walked_on(records, old.walked, old.last):
            walk.places_of = old.places_of  # the old walk's own: it is replaced
            walk.places_of.update((id(r), i) for i, r in enumerate(records[old.walked :], start=old.walked))
        self._walks.put(records, walk)
