"""`make bench`, between its benchmarks: PostgreSQL's dirty pages flushed (``CHECKPOINT``, where the loopback
server answers), then a wait, at most 90 s, until the machine is under 10% busy for a second, so that what one
benchmark left running (a checkpoint, autovacuum after a heavy write) is not measured by the next. Prints how
long it waited; measures nothing itself."""

from __future__ import annotations

import time

from benchmarks.results import wait_until_quiet


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
