"""`make bench`: the store on PostgreSQL with several writers. Measures and prints; never asserts.

For the library's recorder (``MTG_LEDGER_PG_RECORDER=library``: LOCK TABLE ... IN EXCLUSIVE MODE on every
save) and ours (``streams``), each in a schema of its own on the loopback PostgreSQL:

1. saves/s with 1, 2 and 4 writer processes, each on games of its own (one save = one decision's
   events), and the speed-ups over one writer: for the store's share (a demo game played in memory
   beforehand, its saves written again and again through the Ledger's recorder; best of three runs) and
   end to end (demo games played through the Ledger, the rules engine's work included);
2. a stalled writer: one connection inserts events for game X and holds its transaction open for 2 s,
   while another writer keeps saving decisions on game Y. Reported: the longest save of Y (against its
   median before the stall), how long Y's events then take to reach the feed that read models follow
   (``select_notifications``), and, for ours, to reach a LISTEN connection (the game's NOTIFY);
3. one writer's save, the store's share: wall time, the server backend's CPU and the writer's CPU
   per save, and bytes on disk per event (for the sizing in the README).

Figures are merged into benchmarks/results.json (``store_writers2_speedup``, ``store_writers4_speedup``,
``store_stalled_writer_delay_ms``, the same with ``_library``, and the ``ledger_`` end-to-end figures;
``benchmarks/scaleout.py`` measures the same stall through the service: ``stalled_writer_delay_ms``). Bounded:
about a minute in all.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import psycopg
from eventsourcing.persistence import StoredEvent
from psycopg import sql

from benchmarks import results
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.stores import RECORDER_ENV
from mtg_ledger.replays.stores.postgres import StreamsRecorder

RECORDERS = ("library", "streams")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def postgres_env() -> dict[str, str]:
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
        "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
        "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
        "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
        "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "MTG_LEDGER_LOG_LEVEL": "warning",
    }
    if env["POSTGRES_HOST"] not in LOOPBACK:
        raise SystemExit(f"the scale-out benchmark runs on a loopback PostgreSQL only, not {env['POSTGRES_HOST']}")
    return env


def _connect(env: dict[str, str]) -> psycopg.Connection[Any]:
    return psycopg.connect(
        dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=int(env["POSTGRES_PORT"]),
        user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"], autocommit=True, connect_timeout=5,
    )  # fmt: skip


@contextmanager
def schema(env: dict[str, str], recorder: str) -> Iterator[dict[str, str]]:
    """A fresh schema with the Ledger's tables, for one measurement; dropped afterwards."""
    name = f"mtgl_bench_{recorder}_{uuid4().hex[:8]}"
    with _connect(env) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    scoped = {**env, "POSTGRES_SCHEMA": name, RECORDER_ENV: recorder}
    Ledger(env=scoped).close()  # creates the tables once, before the writers start
    try:
        yield {**scoped, "CREATE_TABLE": "false"}
    finally:
        with _connect(env) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def _quiet() -> None:
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    from mtg_ledger.replays.ledger.logs import configure_logging

    configure_logging()


class Player:
    """Plays demo games through a Ledger, one save per decision; starts a new game when one ends."""

    def __init__(self, ledger: Ledger, seed: int) -> None:
        self.ledger, self.seed = ledger, seed
        self.game = ledger.start(demo_setup(seed))

    def save_one(self) -> None:
        command = choose(self.ledger.state_now(self.game))
        if command is None:
            self.seed += 1000
            self.game = self.ledger.start(demo_setup(self.seed))
        else:
            self.ledger.decide(self.game, command)


@cache
def played_saves(seed: int) -> list[list[StoredEvent]]:
    """The stored events of each save of a demo game (its start, then one decision each), played in memory
    (once per seed, before the writers fork)."""
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    game = ledger.start(demo_setup(seed))
    saves, done = [], 0
    while True:
        version = ledger.state_now(game).version
        saves.append([ledger.mapper.to_stored_event(e) for e in ledger.events.get(game, gt=done, lte=version)])
        done = version
        command = choose(ledger.state_now(game))
        if command is None:
            return saves
        ledger.decide(game, command)


