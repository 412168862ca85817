"""The state hash's runs of a battlefield list (``core.state_hash.remembered_records``) from the last hash of the
same list, without looking at each of its permanents again.

Each whole run's encodings are remembered with the lists and maps its permanents held then (all empty, or the
run is not remembered), by ``core.walks.RunWalks``: the next hash of the same list takes a run's encodings again
when it holds the same permanents, none of them was written since and the lists and maps they hold are still
empty (a change in place is no noted write). Any other run (written since, the last one, a list not hashed yet or changed
otherwise, writes no longer all kept) is found as a run always is. It changes how long a hash takes, never what
it is. No I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import is_
from typing import Any, Protocol

from mtg_ledger.core.walks import RunWalks


class Run(Protocol):
    """A run's records, their encodings, and the lists and maps they held when they were found (all empty)."""

    @property
    def records(self) -> list[Any]: ...

    @property
    def held(self) -> tuple[Any, ...]: ...

    @property
    def found(self) -> list[bytes]: ...


_RUNS: dict[int, RunWalks[Run]] = {}  # by the runs' size


def walked_runs(records: list[Any], size: int, find: Callable[[list[Any]], tuple[list[bytes], Run | None]]) -> list[bytes]:
    """The encodings of ``records``, a battlefield list, run by run (``size`` records each): a run unchanged
    since the last hash of the same list as it was found then, any other one by ``find`` (its encodings, and
    the run to remember, or None)."""
    walks = _RUNS.get(size) or _RUNS.setdefault(size, RunWalks(size))
    place, kept = walks.since(records)
    out: list[bytes] = []
    runs: list[Run | None] = []
    for r, start in enumerate(range(0, len(records), size)):
        old = kept[r] if r < len(kept) else None
        run_records = records[start : start + size]
        # the same permanents (a hash's bytes do not rest on the list only growing at its end), with their lists
        # and maps still empty
        if old is not None and all(map(is_, run_records, old.records)) and not any(old.held):
            out += old.found
            runs.append(old)
            continue
        found, run = find(run_records)
        out += found
        runs.append(run)
    walks.found(records, place, runs)
    return out
