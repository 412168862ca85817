"""uvicorn's server as ``serve`` and each worker of ``serve --workers N`` run it: it ends live streams as
soon as it is asked to stop, exits 0 after a stop it was asked for, and prints its URL once it listens.
"""

from __future__ import annotations

import socket
from types import FrameType
from typing import Any

import uvicorn


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class Server(uvicorn.Server):
    """uvicorn's server, which also ends live streams as soon as it is asked to stop."""

    def __init__(self, config: uvicorn.Config, on_exit: Any, announce: bool = True) -> None:
        super().__init__(config)
        self.on_exit = on_exit
        self.announce = announce  # a worker of several says nothing: the parent prints the address

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.on_exit()
        super().handle_exit(sig, frame)
        # uvicorn raises the signal again once it has stopped, so the process would end "killed by
        # SIGTERM"; a stop it was asked for and carried out is a success (exit status 0).
        getattr(self, "_captured_signals", []).clear()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.announce:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            print(f"mtg-ledger serving on {url(host, port)}", flush=True)
