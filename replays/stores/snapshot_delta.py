"""The stored form of a snapshot in schema 3: keyframes, and deltas against a keyframe.

A snapshot row is the library's snapshot of a ``Game`` (stored name ``GameSnapshot``, naming the
aggregate ``Game``) whose ``state`` map holds, besides ``_created_on``, ``_modified_on`` and
``state_hash`` (the hex hash of the game state, ``GameState.state_hash``), exactly one of:

- a **keyframe**: ``keyframe`` = zlib(msgpack(the game state as plain data, ``GameState.to_dict()``));
- a **delta**: ``base`` = the version of a keyframe row of the same game, ``base_digest`` = the
  16-byte BLAKE2b digest of that keyframe row's stored bytes (the row as stored, all of it), and
  ``delta`` = zlib(msgpack(a node)) that turns the keyframe's plain state into this snapshot's.

A node says how a value ``old`` becomes ``new``; it is a msgpack array whose first item is its kind:

- ``[0, value]``: ``new`` is ``value``;
- ``[1, {key: node, ...}, [key, ...]]``: ``old`` and ``new`` are maps; each listed key's value is
  its node applied to the old value (a key that is new has a ``[0, value]`` node), the keys of the
  second list are removed, every other key keeps its value;
- ``[2, [segment, ...]]``: ``old`` and ``new`` are arrays; ``new`` is the segments one after
  another, each ``[0, start, stop]`` (the old items ``start`` to ``stop - 1`` as they are),
  ``[1, index, node]`` (old item ``index`` changed by ``node``) or ``[2, [value, ...]]`` (new items).

A delta costs what changed since its keyframe, not the size of the state: a library that lost
cards at the top is one ``[0, start, stop]``, a battlefield that gained permanents at the end keeps
the old ones in one segment and adds the new ones; permanents are matched by their ``object`` id, so
a tapped land is one ``[1, index, node]``. Any snapshot loads from at most two rows.

Older stores hold snapshots whose ``state`` map holds the game state itself under ``state`` (the
``game_state`` msgpack ext, with or without ``state_hash``); they keep loading as they are.
Snapshots are caches and are never trusted: ``replays.verify`` checks the digest of the keyframe
a delta names, the state hash of the state it leads to, and the chain's word on that state.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

import msgpack

from mtg_ledger.core.errors import Phrase

Map = dict[str, Any]
REPLACE, MAP, ARRAY = 0, 1, 2  # node kinds
COPY, PATCH, NEW = 0, 1, 2  # array segments
_SCALARS = frozenset({str, int, bool, float, bytes, type(None)})
_HOLDERS = frozenset({dict, list})  # what ``same`` looks into
_IDENTITY = ("object", "id")  # what names a map in an array: permanents, stack objects, triggers; effects


class BadSnapshot(ValueError):
    """A stored snapshot payload that does not read as its form says; ``why`` is a message of the
    catalogues (replays/messages), said in English as the exception's text."""

    def __init__(self, why: Phrase) -> None:
        from mtg_ledger.replays.messages import say  # the catalogues (TOML), read when a snapshot is turned away

        super().__init__(say(why.id, why.params))
        self.why = why


class Keyframe(NamedTuple):
    """A keyframe as a writer keeps it to make deltas against: its version, the digest of its stored
    row, its plain state and the size of its compressed payload; ``unchanged``: what
    ``replays.stores.state_delta`` reads of it once (an ``Unchanged``), kept with it once made; ``source``:
    when it was taken from a state in memory, that moment and the state's permanents (``Unchanged``)."""

    version: int
    digest: bytes
    plain: Map
    size: int
    unchanged: Any = None
    source: Any = None  # taken from a state in memory: the moment (``core.written``) and its battlefield's permanents then


def row_digest(stored_bytes: bytes) -> bytes:
    return hashlib.blake2b(stored_bytes, digest_size=16).digest()


def pack(value: Any) -> bytes:
    """zlib(msgpack(value)): a keyframe's or a delta's payload."""
    return zlib.compress(msgpack.packb(value, use_bin_type=True), 6)


