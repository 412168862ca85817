"""Trust nothing stored: every read of a game checks the rows it reads.

A stored game is rows: its events, each with its chain hash, and snapshots, caches of the state at
some version. Reading a game folds the events after the newest snapshot the chain vouches for, and
checks every event on the way, so a read costs O(events since that snapshot):

- an event row must decode and name an event type of the schema (else ``UnreadableRow``), carry the
  next version, and its hash must be ``chain(hash before it, its map as recorded)`` (else
  ``BrokenChain``: it reads, but it is not what was recorded). Both name the game and the version.
- a snapshot is believed only when the chain vouches for it: its state must hash to the ``state_hash``
  that the first ``TurnBegan`` after it records (the engine hashes the whole state as each turn begins,
  and that hash is inside the chain). The ledger takes its snapshots right before a ``TurnBegan``, so
  the check is one state hash; an older snapshot taken mid-turn is folded forward to the next turn's
  start first. A snapshot that fails is never used: the read falls back to an older one, or to the
  first event.
"""

from __future__ import annotations

import copy
from datetime import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from mtg_ledger.core import events as ev
from mtg_ledger.core.apply import apply_event
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game, GameSnapshot
from mtg_ledger.core.topics import UnknownTopic, canonical, resolve
from mtg_ledger.replays import snapshot_delta as delta

Map = dict[str, Any]
PAGE = 10_000  # event rows read per query: memory stays bounded on a game of millions of events
SNAPSHOT_TRIES = 3  # snapshots tried, newest first, before folding from the first event
_STORAGE_ONLY = frozenset({"timestamp", "originator_topic", "class_version"})  # the library's, outside the chain


class StoreDamage(Exception):
    """Stored rows of a game that fail the ledger's checks; the message names the game and the version."""

    def __init__(self, game_id: object, version: int, problem: str) -> None:
        super().__init__(f"game {game_id}, event {version}: {problem}")
        self.game_id = game_id
        self.version = version
        self.problem = problem


class UnreadableRow(StoreDamage):
    """A stored row this version cannot read: bytes that do not decode, an unknown type, fields
    that are not an event's, or an event the rules cannot apply."""


class BrokenChain(StoreDamage):
    """Rows that read, but are not what was recorded: an edited, missing, duplicated or moved event."""


class SnapshotRejected(Exception):
    """A snapshot the chain does not vouch for; the read falls back to the events."""

    def __init__(self, version: int, reason: str, keyframe: int | None = None) -> None:
        super().__init__(f"snapshot at version {version}: {reason}")
        self.version = version
        self.reason = reason
        self.keyframe = keyframe  # a delta whose keyframe (at this version) is missing or damaged


def brief(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text[:160]}" if text else type(error).__name__


# --- rows -----------------------------------------------------------------------------------------


@dataclass
class Row:
    """One stored event row, decoded: its map as recorded (what the chain hash covers)."""

    version: int
    cls: type[ev.GameEvent]
    fields: dict[str, Any]
    recorded: Map

    def event(self, game_id: UUID) -> ev.GameEvent:
        """The domain event, as the library's mapper makes it (upcast to this engine's class version)."""
        state = dict(self.fields)
        state["originator_id"] = game_id
        state["originator_version"] = self.version
        version, current = state.pop("class_version", 1), getattr(self.cls, "class_version", 1)
        while version < current:
            getattr(self.cls, f"upcast_v{version}_v{version + 1}")(state)
            version += 1
        if self.cls is ev.GameStarted:
            topic = state.get("originator_topic")
            if not isinstance(topic, str) or _resolves(topic) is not Game:
                raise UnreadableRow(game_id, self.version, f"GameStarted names {topic!r} as what it starts, not a game")
            state["originator_topic"] = canonical(topic)
        event = object.__new__(self.cls)
        object.__setattr__(event, "__dict__", state)
        return event

    def current_map(self, game_id: UUID) -> Map:
        """The contract map in this engine's schema (the recorded one unless an upcaster applies)."""
        if self.fields.get("class_version", 1) == getattr(self.cls, "class_version", 1):
            return self.recorded
        return self.event(game_id).to_map()


