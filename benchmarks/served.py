"""A ``mtg-ledger serve`` process for the benchmarks, and where its CPU goes (the workers, the server's
PostgreSQL backends, this process and the rest of the machine), read from /proc. Linux only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from uuid import uuid4

from benchmarks.scaleout_store import _connect
from benchmarks.service import Client

TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Served:
    process: subprocess.Popen[str]
    url: str
    app_name: str  # every PostgreSQL session of the server carries it (PGAPPNAME): its backends are found by it

    def worker_pids(self) -> list[int]:
        children = [p for p in _children(self.process.pid) if b"spawn_main" in _cmdline(p)]
        return children or [self.process.pid]


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent:
                    found.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def _machine() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


@contextmanager
def serving(env: dict[str, str], workers: int) -> Iterator[Served]:
    app_name = f"mtgl-bench-{uuid4().hex[:8]}"
    server_env = {**os.environ, **env, "MTG_LEDGER_LOG_LEVEL": "warning", "PGAPPNAME": app_name}
    command = [sys.executable, "-m", "mtg_ledger.replays.cli", "serve", "--port", "0", "--workers", str(workers)]
    process = subprocess.Popen(command, env=server_env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("mtg-ledger serving on "):
            raise RuntimeError(f"the server did not start: {line!r}")
        served = Served(process, line.split()[3], app_name)
        deadline = time.monotonic() + 60
        while len(served.worker_pids()) < workers or not _healthy(served.url):
            if time.monotonic() > deadline:
                raise RuntimeError("the server never became healthy")
            time.sleep(0.05)
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _healthy(url: str) -> bool:
    try:
        client = Client(url, timeout=60)
        status, _ = client.call("GET", "/healthz")
        client.close()
        return status == 200
    except OSError:
        return False


class CpuMeter:
    """CPU seconds of the workers, of the server's PostgreSQL backends, of this process and of the whole
    machine, between ``start`` and ``stop``."""

    def __init__(self, served: Served, env: dict[str, str]) -> None:
        self.served, self.env = served, env

    def _backends(self) -> list[int]:
        with _connect(self.env) as conn:
            return [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", (self.served.app_name,))]

    def start(self) -> None:
        self.workers, self.backends = self.served.worker_pids(), self._backends()
        self.each = [_cpu(p) for p in self.workers]
        self.begin = (sum(self.each), sum(map(_cpu, self.backends)), time.process_time(), *_machine())

    def stop(self) -> dict[str, float]:
        backends = set(self.backends) | set(self._backends())  # the pool may open more under load
        each = [_cpu(p) - b for p, b in zip(self.workers, self.each, strict=True)]
        end = (sum(_cpu(p) for p in self.workers), sum(_cpu(p) for p in backends), time.process_time(), *_machine())
        workers, postgres, clients, busy, total = (e - b for e, b in zip(end, self.begin, strict=True))
        others = max(0.0, busy - workers - postgres - clients)
        busiest = max(each) / sum(each) if sum(each) else 1.0  # how evenly the connections spread over the workers
        return {"workers": workers, "postgres": postgres, "clients": clients, "others": others, "idle": total - busy, "busiest_worker": busiest}
