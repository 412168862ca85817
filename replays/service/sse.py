"""Live following (docs/reference/http.md): a game's events as server-sent events, fed by the store.

Each event goes out as ``id: <version>``, ``event: <type>`` and its map (as the viewer may see it) in
``data:``. A stream reads its game from the store whenever ``notices.Wakeups`` says it may have moved
(on PostgreSQL, a NOTIFY from whichever process stored the decision; elsewhere, every ``notices.POLL``
seconds), so decisions stored by any process reach every follower; a comment keeps idle connections open. The stream ends when the
game has ended, after ``MTG_LEDGER_STREAM_SECONDS`` (the client resumes with ``Last-Event-ID``),
or when the server is stopping.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

from anyio import to_thread

from mtg_ledger.core import events as ev
from mtg_ledger.core.redact import Viewer
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.receipts.book import ReceiptBook
from mtg_ledger.replays.service.notices import Wakeups

KEEP_ALIVE = 15.0
BATCH = 500


def frame(event: dict[str, Any]) -> str:
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event['v']}\nevent: {event['type']}\ndata: {data}\n\n"


def receipt_frame(receipt: dict[str, Any]) -> str:
    """The receipt of the last event sent (no ``id:``: the stream resumes after the event, as before)."""
    return f"event: receipt\ndata: {json.dumps(receipt, separators=(',', ':'))}\n\n"


def _after(ledger: Ledger, game_id: UUID, last: int, book: ReceiptBook, viewer: Viewer) -> list[dict[str, Any]]:
    """The events after version ``last``, as ``viewer`` is shown them (one trip to a thread for both)."""
    out = []
    for e in ledger.events.get(game_id, gt=last, limit=BATCH):
        assert isinstance(e, ev.GameEvent)
        out.append(e.to_map())
    return book.views(game_id, out, viewer)


def _ended_before(ledger: Ledger, game_id: UUID, first: int) -> bool:
    """The game ended before version ``first``: nothing more will ever come."""
    final = list(ledger.events.get(game_id, desc=True, limit=1))
    return bool(final) and type(final[0]).__name__ == "GameEnded" and final[0].originator_version < first


async def follow(
    ledger: Ledger, game_id: UUID, viewer: Viewer, first: int, stopping: threading.Event, seconds: float, wakeups: Wakeups,
    book: ReceiptBook, receipts: ReceiptBook | None = None,
) -> AsyncIterator[str]:
    """The events from version ``first`` on, then each new one as it is stored (each as ``book`` shows it
    to ``viewer``); with ``receipts``, after each batch the receipt of its last version (``event: receipt``)."""
    last = first - 1
    quiet_since = began = time.monotonic()
    yield ": following\n\n"  # headers and a first byte at once: the client knows it is attached
    if await to_thread.run_sync(_ended_before, ledger, game_id, first):
        return
    with wakeups.watching(game_id) as news:
        while not stopping.is_set() and time.monotonic() - began < seconds:
            news.clear()  # before the read: news that comes during it wakes the next wait
            batch = await to_thread.run_sync(_after, ledger, game_id, last, book, viewer)
            for e in batch:
                yield frame(e)
                last = e["v"]
            if batch and receipts is not None:
                yield receipt_frame(await to_thread.run_sync(receipts.receipt, game_id, last))
            if batch:
                quiet_since = time.monotonic()
                if batch[-1]["type"] == "GameEnded":
                    return
                continue
            if time.monotonic() - quiet_since >= KEEP_ALIVE:
                yield ": keep-alive\n\n"
                quiet_since = time.monotonic()
            await wakeups.wait(news)