def _resolves(topic: str) -> type | None:
    try:
        return resolve(topic)
    except UnknownTopic:
        return None


def decode_row(mapper: Mapper[UUID], game_id: UUID, stored: StoredEvent) -> Row:
    v = stored.originator_version
    cls = _resolves(stored.topic)
    if cls is None:
        raise UnreadableRow(game_id, v, f"the row names an unknown stored type {stored.topic!r}")
    if not (isinstance(cls, type) and issubclass(cls, ev.GameEvent)):
        raise UnreadableRow(game_id, v, f"the row is a {canonical(stored.topic)}, not an event of a game's log")
    try:
        fields = mapper.transcoder.decode(stored.state)
    except Exception as e:  # whatever garbage bytes make the decoder raise
        raise UnreadableRow(game_id, v, f"its stored bytes do not decode ({brief(e)})") from None
    if not isinstance(fields, dict) or not isinstance(fields.get("hash"), str) or "v" in fields or "type" in fields:
        raise UnreadableRow(game_id, v, f"its stored bytes decode to something that is not a stored {cls.__name__}")
    recorded: Map = {"v": v, "type": cls.__name__}
    recorded.update((k, x) for k, x in fields.items() if k not in _STORAGE_ONLY and k != "hash")
    recorded["hash"] = fields["hash"]  # last, as in a contract map (GameEvent.to_map) and a log file
    return Row(v, cls, fields, recorded)


def chained(previous: str, row: Row) -> bool:
    try:
        return bool(row.recorded["hash"] == chain(previous, row.recorded))
    except Exception:  # a map msgpack cannot encode canonically (keys of mixed types, ...) was not recorded so
        return False


def missing_table(error: BaseException) -> bool:
    """The store has no ledger tables yet: it holds no game (a reader never creates them)."""
    text = str(error)
    return "no such table" in text or ("relation" in text and "does not exist" in text)


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


class Chain:
    """Checks rows one after another from a verified point (version, hash)."""

    def __init__(self, mapper: Mapper[UUID], game_id: UUID, version: int, previous: str) -> None:
        self.mapper = mapper
        self.game_id = game_id
        self.version = version
        self.previous = previous

    def check(self, stored: StoredEvent) -> Row:
        expected = self.version + 1
        v = stored.originator_version
        if v != expected:
            raise BrokenChain(self.game_id, expected, f"the row of event {expected} is missing (the next stored row is event {v})")
        row = decode_row(self.mapper, self.game_id, stored)
        if not chained(self.previous, row):
            raise BrokenChain(self.game_id, v, "its hash does not match its content and the event before it: the row was altered")
        self.version, self.previous = v, row.recorded["hash"]
        return row


# --- games -------------------------------------------------------------------------------------------


def _apply(game_id: UUID, game: Game | None, row: Row) -> Game:
    try:
        if game is not None and row.cls is not ev.GameStarted and row.fields.get("class_version", 1) == getattr(row.cls, "class_version", 1):
            # What the domain event's mutate does, without making the event: the appliers take the
            # contract map (GameEvent.apply hands them to_map(), the same map for a row that checks).
            apply_event(game.state, row.recorded)
            game.version = row.version
            stamp = row.fields.get("timestamp")
            if isinstance(stamp, datetime):  # storage metadata, outside the chain
                game.modified_on = stamp
            return game
        mutated = row.event(game_id).mutate(game)
    except StoreDamage:
        raise
    except Exception as e:  # a row that hashes but holds what no appliers can take (a re-hashed forgery)
        raise UnreadableRow(game_id, row.version, f"the rules cannot apply it ({brief(e)})") from None
    assert isinstance(mutated, Game)
    return mutated


