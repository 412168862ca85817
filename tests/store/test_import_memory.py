"""`mtg-ledger import FILE` reads the file in passes (chain, replay, store), never holding the log whole:
its peak memory does not grow with the log's length. Pinned without timing, by the importing process's
peak resident set (the kernel's accounting of a child, ``os.wait4``), for two logs of the benchmarks'
long game, one four times the length of the other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.timetravel import long_log
from mtg_ledger.replays import logfile

# A child's peak resident set counts the memory of the process it was forked from (Linux records it
# at exec): the import is started by this small process, not by the test runner, to measure the import alone.
MEASURED = (
    "import os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)\n"
    "out = child.stdout.read()\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, out.decode().strip(), sep='\\t')\n"
)
SHORT, LONG = 200, 800  # cards in each library: about 22,800 and 91,000 events


def _import_peak(log: Path, db: Path) -> tuple[int, dict[str, object]]:
    """The peak resident kilobytes of ``mtg-ledger import`` of ``log`` into the SQLite file ``db``, and what it printed."""
    command = [sys.executable, "-m", "mtg_ledger.replays.cli", "--json", "--db", str(db), "import", str(log)]
    done = subprocess.run([sys.executable, "-c", MEASURED, *command], capture_output=True, text=True, env=os.environ, check=True)
    status, peak, printed = done.stdout.strip().split("\t")
    assert status == "0", done.stderr
    return int(peak), json.loads(printed)


def test_importing_a_log_four_times_as_long_takes_no_more_peak_memory(tmp_path: Path) -> None:
    peaks, counts = {}, {}
    for library in (SHORT, LONG):
        events = long_log(library)
        counts[library] = len(events)
        log = tmp_path / f"{library}.mtgl"
        logfile.write(log, "00000000-0000-0000-0000-00000000b16a", events)
        del events
        peaks[library], printed = _import_peak(log, tmp_path / f"{library}.sqlite")
        assert printed["events"] == counts[library]
    assert counts[LONG] >= 3.9 * counts[SHORT]
    # before the import read in passes, the peak grew with the log (74 MB at 30,000 events, 153 MB at 120,000)
    assert peaks[LONG] <= 1.25 * peaks[SHORT], f"peak {peaks[SHORT] // 1024} MB for {counts[SHORT]:,} events, {peaks[LONG] // 1024} MB for {counts[LONG]:,}"
