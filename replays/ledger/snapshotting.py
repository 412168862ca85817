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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import msgpack
from eventsourcing.persistence import PersistenceError

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
        self._at: dict[UUID, int] = {}  # the last snapshot of each game this process knows of
        self._keyframes: LiveGames[snaps.Keyframe] = LiveGames(KEYFRAMES_KEPT)  # to make deltas against
        self._copies: LiveGames[Game] = LiveGames(KEYFRAMES_KEPT)  # each game at its last snapshot (a copy)
        self._since: LiveGames[Trail] = LiveGames(KEYFRAMES_KEPT)  # the saves since that copy

    def saved(self, ledger: Any, game: Game, maps: list[Map]) -> None:
        """After a save of ``maps``, the game's new events: snapshot the state right before each turn they
        begin, when one is due."""
        if not maps:
            return
        self._follow(game.id, maps)
        turns = [(m["v"], m["state_hash"]) for m in maps if m["type"] == "TurnBegan"]
        if not turns:
            return
        try:
            last = self._last(ledger, game.id)
            for turn, state_hash in turns:
                if snaps.due(turn - 1, last, self.interval):
                    keyframe = self._keyframes.get(game.id) or snaps.last_keyframe(ledger, game.id)
                    before, rest = self._before(ledger, game.id, turn - 1, maps)
                    stored, keyframe = snaps.take(ledger.mapper, before, keyframe, self.interval, state_hash)
                    ledger.snapshots.recorder.insert_events([stored])
                    self._keyframes[game.id], self._copies[game.id] = keyframe, before  # stored: deltas may stand on it
                    self._since[game.id] = Trail(maps[-1]["v"] + 1, [msgpack.packb(rest, use_bin_type=True)])
                    last = self._at[game.id] = turn - 1
        except (PersistenceError, verify.StoreDamage) as e:  # a cache: the events are saved, which is what counts
            self.forget(game.id)
            ledger.logger.warning("snapshot not taken", game=str(game.id), error=verify.brief(e))

    def forget(self, game_id: UUID) -> None:
        for kept in (self._keyframes, self._copies, self._since):
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
            for event in _unpacked(trail.saves, trail.next - 1):
                apply_event(copy.state, event)
                copy.version = event["v"]
            trail.saves.clear()
        trail.saves.append(msgpack.packb(maps, use_bin_type=True))
        trail.next = maps[-1]["v"] + 1

    def _before(self, ledger: Any, game_id: UUID, version: int, maps: list[Map]) -> tuple[Game, list[Map]]:
        """The game at ``version`` (this process's copy folded on, or read), and the save's maps after it."""
        rest = [m for m in maps if m["v"] > version]
        copy, trail = self._copies.pop(game_id, None), self._since.pop(game_id, None)
        if copy is None or trail is None or copy.version > version:
            return ledger._load(game_id, version), rest
        for event in _unpacked(trail.saves, version):
            apply_event(copy.state, event)
            copy.version = event["v"]
        if copy.version != version:  # the saves this process made stop short of it
            return ledger._load(game_id, version), rest
        return copy, rest

    def _last(self, ledger: Any, game_id: UUID) -> int:
        if game_id not in self._at:
            found = ledger.snapshots.recorder.select_events(game_id, desc=True, limit=1)
            self._at[game_id] = found[0].originator_version if found else 0
        return self._at[game_id]


def _unpacked(saves: list[bytes], last: int) -> Iterator[Map]:
    """The saves' maps up to version ``last``, as a read of the store gives them (lists, fresh objects)."""
    for save in saves:
        for event in msgpack.unpackb(save, raw=False, strict_map_key=False):
            if event["v"] > last:
                return
            yield event
