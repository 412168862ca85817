"""Checked rows: a stored event row decoded in whatever schema wrote it, checked against the hash chain,
and applied to a game by the appliers (``core.events``). ``replays.verify`` builds games on them.

- an event row must decode and name an event type of the schema (else ``UnreadableRow``), carry the
  next version, and its hash must be ``chain(hash before it, its map as recorded)`` (else
  ``BrokenChain``: it reads, but it is not what was recorded). Both name the game and the version.
- ``Chain.fast`` is the hot path of every rebuild and time travel: a schema-3 row of an event in its
  current class version is decoded once (or not at all: a body seen before), its hash checked on the
  bytes it was stored in (``replays.rows.canonical_bytes``) and its fields handed to the applier,
  without copies. A row it does not take (older forms, a GameStarted, a class version to upcast, a hash
  that does not match) goes the general way, ``Chain.check`` then ``apply``, which says what is wrong
  with it.
"""

from __future__ import annotations

import typing
import hashlib
from itertools import islice
from operator import itemgetter

import msgpack
import msgspec
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from mtg_ledger.core import events as ev
from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.events.base import Applier
from mtg_ledger.core.hashing import chain
from mtg_ledger.core.state import GameState
from mtg_ledger.core.state_hash import map_header
from mtg_ledger.core.table import Game
from mtg_ledger.core.topics import UnknownTopic, canonical, resolve
from mtg_ledger.replays.stores import rows as row_form
from mtg_ledger.replays.stores.pages import PAGE, Page, RawRow, collector_paused, raw_pages, raw_rows, rows

__all__ = [  # with what ``replays.stores.pages`` gives (re-exported: the rows ``replays.verify`` checks)
    "PAGE", "BrokenChain", "Chain", "Page", "RawRow", "Row", "StoreDamage", "Unreadable", "UnreadableRow", "apply", "brief",
    "collector_paused", "decode_row", "missing_table", "note_class_version", "raw_pages", "raw_rows", "resolves", "rows",
]

Map = dict[str, Any]
_STORAGE_ONLY = row_form.STORAGE_ONLY
# A row's chain message is a block or two. OpenSSL's sha256 (hashlib's), with this machine's SHA instructions,
# made the rebuild of the bench's game 4% faster in three runs of 11 to 15 interleaved pairs (2026-12-04), where
# the interpreter's (core.hashing.short_sha256) had been 7% faster on the machine of 2026-12-03: see
# docs/explanation/performance.md. The same digests either way.
_sha256 = hashlib.sha256
_pack = msgpack.Packer(use_bin_type=True).pack


class StoreDamage(Exception):
    """Stored rows of a game that fail the ledger's checks; the message names the game and the version."""

    def __init__(self, game_id: object, version: int, problem: Phrase) -> None:
        from mtg_ledger.replays.messages import say  # the catalogues (TOML), read when damage is found

        super().__init__(say("store.damage", {"game": game_id, "v": version, "problem": problem}))
        self.game_id = game_id
        self.version = version
        self.problem = problem


class UnreadableRow(StoreDamage):
    """A stored row this version cannot read: bytes that do not decode, an unknown type, fields
    that are not an event's, or an event the rules cannot apply."""


class BrokenChain(StoreDamage):
    """Rows that read, but are not what was recorded: an edited, missing, duplicated or moved event."""


def brief(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text[:160]}" if text else type(error).__name__


@dataclass(slots=True)
class Row:
    """One stored event row, decoded: its map as recorded (what the chain hash covers)."""

    version: int
    cls: type[ev.GameEvent]
    fields: dict[str, Any]
    recorded: Map
    digest: bytes | None = None  # the stored hash as bytes (a schema-3 row)
    canonical: bytes | None = None  # the canonical bytes its hash covers, when the row gave them cheaply

    def event(self, game_id: UUID) -> ev.GameEvent:
        """The domain event, as the library's mapper makes it (upcast to this engine's class version)."""
        state = dict(self.fields)
        state.setdefault("timestamp", row_form.NO_TIME)  # not stored since schema 3
        state["originator_id"] = game_id
        state["originator_version"] = self.version
        row_form.upcast(self.cls, state)
        if self.cls is ev.GameStarted:
            topic = state.get("originator_topic")
            if not isinstance(topic, str) or resolves(topic) is not Game:
                raise UnreadableRow(game_id, self.version, Phrase("store.starts_no_game", {"topic": topic}))
            state["originator_topic"] = canonical(topic)
        event = object.__new__(self.cls)
        object.__setattr__(event, "__dict__", state)
        return event

    def current_map(self, game_id: UUID) -> Map:
        """The contract map in this engine's schema (the recorded one unless an upcaster applies)."""
        if self.fields.get("class_version", 1) == getattr(self.cls, "class_version", 1):
            return self.recorded
        return self.event(game_id).to_map()


