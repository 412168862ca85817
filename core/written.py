"""When a record was last written, so that what is worked out of it (its state-hash encoding, its part of a
snapshot's delta) can be known unchanged without reading its values again.

A record of a ``Written`` class notes each write: an attribute assigned or deleted through it
(``__setattr__``, ``__delattr__``), which is how every applier changes a permanent. What the barrier does not
see is a list or a map that the record holds changed in place (``perm.counters["lore"] = 2``), and an edit of
the record's ``__dict__`` itself; a caller that relies on a record being unwritten looks at its lists and maps
itself (``core.state_hash`` holds on only to records whose lists and maps are empty, and checks they still
are). A record is made without a write (``__init__`` fills its attributes at once): it is new to whoever has
not seen it yet.

A *moment* is a count, not a time: ``moment()`` before reading a record, then ``unwritten(ids, that)`` says
whether any of the records of those ids has been written since. The writes are also kept in their order, for a
while: ``writes()`` before reading, then ``written_after(that)`` names the records written since, for a reader
that would otherwise look at every record again to find the few that changed. Records of different games may be written in
different threads; what is remembered is one dict and a floor, and reads are ordered so that a thread never
takes the forgetting of the writes for their absence; the order of the writes is one list, under a lock. No I/O,
no clock.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable
from dataclasses import fields
from operator import itemgetter
from typing import Any

ATOMS = frozenset({int, str, bool, float, bytes, type(None)})  # values that are never changed in place
HOLDERS = frozenset({list, dict})  # those that may be: a record holding a non-empty one is not vouched for
_LIMIT = 1 << 16  # records whose last write is remembered; past that, forget them all (moments before are void)
_moments = itertools.count(1)
_last: dict[int, int] = {}  # id(record) -> the moment of its last write
_floor = 0  # moments before this one are void: the writes before it were forgotten
_ZERO = itertools.repeat(0)
_LOG_LIMIT = 1 << 14  # writes kept in their order; past that, start again (places before are void)
_log_lock = threading.Lock()  # the order is one list, appended to and replaced by any thread: under this lock
_log: list[int] = []  # id(record) of each write from the ``_log_start``th on, in order
_log_start = 0


def moment() -> int:
    """Now: every later write of a record is after it."""
    return next(_moments)


def unwritten(ids: Iterable[int], since: int) -> bool:
    """Whether no record of these ids (``id(record)``) has been written since ``since`` (a ``moment()``).
    The caller keeps the records alive from that moment on, so that no other record takes one of their ids.
    (The floor is read after the writes: ``_written`` raises it before it forgets them.)"""
    return max(map(_last.get, ids, _ZERO), default=0) < since and since >= _floor


def unwritten_each(ids: Iterable[int], since: int) -> list[bool]:
    """``unwritten`` of each record, one by one."""
    each = list(map(since.__gt__, map(_last.get, ids, _ZERO)))
    return each if since >= _floor else [False] * len(each)


def writes() -> int:
    """How many writes were noted so far: a place in their order, for ``written_after``."""
    with _log_lock:
        return _log_start + len(_log)


def written_after(place: int, most: int | None = None) -> list[int] | None:
    """The ids (``id(record)``) of the records written since ``writes()`` gave ``place``, in order, a record
    as often as it was written; None when those writes are no longer all kept, or are more than ``most``. The
    caller keeps the records it asks about alive from that place on, so that no other record takes one of their
    ids."""
    with _log_lock:
        if place < _log_start or most is not None and _log_start + len(_log) - place > most:
            return None
        return _log[place - _log_start :]


class Settled:
    """A dataclass's fields told apart: those that hold a list or a map (``holders``), which can change in
    place without a noted write, and the others; and which records of it a noted write alone can change."""

    def __init__(self, cls: Any) -> None:
        names = tuple(f.name for f in fields(cls))
        self.holders = tuple(f.name for f in fields(cls) if f.default_factory is list or f.default_factory is dict)
        self._held = _getter(self.holders)
        self._atoms = _getter(tuple(name for name in names if name not in self.holders))

    def held_by(self, attributes: list[dict[str, Any]]) -> tuple[Any, ...] | None:
        """The lists and maps records hold (``attributes``: each one's ``vars``, every field there), when
        every one of them is empty and every other field holds an atom (``ATOMS``): records that only a noted
        write can change while those stay empty. None otherwise."""
        held = tuple(itertools.chain.from_iterable(map(self._held, attributes)))
        if any(held) or not set(map(type, held)) <= HOLDERS:
            return None
        if not set(map(type, itertools.chain.from_iterable(map(self._atoms, attributes)))) <= ATOMS:
            return None
        return held


def _getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """Those fields' values from a record's attributes, always as a tuple."""
    get = itemgetter(*names)
    return get if len(names) > 1 else lambda attributes: (get(attributes),)


def _written(record: Any) -> None:
    global _floor, _log, _log_start
    key = id(record)
    if len(_last) >= _LIMIT:
        _floor = next(_moments)  # first: nothing written before now can be told apart any longer
        _last.clear()
    _last[key] = next(_moments)
    with _log_lock:
        if len(_log) >= _LOG_LIMIT:
            _log_start += len(_log)
            _log = []
        _log.append(key)


_set = object.__setattr__
_delete = object.__delattr__


class Written:
    """A record that notes its writes (the module's docstring says what counts as one)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _written(self)
        _set(self, name, value)

    def __delattr__(self, name: str) -> None:
        _written(self)
        _delete(self, name)
