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


Found = tuple[list[bytes], Run | None]  # a run's encodings, and the run to remember (None: not to be taken again)
RUN = 64  # records a run: the state hash looks its records up as many at once (``core.state_hash``)
_RUNS: RunWalks[Found] = RunWalks(RUN)


def walked_runs(records: list[Any], find: Callable[[list[Any]], Found]) -> list[bytes]:
    """The encodings of ``records``, a battlefield list, run by run (``RUN`` records each): a run unchanged
    since the last hash of the same list as it was found then, any other one by ``find``."""
    return [encoding for found, _ in _RUNS.look(records, find, _holds) for encoding in found]


def _holds(old: Found, records: list[Any]) -> bool:
    """The same permanents (a hash's bytes do not rest on the list only growing at its end), remembered as a run,
    with their lists and maps still empty."""
    run = old[1]
    return run is not None and all(map(is_, records, run.records)) and not any(run.held)
