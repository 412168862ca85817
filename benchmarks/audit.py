"""`make bench`: the audit of a 10,000-event log in process, as ``mtg-ledger audit FILE`` does it less the
process's start: the file read and decoded (``logfile.read_readable``), then ``audit`` (the header, the
hash chain, every event's schema, and the replay of every decision through the rules engine).

The log is the first 10,000 events of the patient game of ``benchmarks.run`` (two players who play a land
a turn), written to a log file here. Five audits, one after another; ``audit_10k_ms`` is their median,
merged into benchmarks/results.json. Measures and prints; never asserts a time.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import uuid4

from benchmarks.results import merge
from benchmarks.run import long_game_setup, patient_policy
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays import logfile
from mtg_ledger.replays.audit import audit

EVENTS = 10_000
ROUNDS = 5


def log_events(count: int) -> list[dict[str, Any]]:
    table = LocalTable.start(long_game_setup(900))
    while len(table.events) < count and (command := patient_policy(table.state)) is not None:
        table.handle(command)
    return table.events[:count]


def audited(path: Path) -> tuple[float, int]:
    """The time to read and audit the file, and the decisions the audit replayed."""
    began = time.perf_counter()
    header, events, unread = logfile.read_readable(str(path))
    report = audit(str(header.get("game")), events, header, None, logfile.recorded_versions(header), None)
    elapsed = time.perf_counter() - began
    assert unread is None and report.clean, report.to_text()
    return elapsed, len(report.decisions)


def main() -> None:
    events = log_events(EVENTS)
    with tempfile.TemporaryDirectory(prefix="mtg-ledger-audit-bench-") as folder:
        path = Path(folder) / "game.mtgl"
        logfile.write(path, str(uuid4()), events)
        runs = [audited(path) for _ in range(ROUNDS)]
    times, decisions = [t for t, _ in runs], runs[0][1]
    median = statistics.median(times)
    print(f"audit of a {len(events):,}-event log ({decisions:,} decisions), read and audited in process: median of {ROUNDS} "
          f"{median * 1000:.1f} ms (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")
    merge({"audit_10k_ms": round(median * 1000, 1)})


if __name__ == "__main__":
    main()
