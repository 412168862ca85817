"""`make bench`, first and last: how fast this machine is at that moment, so that runs on a shared machine
can be compared. Measures, never asserts.

The reference is a fixed piece of allocation-heavy pure Python, as the engine's and the audit's work is: make
300,000 small maps (an event's size) and read a field of each back. The least of seven timings, in
milliseconds, is merged into benchmarks/results.json as ``machine_reference_ms.first`` (the start of the run)
or ``.last`` (its end, with ``--last``). On this shared virtual machine the audit of a log took from 157 to
197 ms within minutes as this reference took from 81 to 105 ms, while work that stays in the processor's
caches (a small game taken in memory) moved far less: it is the machine's memory, shared with other guests,
that a run meets at its speed of the moment.
"""

from __future__ import annotations

import argparse
import time

from benchmarks.results import merge, read

MAPS = 300_000
TIMINGS = 7


def reference_ms() -> float:
    """The least of ``TIMINGS`` timings of the reference work, in milliseconds."""
    best = float("inf")
    for _ in range(TIMINGS):
        began = time.perf_counter()
        made = [{"v": i, "type": "PriorityPassed", "player": "alice"} for i in range(MAPS)]
        total = sum(m["v"] for m in made)
        del made
        best = min(best, time.perf_counter() - began)
    assert total == MAPS * (MAPS - 1) // 2
    return round(best * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--last", action="store_true", help="the measure at the end of the run")
    args = parser.parse_args()
    figure = reference_ms()
    which = "last" if args.last else "first"
    merge({"machine_reference_ms": {**(read().get("machine_reference_ms") or {}), which: figure}})
    print(f"machine: the reference work ({MAPS:,} small maps made and read) took {figure:.1f} ms, the least of {TIMINGS} ({which} of this run)")


if __name__ == "__main__":
    main()
