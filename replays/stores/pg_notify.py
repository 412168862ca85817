"""The NOTIFY after a save (``replays.stores.postgres``), sent by a thread of the process for the saves of a
couple of milliseconds together, so that no decision waits for its own.

A save's NOTIFY is a statement of its own after the save's commit (not inside it: PostgreSQL serialises the
commits of notifying transactions). Sent by the saving thread, its round trip held that thread, and a worker
under load paid a round of thread switches for it at every decision. Here the saving thread hands the games it
saved and their last versions to its recorder's ``Notifier`` as soon as the save has committed, whatever then
becomes of the request, and goes on; the notifier's thread sends them at once if it sent none in the last
``WINDOW_S``, else once that much has passed since its last, with those of every save handed over meanwhile,
in as few NOTIFYs as their payloads allow (``game:version,...``, each under ``PAYLOAD_BYTES``): a save of a
quiet moment is notified as soon as it was before, and under load the saves of ``WINDOW_S`` share one. The
NOTIFYs go on a connection of their own (``Channel``), so that the pool lends its connections to the saves as
before. A NOTIFY that fails is sent once more, on a new connection if its connection broke (a connection
that cannot be made is not asked for again for ``RECONNECT_S``); one that fails again,
like one of a process that ends between a commit and its NOTIFY, wakes nobody, and followers re-read every
``SAFETY_RECHECK_S`` for that reason. ``close`` sends what is pending before the store's connections close.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Mapping
from time import monotonic
from typing import Any

from psycopg.sql import SQL

WINDOW_S = 0.002  # the notifier's shortest time between two sends: the saves handed over meanwhile wait for the next
PAYLOAD_BYTES = 7900  # NOTIFY payloads must stay under 8,000 bytes
CLOSE_WAIT_S = 2.0  # the longest ``close`` waits for the pending notices to be sent
SEND_TRIES = 2  # a NOTIFY, and once more (on a new connection, if its connection broke)
RECONNECT_S = 1.0  # after a connection could not be made, none tried for this long (followers re-read every second)


def payloads(last: Mapping[str, int]) -> list[str]:
    """``game:version,...`` for each game and its last version, in as few payloads of at most
    ``PAYLOAD_BYTES`` as the games allow."""
    found: list[str] = []
    items: list[str] = []
    size = 0
    for game, version in last.items():
        item = f"{game}:{version}"
        if items and size + 1 + len(item) > PAYLOAD_BYTES:
            found.append(",".join(items))
            items, size = [], 0
        size += len(item) + (1 if items else 0)
        items.append(item)
    if items:
        found.append(",".join(items))
    return found


class Channel:
    """NOTIFYs on one channel, on a connection of their own: made by ``connect`` (autocommit) at the first,
    and again at the next after it broke. A connection that cannot be made is not tried again for
    ``RECONNECT_S`` (NOTIFYs meanwhile fail at once): a server that refuses it (at ``max_connections``, say)
    is not asked again at every window."""

    def __init__(self, connect: Callable[[], Any], name: str) -> None:
        self._connect = connect
        self.name = name
        self._conn: Any = None
        self._refused_until = 0.0  # (monotonic) no connection tried before then
        _CHANNELS.add(self)

    def __call__(self, text: str) -> None:
        if self._conn is None:
            if monotonic() < self._refused_until:
                raise ConnectionError("the NOTIFYs' connection was refused a moment ago")
            try:
                self._conn = self._connect()
            except Exception:
                self._refused_until = monotonic() + RECONNECT_S
                raise
        try:
            self._conn.execute(NOTIFY, (self.name, text), prepare=True)
        except Exception:
            if self._conn.broken or self._conn.closed:  # (a statement that fails leaves an autocommit session as it was)
                self.close()
            raise

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _forked(self) -> None:
        """In a child process: the parent's connection kept as it is (closing it here would end the parent's session)."""
        if self._conn is not None:
            _INHERITED.append(self._conn)
        self._conn = None


NOTIFY = SQL("SELECT pg_notify(%s, %s)")  # (channel, payload)


class Notifier:
    """The saves of a recorder not yet notified, and the thread that notifies them (started at the first).
    ``send`` makes one NOTIFY (a ``Channel``); ``done``, if given, is called as the thread stops."""

    def __init__(self, send: Callable[[str], None], window: float = WINDOW_S, done: Callable[[], None] | None = None) -> None:
        self._send = send
        self._done = done
        self._window = window
        self._lock = threading.Lock()
        self._news = threading.Event()
        self._closing = threading.Event()
        self._pending: dict[str, int] = {}
        self._thread: threading.Thread | None = None
        self._closed = False
        _NOTIFIERS.add(self)

    def add(self, last: Mapping[str, int]) -> None:
        """Notify that each game was saved up to its version (after the save's commit)."""
        with self._lock:
            if self._closed:
                return
            pending = self._pending
            for game, version in last.items():
                if version > pending.get(game, 0):
                    pending[game] = version
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="mtg-ledger-notify", daemon=True)
                try:
                    thread.start()
                except RuntimeError:  # no thread to be had now: the save stands all the same; the next one tries again
                    return
                self._thread = thread
            self._news.set()

    def close(self) -> None:
        """Send what is pending, then stop; later saves are not notified."""
        with self._lock:
            self._closed = True
            thread = self._thread
            self._news.set()
            self._closing.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(CLOSE_WAIT_S)  # a server that does not answer: the thread sends on, on its own

    def _run(self) -> None:
        sent = monotonic() - self._window  # when the last NOTIFY went: the first saves go at once
        while True:
            self._news.wait()
            wait = sent + self._window - monotonic()
            if wait > 0:
                self._closing.wait(wait)  # the saves of the window join these (close cuts it short)
            with self._lock:
                pending, self._pending = self._pending, {}
                self._news.clear()
                closed = self._closed
            for text in payloads(pending):
                self._deliver(text)
            sent = monotonic()
            if closed:
                if self._done is not None:
                    self._done()
                return

    def _deliver(self, text: str) -> None:
        for _ in range(SEND_TRIES):
            try:
                self._send(text)
                return
            except Exception:  # once more (on a new connection if it broke: a restart, say); then followers re-read
                continue

    def _forked(self) -> None:
        """In a child process: none of the parent's saves, no thread yet."""
        self._lock = threading.Lock()
        self._news = threading.Event()
        self._closing = threading.Event()
        self._pending = {}
        self._thread = None


_NOTIFIERS: weakref.WeakSet[Notifier] = weakref.WeakSet()
_CHANNELS: weakref.WeakSet[Channel] = weakref.WeakSet()
_INHERITED: list[Any] = []  # a forked child's copies of its parent's connections, never closed by it


def _after_fork() -> None:
    for notifier in list(_NOTIFIERS):
        notifier._forked()
    for channel in list(_CHANNELS):
        channel._forked()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)