def resolves(topic: str) -> type | None:
    try:
        return resolve(topic)
    except UnknownTopic:
        return None


_CLASSES: dict[str, type[ev.GameEvent] | None] = {}  # a stored topic's event class (None: not a game's event)


def _event_class(game_id: UUID, v: int, topic: str) -> type[ev.GameEvent]:
    cls = _CLASSES.get(topic)
    if cls is None:
        found = resolves(topic)
        if found is None:
            raise UnreadableRow(game_id, v, Phrase("store.unknown_type", {"topic": topic}))
        if not (isinstance(found, type) and issubclass(found, ev.GameEvent)):
            raise UnreadableRow(game_id, v, Phrase("store.not_game_event", {"kind": canonical(topic)}))
        cls = _CLASSES[topic] = found
    return cls


class Unreadable(str):
    """The topic a recorder gives the versions of a stored row it cannot read (a PostgreSQL save row that does
    not decompress: ``replays.stores.pg_saves``), with an empty state: the problem goes with them to the
    checks, which name it at the first of those versions the chain reaches, as any unreadable row's."""

    problem: Phrase

    def __new__(cls, problem: Phrase) -> Unreadable:
        made = super().__new__(cls, "")
        made.problem = problem
        return made


def decode_row(mapper: Mapper[UUID], game_id: UUID, stored: StoredEvent) -> Row:
    """A stored event row, decoded: schema 3's form (``replays.rows``) or an older one (a msgpack map)."""
    v = stored.originator_version
    if type(stored.topic) is Unreadable:
        raise UnreadableRow(game_id, v, stored.topic.problem)
    cls = _event_class(game_id, v, stored.topic)
    data = stored.state
    digest: bytes | None = None
    try:
        if row_form.is_event_row(data):
            fields = mapper.transcoder.decode(data[row_form.BODY :])
            digest = data[1 : row_form.BODY]
        else:
            fields = mapper.transcoder.decode(data)
    except Exception as e:  # whatever garbage bytes make the decoder raise
        raise UnreadableRow(game_id, v, Phrase("store.undecodable", {"error": brief(e)})) from None
    if not isinstance(fields, dict) or "v" in fields or "type" in fields or (digest is None and not isinstance(fields.get("hash"), str)):
        raise UnreadableRow(game_id, v, Phrase("store.not_stored_kind", {"kind": cls.__name__}))
    _check_class_version(game_id, v, cls, fields)
    canonical_bytes = None
    if digest is not None:
        if "hash" in fields:
            raise UnreadableRow(game_id, v, Phrase("store.not_stored_kind", {"kind": cls.__name__}))
        canonical_bytes = row_form.canonical_bytes(cls.__name__, v, fields, data[row_form.BODY :])
        fields["hash"] = digest.hex()
    recorded: Map = {"v": v, "type": cls.__name__}
    if fields.get("class_version", 1) == getattr(cls, "class_version", 1):
        # in the order of the class's fields, as the engine made the map (GameEvent.to_map), whatever order
        # the row keeps them in (schema 3 sorts them): the same event reads as the same map, byte for byte
        recorded.update((k, fields[k]) for k in cls.field_names if k in fields)
    recorded.update((k, x) for k, x in fields.items() if k not in _STORAGE_ONLY and k != "hash" and k not in recorded)
    recorded["hash"] = fields["hash"]  # last, as in a contract map (GameEvent.to_map) and a log file
    return Row(v, cls, fields, recorded, digest, canonical_bytes)


def _check_class_version(game_id: UUID, v: int, cls: type[ev.GameEvent], fields: Map) -> None:
    """The class version a row says its event was recorded in (outside the chain, which covers only the
    fields) is one it can have been: none (1), or an int from 2 to this engine's, whose form holds only
    fields it had. A row altered there would be upcast, and exported, as another form."""
    if "class_version" not in fields:
        version = 1
    else:
        version = fields["class_version"]
        current = getattr(cls, "class_version", 1)
        if type(version) is not int or not 1 < version <= current:
            raise UnreadableRow(game_id, v, Phrase("store.class_version", {"kind": cls.__name__, "found": version, "current": current}))
    if not ev.NEVER_IN.get((cls.__name__, version), frozenset()).isdisjoint(fields):
        raise UnreadableRow(game_id, v, Phrase("store.not_that_form", {"kind": cls.__name__, "version": version}))


