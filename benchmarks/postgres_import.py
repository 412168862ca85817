"""Imports of long games into PostgreSQL (the loopback server, a schema of their own): the benchmarks'
long game at about 67,000 events (more than one transaction id numbers) and at about 1,000,000 events,
each through `mtg-ledger import` in a process of its own, in one transaction. Reports the seconds and
the importing process's peak memory (its resident set, from the kernel's accounting of the child). The logs
are written by another process beforehand: a child's peak counts its parent's memory at the fork, so this
process stays small."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from benchmarks import results

SERVER = {"POSTGRES_DBNAME": "test", "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "5432", "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": ""}
LIBRARIES = {"67k": 590, "1m": 8800}  # cards in each library: about 67,300 and 1,000,000 events
WRITE_LOG = (
    "import sys; from benchmarks.timetravel import long_log; from mtg_ledger.replays import logfile\n"
    "events = long_log(int(sys.argv[1])); logfile.write(sys.argv[2], '00000000-0000-0000-0000-00000000b16a', events); print(len(events))"
)


def _connect() -> psycopg.Connection[Any]:
    return psycopg.connect(host=SERVER["POSTGRES_HOST"], port=int(SERVER["POSTGRES_PORT"]), user=SERVER["POSTGRES_USER"],
                           dbname=SERVER["POSTGRES_DBNAME"], autocommit=True)  # fmt: skip


def import_once(path: Path, schema: str) -> tuple[float, float, int]:
    """Seconds, peak resident MB of the importing process, and the events stored."""
    env = {**os.environ, **SERVER, "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_SCHEMA": schema, "MTG_LEDGER_LOG_LEVEL": "warning"}
    with tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "mtg_ledger.replays.cli", "import", str(path)], env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)  # the child's own peak, not the largest of every child so far
        elapsed = time.perf_counter() - began
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"import failed ({os.waitstatus_to_exitcode(status)}): {err.read().strip()}")
    with _connect() as conn:
        row = conn.execute(sql.SQL("SELECT SUM(size) FROM {}.mtgledger_saves WHERE kind = 0").format(sql.Identifier(schema))).fetchone()
    assert row is not None
    return elapsed, usage.ru_maxrss / 1024, int(row[0])


def main() -> None:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, library in LIBRARIES.items():
            path = Path(tmp) / f"{name}.mtgl"
            made = subprocess.run([sys.executable, "-c", WRITE_LOG, str(library), str(path)], check=True, capture_output=True, text=True)
            count = int(made.stdout)
            schema = f"mtgl_bench_import_{name}"
            with _connect() as conn:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {0} CASCADE; CREATE SCHEMA {0}").format(sql.Identifier(schema)))
            try:
                seconds, peak_mb, stored = import_once(path, schema)
            finally:
                with _connect() as conn:
                    conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
            assert stored == count, f"{stored} of {count} events stored"
            print(f"import into PostgreSQL: {count:,} events in {seconds:.1f} s, peak {peak_mb:.0f} MB resident")
            figures[f"postgres_import_{name}_s"] = round(seconds, 1)
            figures[f"postgres_import_{name}_peak_mb"] = round(peak_mb)
            figures[f"postgres_import_{name}_events"] = count
    results.merge(figures)
    print(f"written to {results.RESULTS}: {figures}")


if __name__ == "__main__":
    main()
