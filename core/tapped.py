"""The tapped permanents of a battlefield (502.3: the untap step untaps them), found without looking at every
permanent again each turn.

A battlefield list is looked at run by run (``core.walks.RunWalks``), each run's tapped permanents remembered
by their places. A permanent becomes tapped or untapped only by a write (an applier assigns ``tapped``), or
enters tapped at the list's end (in place, a battlefield list only grows at its end). So a run none of whose
permanents was written since the last look at the same list has the same tapped permanents, and only the
others are looked at again: those written since, the last run, and any list not looked at yet, changed
otherwise, or when writes are no longer all kept. It changes how long the look takes, never what it finds.
No I/O, no clock.
"""

from __future__ import annotations

from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.walks import RunWalks

_RUNS: RunWalks[tuple[int, ...]] = RunWalks(64)  # each run's tapped permanents, by their places in the run


def tapped(state: GameState) -> list[Permanent]:
    """The permanents on the battlefield that are tapped, phased out or not, in the battlefield's order."""
    battlefield, size = state.battlefield, _RUNS.size
    runs = _RUNS.look(battlefield, lambda run: tuple(i for i, p in enumerate(run) if p.tapped))
    return [battlefield[r * size + i] for r, run in enumerate(runs) if run for i in run]
