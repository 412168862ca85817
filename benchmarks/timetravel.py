"""Time travel, audit and export on a very long game (issue 5). Measures and prints; never asserts.

- the state after a random version of a ~1,000,000-event game, through snapshots (median, worst),
  for several snapshot intervals, against rebuilding from the first event;
- audit time per 10,000 events;
- export size per event (the demo game and the long one), and the time to write, export from the
  store and read the long one's log file.

The export figures are merged into ``benchmarks/results.json`` (not committed).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import uuid4

import msgpack

from benchmarks.run import WithoutSnapshots, long_game_setup
from benchmarks.results import RESULTS, merge
from mtg_ledger.core.commands import Command, DeclareAttackers, DeclareBlockers, Discard, PassPriority
from mtg_ledger.core.rules import pending_decision
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays import logfile
from mtg_ledger.replays.app import Ledger
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.demo.policy import choose



def waiting_policy(state: GameState) -> Command | None:
    """Players who only pass and discard down to seven: the battlefield stays empty, so the game is
    long (until a library runs out) without growing a board no real game has."""
    decision = pending_decision(state)
    if decision is None:
        return None
    if decision.kind == "discard":
        return Discard(decision.player, tuple(state.players[decision.player].hand[: decision.count]))
    if decision.kind == "declare_attackers":
        return DeclareAttackers(decision.player, ())
    if decision.kind == "declare_blockers":
        return DeclareBlockers(decision.player, ())
    return PassPriority(decision.player)


def long_log(library: int) -> list[dict[str, Any]]:
    table = LocalTable.start(long_game_setup(library))
    while (command := waiting_policy(table.state)) is not None:
        table.handle(command)
    return table.events


def time_travel(events: list[dict[str, Any]], interval: int, samples: int, db: Path) -> dict[str, float]:
    ledger = Ledger(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db), "MTG_LEDGER_SNAPSHOT_INTERVAL": str(interval)}
    )
    began = time.perf_counter()
    game = ledger.import_events(events, uuid4())
    imported = time.perf_counter() - began
    rng = random.Random(interval)
    times = []
    for _ in range(samples):
        version = rng.randint(1, len(events))
        t = time.perf_counter()
        state = ledger.at(game, version)
        times.append(time.perf_counter() - t)
        assert state.version == version
    ledger.close()
    return {"median": statistics.median(times), "worst": max(times), "import": imported, "db": db.stat().st_size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=int, default=8800, help="cards in each library (8800 gives about 1,000,000 events)")
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--intervals", default="250,1000,4000")
    args = parser.parse_args()
    os.environ.setdefault("MTG_LEDGER_LOG_LEVEL", "warning")
    began = time.perf_counter()
    events = long_log(args.library)
    print(f"long game: {len(events):,} events, made in memory in {time.perf_counter() - began:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.mtgl"
        figures = export_figures(events, path)
        for interval in (int(i) for i in args.intervals.split(",")):
            r = time_travel(events, interval, args.samples, Path(tmp) / f"tt{interval}.sqlite")
            print(
                f"state --at (snapshot every {interval:>5}): median {r['median'] * 1000:8.1f} ms, worst {r['worst'] * 1000:8.1f} ms"
                f"   [import {r['import']:.1f} s, store {r['db'] / len(events):.0f} bytes/event]"
            )
        sample = events[: min(len(events), 200_000)]
        t = time.perf_counter()
        report = audit("long", sample)
        elapsed = time.perf_counter() - t
        assert report.clean, report.to_text()
        print(f"audit:       {elapsed / len(sample) * 10_000 * 1000:.1f} ms per 10,000 events ({len(sample):,} events audited, clean)")
        ledger = WithoutSnapshots(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / "scratch.sqlite")})
        game = ledger.import_events(sample, uuid4())
        t = time.perf_counter()
        ledger.at(game, len(sample))
        print(f"without snapshots: the state after event {len(sample):,} takes {(time.perf_counter() - t) * 1000:.0f} ms (from the first event)")
        ledger.close()
        intervals = [int(i) for i in args.intervals.split(",")]
        figures["export_from_store_s_1m"] = export_from_store(Path(tmp) / f"tt{intervals[0]}.sqlite", path)
        print(f"export:      from the store, checked page by page, {figures['export_from_store_s_1m']:.1f} s")
    merge(figures)
    print(f"written to {RESULTS}")


def export_figures(events: list[dict[str, Any]], path: Path) -> dict[str, float]:
    """Log file sizes (the demo game's, the long game's, and the long one's in the plain form of
    schemas 1 and 2), and the time to write and read the long one."""
    table = LocalTable.start(demo_setup(7))  # the game of `mtg-ledger demo --seed 7`
    while (command := choose(table.state)) is not None:
        table.handle(command)
    demo = io.BytesIO()
    logfile.write_to(demo, str(uuid4()), table.events)
    plain = sum(len(msgpack.packb(e, use_bin_type=True)) for e in events)
    t = time.perf_counter()
    logfile.write(path, str(uuid4()), events)
    written = time.perf_counter() - t
    t = time.perf_counter()
    _, again = logfile.read(path)
    read = time.perf_counter() - t
    assert len(again) == len(events)
    size = path.stat().st_size
    print(f"export:      {size / len(events):.1f} bytes/event ({size / 1e6:.1f} MB; {plain / len(events):.1f} bytes/event uncompressed, "
          f"as schemas 1 and 2 wrote it); the demo game (seed 7): {len(demo.getvalue()) / len(table.events):.1f} bytes/event")
    print(f"export:      written in {written:.1f} s, read in {read:.1f} s")
    return {
        "export_bytes_per_event_1m": round(size / len(events), 1),
        "export_bytes_per_event_demo": round(len(demo.getvalue()) / len(table.events), 1),
        "export_plain_bytes_per_event_1m": round(plain / len(events), 1),
        "export_write_s_1m": round(written, 2),
        "export_read_s_1m": round(read, 2),
    }


def export_from_store(db: Path, path: Path) -> float:
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    try:
        game = ledger.game_ids()[0]
        t = time.perf_counter()
        with open(path, "wb") as out:
            ledger.export_log(game, out)
        return round(time.perf_counter() - t, 2)
    finally:
        ledger.close()


if __name__ == "__main__":
    main()
