"""The canonical state hash, assembled from pieces instead of one big sorted copy of the state.

The hash is part of the log's schema (TurnBegan records it), so its bytes are fixed: sha256 of the
msgpack of the whole state as a map, keys sorted at every level (``reference_state_hash``, the
definition). msgpack writes a map or an array as a header followed by its items one after another,
so those same bytes can be put together from the encodings of the state's parts, and the parts
that did not change need not be sorted and encoded again.

Each permanent's canonical encoding is remembered, looked up by the msgpack of its field values
(a quick encoding: unsorted, no keys). Nothing is ever invalidated, so nothing can go stale: a
permanent whose values changed, whether an applier assigned a field or changed a list or a map in
place, gives other lookup bytes; equal lookup bytes mean equal values of equal msgpack types
(``True`` is not ``1``), which have equal canonical encodings. The memo is shared by every state
in the process and emptied when it grows large; it changes how fast a hash is found, never what it
is. No I/O, no clock.
"""

from __future__ import annotations

import hashlib
import struct
import threading
from dataclasses import fields
from operator import itemgetter
from typing import Any, Callable, NamedTuple

import msgpack

from mtg_ledger.core.hash_walks import RUN, walked_runs
from mtg_ledger.core.hashing import SCALAR_TYPES, digest, pack_pairs, sort_keys
from mtg_ledger.core.written import Settled, Written, moment, unwritten, unwritten_each

_MEMO_LIMIT = 1 << 15  # encodings remembered per class (some 10 MB at most); past that, start again
_CHUNK = RUN  # records looked up at once (``remembered_records``), a run of ``core.hash_walks``
_CHUNKS_LIMIT = 1 << 11  # runs remembered per class (some 10 MB at most, the encodings shared with ``memo``)
_SEEN_LIMIT = 1 << 9  # runs remembered by identity per class (their records kept alive: some 30 MB at most)
_PATCHED = 4  # a run remembered by identity is encoded from its own while at most one record in this many changed
_NESTED = ("players", "battlefield", "stack", "effects", "pending_triggers")
UNHASHED = "cards"  # the game's card definitions: GameStarted's hash vouches for them (schema 5)


def reference_state_hash(state: Any) -> str:
    """The definition: msgpack of ``sort_keys(state.to_dict())`` without the card definitions, sha256, hex."""
    plain = state.to_dict()
    plain.pop(UNHASHED, None)
    return digest(sort_keys(plain))


def state_hash(state: Any, remember: bool = True) -> str:
    """``reference_state_hash(state)``, byte for byte, with each permanent's encoding remembered.
    ``remember=False``: neither the state's long lists (``_strings``) nor its permanents by identity
    (``remembered_records``) are remembered for the next hash: a state read from a store to be checked once,
    whose lists and permanents no later hash will meet."""
    return hashlib.sha256(b"".join(_state_parts(state, remember))).hexdigest()


# --- msgpack headers (the msgpack spec: fixmap/map16/map32, fixarray/array16/array32) -------------


def map_header(n: int) -> bytes:
    if n < 16:
        return bytes((0x80 | n,))
    if n < 1 << 16:
        return b"\xde" + struct.pack(">H", n)
    return b"\xdf" + struct.pack(">I", n)


def array_header(n: int) -> bytes:
    if n < 16:
        return bytes((0x90 | n,))
    if n < 1 << 16:
        return b"\xdc" + struct.pack(">H", n)
    return b"\xdd" + struct.pack(">I", n)


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


# --- records (a Permanent, a Player, a StackObject...) -------------------------------------------


def visible(obj: Any) -> dict[str, Any]:
    """A record's attributes as its canonical form has them: those of the class's ``SPARSE`` fields
    (added after older games were recorded) that hold their default are left out, so a game that never
    used them keeps the bytes, and hashes, it had."""
    out = dict(vars(obj))
    sparse: dict[str, Any] | None = getattr(type(obj), "SPARSE", None)
    if sparse:
        for k, default in sparse.items():  # a few fields: a copy, then those left out (the others' order kept)
            if k in out and out[k] == default and type(out[k]) is type(default):
                del out[k]
    return out


