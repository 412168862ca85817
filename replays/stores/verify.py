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
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from mtg_ledger.core import events as ev
from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import GENESIS_HASH
from mtg_ledger.core.catalog import Catalog
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game, GameSnapshot
from mtg_ledger.replays.stores import snapshot_delta as delta
from mtg_ledger.replays.stores.checked import (  # re-exported: what a read raises, and the rows it checks
    BrokenChain,
    Chain,
    Row,
    StoreDamage,
    Unreadable,
    UnreadableRow,
    apply,
    brief,
    collector_paused,
    decode_row,
    missing_table,
    note_class_version,
    raw_pages,
    resolves,
    rows,
)

__all__ = ["BrokenChain", "Chain", "Row", "SnapshotRejected", "StoreDamage", "UnreadableRow", "brief", "load", "maps",
           "missing_table", "recorded", "rows", "snapshot_game"]

Map = dict[str, Any]
SNAPSHOT_TRIES = 3  # snapshots tried, newest first, before folding from the first event


class SnapshotRejected(Exception):
    """A snapshot the chain does not vouch for; the read falls back to the events."""

    def __init__(self, version: int, why: Phrase, keyframe: int | None = None) -> None:
        from mtg_ledger.replays.messages import say  # the catalogues (TOML), read when a snapshot is turned away

        self.reason = say(why.id, why.params)  # ``why`` in English
        super().__init__(f"snapshot at version {version}: {self.reason}")
        self.version, self.why = version, why
        self.keyframe = keyframe  # a delta whose keyframe (at this version) is missing or damaged


# --- games -------------------------------------------------------------------------------------------


def snapshot_game(mapper: Mapper[UUID], game_id: UUID, stored: StoredEvent, recorder: Any = None) -> tuple[Game, str]:
    """The game a stored snapshot holds, after the checks it can make on its own, and its state's hash.
    ``recorder`` (the snapshots' recorder) gives a delta its keyframe (``replays.snapshot_delta``)."""
    s = stored.originator_version
    if type(stored.topic) is Unreadable:  # a row its recorder cannot read
        raise SnapshotRejected(s, Phrase("snapshot.cannot_read", {"error": stored.topic.problem}))
    try:
        snapshot = mapper.to_domain_event(stored)
    except Exception as e:
        raise SnapshotRejected(s, Phrase("snapshot.cannot_read", {"error": brief(e)})) from None
    if not isinstance(snapshot, GameSnapshot) or resolves(getattr(snapshot, "topic", "")) is not Game:
        raise SnapshotRejected(s, Phrase("snapshot.not_a_game"))
    fields = dict(snapshot.state) if isinstance(snapshot.state, dict) else {}
    recorded_hash = fields.pop("state_hash", None)
    state: Any
    if delta.is_stored_form(fields):
        state = _stored_state(mapper, game_id, s, fields, recorder)
    else:  # the whole state, as schemas 1 and 2 stored it
        state = fields.get("state")
    if not isinstance(state, GameState) or state.version != s:
        raise SnapshotRejected(s, Phrase("snapshot.not_state_after", {"v": s}))
    try:
        own_hash = state.state_hash(remember=False)  # its lists are the keyframe's, new at every read
    except Exception as e:
        raise SnapshotRejected(s, Phrase("snapshot.cannot_hash", {"error": brief(e)})) from None
    if recorded_hash is not None and own_hash != recorded_hash:
        raise SnapshotRejected(s, Phrase("snapshot.hash_mismatch"))
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
        raise SnapshotRejected(s, e.why, keyframe=e.base) from None
    except delta.BadSnapshot as e:
        raise SnapshotRejected(s, Phrase("snapshot.cannot_read", {"error": e.why})) from None
    except Exception as e:
        raise SnapshotRejected(s, Phrase("snapshot.cannot_read", {"error": brief(e)})) from None
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
                    game, state_hash = snapshot_game(ledger.mapper, game_id, stored, ledger.snapshots.recorder)
                    pin_cards(ledger, game_id, game)
                    return fold(ledger, game_id, game, state_hash, version=version)
                except SnapshotRejected as e:
                    if rejected is not None:
                        rejected(e)
                    if e.keyframe is not None:
                        below = e.keyframe - 1
                        break
            if below is None or below < 1:
                break
    return fold(ledger, game_id, None, None, version=version)


