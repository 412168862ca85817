"""The end of `make bench`: the targets, each with the figure this run measured (from
benchmarks/results.json), the target, and whether it is met. Measures nothing itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.results import RESULTS, read

Check = Callable[[float], bool]
TARGETS: list[tuple[str, str, str, Check | None]] = [  # key, what it is, the target, met?
    ("sqlite_bytes_per_event_demo", "SQLite file per event, demo game", "<= 100 B", lambda x: x <= 100),
    ("sqlite_bytes_per_event_long", "SQLite file per event, bench game", "<= 100 B", lambda x: x <= 100),
    ("sqlite_bytes_per_event_1m", "SQLite file per event, 1,000,000-event game", "<= 100 B", lambda x: x <= 100),
    ("postgres_bytes_per_event_demo", "PostgreSQL table and indexes per event, demo game", "<= 150 B", lambda x: x <= 150),
    ("export_bytes_per_event_demo", "export per event, demo game", "<= 40 B", lambda x: x <= 40),
    ("export_bytes_per_event_1m", "export per event, 1,000,000-event game", "<= 40 B", lambda x: x <= 40),
    ("rebuild_floor_ratio", "rebuild speed / raw floor (select + decode)", ">= 0.45", lambda x: x >= 0.45),
    ("time_travel_median_ms", "state after a random version, 1M game: median", "reported", None),
    ("time_travel_worst_ms", "state after any version, 1M game: worst (costliest version)", "<= 5 ms", lambda x: x <= 5),
    ("time_travel_slowest_read_ms", "state after any version, 1M game: slowest single read", "reported", None),
    ("decide_p50_ms", "one decision through Ledger.decide on SQLite: p50", "<= 0.35 ms", lambda x: x <= 0.35),
    ("decide_p99_ms", "one decision through Ledger.decide on SQLite: p99", "<= 2.5 ms", lambda x: x <= 2.5),
    ("http_overhead_p50_ms", "what HTTP adds to a decision on SQLite, one client: p50", "<= 0.5 ms", lambda x: x <= 0.5),
    ("http_overhead_unpinned_p50_ms", "the same, the two legs on CPUs of the scheduler's choosing: p50", "reported", None),
    ("workers1_cpu_ms_per_decision.workers", "one worker on PostgreSQL, 16 clients: its CPU a decision", "<= 1.0 ms", lambda x: x <= 1.0),
    ("workers1_decisions_per_s", "one worker on PostgreSQL, 16 clients: decisions a second", ">= 900", lambda x: x >= 900),
    ("postgres_import_67k_s", "import into PostgreSQL, 67,000-event log, seconds", "reported", None),
    ("postgres_import_1m_events", "import into PostgreSQL, 1,000,000-event log: events stored", ">= 1,000,000", lambda x: x >= 1_000_000),
    ("postgres_import_1m_s", "import into PostgreSQL, 1,000,000-event log, seconds", "reported", None),
    ("postgres_import_1m_peak_mb", "import into PostgreSQL, 1,000,000-event log, peak MB", "reported", None),
    ("audit_10k_ms", "audit of a 10,000-event log in process (read, chain, schema, replay): median of 5", "<= 150 ms", lambda x: x <= 150),
    ("cli_version_over_python", "mtg-ledger --version / python -c pass, medians", "<= 3", lambda x: x <= 3),
    ("cli_state_ms", "mtg-ledger state GAME, demo store, whole process: median", "<= 200 ms", lambda x: x <= 200),
    ("receipt_overhead_p50_ms", "what receipts add to a decision (views, public head, signature): p50", "<= 0.2 ms", lambda x: x <= 0.2),
    ("receipt_bytes_per_event", "what receipts add to the SQLite store, per event", "<= 40 B", lambda x: x <= 40),
    # how fast the machine was at the run's start and end (benchmarks/machine.py): every time above moves with it
    ("machine_reference_ms.first", "the machine: reference work (300,000 small maps) at the start, ms", "reported", None),
    ("machine_reference_ms.last", "the machine: the same at the end, ms", "reported", None),
]


def verdict(value: Any, check: Check | None) -> str:
    if not isinstance(value, (int, float)):
        return "not measured"
    if check is None:
        return "reported"
    return "met" if check(float(value)) else "NOT MET"


def figure(results: dict[str, Any], key: str) -> Any:
    """A figure by its key; ``a.b``: the field ``b`` of the figure ``a`` (a map of figures)."""
    here: Any = results
    for part in key.split("."):
        here = here.get(part) if isinstance(here, dict) else None
    return here


def main() -> None:
    results = read()
    found = {key: figure(results, key) for key, *_ in TARGETS}
    rows = [(what, f"{found[key]:,.2f}" if isinstance(found[key], (int, float)) else "-", target, verdict(found[key], check))
            for key, what, target, check in TARGETS]
    widths = [max(len(r[i]) for r in [("target", "figure", "wanted", "verdict"), *rows]) for i in range(4)]
    print(f"\ntargets ({RESULTS.name}):")
    for row in [("target", "figure", "wanted", "verdict"), *rows]:
        print("  " + "  ".join(cell.rjust(w) if i == 1 else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))))


if __name__ == "__main__":
    main()
