"""The ledger's queries of what is recorded, for the audit, replays, exports and listings: each reads
through the checked paths of ``replays.stores.verify`` (``Ledger`` takes them as a base class)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any
from uuid import UUID

from mtg_ledger.core import events as ev
from mtg_ledger.core.topics import STORED
from mtg_ledger.replays.ledger.errors import GameNotFound
from mtg_ledger.replays.stores import verify

if TYPE_CHECKING:
    from mtg_ledger.core.table import Game


class Queries:
    """What ``Ledger`` reads of a game's rows beyond its state: its events' maps, checked or as recorded,
    and the games a store holds."""

    if TYPE_CHECKING:  # Ledger's, which these queries read through
        recorder: Any

        def reading(self, game_id: UUID) -> AbstractContextManager[None]: ...

        def _load(self, game_id: UUID, version: int | None) -> Game: ...

    def event_maps(self, game_id: UUID, first: int | None = None, last: int | None = None) -> Iterator[dict[str, Any]]:
        """The contract maps of the game's events, versions ``first`` to ``last`` inclusive, each checked
        against the chain from the last verified point before ``first``."""
        start = self._load(game_id, first - 1) if first is not None and first > 1 else None
        found = False
        with self.reading(game_id):
            for event in verify.maps(self, game_id, start, last):
                found = True
                if first is None or event["v"] >= first:
                    yield event
        if not found and first is None and last is None:
            raise GameNotFound(game_id)

    def recorded_rows(
        self, game_id: UUID, *, skip_unreadable: bool = False, last: int | None = None
    ) -> tuple[list[dict[str, Any]], list[verify.UnreadableRow], dict[str, int]]:
        """Every row's map as recorded, unchecked (for the audit, replay and forensic copies), the rows
        that cannot be read, and the class version each event type was recorded in."""
        with self.reading(game_id):
            events, unreadable, versions = verify.recorded(self, game_id, skip_unreadable=skip_unreadable, last=last)
        if not events and not unreadable:
            raise GameNotFound(game_id)
        return events, unreadable, versions

    def recorded_log(self, game_id: UUID, last: int | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """The game's event maps as recorded (before any upcasting) and the class versions they were
        recorded in: what export and branch copy. A row that cannot be read raises (``UnreadableRow``)."""
        events, unreadable, versions = self.recorded_rows(game_id, last=last)
        if unreadable:
            raise unreadable[0]
        return events, versions

    def exists(self, game_id: UUID) -> bool:
        return bool(self.recorder.select_events(game_id, limit=1))

    def game_ids(self) -> list[UUID]:
        """Every game in the store, in the order they started."""
        ids: list[UUID] = []
        start = 1
        starts = getattr(self.recorder, "select_starts", None)  # save rows: each game's first row alone (replays.stores.pg_saves)
        while True:
            if starts is not None:
                batch = starts(_STARTED_TOPICS, start, 1000)
            else:
                batch = self.recorder.select_notifications(start=start, limit=1000, topics=_STARTED_TOPICS)
            if not batch:
                return ids
            ids.extend(n.originator_id for n in batch)
            start = batch[-1].id + 1


_STARTED_TOPICS = [name for name, cls in STORED.items() if cls is ev.GameStarted]  # today's name and its aliases
