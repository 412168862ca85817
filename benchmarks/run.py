"""`make bench`: measures, never asserts. Prints figures and ratios; medians of repeated runs.

1. Appending: one long game (>= 100,000 events) played into a SQLite file, one transaction per
   decision; events/s, and the latency of one decision through ``Ledger.decide`` (p50, p99, mean).
2. Rebuilding that game from SQLite through the library from its first event, snapshots ignored
   (repository.get: select, decode, domain events, appliers); events/s, against the raw floor on the
   same rows (select plus msgpack decode alone), and their ratio. A rebuild and a floor run are timed
   one after the other, ``--repeat`` times, on one CPU (this machine's two run at different speeds
   from one moment to the next: a pair sees the same one); the ratio is the median of the pairs'.
3. Bytes per stored event: the payload alone, and the whole file.

The decision latencies are also merged into ``benchmarks/results.json`` (``decide_p50_ms``,
``decide_p99_ms``, ``decide_mean_ms``; not committed), beside the other benchmarks' keys.

``--store FILE`` keeps the played game in FILE; given a FILE that exists, the game is not played again:
only the rebuild and floor pairs of part 2 are timed on the game it holds, printed and not merged.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import UUID

import msgpack

from benchmarks.results import RESULTS, merge
from mtg_ledger.core.commands import Command, DeclareAttackers, DeclareBlockers, PassPriority, PlayLand
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.state import GameState
from mtg_ledger.core.turn import MAIN_STEPS
from mtg_ledger.replays.ledger.application import Ledger


def long_game_setup(library: int) -> dict[str, object]:
    """Two players who play a land a turn and never attack: the game ends by decking (704.5b)."""
    return {
        "seed": 1,
        "starting_player": "alice",
        "players": [
            {"name": "alice", "library": ["Forest"] * library, "hand": []},
            {"name": "bob", "library": ["Mountain"] * library, "hand": []},
        ],
    }


def patient_policy(state: GameState) -> Command | None:
    decision = pending_decision(state)
    if decision is None:
        return None
    player = decision.player
    if decision.kind == "priority":
        hand = state.players[player].hand
        if state.active_player == player and state.step in MAIN_STEPS and not state.stack and hand and not state.players[player].lands_played:
            return PlayLand(player, hand[0])
        return PassPriority(player)
    if decision.kind == "declare_attackers":
        return DeclareAttackers(player, ())
    if decision.kind == "declare_blockers":
        return DeclareBlockers(player, ())
    return choose(state)


def append_game(db: Path, library: int) -> tuple[UUID, int, list[float], float]:
    """The game played into ``db``: its id, its events, each decision's ``Ledger.decide`` time, the total time."""
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    from mtg_ledger.replays.ledger.logs import configure_logging

    configure_logging()
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    began = time.perf_counter()
    game_id = ledger.start(long_game_setup(library))
    latencies: list[float] = []
    clock = time.perf_counter
    while (command := patient_policy(ledger.state_now(game_id))) is not None:
        start = clock()
        ledger.decide(game_id, command)
        latencies.append(clock() - start)
    elapsed = time.perf_counter() - began
    events = ledger.state_now(game_id).version
    ledger.close()
    return game_id, events, latencies, elapsed


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class WithoutSnapshots(Ledger):
    """Every state rebuilt from the first event: what the rebuild figure measures."""

    is_snapshotting_enabled = False


def rebuild(db: Path, game_id: UUID) -> float:
    ledger = WithoutSnapshots(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    began = time.perf_counter()
    game = ledger.game(game_id)  # the application's own path: repository.get with our projector
    elapsed = time.perf_counter() - began
    assert game.state.ended
    ledger.close()
    return elapsed


# A game's event states in version order, in the compact layout (replays.stores.sqlite) and in the
# library's (MTG_LEDGER_SQLITE_RECORDER=library, for comparison).
STATES = {
    "compact": "SELECT e.state FROM events AS e, (SELECT id * 4294967296 AS base FROM games WHERE uuid = ?) AS g"
               " WHERE e.key > g.base AND e.key < g.base + 4294967296 ORDER BY e.key",
    "library": "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY originator_version",
}
EVENT_BTREES = {"compact": ("events",), "library": ("stored_events", "sqlite_autoindex_stored_events_1")}


def layout(con: sqlite3.Connection) -> str:
    return "library" if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'stored_events'").fetchone() else "compact"


def game_key(kind: str, game_id: UUID) -> bytes | str:
    return game_id.bytes if kind == "compact" else game_id.hex


def raw_floor(db: Path, game_id: UUID) -> float:
    began = time.perf_counter()
    con = sqlite3.connect(db)
    kind = layout(con)
    rows = con.execute(STATES[kind], (game_key(kind, game_id),))
    unpackb = msgpack.unpackb
    count = 0
    for (blob,) in rows:
        unpackb(blob[33:] if blob[0] == 3 else blob, strict_map_key=False)  # schema 3: 0x03, the 32-byte hash, then msgpack
        count += 1
    elapsed = time.perf_counter() - began
    con.close()
    assert count > 0
    return elapsed


@contextmanager
def one_cpu() -> Iterator[None]:
    """This process on one CPU (the last it may use) for the block, where the system lets it choose."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {max(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


def sizes(db: Path, game_id: UUID) -> tuple[float, float, int]:
    """Bytes per event: the states alone; the events' table and index pages (dbstat, where SQLite has it;
    else the states again); and the file's size."""
    con = sqlite3.connect(db)
    kind = layout(con)
    count, payload = con.execute(f"SELECT COUNT(*), SUM(LENGTH(state)) FROM ({STATES[kind]})", (game_key(kind, game_id),)).fetchone()
    try:
        btrees = EVENT_BTREES[kind]
        pages = con.execute(f"SELECT SUM(pgsize) FROM dbstat WHERE name IN ({','.join('?' * len(btrees))})", btrees).fetchone()[0]
    except sqlite3.OperationalError:  # no dbstat in this SQLite
        pages = payload
    con.close()
    return payload / count, pages / count, db.stat().st_size


