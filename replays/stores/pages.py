"""A game's stored event rows read a page at a time, as the recorder keeps them: what a fold
(``replays.verify``) checks and applies (``replays.checked``).

A page's rows come straight from the recorder where it can give them so: no StoredEvent, no id
converted, no topic named per row. On the compact SQLite tables a page is a run of versions read
without them (``select_run``: an integer less to fetch a row); elsewhere each row carries its version.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import StoredEvent

PAGE = 16_000  # event rows read per query: memory stays bounded on a game of millions of events (a page of
# the bench's game is some 2.5 MB as read). A page costs some 240,000 instructions besides its rows (its
# connection from the pool, its transaction, the topics table) and a start of the hot path: the bench's game
# (104,470 events) rebuilt 2% faster with 2,000 rows a page than with 1,000 and 10% slower with 250 (median of 15
# rebuilds each, interleaved); 1.7% faster again with 4,000, and some 4% with 16,000, where 32,000 gained nothing
# more (2026-12-04, medians of 9, three interleaved pairs each)

RawRow = tuple[int, Any, bytes]  # (version, topic as the recorder keeps it: its name, or an id of its topics table, state)
RunRow = tuple[Any, bytes]  # (topic, state) of a page read as a run of versions (``Page.first``)


class Page(NamedTuple):
    """Rows of a game as the recorder gives them, and how to name their topics."""

    rows: list[Any]  # RawRow each; RunRow each when ``first`` is given
    names: Mapping[Any, str] | None = None  # topic id -> stored topic (for every id); None: the rows hold the names
    first: int | None = None  # the rows are versions first, first + 1, ... (every one of them, in order)

    def topic(self, key: Any) -> str:
        return key if self.names is None else self.names[key]

    def row(self, i: int) -> tuple[int, Any, bytes]:
        """Row ``i`` as (version, topic as kept, state)."""
        if self.first is None:
            v, topic, state = self.rows[i]
            return v, topic, state
        topic, state = self.rows[i]
        return self.first + i, topic, state

    def stored(self, game_id: UUID, i: int) -> StoredEvent:
        v, topic, state = self.row(i)
        return StoredEvent(game_id, v, self.topic(topic), state)


def raw_pages(recorder: Any, game_id: UUID, gt: int | None = None, lte: int | None = None) -> Iterator[Page]:
    """The rows of ``rows``, a page at a time, straight from the recorder where it can give them so
    (``select_run``, ``select_rows``; else the library's ``select_events``)."""
    run = getattr(recorder, "select_run", None)
    select = getattr(recorder, "select_rows", None)
    after = gt
    while True:
        page = None
        if run is not None:
            start = after or 0
            found = run(game_id, gt=start, lte=start + PAGE if lte is None else min(lte, start + PAGE))
            if found is not None:  # else rows are missing in the run: read with their versions, as they are
                page = Page(found[1], found[0], start + 1)
        if page is None and select is not None:
            names, rows = select(game_id, gt=after, lte=lte, limit=PAGE)
            page = Page(rows, names)
        elif page is None:
            page = Page([(e.originator_version, e.topic, e.state) for e in recorder.select_events(game_id, gt=after, lte=lte, limit=PAGE)])
        yield page
        if len(page.rows) < PAGE:
            return
        after = page.row(len(page.rows) - 1)[0]


def raw_rows(recorder: Any, game_id: UUID, gt: int | None = None, lte: int | None = None) -> Iterator[tuple[int, str, bytes]]:
    """``raw_pages``, a row at a time, as (version, topic, state)."""
    for page in raw_pages(recorder, game_id, gt=gt, lte=lte):
        if page.names is None and page.first is None:
            yield from page.rows
        else:
            for i in range(len(page.rows)):
                v, topic, state = page.row(i)
                yield v, page.topic(topic), state


def rows(recorder: Any, game_id: UUID, gt: int | None = None, lte: int | None = None, first_page: int = PAGE) -> Iterator[StoredEvent]:
    """The stored event rows of a game, in version order, a page at a time (pages grow from
    ``first_page`` to ``PAGE`` rows, for readers that may stop early)."""
    after, size = gt, first_page
    while True:
        page = recorder.select_events(game_id, gt=after, lte=lte, limit=size)
        yield from page
        if len(page) < size:
            return
        after, size = page[-1].originator_version, min(size * 4, PAGE)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a game is folded: its rows, their maps and what the appliers
    make hold no cycles, and the collector would walk the whole state again and again as they come."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