def unpack(payload: Any) -> Any:
    if not isinstance(payload, bytes):
        raise BadSnapshot(Phrase("snapshot.payload_not_bytes"))
    try:
        return msgpack.unpackb(zlib.decompress(payload), raw=False, strict_map_key=False, use_list=True)
    except Exception as e:
        raise BadSnapshot(Phrase("snapshot.payload_undecodable", {"error": type(e).__name__})) from None


# --- making a delta ------------------------------------------------------------------------------


def diff(old: Any, new: Any) -> list[Any] | None:
    """The node that turns ``old`` into ``new``; None when they are the same: equal, and packing to the same
    bytes (``same``)."""
    if _same(old, new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        if [k for k in old if k in new] + [k for k in new if k not in old] != list(new):
            return [REPLACE, new]  # keys in another order: a map keeps its order (the players' is the seating)
        changed = {}
        for key, value in new.items():
            if key not in old:
                changed[key] = [REPLACE, value]
            else:
                node = diff(old[key], value)
                if node is not None:
                    changed[key] = node
        return [MAP, changed, [key for key in old if key not in new]]
    if isinstance(old, list) and isinstance(new, (list, tuple)):
        return [ARRAY, _segments(old, list(new))]
    return [REPLACE, new]


def _segments(old: list[Any], new: list[Any]) -> list[list[Any]]:
    old_keys, new_keys = _identities(old), _identities(new)
    if old_keys is not None and new_keys is not None:
        return _matched(old, new, old_keys, new_keys)
    # Items without identity (card names): what is kept at the start and at the end. A library that
    # lost its top cards is all end; a graveyard that gained cards is all start (both found at C speed).
    if len(new) <= len(old) and _same_items(old[len(old) - len(new) :], new):
        return [[COPY, len(old) - len(new), len(old)]] if new else []
    if len(new) > len(old) and _same_items(old, new[: len(old)]):
        return [[COPY, 0, len(old)], [NEW, new[len(old) :]]] if old else [[NEW, new]]
    end = 0
    while end < min(len(old), len(new)) and _same(old[-1 - end], new[-1 - end]):
        end += 1
    start = 0
    while start < min(len(old), len(new)) - end and _same(old[start], new[start]):
        start += 1
    out: list[list[Any]] = []
    if start:
        out.append([COPY, 0, start])
    if len(new) - end > start:
        out.append([NEW, new[start : len(new) - end]])
    if end:
        out.append([COPY, len(old) - end, len(old)])
    return out


def _matched(old: list[Any], new: list[Any], old_keys: list[Any], new_keys: list[Any]) -> list[list[Any]]:
    """Maps matched by their identity: runs of unchanged ones, changed ones, new ones."""
    where = {key: i for i, key in enumerate(old_keys)}
    out: list[list[Any]] = []
    for key, item in zip(new_keys, new, strict=True):
        i = where.get(key)
        if i is None:
            if out and out[-1][0] == NEW:
                out[-1][1].append(item)
            else:
                out.append([NEW, [item]])
            continue
        node = diff(old[i], item)
        if node is not None:
            out.append([PATCH, i, node])
        elif out and out[-1][0] == COPY and out[-1][2] == i:
            out[-1][2] = i + 1
        else:
            out.append([COPY, i, i + 1])
    return out


def _identities(items: list[Any]) -> list[Any] | None:
    """Each map's ``object`` (or ``id``), when every item is a map that has one, an integer, and no two share it."""
    if not items or not isinstance(items[0], dict):
        return None
    name = next((n for n in _IDENTITY if n in items[0]), None)
    if name is None:
        return None
    keys = [item.get(name) if isinstance(item, dict) else None for item in items]
    if not all(type(key) is int for key in keys) or len(set(keys)) != len(keys):
        return None
    return keys


def _same_items(a: list[Any], b: list[Any]) -> bool:
    """Equal items of the same types (1 is not True), for lists of scalars; any other list: not known."""
    if a != b:
        return False
    types = list(map(type, a))
    return _SCALARS.issuperset(types) and types == list(map(type, b))


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same type, and, for a map or an array, the same at every depth (``same``)."""
    return type(a) is type(b) and bool(a == b) and (type(a) not in _HOLDERS or same(a, b))


def same(a: dict[str, Any] | list[Any], b: dict[str, Any] | list[Any]) -> bool:
    """Of two equal maps or arrays (``a == b``), whether they pack to the same bytes: every value of the same
    type as its counterpart at every depth (``1 == True``, ``1 == 1.0``), every map's keys in the same order
    (maps are equal in any order; a state keeps each of its maps in its own: the players' is the seating).
    The types of a level are compared at once; only the maps and arrays in it are looked into."""
    values_a: Any = a  # an array's items, or a map's values
    values_b: Any = b
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return False
        values_a, values_b = list(a.values()), list(b.values())
    types = list(map(type, values_a))
    if types != list(map(type, values_b)):
        return False
    if _SCALARS.issuperset(types):
        return True
    return all(same(x, y) for x, y, kind in zip(values_a, values_b, types, strict=True) if kind in _HOLDERS)


# --- reading a delta --------------------------------------------------------------------------------


def apply(old: Any, node: Any) -> Any:
    """``old`` changed by ``node`` (a new value: ``old`` is not changed)."""
    try:
        kind = node[0]
        if kind == REPLACE:
            return node[1]
        if kind == MAP:
            if not isinstance(old, dict):
                raise BadSnapshot(Phrase("snapshot.delta_not_map"))
            new = dict(old)
            for key, inner in node[1].items():
                new[key] = apply(old[key], inner) if key in old and inner[0] != REPLACE else inner[1]
            for key in node[2]:
                new.pop(key, None)
            return new
        if kind == ARRAY:
            if not isinstance(old, list):
                raise BadSnapshot(Phrase("snapshot.delta_not_array"))
            out: list[Any] = []
            for segment in node[1]:
                if segment[0] == COPY:
                    start, stop = segment[1], segment[2]
                    if not 0 <= start <= stop <= len(old):
                        raise BadSnapshot(Phrase("snapshot.segment_beyond"))
                    out.extend(old[start:stop])
                elif segment[0] == PATCH:
                    out.append(apply(old[segment[1]], segment[2]))
                elif segment[0] == NEW:
                    out.extend(segment[1])
                else:
                    raise BadSnapshot(Phrase("snapshot.segment_unknown", {"kind": segment[0]}))
            return out
    except BadSnapshot:
        raise
    except Exception as e:
        raise BadSnapshot(Phrase("snapshot.delta_does_not_apply", {"error": type(e).__name__})) from None
    raise BadSnapshot(Phrase("snapshot.node_unknown", {"kind": kind}))


# --- reading a stored snapshot's state ---------------------------------------------------------------


class BadKeyframe(BadSnapshot):
    """A delta whose keyframe is missing, damaged or not a keyframe: no delta on it can be used."""

    def __init__(self, base: int, why: Phrase) -> None:
        super().__init__(why)
        self.base = base


def is_stored_form(fields: Map) -> bool:
    """Whether a snapshot's map is in the form of this module (else: the older whole-state form)."""
    return "keyframe" in fields or "delta" in fields


def plain_state(fields: Map, version: int, keyframe_row: Callable[[int], tuple[bytes, Map] | None]) -> Map:
    """The plain game state a keyframe or a delta holds. ``keyframe_row(base)`` gives the stored bytes
    and the decoded map of the game's snapshot row at ``base``, or None when there is none."""
    if "keyframe" in fields:
        plain = unpack(fields["keyframe"])
    else:
        base = fields.get("base")
        if not isinstance(base, int) or isinstance(base, bool) or not 0 < base < version:
            raise BadSnapshot(Phrase("snapshot.keyframe_version", {"v": base}))
        found = keyframe_row(base)
        if found is None:
            raise BadKeyframe(base, Phrase("snapshot.keyframe_missing", {"v": base}))
        stored_bytes, keyframe = found
        if row_digest(stored_bytes) != fields.get("base_digest"):
            raise BadKeyframe(base, Phrase("snapshot.keyframe_replaced", {"v": base}))
        if "keyframe" not in keyframe:
            raise BadKeyframe(base, Phrase("snapshot.not_keyframe", {"v": base}))
        try:
            old = unpack(keyframe["keyframe"])
        except BadSnapshot as e:
            raise BadKeyframe(base, Phrase("snapshot.keyframe_unreadable", {"v": base, "error": e.why})) from None
        plain = apply(old, unpack(fields["delta"]))
    if not isinstance(plain, dict):
        raise BadSnapshot(Phrase("snapshot.not_game_state"))
    return plain
