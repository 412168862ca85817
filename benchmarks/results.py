"""benchmarks/results.json (made by `make bench`, not committed): every benchmark merges its figures in."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results.json"


def read() -> dict[str, Any]:
    try:
        found = json.loads(RESULTS.read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    return found if isinstance(found, dict) else {}


def merge(figures: dict[str, Any]) -> None:
    """Adds these figures to benchmarks/results.json, keeping the other benchmarks' figures."""
    results = read()
    results.update(figures)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")


def busy_share(seconds: float = 1.0) -> float:
    """The share of the machine's CPU time spent other than idle (or waiting for I/O) over ``seconds``
    (/proc/stat; 0 where there is none)."""

    def read_cpu() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # all, idle + iowait

    try:
        total0, idle0 = read_cpu()
        time.sleep(seconds)
        total1, idle1 = read_cpu()
    except (OSError, ValueError, IndexError):
        return 0.0
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def wait_until_quiet(limit_s: float = 90.0, busy: float = 0.10) -> float:
    """Waits, at most ``limit_s``, until the machine is under ``busy`` for a second (what an earlier benchmark
    left running, PostgreSQL's checkpoint and autovacuum after a heavy write, has ended); the seconds waited."""
    began = time.monotonic()
    while time.monotonic() - began < limit_s and busy_share() > busy:
        pass
    return time.monotonic() - began
