"""The ASGI application: ``create_app(env)`` over a ``Ledger`` on the store ``env`` names (the
``eventsourcing`` library's variables, as for the CLI)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

from eventsourcing.persistence import PersistenceError
from fastapi import FastAPI
from fastapi.routing import APIRoute

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.version import ENGINE_VERSION
from mtg_ledger.replays.service import errors
from mtg_ledger.replays.service.deciders import Deciders
from mtg_ledger.replays.service.deps import Settings
from mtg_ledger.replays.service.fast_actions import FastActions
from mtg_ledger.replays.service.games import Games
from mtg_ledger.replays.service.limits import BODY_LIMIT, ASGIApp, BodyLimit
from mtg_ledger.replays.service.card_routes import router as card_router
from mtg_ledger.replays.service.routes import router
from mtg_ledger.replays.service.viewer_routes import router as viewer_router
from mtg_ledger.replays.service.notices import POLL, Wakeups, wakeups_for

DECIDERS = 5  # threads for decisions (fast_actions.py) where the store's pool gives no number (``decider_count``)
FIRST_LISTEN_S = 2.0  # how long a starting process waits for its LISTEN session (the database may be down: it then starts anyway)

DESCRIPTION = """Record, play and follow Magic: The Gathering games over HTTP (docs/reference/http.md).

Create a game (`POST /games`): the answer holds one token per player and the judge's, shown once.
Send `Authorization: Bearer TOKEN` on every game route. A player's token acts as that player only and
sees only what that player may see (rules 400.2, 401.2, 402.3); the judge's sees everything and may not act.
"""


def decider_count(ledger: Ledger) -> int:
    """As many threads take decisions as the store's pool keeps connections (``POSTGRES_POOL_SIZE``, 5 by
    default; SQLite's pool, 5). A decision holds a connection from its read to its commit: a thread more
    would wait for a connection, or take one of the pool's overflow, and every thread more that is ready to
    run contends with the others for the interpreter's lock, in system calls. One worker on PostgreSQL
    under 16 clients: with 40 threads (anyio's pool) a decision took 1.40 to 1.76 ms of the worker's CPU,
    0.44 to 0.52 of it in the kernel; with 5, 0.99 to 1.21 (docs/explanation/performance.md)."""
    pool = getattr(getattr(ledger.recorder, "datastore", None), "pool", None)
    size = getattr(pool, "pool_size", getattr(pool, "min_size", None))
    return size if type(size) is int and size >= 1 else DECIDERS


def create_app(env: Mapping[str, str] | None = None, settings: Mapping[str, str] | None = None) -> FastAPI:
    """The service over the store ``env`` names; ``settings`` (default: the process environment) gives
    ``MTG_LEDGER_ADMIN_TOKEN``, ``MTG_LEDGER_MAX_LOG_BYTES`` and ``MTG_LEDGER_STREAM_SECONDS``."""
    config = Settings.of(os.environ if settings is None else settings)
    store_env = dict(env or {})

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ledger = Ledger(env=store_env)
        app.state.deciders = Deciders(decider_count(ledger))  # fast_actions.py's
        app.state.games = Games(ledger, {"MTG_LEDGER_SIGNING_KEY": config.signing_key} if config.signing_key else None)
        with contextlib.suppress(PersistenceError, OSError):  # the store down: made when first needed
            app.state.games.receipts.ready()  # the signing key, made now if the store has none: every receipt is signed with it
        app.state.wakeups, listener = wakeups_for(ledger)
        listening = asyncio.create_task(listener.run()) if listener is not None else None
        app.state.listener = listener
        if listener is not None:  # the routes answer 503 until it listens: give it a moment before serving
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listener.listening.wait(), FIRST_LISTEN_S)
        # What the process holds once started (about 100,000 objects: the libraries, the card pool, the app)
        # lives as long as it does: out of the collector's full passes, which took 80 ms each with them (a
        # pause every few seconds under load: the p99 of benchmarks/scaleout.py), about 20 ms without.
        gc.freeze()
        try:
            yield
        finally:
            stop()
            if listening is not None:
                listening.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listening
            app.state.deciders.shutdown()
            ledger.close()

    def stop() -> None:
        """Live streams end at once (safe from a signal handler)."""
        app.state.stopping.set()
        app.state.wakeups.wake_all_soon()

    app = Service(
        title="mtg-ledger",
        version=ENGINE_VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        separate_input_output_schemas=False,  # one schema per model (CastAction, not CastAction-Input and -Output)
    )
    app.state.settings = config
    app.state.stopping = threading.Event()
    app.state.stop = stop
    app.state.wakeups, app.state.listener = Wakeups(every=POLL), None  # until the store is open
    errors.install(app)
    app.include_router(router)
    app.include_router(card_router)
    app.include_router(viewer_router)
    app.add_middleware(BodyLimit, limit=BODY_LIMIT, per_path={"/logs": config.max_log_bytes})
    return app


class Service(FastAPI):
    """FastAPI, whose middleware stack (the handler of defects, the body's limit, the routes...) is entered
    through ``FastActions``: a plain decision is answered before any of it (fast_actions.py), with the same
    checks, limit and answers."""

    def build_middleware_stack(self) -> ASGIApp:
        return FastActions(super().build_middleware_stack())


def operation_id(route: APIRoute) -> str:
    """Each route's operation id is its function's name (``create_game``, ``act``, ``get_state``): what
    a generated client calls its methods."""
    return route.name