def chained(previous: bytes, row: Row) -> bool:
    """Whether the row's hash is ``sha256(previous + canonical(its map as recorded))``."""
    try:
        if row.canonical is not None and row.digest is not None and hashlib.sha256(previous + row.canonical).digest() == row.digest:
            return True
        return bool(row.recorded["hash"] == chain(previous.hex(), row.recorded))  # the map, encoded again
    except Exception:  # a map msgpack cannot encode canonically (keys of mixed types, ...) was not recorded so
        return False


def note_class_version(versions: dict[str, int], game_id: UUID, row: Row) -> None:
    """Note the class version ``row``'s type was recorded in (as a log file's header gives them: one per
    type); a game whose events of one type are recorded in two raises ``UnreadableRow``."""
    kind, version = row.cls.__name__, row.fields.get("class_version", 1)
    if versions.setdefault(kind, version) != version:
        raise UnreadableRow(game_id, row.version, Phrase("store.two_versions", {"kind": kind, "one": versions[kind], "other": version}))


def missing_table(error: BaseException) -> bool:
    """The store has no ledger tables yet: it holds no game (a reader never creates them)."""
    text = str(error)
    return "no such table" in text or ("relation" in text and "does not exist" in text)


class Chain:
    """Checks rows one after another from a verified point (version, hash)."""

    def __init__(self, mapper: Mapper[UUID], game_id: UUID, version: int, previous: str) -> None:
        self.mapper = mapper
        self.game_id = game_id
        self.version = version
        self.previous = bytes.fromhex(previous)

    def check(self, stored: StoredEvent) -> Row:
        expected = self.version + 1
        v = stored.originator_version
        if v != expected:
            raise BrokenChain(self.game_id, expected, Phrase("store.row_missing", {"v": expected, "w": v}))
        row = decode_row(self.mapper, self.game_id, stored)
        if not chained(self.previous, row):
            raise BrokenChain(self.game_id, v, Phrase("store.row_altered"))
        self.version = v
        self.previous = row.digest if row.digest is not None else bytes.fromhex(row.recorded["hash"])
        return row

    def fast(self, state: GameState, page: Page, start: int) -> int:
        """Check and apply ``page.rows[start:]`` to ``state`` while its rows take the hot path (see the
        module docstring); returns the index of the first row that must go the general way, nothing of
        it applied (``len(page.rows)`` when every row went)."""
        entries = _entries(page.names)
        sha256, join, pack, fixmap = _sha256, b"".join, _pack, _FIXMAP
        previous, version = self.previous, self.version
        first = version
        # (topic, state) of the rows that are the next versions, in order: a page read as a run of versions
        # is (from the chain's next version on); a page of rows with their versions, up to the first that is not
        pairs = _next_versions(page, start, version + 1)
        try:
            for topic, data in pairs:
                v = version + 1
                entry = entries.get(topic)
                if entry is None or data[0] != _EVENT_ROW:
                    break
                tail, applier, seen, decode = entry
                body = data[_BODY:]
                known = None if seen is None else seen.get(body)
                if known is None:
                    try:  # the fields: plain data, string keys (else the general way reads them)
                        fields = decode(body)
                        n = len(fields)
                    except Exception:
                        break
                    # a map of n keys written with a one-byte header, as the engine writes its few fields
                    # (so no key twice): its canonical bytes are the header for n + 2 keys and the rest of
                    # the body as it is (a row of an event type the hot path takes holds no storage-only key)
                    if n > _FIXMAP_MOST or body[0] != 0x80 | n:
                        break
                    head, rest = fixmap[n + 2], data[_FIELDS:]
                    if seen is not None and all(type(x) is str for x in fields.values()):
                        if len(seen) >= _SEEN_KEPT:
                            seen.clear()
                        seen[body] = (fields, head + rest + tail)
                    message = join((previous, head, rest, tail, pack(v)))
                else:  # a body of its type seen before, decoded then: one map for all its rows
                    fields, canonical = known
                    message = join((previous, canonical, pack(v)))
                # canonical(map): the map's header and fields (sorted, every key before "type"), then
                # "type" and "v": nothing is encoded again but the version
                digest = data[1:_BODY]
                if sha256(message).digest() != digest:
                    break  # the general way says what is wrong with it
                try:
                    applier(state, fields)  # core.events.apply_event, spelled out: the appliers read the fields
                except Exception as e:  # a row that hashes but holds what no appliers can take (a re-hashed forgery)
                    raise UnreadableRow(self.game_id, v, Phrase("store.cannot_apply", {"error": brief(e)})) from None
                version, previous = v, digest
            return start + version - first
        finally:
            if version != first:  # once a run ends: the version and chain hash of the last event applied
                state.version = version
                state.last_hash = previous.hex()
            self.version, self.previous = version, previous