def encode_record(obj: Any, pack: Callable[[Any], bytes] = _pack, remember: bool = True) -> bytes:
    """msgpack of the record's attributes as a map, keys sorted at every level; a long list of strings
    (a library) from the one encoded before it (``_strings``), the rest encoded afresh."""
    values = visible(obj)
    if not any(type(v) is list and len(v) >= _LONG for v in values.values()):
        return pack({k: sort_keys(values[k]) for k in sorted(values)})
    parts = [map_header(len(values))]
    plain: list[tuple[str, Any]] = []
    for k in sorted(values):
        v = values[k]
        body = _strings(v, remember) if type(v) is list and len(v) >= _LONG else None
        if body is None:
            plain.append((k, v if type(v) in SCALAR_TYPES else sort_keys(v)))
            continue
        if plain:
            parts.append(map_items(plain))
            plain = []
        parts += (pack(k), array_header(len(v)), body)
    if plain:
        parts.append(map_items(plain))
    return b"".join(parts)


def map_items(pairs: list[tuple[str, Any]]) -> bytes:
    """The items of a map holding ``pairs`` in their order (each value's maps sorted already), as msgpack
    writes them after the map's header: one pack for a run of a map's keys and values."""
    return pack_pairs(pairs)[len(map_header(len(pairs))) :]


# --- long lists of strings (a library: hundreds of card names, a card or two fewer each turn) ------


class _Strings(NamedTuple):
    """A list of strings as it was last encoded (a copy; every item exactly a ``str``), and the encodings
    of its items one after another (the array less its header)."""

    items: list[str]
    body: bytes


_LONG = 64  # a list this long is looked up in ``_STRINGS``; a shorter one is encoded afresh
# Items of the lists remembered, in all; past that, start again. A bound on items, not lists: a state read from
# a store holds strings of its own (a decoded keyframe's), which the copies kept here keep alive. By a count of
# lists (1,024), time travel in a game of 8,800-card graveyards held 1,024 copies of them (some 600 MB) and
# slowed every read while the heap grew; 2^20 items are some 1,100 libraries of 900 cards.
_STRINGS_ITEMS = 1 << 20
_STRINGS: dict[int, _Strings] = {}  # by the id of the list last encoded (only ever a hint: see ``_strings``)
_held = [0]  # the items of the lists in ``_STRINGS``
_remembering = threading.Lock()
_strict = threading.local()  # a Packer for each thread that packs exact types only (``_strict_pack``)


def _strict_pack(value: Any) -> bytes:
    """msgpack of ``value``, refusing (TypeError) any value not exactly of a type msgpack writes (a ``str``
    subclass, a tuple): what it packs, it packs as ``msgpack.packb`` does."""
    try:
        packer = _strict.packer
    except AttributeError:
        packer = _strict.packer = msgpack.Packer(use_bin_type=True, strict_types=True)
    return bytes(packer.pack(value))


def _strings(value: list[Any], remember: bool = True) -> bytes | None:
    """msgpack of a list whose items are all exactly ``str``, less the array's header (else None), from
    the encoding of the list it was when last encoded: the same list less some first items (cards drawn,
    milled) or with some added at its end (cards put into a graveyard). The remembered list is a copy,
    compared item by item with this one (``==``: for two strings, the same characters, so the same
    bytes); its id is only where it is looked for. Anything else, or a list not met before, is encoded
    afresh. Whichever way it was made, the encoding is remembered for the next, unless not ``remember``."""
    known = _STRINGS.get(id(value))
    if known is not None:
        before, n = known.items, len(value)
        cut = len(before) - n
        if cut == 0 and before == value:  # the same list
            return known.body
        if cut > 0 and before[cut:] == value:  # the same list, less its ``cut`` first items
            return _kept(value, known.body[len(_strict_pack(before[:cut])) - len(array_header(cut)) :], remember)
        if cut < 0 and value[: len(before)] == before:  # the same list, with items added at its end
            try:
                more = _strict_pack(value[len(before) :])
                "".join(value[len(before) :])  # (each added item a string: str.join looks at each in C)
            except TypeError:
                return None
            return _kept(value, known.body + more[len(array_header(-cut)) :], remember)
    try:
        "".join(value)  # every item a string (or a subclass, which the strict packer refuses)
        whole = _strict_pack(value)
    except TypeError:
        return None
    return _kept(value, whole[len(array_header(len(value))) :], remember)


def _kept(value: list[str], body: bytes, remember: bool) -> bytes:
    """``body``; with ``remember``, remembered with a copy of ``value`` by its id, within ``_STRINGS_ITEMS``
    items in all."""
    if not remember:
        return body
    with _remembering:
        old = _STRINGS.get(id(value))
        held = _held[0] - (len(old.items) if old is not None else 0)
        if held + len(value) > _STRINGS_ITEMS:
            _STRINGS.clear()
            held = 0
        _STRINGS[id(value)] = _Strings(list(value), body)
        _held[0] = held + len(value)
    return body


