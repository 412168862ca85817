"""`make bench`, first and last: how fast this machine runs the rules engine at that moment, so that runs on
a shared machine can be compared. Measures, never asserts.

The reference is pure Python and touches no disk: the first 2,000 decisions of ``benchmarks.run``'s patient
game (900-card libraries), taken in memory through ``LocalTable`` (the rules engine, its events and their
hashes), the decisions chosen beforehand so that the players' policy is not timed. The least of seven
timings, in milliseconds, is merged into benchmarks/results.json as ``machine_reference_ms.first`` (the
start of the run) or ``.last`` (its end, with ``--last``). On a virtual machine whose host is shared, the
same work took from 1x to 3x as long from one hour to the next; every time of a run moves with it.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from benchmarks.results import merge, read
from benchmarks.run import long_game_setup, patient_policy
from mtg_ledger.core.table import LocalTable

DECISIONS = 2_000
TIMINGS = 7


def decisions(setup: dict[str, Any], count: int) -> list[Any]:
    table = LocalTable.start(setup)
    taken = []
    while len(taken) < count and (command := patient_policy(table.state)) is not None:
        taken.append(command)
        table.handle(command)
    return taken


def reference_ms() -> float:
    """The least of ``TIMINGS`` timings of the reference work, in milliseconds."""
    setup = long_game_setup(900)
    commands = decisions(setup, DECISIONS)
    best = float("inf")
    for _ in range(TIMINGS):
        began = time.perf_counter()
        table = LocalTable.start(setup)
        for command in commands:
            table.handle(command)
        best = min(best, time.perf_counter() - began)
    return round(best * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--last", action="store_true", help="the measure at the end of the run")
    args = parser.parse_args()
    figure = reference_ms()
    which = "last" if args.last else "first"
    merge({"machine_reference_ms": {**(read().get("machine_reference_ms") or {}), which: figure}})
    print(f"machine: the reference work ({DECISIONS:,} decisions in memory) took {figure:.1f} ms, the least of {TIMINGS} ({which} of this run)")


if __name__ == "__main__":
    main()
