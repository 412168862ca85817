"""``serve --workers N``: N worker processes on one port, each replaced when it dies.

Each worker has a listening socket of its own, bound to the same port with ``SO_REUSEPORT``, so the
kernel spreads new connections over the workers. (With one socket shared by every worker, as uvicorn's
``workers=N`` does, whichever worker woke first accepted nearly every keep-alive connection: 95% of
the work on one of two workers, measured by ``benchmarks/scaleout.py``.) The sockets stay open here:
connections that arrive for a worker that died wait in its socket's queue until its replacement takes
them. Workers are new interpreters (spawned), each serving the store the environment names.

SIGTERM or Ctrl-C stops every worker as ``serve`` stops one process: the requests in flight finish,
live streams end at once, and the exit status is 0.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import threading
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

import uvicorn

from mtg_ledger.replays.ledger.logs import configure_logging, get_logger
from mtg_ledger.replays.service.app import create_app
from mtg_ledger.replays.service.uvicorn_server import Server

CHECK_S = 0.2  # how often the parent looks for a dead worker
STARTUP_FAILURE = 3  # a worker's exit status when its server never started: restarting it would fail again


def listening_sockets(host: str, port: int, count: int, backlog: int = 2048) -> list[socket.socket]:
    """``count`` sockets listening on one port (``port`` 0: a free one, the same for all)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(family, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            port = sock.getsockname()[1]
            sock.listen(backlog)
            sock.set_inheritable(True)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def worker(sock: socket.socket, config: dict[str, Any]) -> None:  # pragma: no cover - runs in a spawned process
    """One worker: the app over the store the environment names, on its own socket."""
    configure_logging(default="warning")  # a new interpreter: the threshold again, from MTG_LEDGER_LOG_LEVEL
    app = create_app({})
    server = Server(uvicorn.Config(app, **config), on_exit=app.state.stop, announce=False)
    server.run(sockets=[sock])
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


class Workers:
    """The parent: starts one worker per socket, replaces the dead, stops them all when asked."""

    def __init__(self, sockets: list[socket.socket], config: dict[str, Any], grace: float) -> None:
        self.sockets, self.config, self.grace = sockets, config, grace
        self.context = multiprocessing.get_context("spawn")
        self.processes: list[BaseProcess] = []
        self.stopping = threading.Event()

    def _start(self, sock: socket.socket) -> BaseProcess:
        process = self.context.Process(target=worker, args=(sock, self.config), daemon=False)
        process.start()
        return process

    def _stop(self, sig: int, frame: FrameType | None) -> None:
        self.stopping.set()

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self._stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            self.processes = [self._start(sock) for sock in self.sockets]
            while not self.stopping.wait(CHECK_S):
                for i, process in enumerate(self.processes):
                    if process.is_alive():
                        continue
                    if process.exitcode == STARTUP_FAILURE:
                        get_logger().error("a worker could not start; stopping", pid=process.pid)
                        self.stopping.set()
                        break
                    get_logger().warning("a worker died; starting another", pid=process.pid, exitcode=process.exitcode)
                    self.processes[i] = self._start(self.sockets[i])
            return self._stop_all()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for sock in self.sockets:
                sock.close()

    def _stop_all(self) -> int:
        for process in self.processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: the worker's server finishes the requests in flight
        failed = False
        for process in self.processes:
            process.join(self.grace + 5)
            if process.is_alive():
                process.kill()
                process.join()
                failed = True
            failed = failed or process.exitcode == STARTUP_FAILURE
        return STARTUP_FAILURE if failed else 0