def remembered_records(objs: list[Any], pack: Callable[[Any], bytes], remember: bool = True) -> list[bytes]:
    """``encode_record`` of each, from the memo when a record with the same values was encoded before.

    A record is remembered by the msgpack of its fields' values in a fixed order: two records with
    equal such bytes hold equal msgpack values (types included: ``True`` is not ``1``), so their
    canonical encodings are equal too. Values changed in any way, in place or not, give other bytes.
    Records are looked up ``_CHUNK`` at a time first, by the msgpack of the list of their values (an
    array of arrays, which reads back item by item: equal bytes, equal values for each record), so a
    board that did not change since is a few lookups, not one a permanent; a run of which only a few
    permanents were written since (one tapped, one entered at the board's end) keeps the encodings of
    the others (``_patched``), and the runs of a battlefield list none of whose permanents were written since
    its last hash are taken from it without a look at each (``core.hash_walks``). ``remember=False``: no run
    is remembered (the records of a state read to be checked once, which no later hash will meet; remembered,
    they would be kept alive).
    """
    if remember and objs and isinstance(objs[0], Written):  # a battlefield: its runs unchanged since its last hash kept
        return walked_runs(objs, lambda run: _remembered_chunk(run, pack, remember))
    out: list[bytes] = []
    for start in range(0, len(objs), _CHUNK):
        out.extend(_remembered_chunk(objs[start : start + _CHUNK], pack, remember)[0])
    return out


def _remembered_chunk(objs: list[Any], pack: Callable[[Any], bytes], remember: bool = True) -> tuple[list[bytes], _Seen | None]:
    """The run's encodings, and the run as remembered by identity (None: it is not)."""
    cls = type(objs[0])
    shape = _SHAPES.get(cls) or _shape(cls)
    ids = tuple(map(id, objs))
    seen = shape.seen.get(ids)
    if seen is not None and unwritten(ids, seen.since) and not any(seen.held):  # the same records, not changed since
        return seen.found, seen
    since = moment()
    by_identity = remember and shape.settled is not None
    if by_identity:  # the run remembered by identity, or the one a record shorter (a permanent entered)
        base = seen if seen is not None else shape.seen.get(ids[:-1]) if len(ids) > 1 else None
        patched = _patched(shape, objs, ids, base, since, pack) if base is not None else None
        if patched is not None:
            return patched.found, patched
    attributes = list(map(vars, objs))
    if set(map(type, objs)) != {cls} or set(map(len, attributes)) != {shape.count}:  # another class, another attribute
        return _remembered_one_by_one(objs, pack), None
    try:
        key = pack(list(map(shape.values, attributes)))
    except (KeyError, TypeError, ValueError):  # a field deleted, a value msgpack cannot take
        return _remembered_one_by_one(objs, pack), None
    found = shape.chunks.get(key)
    if found is None:
        found = _remembered_one_by_one(objs, pack)
        if len(shape.chunks) >= _CHUNKS_LIMIT:
            shape.chunks.clear()
        shape.chunks[key] = found
    return found, _remember_seen(shape, objs, ids, attributes, since, found) if by_identity else None


class _Seen(NamedTuple):
    """A run of records as they were at ``since`` (a ``core.written`` moment), and their encodings: still
    theirs while none has been written since and the lists and maps they hold (``held``, all empty then)
    are still empty. The records are kept, so no other record takes one of their ids."""

    records: list[Any]
    since: int
    held: tuple[Any, ...]
    found: list[bytes]


def _remember_seen(shape: _Shape, objs: list[Any], ids: tuple[int, ...], attributes: list[Any], since: int, found: list[bytes]) -> _Seen | None:
    """Remember the run by its records' identities, when only a noted write can change them while the lists
    and maps they hold stay empty (``Settled.held_by``); the run so remembered, or None."""
    assert shape.settled is not None
    held = shape.settled.held_by(attributes)
    return None if held is None else _keep_seen(shape, ids, _Seen(objs, since, held, found))


def _keep_seen(shape: _Shape, ids: tuple[int, ...], seen: _Seen) -> _Seen:
    if len(shape.seen) >= _SEEN_LIMIT:
        shape.seen.clear()
    shape.seen[ids] = seen
    return seen


