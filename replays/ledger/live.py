"""The games a process is playing, kept in memory between its decisions: at most ``MTG_LEDGER_LIVE_GAMES``
(default 1,000), the least recently used dropped first.

Not the library's aggregate cache (``AGGREGATE_CACHE_MAXSIZE``): that one brings a cached game up to date
with stored events it does not check against the hash chain. Every game here was saved by this process or
read checked (``replays.verify``), and the ledger uses it only while the store's last version is its own.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar
from uuid import UUID

LIVE_GAMES_ENV = "MTG_LEDGER_LIVE_GAMES"
LIVE_GAMES = 1000

T = TypeVar("T")


class LiveGames(OrderedDict[UUID, T], Generic[T]):
    def __init__(self, size: int = LIVE_GAMES) -> None:
        super().__init__()
        self.size = max(1, size)

    def get(self, key: UUID, default: T | None = None) -> T | None:  # type: ignore[override]
        try:  # a UUID's hash is computed by a method of its own at every lookup: two lookups, not three
            value = self[key]
        except KeyError:
            return default
        self.move_to_end(key)
        return value

    def __setitem__(self, key: UUID, value: T) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