Entry = tuple[bytes, Applier, dict[bytes, tuple[dict[str, Any], bytes]] | None, Callable[[bytes], Any]]  # see _fast_kinds
_PAIR = itemgetter(1, 2)  # a row's topic and state, of a row that carries its version


def _next_versions(page: Page, start: int, expected: int) -> Iterator[tuple[Any, bytes]]:
    """(topic, state) of ``page.rows[start:]`` while they are versions ``expected``, ``expected + 1``, ..."""
    rows = page.rows
    if page.first is not None:  # a run: row i is version first + i
        return iter(rows if start == 0 else islice(rows, start, None)) if page.first + start == expected else iter(())
    end = start
    while end < len(rows) and rows[end][0] == expected + end - start:
        end += 1
    return map(_PAIR, islice(rows, start, end))


def _fast_kinds() -> dict[str, Entry]:
    """Stored topic -> (the canonical bytes after an event's fields but for its version, its applier, the
    bodies of its rows seen so far with their maps and canonical bytes up to the version, the decoder of its
    fields), for the events the hot path takes: class version 1, every field before "type". Bodies are
    remembered for the types whose fields are all strings (who has priority, who passed: most of a game's rows,
    and a handful of bodies), decoded once into a map that no applier changes or keeps (``core.events.base``);
    every other type's rows are decoded as they come."""
    found: dict[str, Entry] = {}
    for name, cls in ev.EVENT_TYPES.items():
        if cls is ev.GameStarted or cls.class_version != 1 or not cls.field_names or not all(f < "type" for f in cls.field_names):
            continue
        hints = typing.get_type_hints(cls.fields_type).values()
        found[name] = (row_form.tail(name), ev.APPLIERS[name], {} if all(hint is str for hint in hints) else None, _decoder(cls, hints))
    return found


# Field types a row's msgpack holds as msgspec reads them, value for value, as msgpack's own decoder does:
# nothing of them is an extension type or a map with keys other than strings.
_PLAIN: frozenset[Any] = frozenset({str, int, bool, int | None, str | None, list[int], list[str], dict[str, int]})


def _decoder(cls: type[ev.GameEvent], hints: Iterable[Any]) -> Callable[[bytes], Any]:
    """How the hot path decodes an event type's fields. Where every field is of a plain type (``_PLAIN``),
    msgspec's decoder of the type's fields, in half of msgpack's time (0.12 against 0.23 µs a row): it takes
    a body only if it is a map of string keys whose values are of the fields' types, and gives the same values
    as msgpack; any other body (another type in a field, an extension type, a key that is not a string, a field
    missing) raises, and the row goes the general way, as a body msgpack cannot decode does. A key beyond the
    fields it leaves out, so that the map holds fewer keys than its header counts: the hot path's check of that
    count sends the row the general way. A type with a field of any type
    (``Any``), whose values msgspec and msgpack may read apart (a timestamp extension: a datetime, a
    ``Timestamp``), keeps msgpack's decoder."""
    if all(hint in _PLAIN for hint in hints):
        return msgspec.msgpack.Decoder(cls.fields_type).decode
    return msgpack.unpackb


def _entries(names: Mapping[Any, str] | None) -> dict[Any, Entry]:
    """The hot path's entries by the topics as a page keeps them (names, or a topics table's ids)."""
    if names is None:
        return _FAST
    return {key: _FAST[name] for key, name in names.items() if name in _FAST}


_FAST = _fast_kinds()
_SEEN_KEPT = 1024  # bodies remembered for a type; then forgotten, all at once
_FIXMAP = [map_header(n) for n in range(16)]
_FIXMAP_MOST = 13  # a map of n keys has a one-byte header (0x80 | n) up to 15: with "type" and "v" added, up to 13
_EVENT_ROW = row_form.EVENT_ROW
_BODY = row_form.BODY  # where a schema-3 row's fields start
_FIELDS = _BODY + 1  # past their map header


def apply(game_id: UUID, game: Game | None, row: Row) -> Game:
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
        raise UnreadableRow(game_id, row.version, Phrase("store.cannot_apply", {"error": brief(e)})) from None
    assert isinstance(mutated, Game)
    return mutated