def snapshot_game(mapper: Mapper[UUID], game_id: UUID, stored: StoredEvent, recorder: Any = None) -> tuple[Game, str]:
    """The game a stored snapshot holds, after the checks it can make on its own, and its state's hash.
    ``recorder`` (the snapshots' recorder) gives a delta its keyframe (``replays.snapshot_delta``)."""
    s = stored.originator_version
    try:
        snapshot = mapper.to_domain_event(stored)
    except Exception as e:
        raise SnapshotRejected(s, f"it cannot be read ({brief(e)})") from None
    if not isinstance(snapshot, GameSnapshot) or _resolves(getattr(snapshot, "topic", "")) is not Game:
        raise SnapshotRejected(s, "it is not a snapshot of a game")
    fields = dict(snapshot.state) if isinstance(snapshot.state, dict) else {}
    recorded_hash = fields.pop("state_hash", None)
    state: Any
    if delta.is_stored_form(fields):
        state = _stored_state(mapper, game_id, s, fields, recorder)
    else:  # the whole state, as schemas 1 and 2 stored it
        state = fields.get("state")
    if not isinstance(state, GameState) or state.version != s:
        raise SnapshotRejected(s, f"it does not hold the state after event {s}")
    try:
        own_hash = state.state_hash()
    except Exception as e:
        raise SnapshotRejected(s, f"its state cannot be hashed ({brief(e)})") from None
    if recorded_hash is not None and own_hash != recorded_hash:
        raise SnapshotRejected(s, "its content does not match the state hash stored with it")
    game = GameSnapshot(originator_id=game_id, originator_version=s, timestamp=snapshot.timestamp, topic=snapshot.topic, state=fields).mutate(None)
    assert isinstance(game, Game)
    return game, own_hash


def _stored_state(mapper: Mapper[UUID], game_id: UUID, s: int, fields: Map, recorder: Any) -> GameState:
    """The state of a keyframe or a delta (its keyframe read from ``recorder``); ``fields`` then holds
    the game's other fields and the state."""

    def keyframe_row(base: int) -> tuple[bytes, Map] | None:
        found = recorder.select_events(game_id, gt=base - 1, lte=base, limit=1) if recorder is not None else []
        if not found or found[0].originator_version != base:
            return None
        try:
            keyframe = mapper.to_domain_event(found[0])
        except Exception:
            keyframe = None
        kept = keyframe.state if isinstance(keyframe, GameSnapshot) and isinstance(keyframe.state, dict) else {}
        return found[0].state, kept

    try:
        state = GameState.from_dict(delta.plain_state(fields, s, keyframe_row))
    except delta.BadKeyframe as e:
        raise SnapshotRejected(s, str(e), keyframe=e.base) from None
    except Exception as e:
        raise SnapshotRejected(s, f"it cannot be read ({brief(e)})") from None
    for key in ("keyframe", "delta", "base", "base_digest"):
        fields.pop(key, None)
    fields["state"] = state
    return state


def load(
    ledger: Any, game_id: UUID, version: int | None = None, rejected: Callable[[SnapshotRejected], None] | None = None
) -> Game | None:
    """The game after event ``version`` (default: its last), read and checked; None if it has no rows.
    Snapshots are tried newest first, ``SNAPSHOT_TRIES`` of them; a delta whose keyframe is missing or
    damaged sends the search on to the snapshots before that keyframe (the deltas on it are as bad)."""
    if ledger.snapshots is not None:
        below, tries = version, 0
        while tries < SNAPSHOT_TRIES:
            candidates = ledger.snapshots.recorder.select_events(game_id, lte=below, desc=True, limit=SNAPSHOT_TRIES - tries)
            below = None
            for stored in candidates:
                tries += 1
                try:
                    return fold(ledger, game_id, *snapshot_game(ledger.mapper, game_id, stored, ledger.snapshots.recorder), version=version)
                except SnapshotRejected as e:
                    if rejected is not None:
                        rejected(e)
                    if e.keyframe is not None:
                        below = e.keyframe - 1
                        break
            if below is None or below < 1:
                break
    return fold(ledger, game_id, None, None, version=version)


