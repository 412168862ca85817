"""Whether an event the engine derives has the canonical bytes (``core.hashing.canonical``) of the event a
log recorded at its place, without encoding it: then, on a chain already checked up to that event, its
hash is the recorded one (``ReplayTable.emit``). Equal is not enough, as Python compares: ``1 == True ==
1.0`` and ``0.0 == -0.0``, but msgpack writes each otherwise. So every value must be of the same kind
on both sides, as msgpack writes it: a string (a ``str`` subclass, as an enumeration's member, is written
as its string), an int (not a bool), a bool, None, bytes, a list (a derived tuple is written as a list),
a map with string keys. Compared kind by kind (``same_kinds``, ``same_bytes``), a float, or anything else, is
never taken as the same: its hash is computed; compared as written (``same_encoding``), a float written alike is.
``False`` says nothing about the events; it only means the hash is computed and compared as it always is.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.hashing import sorted_msgpack

Map = dict[str, Any]


def same_encoding(recorded: Map, derived: Map) -> bool:
    """Given ``derived == recorded`` (the derived event with the recorded hash): whether both are written as the
    same msgpack, keys sorted, by msgspec's encoder, which writes each kind as the canonical encoding tells them
    apart (``1``, ``True``, ``1.0``; ``0.0`` and ``-0.0``), an enumeration's member as its value and a tuple as a
    list, as msgpack's packer does. Equal bytes are equal values of equal kinds: their canonical bytes are equal.
    A value msgspec does not write (an extension type) is never taken as the same. Some 0.4 us an event, where
    comparing each value's kind (``same_kinds``) took 0.9 to 1.6 us and sent a list to ``same_bytes``."""
    try:
        return sorted_msgpack(derived) == sorted_msgpack(recorded)
    except Exception:  # a value msgspec cannot write, keys it cannot sort (of two types)
        return False


# The kind msgpack writes a value of each type as, for the types whose equal values of one kind it writes
# alike; a ``str`` subclass that compares as a string (an enumeration's member) is added as it is first met.
_KINDS: dict[type, type] = {str: str, int: int, bool: bool, type(None): type(None), bytes: bytes}
_HOMOGENEOUS = (frozenset({str}), frozenset({int}))  # lists of names or object ids: compared whole, in C


def same_kinds(recorded: Map, derived: Map) -> bool:
    """Given ``derived == recorded`` (the same keys, each value equal as Python compares): whether each value
    of ``derived`` is of a plain kind (``_KINDS``), the one of ``recorded``'s value, so that both encode alike.
    All of it in C, but for an enumeration's member (StepBegan's phase), compared as the kind it is written as."""
    types = tuple(map(type, derived.values()))
    if types == tuple(map(type, map(recorded.__getitem__, derived))):  # each value of one type on both sides
        return types in _PLAIN_TYPES or _plain(types)
    kinds = tuple(map(_KINDS.get, types))
    return None not in kinds and kinds == tuple(map(_KINDS.get, map(type, map(recorded.__getitem__, derived))))


_PLAIN_TYPES: set[tuple[type, ...]] = set()  # the events' types of values met so far that are all plain kinds


def _plain(types: tuple[type, ...]) -> bool:
    if not all(t in _KINDS for t in types):
        return False
    if len(_PLAIN_TYPES) < 1 << 12:  # a few dozen event shapes: a bound that is never reached
        _PLAIN_TYPES.add(types)
    return True


def same_bytes(recorded: Map, derived: Map) -> bool:
    """Whether ``derived`` (no hash yet) encodes as ``recorded`` less its hash."""
    if len(recorded) != len(derived) + 1 or "hash" not in recorded or "hash" in derived:
        return False
    if derived.items() <= recorded.items() and same_kinds(recorded, derived):  # most events: all of it in C
        return True
    for key, value in derived.items():  # a list, a map, an enumeration's member: looked at one by one
        if type(key) is not str or key not in recorded or not same_value(recorded[key], value):
            return False
    return True


def same_value(recorded: Any, derived: Any) -> bool:
    """Whether ``derived`` encodes as ``recorded`` (a value read back from msgpack: plain types only)."""
    kind = type(recorded)
    if kind is str:
        if not isinstance(derived, str) or str.__eq__(recorded, derived) is not True:
            return False
        if type(derived) not in _KINDS and type(derived).__eq__ is str.__eq__:  # compared as a string, by ==
            _KINDS[type(derived)] = str
        return True
    if kind is int:
        return type(derived) is int and recorded == derived
    if kind is bool or recorded is None:
        return derived is recorded
    if kind is bytes:
        return type(derived) is bytes and recorded == derived
    if kind is list:
        if type(derived) is not list and type(derived) is not tuple or len(derived) != len(recorded):
            return False
        types = frozenset(map(type, recorded))
        if types in _HOMOGENEOUS and frozenset(map(type, derived)) == types:
            return bool(list(derived) == recorded)  # items of one exact type on both sides, compared in C
        return all(same_value(r, d) for r, d in zip(recorded, derived, strict=True))
    if kind is dict:
        if type(derived) is not dict or len(derived) != len(recorded):
            return False
        for key, value in derived.items():
            if type(key) is not str or key not in recorded or not same_value(recorded[key], value):
                return False
        return all(type(key) is str for key in recorded)
    return False
