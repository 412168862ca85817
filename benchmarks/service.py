"""`make bench`, the service: what HTTP adds to a decision. Measures, never asserts; loopback only.

The same decisions (two patient players of ``benchmarks.run``, each game played out by its policy
beforehand) are taken in process through ``Ledger.decide`` and through a ``mtg-ledger serve`` process
on 127.0.0.1, each on a fresh SQLite file, one transaction per decision:

1. one game at a time, one client, each decision taken in process then through HTTP (alternately, so
   both meet the same machine): each decision's latency (p50, p99) both ways; their difference at p50
   is the service's overhead (``http_overhead_p50_ms``). The client is a plain socket (``Client``); the
   same decisions through the standard library's ``http.client``, on games of their own, each right after
   a decision in process as well, give the overhead a client of that weight sees
   (``http_overhead_stdlib_client_p50_ms``). Both legs' decisions run on the same CPU: this process and
   every thread of the server on one CPU (``same_cpu``, the last this process may use, as the rebuild's
   pairs in ``benchmarks.run``), so that the two legs differ by HTTP alone. Left to the scheduler, the
   in-process leg and the server's decision threads land on different CPUs, and a decision's commit waits
   for the disk's interrupt on whichever CPU the system delivers it to: on this machine a decision took
   0.41 ms on the one and 0.52 on the other. The same comparison with nothing pinned is made after it, on
   games of its own, and reported (``http_overhead_unpinned_p50_ms``);
2. many games at once, one client each, nothing pinned: decisions/s through HTTP and the latencies under
   that load.

The figures are printed and merged into ``benchmarks/results.json`` (not committed).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks import results
from benchmarks.run import long_game_setup, patient_policy
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.scenario.actions import action_json
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.scenario import parse_action



def decisions_of(library: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A patient game's setup and its decisions as section-2 actions (with their player)."""
    setup = long_game_setup(library)
    table = LocalTable.start(setup)
    actions = []
    while (command := patient_policy(table.state)) is not None:
        actions.append(action_json(command))
        table.handle(command)
    return setup, actions


class Client:
    """One keep-alive HTTP/1.1 connection over a plain socket, as a load generator's (wrk's) is: the request
    written in one ``sendall``, the answer framed by its ``Content-Length`` (or chunked), nothing parsed but
    the status line and the framing headers. The standard library's ``http.client`` (``StdlibClient``)
    parses every answer's headers with the ``email`` package: 0.04 to 0.2 ms a request on this machine,
    which is the client's cost, not the service's; ``http_overhead_stdlib_client_p50_ms`` reports the
    figure with it."""

    def __init__(self, url: str, timeout: float | None = None) -> None:
        parts = urlsplit(url)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.host = parts.netloc.encode()
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self.buffer = b""

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.host, b"Content-Type: application/json", f"Content-Length: {len(data)}".encode()]
        if token:
            head.append(f"Authorization: Bearer {token}".encode())
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=self.timeout)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.buffer = b""
        self.sock.sendall(b"\r\n".join(head) + b"\r\n\r\n" + data)
        status, headers = self._head()
        if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            payload = self._chunked()
        else:
            payload = self._exactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, json.loads(payload or b"null")

    def _more(self) -> None:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            self.close()
            raise ConnectionError("the server closed the connection mid-answer")
        self.buffer += chunk

    def _head(self) -> tuple[int, dict[bytes, bytes]]:
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            self._more()
        lines = self.buffer[:end].split(b"\r\n")
        self.buffer = self.buffer[end + 4 :]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        return int(lines[0].split()[1]), headers

    def _exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._more()
        payload, self.buffer = self.buffer[:size], self.buffer[size:]
        return payload

    def _chunked(self) -> bytes:
        parts = []
        while True:
            while (end := self.buffer.find(b"\r\n")) < 0:
                self._more()
            size = int(self.buffer[:end].split(b";")[0], 16)
            self.buffer = self.buffer[end + 2 :]
            parts.append(self._exactly(size))
            self._exactly(2)  # the chunk's CRLF (after the last, empty chunk: the end, with no trailers)
            if size == 0:
                return b"".join(parts)

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class StdlibClient:
    """One keep-alive HTTP/1.1 connection through the standard library's ``http.client``."""

    def __init__(self, url: str, timeout: float | None = None) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"null")

    def close(self) -> None:
        self.connection.close()