def paired(db: Path, game_id: UUID, repeat: int) -> tuple[list[float], list[float]]:
    """``repeat`` rebuilds and floor runs of the game, in pairs on one CPU, so that both see the same machine."""
    rebuilds: list[float] = []
    floors: list[float] = []
    with one_cpu():
        for _ in range(repeat):
            rebuilds.append(rebuild(db, game_id))
            floors.append(raw_floor(db, game_id))
    return rebuilds, floors


def rebuild_only(db: Path, repeat: int) -> None:
    """Part 2 alone, on the game a kept store holds (``--store``): printed, not merged."""
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    (game_id,) = ledger.game_ids()
    events = ledger.last_version(game_id)
    ledger.close()
    rebuilds, floors = paired(db, game_id, repeat)
    rb, fl = statistics.median(rebuilds), statistics.median(floors)
    ratio = statistics.median(f / r for r, f in zip(rebuilds, floors, strict=True))
    print(f"rebuild:  {events / rb:12,.0f} events/s   median of {repeat}: {rb:.3f} s (min {min(rebuilds):.3f}, max {max(rebuilds):.3f})")
    print(f"floor:    {events / fl:12,.0f} events/s   median of {repeat}: {fl:.3f} s (select + msgpack decode only)")
    print(f"ratio:    rebuild runs at {ratio:.0%} of the raw floor's speed (median of {repeat} pairs; rebuild_floor_ratio {ratio:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=int, default=900, help="cards in each library (900 gives > 100,000 events)")
    parser.add_argument("--repeat", type=int, default=9, help="rebuild and floor pairs; medians are reported")
    parser.add_argument("--store", type=Path, help="keep the game in this SQLite file; if it exists, time only its rebuild and floor")
    args = parser.parse_args()
    if args.store is not None and args.store.exists():
        rebuild_only(args.store, args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.store or Path(tmp) / "bench.sqlite"
        game_id, events, latencies, append_s = append_game(db, args.library)
        decisions = len(latencies)
        rebuilds, floors = paired(db, game_id, args.repeat)
        payload, row, file_size = sizes(db, game_id)
    rb, fl = statistics.median(rebuilds), statistics.median(floors)
    ratio = statistics.median(f / r for r, f in zip(rebuilds, floors, strict=True))
    print(f"long game: {events:,} events, {decisions:,} decisions (one transaction each), SQLite file")
    print(f"append:   {events / append_s:12,.0f} events/s   {decisions / append_s:10,.0f} decisions/s   ({append_s:.2f} s)")
    decide = {
        "decide_p50_ms": round(statistics.median(latencies) * 1000, 3),
        "decide_p99_ms": round(pct(latencies, 0.99) * 1000, 3),
        "decide_mean_ms": round(statistics.fmean(latencies) * 1000, 3),
    }
    print(f"decide:   p50 {decide['decide_p50_ms']:.3f} ms   p99 {decide['decide_p99_ms']:.3f} ms   mean {decide['decide_mean_ms']:.3f} ms   (Ledger.decide, one decision)")
    print(f"rebuild:  {events / rb:12,.0f} events/s   median of {args.repeat}: {rb:.3f} s (min {min(rebuilds):.3f}, max {max(rebuilds):.3f})")
    print(f"floor:    {events / fl:12,.0f} events/s   median of {args.repeat}: {fl:.3f} s (select + msgpack decode only)")
    print(f"ratio:    rebuild runs at {ratio:.0%} of the raw floor's speed (median of {args.repeat} pairs; {fl / rb:.0%} from the medians above)")
    print(f"size:     {payload:.1f} bytes/event payload, {row:.1f} bytes/event in the events' table and index, {file_size / events:.1f} bytes/event in the file")
    merge({
        **decide,
        "rebuild_events_per_s": round(events / rb),
        "floor_events_per_s": round(events / fl),
        "rebuild_floor_ratio": round(ratio, 3),  # rebuild events/s divided by the floor's, the median of the pairs
        "sqlite_bytes_per_event_long": round(file_size / events, 1),
        "append_events_per_s": round(events / append_s),
    })
    print(f"merged into {RESULTS}")


if __name__ == "__main__":
    main()