class Replayer:
    """Writes the saves of a played demo game again and again, each time as a new game, through the
    Ledger's recorder: the store's own share of a save, without the rules engine's."""

    def __init__(self, ledger: Ledger, seed: int) -> None:
        self.recorder, self.saves, self.next = ledger.recorder, played_saves(seed), 0
        self.game = uuid4()

    def save_one(self) -> int:
        if self.next == len(self.saves):
            self.next, self.game = 0, uuid4()
        batch = [replace(e, originator_id=self.game) for e in self.saves[self.next]]
        self.recorder.insert_events(batch)
        self.next += 1
        return len(batch)


def _writer(env: dict[str, str], mode: str, seed: int, seconds: float, ready: Any, go: Any, out: Any) -> None:
    _quiet()
    ledger = Ledger(env=env)
    player = Player(ledger, seed) if mode == "ledger" else Replayer(ledger, seed)
    ready.set()
    go.wait()
    saves, began = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        player.save_one()
        saves += 1
    ledger.close()
    out.put((saves, elapsed))


def saves_per_second(env: dict[str, str], mode: str, writers: int, seconds: float) -> float:
    """Total saves/s of ``writers`` processes, each on its own games, all started together."""
    ctx = mp.get_context("fork")
    go, out = ctx.Event(), ctx.Queue()
    readies = [ctx.Event() for _ in range(writers)]
    procs = [ctx.Process(target=_writer, args=(env, mode, i + 1, seconds, readies[i], go, out)) for i in range(writers)]
    for p in procs:
        p.start()
    for r in readies:
        r.wait(60)
    go.set()
    results = [out.get(timeout=seconds + 60) for _ in procs]
    for p in procs:
        p.join(10)
    return sum(s / e for s, e in results)


class Follower(threading.Thread):
    """Reads the feed (select_notifications) every 5 ms and notes when each (game, version) first appears."""

    def __init__(self, ledger: Ledger) -> None:
        super().__init__(daemon=True)
        self.ledger, self.seen, self.stop = ledger, dict[tuple[str, int], float](), threading.Event()
        self.position = ledger.recorder.max_notification_id()

    def run(self) -> None:
        while not self.stop.wait(0.005):
            for n in self.ledger.recorder.select_notifications(self.position, 1000, inclusive_of_start=False):
                self.seen.setdefault((str(n.originator_id), n.originator_version), time.perf_counter())
                self.position = n.id


class Listener(threading.Thread):
    """LISTENs on the events table's channel and notes when each ``game:version`` payload arrives."""

    def __init__(self, env: dict[str, str], channel: str) -> None:
        super().__init__(daemon=True)
        self.conn = _connect(env)
        self.conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        self.heard, self.stop = dict[tuple[str, int], float](), threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for n in self.conn.notifies(timeout=0.05):
                for item in filter(None, n.payload.split(",")):
                    game, version = item.rsplit(":", 1)
                    self.heard.setdefault((game, int(version)), time.perf_counter())
        self.conn.close()


def _hold_open(ledger: Ledger, game: UUID, seconds: float, held: threading.Event) -> None:
    """Game X's save, left open in its transaction for ``seconds`` (a writer stalled mid-save)."""
    recorder = ledger.recorder
    events = [StoredEvent(game, v, "PriorityPassed", b"\x80") for v in (1, 2, 3)]
    with recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]
        if isinstance(recorder, StreamsRecorder):
            recorder.insert_events_in_transaction(curs, events)
        else:  # the library's own path: LOCK TABLE, NOTIFY, INSERT
            recorder._insert_stored_events(curs, events)  # type: ignore[attr-defined]
        held.set()
        time.sleep(seconds)


