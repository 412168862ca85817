"""Snapshots as a writer takes them: right before a turn begins, the first turn to begin after every
``interval`` events (``replays.stores.snapshots`` says why there, and in which form they are stored).

The state before the turn is this process's copy of the game at its last snapshot, folded on with the
events this process saved since: their maps as saved, packed when saved (so that nothing the live game does
later can reach them) and unpacked as a read of the store gives them, a few saves at a time as they come
(``FOLD_EVERY``). A snapshot so costs the fold of the last few saves and its own encoding, not a read of
the store. A game this process has no copy of (its
first snapshot here), or one whose saves it did not all make (another writer's events came between),
is read from the store, checked, as before. A snapshot is a cache: one that cannot be taken is logged and
left out, and the decision stands.

Where the store takes snapshot rows in a save's transaction (``saves_snapshots``: the compact SQLite
tables), a snapshot the copy can give is taken before the save and stored with it: a decision that begins
a turn and its snapshot are one commit, not two. One the copy cannot give is taken after the save, read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import msgpack
from eventsourcing.persistence import PersistenceError, StoredEvent

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.table import Game
from mtg_ledger.replays.ledger.live import LiveGames
from mtg_ledger.replays.stores import snapshots as snaps
from mtg_ledger.replays.stores import verify

Map = dict[str, Any]
KEYFRAMES_KEPT = 64  # games whose last keyframe (and copy at their last snapshot) this process keeps
FOLD_EVERY = 8  # saves kept packed before they are folded into the copy: a snapshot folds at most these


@dataclass
class Trail:
    """The saves after a copy's version, each packed, and the version the next one must begin with."""

    next: int
    saves: list[bytes] = field(default_factory=list)


class Snapshots:
    """When a writer snapshots its games, and what it keeps in memory to do it cheaply."""

    def __init__(self, interval: int) -> None:
        self.interval = interval
        self._at: LiveGames[int] = LiveGames()  # the last snapshot of the games this process played last (read again once dropped)
        self._keyframes: LiveGames[snaps.Keyframe] = LiveGames(KEYFRAMES_KEPT)  # to make deltas against
        self._copies: LiveGames[Game] = LiveGames(KEYFRAMES_KEPT)  # each game at its last snapshot (a copy)
        self._since: LiveGames[Trail] = LiveGames(KEYFRAMES_KEPT)  # the saves since that copy

    def before(self, ledger: Any, game: Game, maps: list[Map], early: bool) -> list[StoredEvent] | None:
        """Before a save of ``maps``, the game's new events: follow them, and, when ``early`` (the store
        takes snapshots in the save's transaction), the snapshots due with them, from this process's copy
        of the game ([] when none is due). None: any due are taken by ``after``, once the save is stored.
        A save that fails must be followed by ``forget``."""
        if not maps:
            return []
        self._follow(game.id, maps)
        return self._taken(ledger, game.id, maps, stored=False) if early else None

    def after(self, ledger: Any, game: Game, maps: list[Map], taken: list[StoredEvent] | None) -> None:
        """After the save: the snapshots ``before`` did not take, taken and stored now, in a transaction
        of their own."""
        if taken is not None:
            return
        rows = self._taken(ledger, game.id, maps, stored=True)
        try:
            if rows:
                ledger.snapshots.recorder.insert_events(rows)
        except PersistenceError as e:  # a cache: the events are saved, which is what counts
            self.forget(game.id)
            ledger.logger.warning("snapshot not taken", game=str(game.id), error=verify.brief(e))

    def _taken(self, ledger: Any, game_id: UUID, maps: list[Map], stored: bool) -> list[StoredEvent] | None:
        """The rows of the snapshots due with ``maps``: the state right before each turn they begin, when
        one is due. ``stored``: whether the save is stored (else only this process's copy can give the
        states; None when it cannot)."""
        turns = [(m["v"], m["state_hash"]) for m in maps if m["type"] == "TurnBegan"]
        rows: list[StoredEvent] = []
        try:
            last = self._last(ledger, game_id) if turns else 0
            for turn, state_hash in turns:
                if snaps.due(turn - 1, last, self.interval):
                    before, rest = self._before(ledger, game_id, turn - 1, maps, stored)
                    if before is None:
                        self._at.pop(game_id, None)  # as stored: read again once the save is
                        return None
                    keyframe = self._keyframes.get(game_id) or snaps.last_keyframe(ledger, game_id)
                    row, keyframe = snaps.take(ledger.mapper, before, keyframe, self.interval, state_hash)
                    rows.append(row)
                    self._keyframes[game_id], self._copies[game_id] = keyframe, before  # deltas may stand on it once stored
                    self._since[game_id] = Trail(maps[-1]["v"] + 1, [msgpack.packb(rest, use_bin_type=True)])
                    last = self._at[game_id] = turn - 1
        except (PersistenceError, verify.StoreDamage) as e:  # a cache: left out, and the decision stands
            self.forget(game_id)
            ledger.logger.warning("snapshot not taken", game=str(game_id), error=verify.brief(e))
            return []
        return rows

    def forget(self, game_id: UUID) -> None:
        for kept in (self._keyframes, self._copies, self._since, self._at):
            kept.pop(game_id, None)

    def _follow(self, game_id: UUID, maps: list[Map]) -> None:
        """Keep the save's maps after the copy's, while the saves follow on from it without a gap."""
        trail = self._since.get(game_id)
        if trail is None:
            return
        if maps[0]["v"] != trail.next:
            self._copies.pop(game_id, None)
            self._since.pop(game_id, None)
            return
        copy = self._copies.get(game_id)
        if copy is not None and len(trail.saves) >= FOLD_EVERY:  # all before this save: before any snapshot still to come
            _fold(copy, trail.saves, trail.next - 1)
            trail.saves.clear()
        trail.saves.append(msgpack.packb(maps, use_bin_type=True))
        trail.next = maps[-1]["v"] + 1

    def _before(self, ledger: Any, game_id: UUID, version: int, maps: list[Map], stored: bool) -> tuple[Game | None, list[Map]]:
        """The game at ``version`` (this process's copy folded on, or read from the store once ``stored``;
        None when neither), and the save's maps after it."""
        rest = [m for m in maps if m["v"] > version]
        copy, trail = self._copies.pop(game_id, None), self._since.pop(game_id, None)
        if copy is not None and trail is not None and copy.version <= version:
            _fold(copy, trail.saves, version)
            if copy.version == version:
                return copy, rest
        return (ledger._load(game_id, version) if stored else None), rest  # no copy, or its saves stop short of it

    def _last(self, ledger: Any, game_id: UUID) -> int:
        if game_id not in self._at:
            found = ledger.snapshots.recorder.select_events(game_id, desc=True, limit=1)
            self._at[game_id] = found[0].originator_version if found else 0
        return self._at[game_id]


def _fold(copy: Game, saves: list[bytes], last: int) -> None:
    """``copy`` folded on with the saves' maps up to version ``last``, unpacked as a read of the store
    gives them (lists, fresh objects)."""
    for save in saves:
        for event in msgpack.unpackb(save, raw=False, strict_map_key=False):
            if event["v"] > last:
                return
            apply_event(copy.state, event)
            copy.version = event["v"]
