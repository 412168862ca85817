"""``mtg-ledger serve``: uvicorn over ``create_app``. Prints its URL once it listens, nothing else
unless asked (``-v``, ``MTG_LEDGER_LOG_LEVEL``). SIGTERM or Ctrl-C stops it after the requests in
flight; live streams are told to end at once, and anything still open after ``GRACE`` seconds is cut.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

import uvicorn
from eventsourcing.persistence import InfrastructureFactoryError, PersistenceError

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.receipts.signing import signing_key
from mtg_ledger.replays.service.app import create_app
from mtg_ledger.replays.stores.errors import StoreFailure
from mtg_ledger.replays.service.uvicorn_server import Server, url
from mtg_ledger.replays.service.workers import Workers, listening_sockets

GRACE = 5  # seconds the requests in flight get to finish once asked to stop


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def serve(store_env: dict[str, str], host: str, port: int, workers: int, log_level: str) -> int:
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "access_log": log_level in ("debug", "info"),
        "timeout_graceful_shutdown": GRACE,
        "server_header": False,
    }
    if workers > 1:
        os.environ.update(store_env)  # each worker builds its app from the environment
        create_tables()
        sockets = listening_sockets(host, port, workers)
        port = sockets[0].getsockname()[1]
        print(f"mtg-ledger serving on {url(host, port)} ({workers} workers)", flush=True)
        return Workers(sockets, common, GRACE).run()
    app = create_app(store_env)
    server = Server(uvicorn.Config(app, **common), on_exit=app.state.stop)
    server.run()
    return 0 if server.started else 3


def create_tables() -> None:
    """``serve --workers N``: the store's tables, created here once before the workers start (under the
    schema's advisory lock, so several hosts starting together never race either). The workers then
    open the store without DDL: one restarted while the database is down still starts, answering 503
    until the database is back, where creating tables would fail its start and stop every worker."""
    try:
        ledger = Ledger(env={})
        signing_key(ledger, os.environ)  # made once here, so that every worker signs with the same key
        ledger.close()
    except (PersistenceError, InfrastructureFactoryError, OSError) as e:
        raise StoreFailure(f"cannot open the store: {e}") from e
    os.environ["CREATE_TABLE"] = os.environ[f"{Ledger.name.upper()}_CREATE_TABLE"] = "false"


def view(store_env: dict[str, str], game: str, token: str, host: str, port: int, open_browser: bool) -> int:
    """``mtg-ledger view``: the service on a local port, and the URL of one game's viewer (the judge's
    token in its fragment, which never reaches the server)."""
    app = create_app(store_env)
    port = port or free_port(host)
    address = f"{url(host, port)}/games/{game}/viewer#token={token}"
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=GRACE,
                            server_header=False)
    server = ViewerServer(config, on_exit=app.state.stop, address=address, open_browser=open_browser)
    server.run()
    return 0 if server.started else 3


class ViewerServer(Server):
    """Prints (and opens) the viewer's address once the server listens."""

    def __init__(self, config: uvicorn.Config, on_exit: Any, address: str, open_browser: bool) -> None:
        super().__init__(config, on_exit)
        self.address = address
        self.open_browser = open_browser

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await uvicorn.Server.startup(self, sockets)
        if self.started:
            print(self.address, flush=True)
            if self.open_browser:
                import webbrowser

                webbrowser.open(self.address)


def log_level() -> str:
    level = os.environ.get("MTG_LEDGER_LOG_LEVEL", "").strip().lower()
    return level if level in ("debug", "info", "warning", "error", "critical") else "warning"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(serve({}, "127.0.0.1", 8000, 1, log_level()))
