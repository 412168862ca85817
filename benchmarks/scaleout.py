"""`make bench`: the service with several workers on PostgreSQL. Measures and prints; never asserts.

``mtg-ledger serve --workers N`` on the loopback PostgreSQL, once with each recorder (ours, ``streams``,
and the library's default, ``MTG_LEDGER_PG_RECORDER=library``), each in a fresh schema. Clients are
threads of this process on keep-alive HTTP/1.1 connections, one game each, posting the decisions of a
patient game computed beforehand (one POST a decision; a new game when one is played out):

1. saturation: ``--clients`` games at once, as fast as the answers come, with 1, 2 and 4 workers:
   decisions/s, p50/p99 latency, and where the CPU went per decision (the workers, our PostgreSQL
   backends, the clients, and everything else on the machine), measured from /proc;
2. half of one worker's saturation: the same clients paced to half the decisions/s one worker reached,
   with 1 and 2 workers: p50/p99 latency;
3. a stalled writer: a transaction of this process inserts events for a game of its own and stays open
   2 s while paced clients keep playing their games through 2 workers: the longest decision during the
   stall, beside the longest in as long a window before it;
4. a stream on one process, decisions through another: two ``serve`` processes on one schema (as two
   hosts); the delay from a decision's answer by B to its frame on A's stream.

Figures are merged into benchmarks/results.json: ``workers2_speedup``, ``workers4_speedup``,
``service_p99_ms``, ``stalled_writer_delay_ms`` and the rest (the library's with ``_library``). Bounded:
about a minute and a half, loopback only.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from uuid import uuid4

from eventsourcing.persistence import StoredEvent
from psycopg import sql

from benchmarks import results
from benchmarks.scaleout_store import _connect, postgres_env
from benchmarks.served import CpuMeter, Served, serving
from benchmarks.service import Client, decisions_of
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.stores import RECORDER_ENV
from mtg_ledger.replays.stores.postgres import StreamsRecorder

RECORDERS = ("streams", "library")


# --- clients ----------------------------------------------------------------------------------


@dataclass
class Load:
    """Clients playing their games until ``stop``; each decision's end time and latency."""

    url: str
    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    interval: float = 0.0  # seconds between one client's decisions (0: as fast as answered)
    done: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def client(self, offset: float) -> None:
        conn = Client(self.url, timeout=60)
        try:
            next_at = time.perf_counter() + offset
            while not self.stop.is_set():
                status, created = conn.call("POST", "/games", self.setup)
                if status != 201:
                    self.errors.append(f"POST /games: {status} {created}")
                    return
                for action in self.actions:
                    if self.interval:
                        pause = next_at - time.perf_counter()
                        if pause > 0:
                            time.sleep(pause)
                        next_at += self.interval
                    if self.stop.is_set():
                        return
                    body = {k: v for k, v in action.items() if k != "player"}
                    began = time.perf_counter()
                    status, answer = conn.call("POST", f"/games/{created['game']}/actions", body, created["tokens"][action["player"]])
                    ended = time.perf_counter()
                    if status != 200:
                        self.errors.append(f"POST actions: {status} {answer}")
                        return
                    self.done.append((ended, ended - began))
        finally:
            conn.close()

    def run(self, clients: int) -> list[threading.Thread]:
        spread = self.interval / clients if self.interval else 0.0
        threads = [threading.Thread(target=self.client, args=(i * spread,), daemon=True) for i in range(clients)]
        for t in threads:
            t.start()
        return threads

    def between(self, start: float, end: float) -> list[float]:
        return [latency for ended, latency in self.done if start <= ended < end]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def measured(load: Load, clients: int, warm: float, seconds: float, meter: CpuMeter | None = None) -> tuple[list[float], dict[str, float]]:
    threads = load.run(clients)
    time.sleep(warm)
    start = time.perf_counter()
    if meter is not None:
        meter.start()
    time.sleep(seconds)
    cpu = meter.stop() if meter is not None else {}
    end = time.perf_counter()
    load.stop.set()
    for t in threads:
        t.join(timeout=30)
    if load.errors:
        raise RuntimeError(f"a client failed: {load.errors[0]}")
    return load.between(start, end), cpu


