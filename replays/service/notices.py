"""What wakes a live stream (``sse.py``) when its game moves, whichever process stored the decision.

On PostgreSQL each worker process keeps one connection that LISTENs on the events table's channel:
the streams recorder NOTIFYs ``game:version,...`` right after each save commits (the library's
recorder notifies with no payload, which wakes every stream). Each stream waits on an event of its
own, registered under its game, and reads the store again when woken, or after ``FALLBACK`` seconds
whatever happens, in case a notification was missed (while the listener reconnects, or from a writer
that died between its commit and its NOTIFY). Every stream is woken when the listener (re)connects.

Elsewhere (SQLite has no notifications; an in-memory store is this process's own) streams read the
store every ``POLL`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.logs import get_logger

POLL = 0.05  # seconds between reads of a stream's game where the store cannot notify
FALLBACK = 1.0  # seconds a stream waits for a notification before it reads the store anyway
HEALTH_CHECK = 5.0  # seconds without a notification after which the listener checks its connection
RECONNECT = (0.05, 0.5)  # the listener's first and longest wait before connecting again (the routes answer 503 meanwhile)


class Wakeups:
    """The streams of this process waiting for news of their game. ``every``: the longest wait."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._waiting: dict[UUID, set[asyncio.Event]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    @contextlib.contextmanager
    def watching(self, game_id: UUID) -> Iterator[asyncio.Event]:
        """An event set whenever ``game_id`` may have moved, for as long as the stream lasts. Clear it
        before each read of the store: news arriving during the read then wakes the next wait."""
        self._loop = asyncio.get_running_loop()
        news = asyncio.Event()
        self._waiting.setdefault(game_id, set()).add(news)
        try:
            yield news
        finally:
            waiting = self._waiting.get(game_id)
            if waiting is not None:
                waiting.discard(news)
                if not waiting:
                    del self._waiting[game_id]

    async def wait(self, news: asyncio.Event) -> None:
        """Until there is news, or ``every`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(news.wait(), self.every)

    def watched(self) -> bool:
        """Whether any stream of this process waits for news."""
        return bool(self._waiting)

    def wake(self, game_ids: Iterable[UUID]) -> None:
        for game_id in game_ids:
            for news in self._waiting.get(game_id, ()):
                news.set()

    def wake_all(self) -> None:
        for waiting in self._waiting.values():
            for news in waiting:
                news.set()

    def wake_all_soon(self) -> None:
        """``wake_all`` from a signal handler or another thread."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.wake_all)


def games_in(payload: str) -> list[UUID] | None:
    """The games a notification names (``game:version,...``); None: it names none, so any may have moved."""
    found = []
    for item in payload.split(","):
        game, _, _ = item.partition(":")
        try:
            found.append(UUID(game))
        except ValueError:
            return None
    return found or None


class Listener:
    """The one LISTEN connection of this process: each notification wakes the streams of the games it
    names. Reconnects on its own (after a restart of the server, say), waking every stream as it does.
    While it is not connected the routes answer 503 at once (``routes.reachable``): PostgreSQL ends
    this session as soon as it shuts down, before the pool finds out."""

    def __init__(self, wakeups: Wakeups, connect: dict[str, Any], channel: str) -> None:
        self.wakeups = wakeups
        self.connect = connect
        self.channel = channel
        self.listening = asyncio.Event()  # set while connected (the tests wait for it)

    async def run(self) -> None:
        import psycopg
        from psycopg import sql

        delay = RECONNECT[0]
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**self.connect) as conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.listening.set()
                    delay = RECONNECT[0]
                    self.wakeups.wake_all()  # whatever was stored while nobody listened
                    while True:
                        async for notice in conn.notifies(timeout=HEALTH_CHECK):
                            if not self.wakeups.watched():  # no stream here to wake: nothing to read in it
                                continue
                            found = games_in(notice.payload)
                            self.wakeups.wake_all() if found is None else self.wakeups.wake(found)
                        await conn.execute("SELECT 1")  # a silent connection may be a dead one
            except psycopg.Error as e:
                if self.listening.is_set():
                    get_logger().warning("stream notifications lost; reconnecting", error=f"{type(e).__name__}: {e}")
            self.listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT[1])


def wakeups_for(ledger: Ledger) -> tuple[Wakeups, Listener | None]:
    """Notifications where the store sends them (PostgreSQL), polling elsewhere."""
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder

        from mtg_ledger.replays.stores.postgres import connection_kwargs
    except ImportError:  # without the postgres extra there is no PostgreSQL store to listen to
        return Wakeups(every=POLL), None
    recorder = ledger.recorder
    if not isinstance(recorder, PostgresApplicationRecorder):
        return Wakeups(every=POLL), None
    wakeups = Wakeups(every=FALLBACK)
    return wakeups, Listener(wakeups, connection_kwargs(recorder.datastore), recorder.channel_name)
