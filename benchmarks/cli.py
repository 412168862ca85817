"""Start-up of the command line, as a user meets it: whole processes, timed from outside.

``cli_version_over_python``: the median ``mtg-ledger --version`` over the median ``python -c pass`` (the same
venv's interpreter), the two run in turn in one loop so that the machine's load weighs on both alike.
``cli_state_ms``: the median ``mtg-ledger state GAME`` on a demo store made here, in milliseconds.
Merged into benchmarks/results.json; the targets are in benchmarks/targets.py.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.results import merge

ROUNDS = 30
SOURCES = [Path(__file__).resolve().parents[1] / part for part in ("core", "projections", "replays")]  # the package, as installed (editable)
WARM_UP = 3
SCRIPT = Path(sys.executable).with_name("mtg-ledger")


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    # The package's modules compiled, as pip compiles them when it installs one: an editable install leaves that
    # to the first run, and an environment with PYTHONDONTWRITEBYTECODE set (this one) to none, so that every
    # command would compile each module it imports again (some 60 ms of `state`'s start).
    subprocess.run([sys.executable, "-m", "compileall", "-q", *map(str, SOURCES)], check=True)
    with tempfile.TemporaryDirectory(prefix="mtg-ledger-cli-bench-") as folder:
        here = Path(folder)
        made = subprocess.run([str(SCRIPT), "demo", "--seed", "7", "--quiet", "--json", "--db", "demo.sqlite"],
                              cwd=here, check=True, capture_output=True, text=True)
        game = json.loads(made.stdout)["game"]
        commands = {
            "python": [sys.executable, "-c", "pass"],
            "version": [str(SCRIPT), "--version"],
            "state": [str(SCRIPT), "state", game, "--db", "demo.sqlite"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for round_ in range(WARM_UP + ROUNDS):
            for name, argv in commands.items():  # interleaved: each round runs each command once
                took = timed(argv, here)
                if round_ >= WARM_UP:
                    times[name].append(took)
    median = {name: statistics.median(values) for name, values in times.items()}
    figures = {
        "cli_python_start_ms": round(median["python"] * 1000, 1),
        "cli_version_ms": round(median["version"] * 1000, 1),
        "cli_version_over_python": round(median["version"] / median["python"], 2),
        "cli_state_ms": round(median["state"] * 1000, 1),
    }
    for key, value in figures.items():
        print(f"{key:26} {value}")
    merge(figures)


if __name__ == "__main__":
    main()