def fold(ledger: Any, game_id: UUID, game: Game | None, state_hash: str | None, *, version: int | None) -> Game | None:
    """Fold the checked events after ``game`` (a snapshot's game, to be vouched for, with the hash of its
    state; or None) up to ``version``."""
    start = game.version if game is not None else 0
    checker = Chain(ledger.mapper, game_id, start, game.state.last_hash if game is not None else GENESIS_HASH)
    unpinned = game  # the snapshot's game, until a TurnBegan vouches for it
    for stored in rows(ledger.recorder, game_id, gt=start, lte=version):
        try:
            row = checker.check(stored)
            if unpinned is not None and row.cls is ev.TurnBegan:
                _vouch(unpinned.state, row, start, state_hash if row.version == start + 1 else None)
                unpinned = None
            game = _apply(game_id, game, row)
        except StoreDamage as damage:
            if unpinned is not None and (damage.version == start + 1 or isinstance(damage, UnreadableRow)):
                raise SnapshotRejected(start, f"the events after it do not follow from it ({damage.problem})") from None
            raise
    if unpinned is not None:
        assert game is not None
        _vouch_beyond(ledger, game_id, game, checker, start, state_hash if game.version == start else None)
    return game


def _vouch(state: GameState, turn_began: Row, start: int, known: str | None = None) -> None:
    try:
        same = (known or state.state_hash()) == turn_began.recorded.get("state_hash")
    except Exception:
        same = False
    if not same:
        raise SnapshotRejected(start, f"the state it leads to is not the one event {turn_began.version} (TurnBegan) records")


def _vouch_beyond(ledger: Any, game_id: UUID, game: Game, checker: Chain, start: int, known: str | None) -> None:
    """No turn began between the snapshot and the version read: fold a copy on to the next one."""
    state: GameState | None = None
    try:
        for stored in rows(ledger.recorder, game_id, gt=checker.version, first_page=16):
            row = checker.check(stored)
            if row.cls is ev.TurnBegan:
                _vouch(state or game.state, row, start, known if state is None else None)
                return
            if state is None:
                state = GameState.from_dict(copy.deepcopy(game.state.to_dict()))
            apply_event(state, row.current_map(game_id))
    except SnapshotRejected:
        raise
    except Exception as e:
        raise SnapshotRejected(start, f"the events after it cannot vouch for it ({brief(e)})") from None
    raise SnapshotRejected(start, "no turn has begun after it yet, so the chain cannot vouch for it")


def maps(ledger: Any, game_id: UUID, start: Game | None, last: int | None) -> Iterator[Map]:
    """The checked contract maps after ``start`` (a checked game, or None: from the first event) up to ``last``."""
    checker = Chain(ledger.mapper, game_id, start.version if start else 0, start.state.last_hash if start else GENESIS_HASH)
    for stored in rows(ledger.recorder, game_id, gt=checker.version, lte=last):
        yield checker.check(stored).current_map(game_id)


def recorded(
    ledger: Any, game_id: UUID, *, skip_unreadable: bool = False, last: int | None = None
) -> tuple[list[Map], list[UnreadableRow], dict[str, int]]:
    """Every row's map as recorded (up to ``last``), without the chain checks (the audit makes its own,
    and says more), and the class version each event type was recorded in (as a log file's header
    gives them: one per type).

    Stops at the first row that cannot be read, unless ``skip_unreadable`` (a forensic copy keeps
    every row it can read); the rows that could not be read come back with the maps."""
    found: list[Map] = []
    damage: list[UnreadableRow] = []
    versions: dict[str, int] = {}
    for stored in rows(ledger.recorder, game_id, lte=last):
        try:
            row = decode_row(ledger.mapper, game_id, stored)
            version = row.fields.get("class_version", 1)
            if versions.setdefault(row.cls.__name__, version) != version:
                raise UnreadableRow(game_id, row.version, f"{row.cls.__name__} events are recorded in two class versions, "
                                                          f"{versions[row.cls.__name__]} and {version}")
            found.append(row.recorded)
        except UnreadableRow as e:
            damage.append(e)
            if not skip_unreadable:
                break
    return found, damage, versions
