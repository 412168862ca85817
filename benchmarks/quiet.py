"""`make bench`, between its benchmarks: PostgreSQL's dirty pages flushed (``CHECKPOINT``, where the loopback
server answers), then a wait, at most 90 s, until the machine is under 10% busy for a second, so that what one
benchmark left running (a checkpoint, autovacuum after a heavy write) is not measured by the next. Prints how
long it waited; measures nothing itself."""

from __future__ import annotations

import time
from pathlib import Path


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


def main() -> None:
    began = time.monotonic()
    try:
        from benchmarks.scaleout_store import _connect, postgres_env

        with _connect(postgres_env()) as conn:
            conn.execute("CHECKPOINT")
    except Exception:  # no PostgreSQL here: nothing to flush
        pass
    waited = wait_until_quiet()
    print(f"quiet: {time.monotonic() - began:.0f} s (checkpoint, then {waited:.0f} s until the machine was under 10% busy)")


if __name__ == "__main__":
    main()
