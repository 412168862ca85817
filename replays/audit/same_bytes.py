"""Whether an event the engine derives has the canonical bytes (``core.hashing.canonical``) of the event a
log recorded at its place, without encoding it: then, on a chain already checked up to that event, its
hash is the recorded one (``ReplayTable.emit``). Equal is not enough, as Python compares: ``1 == True ==
1.0`` and ``0.0 == -0.0``, but msgpack writes each otherwise. So every value must be of the same kind
on both sides, as msgpack writes it: a string (a ``str`` subclass, as an enumeration's member, is written
as its string), an int (not a bool), a bool, None, bytes, a list (a derived tuple is written as a list),
a map with string keys. A float, or anything else, is never taken as the same: its hash is computed.
``False`` says nothing about the events; it only means the hash is computed and compared as it always is.
"""

from __future__ import annotations

from typing import Any

Map = dict[str, Any]
_PLAIN = frozenset({str, int, bool, type(None), bytes})  # kinds whose equal values of one kind msgpack writes alike
_HOMOGENEOUS = (frozenset({str}), frozenset({int}))  # lists of names or object ids: compared whole, in C


def same_bytes(recorded: Map, derived: Map) -> bool:
    """Whether ``derived`` (no hash yet) encodes as ``recorded`` less its hash."""
    if len(recorded) != len(derived) + 1 or "hash" not in recorded or "hash" in derived:
        return False
    if derived.items() <= recorded.items():  # every derived key recorded with an equal value, looked at in C
        kinds = tuple(map(type, derived.values()))
        if _PLAIN.issuperset(kinds) and kinds == tuple(map(type, map(recorded.__getitem__, derived))):
            return True  # and each of the same plain kind on both sides (most events: all of it in C)
    for key, value in derived.items():  # a list, a map, an enumeration's member: looked at one by one
        if type(key) is not str or key not in recorded or not same_value(recorded[key], value):
            return False
    return True


def same_value(recorded: Any, derived: Any) -> bool:
    """Whether ``derived`` encodes as ``recorded`` (a value read back from msgpack: plain types only)."""
    kind = type(recorded)
    if kind is str:
        return isinstance(derived, str) and str.__eq__(recorded, derived) is True
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