def _patched(shape: _Shape, objs: list[Any], ids: tuple[int, ...], base: _Seen, since: int, pack: Callable[[Any], bytes]) -> _Seen | None:
    """The run from ``base``, the run remembered by identity (this one, or the one a record shorter: a
    permanent entered at the board's end), with only the records written since ``base`` and the one added
    encoded again; remembered by identity in turn. None (the run is looked up whole)
    when more than one record in ``_PATCHED`` changed, or a changed one cannot be remembered so.
    The others were unwritten from ``base.since`` until now, after ``since``: as they were at ``since``."""
    assert shape.settled is not None
    if any(base.held):
        return None
    kept = len(base.found)
    changed = [i for i, same in enumerate(unwritten_each(ids[:kept], base.since)) if not same]
    changed += range(kept, len(ids))
    if len(changed) * _PATCHED > len(ids):
        return None
    records = [objs[i] for i in changed]
    attributes: list[dict[str, Any]] = [vars(r) for r in records]
    if any(type(r) is not type(objs[0]) for r in records) or any(len(a) != shape.count for a in attributes):
        return None
    try:
        held = shape.settled.held_by(attributes)
    except KeyError:  # a field deleted (and another attribute added)
        return None
    if held is None:
        return None
    width = len(shape.settled.holders)  # the lists and maps of a record, one after another in ``held``
    found, holders = base.found + [b""] * (len(ids) - kept), list(base.held) + [()] * (width * (len(ids) - kept))
    for j, (i, encoded) in enumerate(zip(changed, _remembered_one_by_one(records, pack), strict=True)):
        found[i] = encoded
        holders[i * width : (i + 1) * width] = held[j * width : (j + 1) * width]
    return _keep_seen(shape, ids, _Seen(objs, since, tuple(holders), found))


def _remembered_one_by_one(objs: list[Any], pack: Callable[[Any], bytes]) -> list[bytes]:
    out: list[bytes] = []
    for obj in objs:
        cls = type(obj)
        shape = _SHAPES.get(cls) or _shape(cls)
        values = vars(obj)
        if len(values) != shape.count:  # an attribute beyond the dataclass's fields
            out.append(encode_record(obj, pack))
            continue
        try:
            key = pack(shape.values(values))
        except (KeyError, TypeError, ValueError):  # a field deleted, a value msgpack cannot take
            out.append(encode_record(obj, pack))
            continue
        memo = shape.memo
        found = memo.get(key)
        if found is None:
            found = encode_record(obj, pack)
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[key] = found
        out.append(found)
    return out


class _Shape:
    """A dataclass's fields in a fixed order, and the encodings of its records remembered so far."""

    def __init__(self, cls: type) -> None:
        names = tuple(sorted(f.name for f in fields(cls)))
        self.count = len(names)
        # a tuple of them from the record's attributes (``vars``; our records have several): looked up in its
        # dict, without the class's attributes looked at first for each, as getattr does
        self.values: Callable[[Any], Any] = itemgetter(*names)
        self.memo: dict[bytes, bytes] = {}
        self.chunks: dict[bytes, list[bytes]] = {}  # the same, a run of ``_CHUNK`` records at a time
        # A class that notes its writes (``core.written``): runs of records also remembered by identity.
        self.seen: dict[tuple[int, ...], _Seen] = {}
        self.settled = Settled(cls) if issubclass(cls, Written) else None


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type) -> _Shape:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = _Shape(cls)
    return shape


# --- the state ----------------------------------------------------------------------------------


def _state_parts(state: Any, remember: bool = True) -> list[bytes]:
    packer = msgpack.Packer(use_bin_type=True)  # one per hash: a Packer is not to be shared across threads
    pack = packer.pack
    names = sorted(name for name in vars(state) if name != UNHASHED)
    parts = [map_header(len(names))]
    plain: list[tuple[str, Any]] = []  # the fields since the last record-holding one, in order
    for name in names:
        value = getattr(state, name)
        if not (type(value) is dict if name == "players" else name in _NESTED and type(value) is list):
            plain.append((name, value if type(value) in SCALAR_TYPES else sort_keys(value)))
            continue
        if plain:  # a run of keys and values, as a map writes them: packed at once, less the map's header
            parts.append(map_items(plain))
            plain = []
        parts.append(pack(name))
        if name == "players":
            parts.append(map_header(len(value)))
            for player in sorted(value):
                parts.append(pack(player))
                parts.append(encode_record(value[player], pack, remember))
        elif name == "battlefield":
            parts.append(array_header(len(value)))
            parts.extend(remembered_records(value, pack, remember))
        else:
            parts.append(array_header(len(value)))
            parts.extend(encode_record(v, pack) for v in value)
    if plain:
        parts.append(map_items(plain))
    return parts