def pin_cards(ledger: Any, game_id: UUID, game: Game) -> None:
    """A snapshot holds no card definitions (they never change in a game): the game's are those its
    checked GameStarted records (schema 5; before, the classic ones its upcast form names).

    The first row is read at every call; once checked, it is remembered with the catalog it gives
    (``_FIRST_ROWS``), and a later read whose row has the same topic and the same bytes takes that catalog
    rather than decode and hash the row again: the same bytes check the same way. A GameStarted holds
    every library (141 KB in a 1,000,000-event game of 8,800-card libraries: 2 ms to check)."""
    try:
        stored = next(rows(ledger.recorder, game_id, lte=1, first_page=1), None)
        if stored is None:
            return
        known = _FIRST_ROWS.get(game_id)
        if known is not None and type(stored.topic) is str and known[0] == stored.topic and known[1] == stored.state:
            catalog = known[2]
        else:
            first = Chain(ledger.mapper, game_id, 0, GENESIS_HASH).check(stored).current_map(game_id)
            catalog = Catalog.of(first["cards"]) if "cards" in first else None
            if len(_FIRST_ROWS) >= _FIRST_ROWS_KEPT:
                _FIRST_ROWS.clear()
            _FIRST_ROWS[game_id] = (stored.topic, stored.state, catalog)
    except Exception as e:
        raise SnapshotRejected(game.version, Phrase("snapshot.cannot_read", {"error": brief(e)})) from None
    if catalog is not None:
        game.state.cards = catalog


_FIRST_ROWS: dict[UUID, tuple[str, bytes, Catalog | None]] = {}  # a game's first row, checked: its topic, bytes, catalog
_FIRST_ROWS_KEPT = 256  # games remembered (a row each: the size of a GameStarted); past that, start again


def fold(ledger: Any, game_id: UUID, game: Game | None, state_hash: str | None, *, version: int | None) -> Game | None:
    """Fold the checked events after ``game`` (a snapshot's game, to be vouched for, with the hash of its
    state; or None) up to ``version``."""
    start = game.version if game is not None else 0
    checker = Chain(ledger.mapper, game_id, start, game.state.last_hash if game is not None else GENESIS_HASH)
    unpinned = game  # the snapshot's game, until a TurnBegan vouches for it
    with collector_paused():  # the rows as they are read, and the maps and objects the appliers make
        for page in raw_pages(ledger.recorder, game_id, gt=start, lte=version):
            i, size = 0, len(page.rows)
            while i < size:
                if unpinned is None and game is not None:
                    i = checker.fast(game.state, page, i)  # the hot path, while the rows take it
                    game.version = game.state.version  # which leaves the aggregate's version to here
                    if i == size:
                        break
                stored = page.stored(game_id, i)
                i += 1
                try:
                    checked = checker.check(stored)
                    if unpinned is not None and checked.cls is ev.TurnBegan:
                        _vouch(unpinned.state, checked, start, state_hash if checked.version == start + 1 else None)
                        unpinned = None
                    game = apply(game_id, game, checked)
                except StoreDamage as damage:
                    if unpinned is not None and (damage.version == start + 1 or isinstance(damage, UnreadableRow)):
                        raise SnapshotRejected(start, Phrase("snapshot.events_do_not_follow", {"problem": damage.problem})) from None
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
        raise SnapshotRejected(start, Phrase("snapshot.state_not_recorded", {"v": turn_began.version}))


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
        raise SnapshotRejected(start, Phrase("snapshot.cannot_vouch", {"error": brief(e)})) from None
    raise SnapshotRejected(start, Phrase("snapshot.no_turn_yet"))


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
            note_class_version(versions, game_id, row)
            found.append(row.recorded)
        except UnreadableRow as e:
            damage.append(e)
            if not skip_unreadable:
                break
    return found, damage, versions