def side_by_side(db: Path, url: str, setup: dict[str, Any], actions: list[dict[str, Any]], games: int) -> tuple[list[float], list[float], list[float]]:
    """The same decisions in process and through HTTP, alternately, so that both meet the same machine: each
    decision through ``Client`` and through ``StdlibClient`` (each on a game of its own), each right after
    the same decision in process (on a game of its own too), the two clients taking turns going first."""
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    names = [p["name"] for p in setup["players"]]
    local: list[float] = []
    served: list[float] = []
    stdlib: list[float] = []
    clients = ((Client(url), served), (StdlibClient(url), stdlib))
    for _ in range(games):
        legs = []
        for client, times in clients:
            status, answer = client.call("POST", "/games", setup)
            assert status == 201, answer
            legs.append((ledger.start(setup), client, times, answer))
        for i, action in enumerate(actions):
            command = parse_action(action, names)
            body = {k: v for k, v in action.items() if k != "player"}
            for game_id, client, times, game in legs if i % 2 else reversed(legs):
                began = time.perf_counter()
                ledger.decide(game_id, command)  # type: ignore[arg-type]
                local.append(time.perf_counter() - began)
                began = time.perf_counter()
                status, answer = client.call("POST", f"/games/{game['game']}/actions", body, game["tokens"][action["player"]])
                times.append(time.perf_counter() - began)
                assert status == 200, answer
    for client, _times in clients:
        client.close()
    ledger.close()
    return local, served, stdlib


@contextmanager
def same_cpu(pid: int) -> Iterator[bool]:
    """This thread and every thread of process ``pid`` on one CPU (the last this process may use) for the
    block, then back on every CPU this process may use; threads the server starts meanwhile inherit the CPU of
    the thread that starts them. Yields whether it could (not where the system has no affinity calls)."""
    if not hasattr(os, "sched_setaffinity") or not Path(f"/proc/{pid}/task").is_dir():
        yield False
        return
    allowed = os.sched_getaffinity(0)
    one = {max(allowed)}

    def pin(cpus: set[int]) -> None:
        os.sched_setaffinity(0, cpus)
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                os.sched_setaffinity(int(task.name), cpus)
            except ProcessLookupError:  # a thread that has ended since it was listed
                pass

    pin(one)
    try:
        yield True
    finally:
        pin(allowed)