# --- the measurements -------------------------------------------------------------------------


@contextmanager
def schema(env: dict[str, str], recorder: str) -> Iterator[dict[str, str]]:
    name = f"mtgl_bench_service_{recorder}_{uuid4().hex[:8]}"
    with _connect(env) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        yield {**env, "POSTGRES_SCHEMA": name, RECORDER_ENV: recorder}
    finally:
        with _connect(env) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def saturation(served: Served, env: dict[str, str], game: tuple[dict[str, Any], list[dict[str, Any]]], args: argparse.Namespace) -> dict[str, Any]:
    load = Load(served.url, *game)
    latencies, cpu = measured(load, args.clients, args.warm, args.seconds, CpuMeter(served, env))
    decisions = len(latencies)
    per = {part: seconds / decisions * 1000 for part, seconds in cpu.items() if part != "busiest_worker"}  # ms of CPU a decision
    return {"rate": decisions / args.seconds, "p50": pct(latencies, 0.5), "p99": pct(latencies, 0.99), "cpu_ms": per, "busiest_worker": cpu["busiest_worker"]}


def paced(served: Served, game: tuple[dict[str, Any], list[dict[str, Any]]], rate: float, args: argparse.Namespace) -> dict[str, float]:
    load = Load(served.url, *game, interval=args.clients / rate)
    latencies, _ = measured(load, args.clients, args.warm, args.seconds)
    return {"rate": len(latencies) / args.seconds, "p50": pct(latencies, 0.5), "p99": pct(latencies, 0.99)}


def _hold_open(env: dict[str, str], seconds: float, held: threading.Event) -> None:
    """A game's save whose transaction stays open ``seconds`` (a writer stalled mid-save, as in
    benchmarks/scaleout_store.py): the library's recorder locks the table; ours only the game's rows."""
    ledger = Ledger(env={**env, "CREATE_TABLE": "false"})
    recorder: Any = ledger.recorder
    game = uuid4()  # one game's three events (a uuid each made three games that began at versions 1, 2 and 3)
    events = [StoredEvent(game, v, "PriorityPassed", b"\x80") for v in (1, 2, 3)]
    try:
        with recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            if isinstance(recorder, StreamsRecorder):
                recorder.insert_events_in_transaction(curs, events)
            else:
                recorder._insert_stored_events(curs, events)
            held.set()
            time.sleep(seconds)
            raise _RollBack
    except _RollBack:
        pass
    finally:
        ledger.close()


class _RollBack(Exception):
    """Ends the held transaction without keeping its rows."""


def stalled(served: Served, env: dict[str, str], game: tuple[dict[str, Any], list[dict[str, Any]]], rate: float, args: argparse.Namespace) -> dict[str, float]:
    load = Load(served.url, *game, interval=args.clients / rate)
    threads = load.run(args.clients)
    time.sleep(args.warm + args.hold)
    before = time.perf_counter()
    held = threading.Event()
    holder = threading.Thread(target=_hold_open, args=(env, args.hold, held))
    holder.start()
    held.wait(10)
    stall = time.perf_counter()
    holder.join()
    end = time.perf_counter()
    time.sleep(0.3)
    load.stop.set()
    for t in threads:
        t.join(timeout=30)
    if load.errors:
        raise RuntimeError(f"a client failed: {load.errors[0]}")
    quiet = load.between(before - (end - stall), before)  # as long a window, just before
    during = [latency for ended, latency in load.done if ended - latency < end and ended >= stall]  # in flight at any time of the stall
    return {"max_during": max(during), "p99_during": pct(during, 0.99), "max_before": max(quiet), "p50_before": pct(quiet, 0.5), "decisions_during": len(during)}


