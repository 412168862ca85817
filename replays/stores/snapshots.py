"""Snapshots: when the ledger takes them, in which form, and the audit's check of every stored one.

A snapshot is a cache of a game's state for time travel and fast loads, never a source of truth.
The ledger takes one right before a turn begins, the first turn to begin after every ``interval``
events, because the ``TurnBegan`` that follows records the hash of exactly that state inside the
hash chain: that is what lets a read believe it (``replays.verify``). The snapshot also keeps its own
state hash, so a damaged one is turned away before any event after it is read.

Schema 3 stores a snapshot as a keyframe (the whole state, compressed) or as a delta against the
game's last keyframe (``replays.snapshot_delta`` describes both): a keyframe when there is none, when
the last one is ``KEYFRAME_EVERY`` intervals back or more, or when the delta would weigh more than
two thirds of the keyframe (a delta that saves less is not worth the second row a load reads). So any
snapshot loads from at most two rows, and a delta costs what changed.
"""

from __future__ import annotations

import zlib
from typing import Any
from uuid import UUID

import msgpack
from eventsourcing.persistence import Mapper, StoredEvent

from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game, GameSnapshot
from mtg_ledger.core.written import moment
from mtg_ledger.replays.stores import snapshot_delta as delta
from mtg_ledger.replays.stores.state_delta import Unchanged, state_node
from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.stores.verify import SnapshotRejected, brief, snapshot_game

Map = dict[str, Any]
KEYFRAME_EVERY = 16  # intervals: the longest run of deltas on one keyframe
Keyframe = delta.Keyframe


def due(at: int, last: int, interval: int) -> bool:
    """Whether to snapshot the state after event ``at`` (a turn begins next), the last snapshot being at ``last``."""
    return at // interval > last // interval


def take(
    mapper: Mapper[UUID], game: Game, keyframe: delta.Keyframe | None, interval: int, state_hash: str | None = None
) -> tuple[StoredEvent, delta.Keyframe]:
    """The stored row of a snapshot of ``game`` carrying the hash of its state (the state holds the
    chain hash at its version): a delta against ``keyframe`` (the game's last, or None), or a new
    keyframe. ``state_hash``: the hash the next ``TurnBegan`` records for this state, when known
    (else computed; a wrong one only makes the snapshot rejected when read). Returns the row and the
    keyframe for the next one."""
    snapshot = GameSnapshot.take(game)
    fields = snapshot.state
    state: GameState = fields.pop("state")
    fields["state_hash"] = state_hash if isinstance(state_hash, str) else state.state_hash()
    if keyframe is not None and keyframe.version < game.version < keyframe.version + KEYFRAME_EVERY * interval:
        if keyframe.unchanged is None:
            keyframe = keyframe._replace(unchanged=Unchanged(keyframe.plain.get("battlefield"), keyframe.source))
        node = state_node(keyframe.plain, state, keyframe.unchanged)  # delta.diff(keyframe.plain, the plain state)
        payload = delta.pack(node if node is not None else [delta.MAP, {}, []])
        if 3 * len(payload) <= 2 * keyframe.size:
            fields.update(base=keyframe.version, base_digest=keyframe.digest, delta=payload)
            return mapper.to_stored_event(snapshot), keyframe
    since = moment()  # before the state is read: a permanent written after it is told apart by the next deltas
    plain = state.to_dict()  # shares the live state's lists: packed before the game moves on
    plain.pop("cards", None)  # the game's card definitions are its GameStarted's, read from there (verify.load)
    raw = msgpack.packb(plain, use_bin_type=True)
    fields["keyframe"] = payload = zlib.compress(raw, 6)
    stored = mapper.to_stored_event(snapshot)
    plain = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    return stored, delta.Keyframe(game.version, delta.row_digest(stored.state), plain, len(payload), source=(since, list(state.battlefield)))


def last_keyframe(ledger: Any, game_id: UUID) -> delta.Keyframe | None:
    """The keyframe the game's newest snapshot is or stands on, to make the next delta against
    (None: the next snapshot is a keyframe). Not trusted: a delta is checked when it is read."""
    assert ledger.snapshots is not None
    recorder = ledger.snapshots.recorder
    newest = recorder.select_events(game_id, desc=True, limit=1)
    try:
        fields = _fields(ledger.mapper, newest[0]) if newest else {}
        if "delta" in fields and isinstance(fields.get("base"), int):
            found = recorder.select_events(game_id, gt=fields["base"] - 1, lte=fields["base"], limit=1)
            newest, fields = found, _fields(ledger.mapper, found[0]) if found else {}
        if "keyframe" not in fields:
            return None
        plain = delta.unpack(fields["keyframe"])
    except Exception:  # an unreadable row: start a new keyframe
        return None
    return delta.Keyframe(newest[0].originator_version, delta.row_digest(newest[0].state), plain, len(fields["keyframe"]))


def _fields(mapper: Mapper[UUID], stored: StoredEvent) -> Map:
    snapshot = mapper.to_domain_event(stored)
    return dict(snapshot.state) if isinstance(snapshot, GameSnapshot) and isinstance(snapshot.state, dict) else {}


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
                _bad(s, Phrase("snapshot.beyond_last_event", {"count": stored_events}))
            )
            continue
        try:
            game, _ = snapshot_game(ledger.mapper, game_id, stored, ledger.snapshots.recorder)
        except SnapshotRejected as e:
            findings.append(_bad(s, e.why))
            continue
        if s > len(events) or folded < 0:
            continue  # the events before it fail their own checks (reported as such): nothing to compare with
        try:
            while folded < s:
                apply_event(state, events[folded])
                folded += 1
        except Exception as e:
            findings.append(_bad(s, Phrase("snapshot.cannot_rebuild", {"error": brief(e)})))
            folded = -1
            continue
        if game.state.state_hash() != state.state_hash():
            findings.append(_bad(s, Phrase("snapshot.does_not_match", {"difference": difference(_plain(game.state), _plain(state))})))
    return len(rows), findings


def _plain(state: GameState) -> dict[str, Any]:
    """A state as plain data, as a snapshot holds it: without the game's card definitions."""
    plain = state.to_dict()
    plain.pop("cards", None)
    return plain


def _bad(version: int, why: Phrase) -> Finding:
    return Finding.of(version, "snapshot", "snapshot.untrusted", {"v": version, "reason": why})


def difference(snapshot: Any, rebuilt: Any, path: str = "") -> Phrase:
    """Where two states first differ, as a judge would say it."""
    if isinstance(snapshot, dict) and isinstance(rebuilt, dict):
        for key in sorted({*snapshot, *rebuilt}, key=str):
            if key not in snapshot or key not in rebuilt:
                return Phrase("snapshot.only_in_snapshot" if key in snapshot else "snapshot.only_in_events", {"path": f"{path}{key}"})
            if snapshot[key] != rebuilt[key] or type(snapshot[key]) is not type(rebuilt[key]):
                return difference(snapshot[key], rebuilt[key], f"{path}{key}.")
    if isinstance(snapshot, list) and isinstance(rebuilt, list) and len(snapshot) == len(rebuilt):
        for i, (a, b) in enumerate(zip(snapshot, rebuilt, strict=True)):
            if a != b or type(a) is not type(b):
                return difference(a, b, f"{path}{i}.")
    values = {"snapshot": snapshot, "rebuilt": rebuilt}
    return Phrase("snapshot.differs_at", {"path": path.rstrip("."), **values}) if path else Phrase("snapshot.state_differs", values)