def play_over_http(url: str, setup: dict[str, Any], actions: list[dict[str, Any]], latencies: list[float]) -> None:
    client = Client(url)
    status, created = client.call("POST", "/games", setup)
    assert status == 201, created
    game, tokens = created["game"], created["tokens"]
    for action in actions:
        body = {k: v for k, v in action.items() if k != "player"}
        began = time.perf_counter()
        status, answer = client.call("POST", f"/games/{game}/actions", body, tokens[action["player"]])
        latencies.append(time.perf_counter() - began)
        assert status == 200, answer
    client.close()


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "MTG_LEDGER_LOG_LEVEL": "warning", "PERSISTENCE_MODULE": "eventsourcing.sqlite"}
    command = [sys.executable, "-m", "mtg_ledger.replays.cli", "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("mtg-ledger serving on "):
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    url = line.split()[-1]
    client = Client(url)
    while client.call("GET", "/healthz")[0] != 200:
        time.sleep(0.05)
    client.close()
    return process, url


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", type=int, default=8, help="cards in each library of each game")
    parser.add_argument("--games", type=int, default=16, help="games played at once, one client each")
    parser.add_argument("--sequential", type=int, default=8, help="games played one after another for the latency comparison")
    args = parser.parse_args()
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    from mtg_ledger.replays.ledger.logs import configure_logging

    configure_logging()
    setup, actions = decisions_of(args.library)
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp) / "served.sqlite")
        try:
            with same_cpu(process.pid) as pinned:
                local, sequential, stdlib = side_by_side(Path(tmp) / "local.sqlite", url, setup, actions, args.sequential)
            local_free, sequential_free, _ = side_by_side(Path(tmp) / "local-unpinned.sqlite", url, setup, actions, args.sequential)
            loaded: list[float] = []
            clients = [threading.Thread(target=play_over_http, args=(url, setup, actions, loaded)) for _ in range(args.games)]
            began = time.perf_counter()
            for c in clients:
                c.start()
            for c in clients:
                c.join()
            elapsed = time.perf_counter() - began
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    figures = {
        "service_decisions_per_game": len(actions),
        "inprocess_p50_ms": ms(statistics.median(local)),
        "inprocess_p99_ms": ms(pct(local, 0.99)),
        "inprocess_decisions_per_s": round(len(local) / sum(local), 1),
        "http_p50_ms": ms(statistics.median(sequential)),
        "http_p99_ms": ms(pct(sequential, 0.99)),
        "http_overhead_p50_ms": ms(statistics.median(sequential) - statistics.median(local)),
        "http_stdlib_client_p50_ms": ms(statistics.median(stdlib)),
        "http_overhead_stdlib_client_p50_ms": ms(statistics.median(stdlib) - statistics.median(local)),
        "service_legs_on_one_cpu": pinned,
        "inprocess_unpinned_p50_ms": ms(statistics.median(local_free)),
        "http_unpinned_p50_ms": ms(statistics.median(sequential_free)),
        "http_overhead_unpinned_p50_ms": ms(statistics.median(sequential_free) - statistics.median(local_free)),
        "http_concurrent_games": args.games,
        "http_concurrent_decisions_per_s": round(len(loaded) / elapsed, 1),
        "http_concurrent_p50_ms": ms(statistics.median(loaded)),
        "http_concurrent_p99_ms": ms(pct(loaded, 0.99)),
    }
    print(f"service: {len(actions)} decisions a game, SQLite, loopback, one transaction per decision")
    print(f"in process (Ledger.decide):  p50 {figures['inprocess_p50_ms']:7.3f} ms   p99 {figures['inprocess_p99_ms']:7.3f} ms   {figures['inprocess_decisions_per_s']:8,.0f} decisions/s")
    print(f"HTTP, one client at a time:  p50 {figures['http_p50_ms']:7.3f} ms   p99 {figures['http_p99_ms']:7.3f} ms")
    print(f"HTTP overhead at p50:        {figures['http_overhead_p50_ms']:.3f} ms" + ("   (both legs on one CPU)" if pinned else "   (not pinned: no affinity calls here)"))
    print(f"the same through http.client: p50 {figures['http_stdlib_client_p50_ms']:7.3f} ms, overhead {figures['http_overhead_stdlib_client_p50_ms']:.3f} ms")
    print(
        f"nothing pinned:              in process p50 {figures['inprocess_unpinned_p50_ms']:.3f} ms, HTTP p50 {figures['http_unpinned_p50_ms']:.3f} ms,"
        f" overhead {figures['http_overhead_unpinned_p50_ms']:.3f} ms"
    )
    print(
        f"HTTP, {args.games} games at once:     p50 {figures['http_concurrent_p50_ms']:7.3f} ms   p99 {figures['http_concurrent_p99_ms']:7.3f} ms"
        f"   {figures['http_concurrent_decisions_per_s']:8,.0f} decisions/s"
    )
    results.merge(figures)
    print(f"written to {results.RESULTS}")


if __name__ == "__main__":
    main()