def stream_delay(env: dict[str, str], game: tuple[dict[str, Any], list[dict[str, Any]]], decisions: int) -> dict[str, float]:
    """A judge follows a game on server A while its decisions are posted to server B, 50 ms apart."""
    setup, actions = game
    with serving(env, 1) as a, serving(env, 1) as b:
        poster = Client(b.url, timeout=60)
        status, created = poster.call("POST", "/games", setup)
        assert status == 201, created
        arrivals: dict[int, float] = {}
        attached = threading.Event()
        stop = threading.Event()

        def follow() -> None:
            parts = urlsplit(a.url)
            conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
            conn.request("GET", f"/games/{created['game']}/stream", headers={"Authorization": f"Bearer {created['tokens']['judge']}"})
            response = conn.getresponse()
            attached.set()
            while not stop.is_set():
                line = response.fp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    arrivals.setdefault(int(line[4:]), time.perf_counter())
            conn.close()

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        attached.wait(10)
        time.sleep(0.3)
        sent: list[tuple[int, float, float]] = []
        for action in actions[:decisions]:
            body = {k: v for k, v in action.items() if k != "player"}
            began = time.perf_counter()
            status, answer = poster.call("POST", f"/games/{created['game']}/actions", body, created["tokens"][action["player"]])
            assert status == 200, answer
            sent.append((answer["events"][0]["v"], began, time.perf_counter()))
            time.sleep(0.05)
        time.sleep(0.5)
        stop.set()
        poster.close()
    after = [max(0.0, arrivals[v] - answered) for v, _, answered in sent if v in arrivals]
    from_request = [arrivals[v] - began for v, began, _ in sent if v in arrivals]
    return {
        "seen": len(after) / len(sent),
        "after_answer_p50": statistics.median(after),
        "after_answer_max": max(after),
        "from_request_p50": statistics.median(from_request),
        "from_request_max": max(from_request),
    }


