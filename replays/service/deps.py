"""What the routes depend on, as FastAPI dependencies: the application service (``Games``), the
service's ``Settings`` and what its live streams need (``Live``). ``create_app`` makes them once and
keeps them on the app; routes and other dependencies ask for them by type (``Service``, ...).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from mtg_ledger.replays.service.games import Games
from mtg_ledger.replays.service.limits import MAX_LOG_BYTES, MAX_LOG_BYTES_ENV
from mtg_ledger.replays.service.notices import Listener, Wakeups

ADMIN_TOKEN_ENV = "MTG_LEDGER_ADMIN_TOKEN"
SIGNING_KEY_ENV = "MTG_LEDGER_SIGNING_KEY"  # as replays.receipts.signing reads it
STREAM_SECONDS_ENV = "MTG_LEDGER_STREAM_SECONDS"


@dataclass(frozen=True)
class Settings:
    admin_token: str | None  # only its holder may create games, when set
    stream_seconds: float  # how long a live stream lasts before the client resumes it
    max_log_bytes: int  # the largest log file POST /logs takes
    signing_key: str | None = None  # a PEM file holding the key receipts are signed with (default: the store's)

    @classmethod
    def of(cls, env: Mapping[str, str]) -> Settings:
        return cls(
            admin_token=env.get(ADMIN_TOKEN_ENV) or None,
            stream_seconds=float(env.get(STREAM_SECONDS_ENV) or 3600),
            max_log_bytes=int(env.get(MAX_LOG_BYTES_ENV) or MAX_LOG_BYTES),
            signing_key=env.get(SIGNING_KEY_ENV) or None,
        )


@dataclass
class Live:
    """What live streams need: the stop signal, their wake-ups and this process's LISTEN session (None: polling)."""

    stopping: threading.Event
    wakeups: Wakeups
    listener: Listener | None


async def games(request: Request) -> Games:
    found: Games = request.app.state.games
    return found


async def settings(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


async def live(request: Request) -> Live:
    state = request.app.state
    return Live(state.stopping, state.wakeups, state.listener)


Service = Annotated[Games, Depends(games)]
SettingsOf = Annotated[Settings, Depends(settings)]
LiveOf = Annotated[Live, Depends(live)]