def stalled_writer(env: dict[str, str], hold: float) -> dict[str, float | None]:
    """Saves on game Y while game X's writer holds its transaction open for ``hold`` seconds."""
    _quiet()
    ledger = Ledger(env=env)
    player = Player(ledger, 7)
    follower = Follower(ledger)
    listener = Listener(env, ledger.recorder.channel_name)  # type: ignore[attr-defined]
    follower.start()
    listener.start()
    saves: list[tuple[float, float, str, int]] = []  # began, ended, game, version

    def save() -> None:
        began = time.perf_counter()
        player.save_one()
        saves.append((began, time.perf_counter(), str(player.game), ledger.state_now(player.game).version))

    warm_until = time.perf_counter() + 0.5
    while time.perf_counter() < warm_until:
        save()
    before = statistics.median(e - b for b, e, _, _ in saves)
    held = threading.Event()
    holder = threading.Thread(target=_hold_open, args=(ledger, uuid4(), hold, held))
    holder.start()
    held.wait(10)
    stall_began = time.perf_counter()
    during: list[tuple[float, float, str, int]] = []
    while time.perf_counter() < stall_began + hold:
        save()
        during.append(saves[-1])
    holder.join()
    time.sleep(0.3)
    follower.stop.set()
    listener.stop.set()
    follower.join()
    listener.join()
    ledger.close()

    def delay(seen: dict[tuple[str, int], float]) -> float | None:
        # 0 when seen before the save's call returned (the follower may read between commit and return)
        waits = [max(0.0, seen[(g, v)] - ended) for _, ended, g, v in during if (g, v) in seen]
        return round(max(waits) * 1000, 1) if waits else None

    return {
        "median_save_ms": round(before * 1000, 2),
        "max_save_ms": round(max(e - b for b, e, _, _ in during) * 1000, 1),
        "saves_during_stall": float(len(during)),
        "feed_delay_ms": delay(follower.seen),
        "notify_delay_ms": delay(listener.heard),
    }


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def cost_per_save(env: dict[str, str], saves: int) -> dict[str, float]:
    """One writer, one connection: wall time, the server backend's CPU and this process's CPU per save
    (the store's share), and the events table's size per event (after VACUUM)."""
    ledger = Ledger(env={**env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"})
    replayer = Replayer(ledger, 3)
    with ledger.recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]
        backend = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"]
    server, client, began = _cpu_seconds(backend), time.process_time(), time.perf_counter()
    events = 0
    for _ in range(saves):
        events += replayer.save_one()
    wall, client, server = time.perf_counter() - began, time.process_time() - client, _cpu_seconds(backend) - server
    table = f"{env['POSTGRES_SCHEMA']}.{ledger.recorder.events_table_name}"  # type: ignore[attr-defined]
    ledger.close()
    with _connect(env) as conn:
        conn.execute(f"VACUUM {table}")
        total = conn.execute("SELECT pg_total_relation_size(%s)", (table,)).fetchone()[0]
    return {
        "wall_ms": wall / saves * 1000,
        "server_cpu_ms": server / saves * 1000,
        "client_cpu_ms": client / saves * 1000,
        "events_per_save": events / saves,
        "bytes_per_event": total / events,
    }


MODES = {
    "store": ("store", "the store's share: a played demo game's saves written again through the Ledger's recorder", 3),
    "ledger": ("ledger", "end to end: demo games played through the Ledger (rules engine included)", 1),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.5, help="how long each run of a writer count lasts")
    parser.add_argument("--hold", type=float, default=2.0, help="how long the stalled writer holds its transaction")
    args = parser.parse_args()
    _quiet()
    env = postgres_env()
    with _connect(env) as conn:
        row = conn.execute("SELECT current_setting('server_version'), current_setting('synchronous_commit')").fetchone()
    print(f"PostgreSQL {row[0]} on {env['POSTGRES_HOST']} (synchronous_commit={row[1]}), {os.cpu_count()} cores shared by writers and server")
    figures: dict[str, Any] = {}
    for seed in (1, 2, 3, 4):
        played_saves(seed)
    for mode, (prefix, title, rounds) in MODES.items():
        rates: dict[str, dict[int, float]] = {r: {1: 0.0, 2: 0.0, 4: 0.0} for r in RECORDERS}
        for _ in range(rounds):  # best of the rounds: other work on the machine only ever slows a run down
            for writers in (1, 2, 4):
                for recorder in RECORDERS:  # interleaved, so drift in the machine's load touches both alike
                    with schema(env, recorder) as scoped:
                        rate = saves_per_second(scoped, mode, writers, args.seconds)
                    rates[recorder][writers] = max(rates[recorder][writers], rate)
        print(f"\nsaves/s, {title} (one decision's events a save; best of {rounds} x {args.seconds:g} s)")
        print(f"{'writers':>8} {'library':>10} {'streams':>10} {'streams/library':>16}")
        for writers in (1, 2, 4):
            lib, ours = rates["library"][writers], rates["streams"][writers]
            print(f"{writers:>8} {lib:>10,.0f} {ours:>10,.0f} {ours / lib:>15.2f}x")
            figures[f"{prefix}_writers{writers}_streams_over_library"] = round(ours / lib, 2)
        for recorder, suffix in (("streams", ""), ("library", "_library")):
            r = rates[recorder]
            for writers in (1, 2, 4):
                figures[f"{prefix}_writers{writers}_saves_per_s{suffix}"] = round(r[writers], 1)
            figures[f"{prefix}_writers2_speedup{suffix}"] = round(r[2] / r[1], 2)
            figures[f"{prefix}_writers4_speedup{suffix}"] = round(r[4] / r[1], 2)
            print(f"speed-up over one writer, {recorder}: 2 writers {r[2] / r[1]:.2f}x, 4 writers {r[4] / r[1]:.2f}x")

    print("\none writer's save, the store's share (1,000 saves on one connection)")
    print(f"{'':>8} {'wall':>9} {'server CPU':>11} {'client CPU':>11} {'events':>7} {'on disk':>14}")
    for recorder, suffix in (("library", "_library"), ("streams", "")):
        with schema(env, recorder) as scoped:
            c = cost_per_save(scoped, 1000)
        print(
            f"{recorder:>8} {c['wall_ms']:>6.2f} ms {c['server_cpu_ms']:>8.3f} ms {c['client_cpu_ms']:>8.3f} ms"
            f" {c['events_per_save']:>7.1f} {c['bytes_per_event']:>8.0f} B/event"
        )
        figures[f"store_save_server_cpu_ms{suffix}"] = round(c["server_cpu_ms"], 3)
        figures[f"store_save_client_cpu_ms{suffix}"] = round(c["client_cpu_ms"], 3)
        figures[f"store_bytes_per_event{suffix}"] = round(c["bytes_per_event"])

    stalls: dict[str, dict[str, float | None]] = {}
    for recorder in RECORDERS:
        with schema(env, recorder) as scoped:
            stalls[recorder] = stalled_writer(scoped, args.hold)
    print(f"\nstalled writer: game X's transaction held open {args.hold:g} s while game Y saves decisions")
    print(f"{'':>8} {'Y median save':>14} {'Y max save':>11} {'Y saves':>8} {'feed delay':>11} {'NOTIFY delay':>13}")
    for recorder, suffix in (("library", "_library"), ("streams", "")):
        s = stalls[recorder]
        print(
            f"{recorder:>8} {s['median_save_ms']:>11.2f} ms {s['max_save_ms']:>8.1f} ms {s['saves_during_stall']:>8.0f}"
            f" {_ms(s['feed_delay_ms']):>11} {_ms(s['notify_delay_ms']) if recorder == 'streams' else '-':>13}"
        )
        figures[f"store_stalled_writer_delay_ms{suffix}"] = s["max_save_ms"]  # through the service: stalled_writer_delay_ms (scaleout.py)
        figures[f"stalled_writer_feed_delay_ms{suffix}"] = s["feed_delay_ms"]
    figures["stalled_writer_notify_delay_ms"] = stalls["streams"]["notify_delay_ms"]
    results.merge(figures)
    print(f"\nmerged into {results.RESULTS}")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


if __name__ == "__main__":
    main()
