"""Snapshots: when the ledger takes them, and the audit's check of every stored one.

A snapshot is a cache of a game's state for time travel and fast loads, never a source of truth.
The ledger takes one right before a turn begins, the first turn to begin after every ``interval``
events, because the ``TurnBegan`` that follows records the hash of exactly that state inside the
hash chain: that is what lets a read believe it (``replays.verify``). The snapshot also keeps its own
state hash, so a damaged one is turned away before any event after it is read.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from mtg_ledger.core.apply import apply_event
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game, GameSnapshot
from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.verify import SnapshotRejected, brief, snapshot_game

Map = dict[str, Any]


def due(at: int, last: int, interval: int) -> bool:
    """Whether to snapshot the state after event ``at`` (a turn begins next), the last snapshot being at ``last``."""
    return at // interval > last // interval


def take(game: Game) -> GameSnapshot:
    """A snapshot of ``game`` carrying the hash of its state (the state holds the chain hash at its version)."""
    snapshot = GameSnapshot.take(game)
    snapshot.state["state_hash"] = game.state.state_hash()
    return snapshot


def check_all(ledger: Any, game_id: UUID, events: list[Map], stored_events: int) -> tuple[int, list[Finding]]:
    """Every stored snapshot of a game against a rebuild from ``events`` (its first events, as far as
    they hold); ``stored_events`` is how many events the store holds. Returns (snapshots, findings)."""
    if ledger.snapshots is None:
        return 0, []
    rows = ledger.snapshots.recorder.select_events(game_id)
    findings: list[Finding] = []
    state = GameState()
    folded = 0
    for stored in rows:
        s = stored.originator_version
        if s > stored_events:
            findings.append(
                _bad(s, f"it lies beyond the last stored event ({stored_events}): the log was cut after it, or the snapshot was forged")
            )
            continue
        try:
            game, _ = snapshot_game(ledger.mapper, game_id, stored)
        except SnapshotRejected as e:
            findings.append(_bad(s, e.reason))
            continue
        if s > len(events) or folded < 0:
            continue  # the events before it fail their own checks (reported as such): nothing to compare with
        try:
            while folded < s:
                apply_event(state, events[folded])
                folded += 1
        except Exception as e:
            findings.append(_bad(s, f"the events before it cannot be rebuilt to compare ({brief(e)})"))
            folded = -1
            continue
        if game.state.state_hash() != state.state_hash():
            findings.append(_bad(s, "it does not match the events: " + difference(game.state.to_dict(), state.to_dict())))
    return len(rows), findings


def _bad(version: int, reason: str) -> Finding:
    return Finding(version, "snapshot", f"the stored snapshot at version {version} is not to be trusted: {reason}")


def difference(snapshot: Any, rebuilt: Any, path: str = "") -> str:
    """Where two states first differ, as a judge would say it."""
    if isinstance(snapshot, dict) and isinstance(rebuilt, dict):
        for key in sorted({*snapshot, *rebuilt}, key=str):
            if key not in snapshot or key not in rebuilt:
                return f"{path}{key} is only in the {'snapshot' if key in snapshot else 'events'}"
            if snapshot[key] != rebuilt[key] or type(snapshot[key]) is not type(rebuilt[key]):
                return difference(snapshot[key], rebuilt[key], f"{path}{key}.")
    if isinstance(snapshot, list) and isinstance(rebuilt, list) and len(snapshot) == len(rebuilt):
        for i, (a, b) in enumerate(zip(snapshot, rebuilt, strict=True)):
            if a != b or type(a) is not type(b):
                return difference(a, b, f"{path}{i}.")
    return f"{path.rstrip('.') or 'the state'} is {snapshot!r:.60} in the snapshot, {rebuilt!r:.60} by the events"
