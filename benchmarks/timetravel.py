"""Time travel, audit and export on a very long game (issues 5 and 15). Measures and prints; never asserts.

- the state after a random version of a ~1,000,000-event game stored in SQLite at the default
  snapshot interval, through its snapshots (median; worst: the costliest of those versions and of the
  versions right before a snapshot, the farthest from one, each read three times), and the store's
  bytes per event;
- the same on the game's first 100,000 events for several intervals (a cheap comparison);
- audit time per 10,000 events, and the state from the first event without snapshots;
- export size per event (the demo game and the long one), and the time to write, export from the
  store and read the long one's log file.

The figures are printed and merged into ``benchmarks/results.json`` (not committed).
"""

from __future__ import annotations

import argparse
import gc
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

from benchmarks import results
from benchmarks.run import WithoutSnapshots, long_game_setup
from mtg_ledger.core.commands import Command, DeclareAttackers, DeclareBlockers, Discard, PassPriority
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.application import SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL_ENV, Ledger
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


PASSES = 3  # reads of each version, a pass over them all at a time: a version's cost is its median read


def time_travel(events: list[dict[str, Any]], interval: int, samples: int, probes: int, db: Path) -> dict[str, float]:
    """Import ``events`` into a new SQLite store with a snapshot every ``interval`` events, then time
    the state after ``samples`` random versions and after ``probes`` versions right before a snapshot
    (the farthest from one), each read ``PASSES`` times, in passes. The median is of the first pass's
    random reads; the worst case is the costliest version (its median read: what the version costs,
    not a moment the machine lent its core elsewhere, which ``slowest_read`` keeps)."""
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db), SNAPSHOT_INTERVAL_ENV: str(interval)})
    began = time.perf_counter()
    game = ledger.import_events(events, uuid4())
    imported = time.perf_counter() - began
    assert ledger.snapshots is not None
    rows = ledger.snapshots.recorder.select_events(game)
    keyframes = sum(1 for r in rows if b"keyframe" in r.state)
    rng = random.Random(interval)
    far = [rows[i + 1].originator_version - 1 for i in sorted(rng.sample(range(len(rows) - 1), min(probes, len(rows) - 1)))]
    versions = [rng.randint(1, len(events)) for _ in range(samples)]
    read = [*versions, *far]
    passes: list[list[float]] = []  # each version read once a pass, PASSES passes one after another
    cpu: list[float] = []  # the same reads in this thread's CPU time: what a read costs, not how long it waited for a core
    for _ in range(PASSES):
        times = []
        for version in read:
            t, c = time.perf_counter(), time.thread_time()
            state = ledger.state(game, version)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            assert state.version == version
        passes.append(times)
    ledger.close()
    each = [statistics.median(reads) for reads in zip(*passes, strict=True)]  # a version's median read
    return {
        "median": statistics.median(passes[0][: len(versions)]),
        "worst": max(each),
        "slowest_read": max(max(p) for p in passes),
        "worst_cpu": max(cpu),
        "far_median": statistics.median(each[len(versions) :]) if far else 0.0,
        "import": imported,
        "db": db.stat().st_size,
        "snapshots": len(rows),
        "keyframes": keyframes,
        "snapshot_bytes": sum(len(r.state) for r in rows),
    }


def report(label: str, r: dict[str, float], count: int) -> str:
    return (
        f"{label}: median {r['median'] * 1000:5.1f} ms, worst {r['worst'] * 1000:5.1f} ms (slowest read {r['slowest_read'] * 1000:.1f}, CPU {r['worst_cpu'] * 1000:.1f}; before a snapshot: median "
        f"{r['far_median'] * 1000:4.1f} ms)   [import {r['import']:.1f} s, store {r['db'] / count:.0f} bytes/event, "
        f"{r['snapshots']:.0f} snapshots ({r['keyframes']:.0f} keyframes), {r['snapshot_bytes'] / count:.1f} bytes/event of them]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=int, default=8800, help="cards in each library (8800 gives about 1,000,000 events)")
    parser.add_argument("--samples", type=int, default=100, help="random versions read")
    parser.add_argument("--probes", type=int, default=30, help="versions right before a snapshot read (the worst case)")
    parser.add_argument("--prefix", type=int, default=100_000, help="events of the game for the comparison of intervals")
    parser.add_argument("--intervals", default="100,250,1000", help="snapshot intervals compared on the prefix")
    args = parser.parse_args()
    os.environ.setdefault("MTG_LEDGER_LOG_LEVEL", "warning")
    interval = int(os.environ.get(SNAPSHOT_INTERVAL_ENV) or SNAPSHOT_INTERVAL)
    began = time.perf_counter()
    events = long_log(args.library)
    gc.collect()
    gc.freeze()  # the benchmark's own copy of the log: out of the collector's way (a full collection of it takes seconds)
    print(f"long game: {len(events):,} events, made in memory in {time.perf_counter() - began:.1f} s")
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.mtgl"
        figures.update(export_figures(events, path))
        r = time_travel(events, interval, args.samples, args.probes, Path(tmp) / "long.sqlite")
        print(report(f"state --at, {len(events):,} events, snapshot every {interval} (default)", r, len(events)))
        figures.update(
            time_travel_median_ms=round(r["median"] * 1000, 3),
            time_travel_worst_ms=round(r["worst"] * 1000, 3),
            time_travel_worst_cpu_ms=round(r["worst_cpu"] * 1000, 3),
            time_travel_slowest_read_ms=round(r["slowest_read"] * 1000, 3),
            sqlite_bytes_per_event_1m=round(r["db"] / len(events), 1),
        )
        figures["export_from_store_s_1m"] = export_from_store(Path(tmp) / "long.sqlite", path)
        print(f"export:      from the store, checked page by page, {figures['export_from_store_s_1m']:.1f} s")
        (Path(tmp) / "long.sqlite").unlink()
        path.unlink()
        sample = events[: min(len(events), args.prefix)]
        for each in (int(i) for i in args.intervals.split(",")):
            r = time_travel(sample, each, args.samples, args.probes, Path(tmp) / f"tt{each}.sqlite")
            print(report(f"  first {len(sample):,} events, snapshot every {each:>5}", r, len(sample)))
        t = time.perf_counter()
        audited = audit("long", sample)
        elapsed = time.perf_counter() - t
        assert audited.clean, audited.to_text()
        print(f"audit:       {elapsed / len(sample) * 10_000 * 1000:.1f} ms per 10,000 events ({len(sample):,} events audited, clean)")
        ledger = WithoutSnapshots(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / "scratch.sqlite")})
        game = ledger.import_events(sample, uuid4())
        t = time.perf_counter()
        ledger.state(game, len(sample))
        print(f"without snapshots: the state after event {len(sample):,} takes {(time.perf_counter() - t) * 1000:.0f} ms (from the first event)")
        ledger.close()
    results.merge(figures)
    print(f"written to {results.RESULTS}: {figures}")


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