# --- the report -------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=16, help="games played at once, one client each")
    parser.add_argument("--seconds", type=float, default=3.0, help="how long each load is measured")
    parser.add_argument("--warm", type=float, default=2.0, help="load before measuring (the workers' start and first requests left out)")
    parser.add_argument("--hold", type=float, default=2.0, help="how long the stalled writer holds its transaction")
    parser.add_argument("--library", type=int, default=8, help="cards in each library of each game")
    args = parser.parse_args()
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    from mtg_ledger.replays.ledger.logs import configure_logging

    configure_logging()
    env = postgres_env()
    game = decisions_of(args.library)
    with _connect(env) as conn:
        row = conn.execute("SELECT current_setting('server_version'), current_setting('synchronous_commit')").fetchone()
    load_average = os.getloadavg()
    print(
        f"the service on PostgreSQL {row[0]} (synchronous_commit={row[1]}), loopback; {os.cpu_count()} cores shared by the"
        f" clients, the workers and the server; load average before: {load_average[0]:.2f}; {args.clients} games at once,"
        f" one client each, {len(game[1])} decisions a game"
    )
    figures: dict[str, Any] = {"scaleout_clients": args.clients, "scaleout_cores": os.cpu_count(), "scaleout_load_average": round(load_average[0], 2)}
    sat: dict[str, dict[int, dict[str, Any]]] = {r: {} for r in RECORDERS}
    half: dict[str, dict[int, dict[str, float]]] = {r: {} for r in RECORDERS}
    stalls: dict[str, dict[str, float]] = {}
    streams: dict[str, dict[str, float]] = {}
    for recorder in RECORDERS:
        with schema(env, recorder) as scoped:
            for workers in (1, 2, 4):
                with serving(scoped, workers) as served:
                    sat[recorder][workers] = saturation(served, scoped, game, args)
                    rate = sat[recorder][1]["rate"] / 2
                    if workers <= 2:
                        half[recorder][workers] = paced(served, game, rate, args)
                    if workers == 2:
                        stalls[recorder] = stalled(served, scoped, game, rate, args)
            streams[recorder] = stream_delay(scoped, game, 20)

    print("\nsaturation: decisions/s (p50 / p99 ms), and CPU ms a decision: workers + PostgreSQL backends + clients (+ the rest of the machine)")
    for recorder, suffix in (("streams", ""), ("library", "_library")):
        s = sat[recorder]
        for workers in (1, 2, 4):
            r = s[workers]
            c = r["cpu_ms"]
            print(
                f"{recorder:>8} {workers} worker{'s' if workers > 1 else ' '} {r['rate']:7.0f}/s ({ms(r['p50']):5.1f} / {ms(r['p99']):6.1f} ms)"
                f"   CPU {c['workers']:.2f} + {c['postgres']:.2f} + {c['clients']:.2f} (+ {c['others']:.2f}), idle {c['idle']:.2f}"
                + (f"; the busiest worker took {r['busiest_worker']:.0%} of the workers' CPU" if workers > 1 else "")
            )
            figures[f"workers{workers}_decisions_per_s{suffix}"] = round(r["rate"], 1)
            figures[f"workers{workers}_p50_ms{suffix}"] = ms(r["p50"])
            figures[f"workers{workers}_p99_ms{suffix}"] = ms(r["p99"])
            figures[f"workers{workers}_cpu_ms_per_decision{suffix}"] = {k: round(v, 3) for k, v in c.items()}
        figures[f"workers2_speedup{suffix}"] = round(s[2]["rate"] / s[1]["rate"], 2)
        figures[f"workers4_speedup{suffix}"] = round(s[4]["rate"] / s[1]["rate"], 2)
        print(f"{recorder:>8} speed-up over one worker: 2 workers {s[2]['rate'] / s[1]['rate']:.2f}x, 4 workers {s[4]['rate'] / s[1]['rate']:.2f}x")

    print("\nhalf of one worker's saturation: decisions/s, p50 / p99 ms")
    for recorder, suffix in (("streams", ""), ("library", "_library")):
        for workers in (1, 2):
            h = half[recorder][workers]
            print(f"{recorder:>8} {workers} worker{'s' if workers > 1 else ' '} {h['rate']:7.0f}/s  {ms(h['p50']):5.1f} / {ms(h['p99']):6.1f} ms")
        figures[f"service_p99_ms{suffix}"] = ms(half[recorder][1]["p99"])
        figures[f"service_p50_ms{suffix}"] = ms(half[recorder][1]["p50"])
        figures[f"service_p99_ms_workers2{suffix}"] = ms(half[recorder][2]["p99"])
        figures[f"service_half_load_decisions_per_s{suffix}"] = round(half[recorder][1]["rate"], 1)

    print(f"\nstalled writer: a transaction holds a game's new events open {args.hold:g} s; the other games' decisions through 2 workers, at half load")
    for recorder, suffix in (("streams", ""), ("library", "_library")):
        s = stalls[recorder]
        print(
            f"{recorder:>8} longest decision during the stall {ms(s['max_during']):7.1f} ms (p99 {ms(s['p99_during']):.1f}, {s['decisions_during']:.0f} decisions);"
            f" before it: longest {ms(s['max_before']):.1f} ms, p50 {ms(s['p50_before']):.1f} ms"
        )
        figures[f"stalled_writer_delay_ms{suffix}"] = ms(s["max_during"])
        figures[f"stalled_writer_quiet_max_ms{suffix}"] = ms(s["max_before"])

    print("\na stream on server A, decisions posted to server B (50 ms apart): the frame's delay after B's answer, and from the request")
    for recorder, suffix in (("streams", ""), ("library", "_library")):
        s = streams[recorder]
        print(
            f"{recorder:>8} after the answer p50 {ms(s['after_answer_p50']):.1f} ms, max {ms(s['after_answer_max']):.1f} ms;"
            f" from the request p50 {ms(s['from_request_p50']):.1f} ms, max {ms(s['from_request_max']):.1f} ms ({s['seen']:.0%} seen)"
        )
        figures[f"sse_other_worker_p50_ms{suffix}"] = ms(s["after_answer_p50"])
        figures[f"sse_other_worker_max_ms{suffix}"] = ms(s["after_answer_max"])
        figures[f"sse_other_worker_from_request_max_ms{suffix}"] = ms(s["from_request_max"])
    results.merge(figures)
    print(f"\nmerged into {Path(__file__).with_name('results.json')}")


if __name__ == "__main__":
    main()
