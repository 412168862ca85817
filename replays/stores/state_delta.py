"""A game state's delta against a keyframe, as ``snapshot_delta.diff(keyframe.plain, plain)`` gives it,
byte for byte, without making the plain form of every permanent on the battlefield.

A writer's snapshot is mostly a delta (``replays.stores.snapshot_delta``), and on a long game most
permanents have not changed since the keyframe. ``diff`` needs the plain map of each one
(``core.state_hash.visible``) only to find it equal to the keyframe's. Here a permanent's attributes
are compared, as one map, with the keyframe's map of it completed with the defaults of the sparse
fields it leaves out (``Unchanged``, made once a keyframe), and only a permanent that differs is made a
map and diffed. The node is the same: the same values are what ``diff`` finds the same (equal, of the same
types at every depth, the fields in the same order: ``snapshot_delta.same``), and a field of
``Permanent.SPARSE`` counts as left out exactly when ``visible`` leaves it out (it holds its default, of
the default's type). A permanent this does not vouch for (an attribute beyond the
dataclass's fields, a field deleted, a keyframe map that no permanent's ``visible`` gives) is diffed the
plain way; a state whose battlefield or key order this does not follow is diffed whole. A run of 64
permanents known the keyframe's own and unchanged at the last delta of the same battlefield list, none of
them written since, is known so again without a look at each (``core.walks.RunWalks``).
"""

from __future__ import annotations

from dataclasses import fields
from itertools import compress
from operator import and_, is_, itemgetter, not_
from typing import Any

from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.state_hash import visible
from mtg_ledger.core.walks import RunWalks
from mtg_ledger.core.written import Settled, unwritten, unwritten_each
from mtg_ledger.replays.stores import snapshot_delta as delta

Map = dict[str, Any]
FIELDS = tuple(f.name for f in fields(Permanent))
_FIELD_SET = frozenset(FIELDS)
_SPARSE = Permanent.SPARSE
_MISSING = object()  # a field a map must have (not sparse)
_DEFAULTS = tuple(_SPARSE.get(name, _MISSING) for name in FIELDS)
# The sparse fields whose default is False or 0: ``visible`` leaves them out only while of the default's type.
_TYPED = tuple((itemgetter(name), type(default)) for name, default in _SPARSE.items() if default is not None)
_SETTLED = Settled(Permanent)
_object = itemgetter("object")
_KNOWN: RunWalks[Unchanged] = RunWalks(64)  # each run of a battlefield list known whole, and against which keyframe


class Unchanged:
    """A keyframe's battlefield, to tell the permanents that have not changed since: each ``object``
    id's index, and the values a permanent must hold to give the same map (None: never vouched for).

    A keyframe taken from a state in memory (``source``: the moment it was read, ``core.written``, and its
    permanents then) also knows those permanents (``objects``) that can be vouched for without reading
    their values: the same object, not written since, holding only values a write must replace (ints,
    strings...) and lists and maps that were empty, as the keyframe's map of it has them, and still are."""

    def __init__(self, battlefield: Any, source: tuple[int, list[Permanent]] | None = None) -> None:
        keys = delta._identities(battlefield) if isinstance(battlefield, list) else None
        self.usable = keys is not None and "object" in battlefield[0]
        self.index: dict[int, int] = {}
        self.expected: dict[int, Map | None] = {}
        self.since = 0
        self.objects: dict[int, Permanent] = {}
        self.held: tuple[Any, ...] = ()  # the lists and maps of ``objects``: all empty while they can be vouched for
        self.source: list[Permanent] = []  # the keyframe's permanents, in its order
        self.lead = 0  # how many of them, from the first, are in ``objects``
        if keys is not None and self.usable:
            self.index = {key: i for i, key in enumerate(keys)}
            self.expected = {key: _expected(item) for key, item in zip(keys, battlefield, strict=True)}
            if source is not None and len(source[1]) == len(keys):
                self.since, self.source = source
                self.objects, self.held = _vouched(keys, battlefield, self.source)
                self.lead = next((i for i, key in enumerate(keys) if key not in self.objects), len(keys))


def _vouched(keys: list[int], battlefield: list[Map], permanents: list[Permanent]) -> tuple[dict[int, Permanent], tuple[Any, ...]]:
    """The permanents a keyframe was made of (``battlefield``, in its order) that can be vouched for by
    identity (``Unchanged``), by their ``object`` id, and the lists and maps they hold."""
    objects: dict[int, Permanent] = {}
    held: list[Any] = []
    for key, item, perm in zip(keys, battlefield, permanents, strict=True):
        attributes = vars(perm)
        if type(perm) is not Permanent or len(attributes) != len(FIELDS) or any(map(item.get, _SETTLED.holders)):
            continue
        try:
            holding = _SETTLED.held_by([attributes])
        except KeyError:  # a field deleted
            continue
        if holding is None:
            continue
        objects[key] = perm
        held.extend(holding)
    return objects, tuple(held)


def _expected(item: Map) -> Map | None:
    """The attributes of a permanent whose ``visible`` map equals ``item``: its fields, a sparse one
    left out holding its default. None where that is not so of one such map (a key no field has, a
    field missing, a sparse field present at its default, which ``visible`` never writes)."""
    if not item.keys() <= _FIELD_SET or list(item) != [name for name in FIELDS if name in item]:
        return None  # a key no field has, or the fields in another order than a permanent's
    values = dict(zip(FIELDS, map(item.get, FIELDS, _DEFAULTS), strict=True))
    if any(value is _MISSING for value in values.values()) or any(name in item and item[name] == default for name, default in _SPARSE.items()):
        return None
    return values


def state_node(old: Map, state: GameState, unchanged: Unchanged) -> list[Any] | None:
    """``delta.diff(old, plain)``, ``plain`` being the state's plain form without its card definitions."""
    new = state.to_dict(permanents=False)
    new.pop("cards", None)
    if not unchanged.usable or "battlefield" not in old or not state.battlefield or list(new) != [k for k in old if k in new] + [k for k in new if k not in old]:
        return delta.diff(old, _materialised(new))
    changed: dict[str, Any] = {}
    equal = all(key in new for key in old)
    for key, value in new.items():
        if key not in old:
            changed[key] = [delta.REPLACE, value]  # not the battlefield: that one is in both
            equal = False
        elif key == "battlefield":
            node = _battlefield(old[key], state.battlefield, unchanged)  # the list itself (``value`` is a copy), for ``_KNOWN``
            if node is False:
                return delta.diff(old, _materialised(new))
            if node is not None:
                changed[key] = node
                equal = False
        else:
            node = delta.diff(old[key], value)
            if node is not None:
                changed[key] = node
                equal = False
    return None if equal else [delta.MAP, changed, [key for key in old if key not in new]]


def _battlefield(old: Any, permanents: list[Permanent], unchanged: Unchanged) -> list[Any] | None | bool:
    """``delta.diff(old, [visible(p) for p in permanents])``; False: not known this way."""
    if not isinstance(old, list):
        return False
    vouching = bool(unchanged.objects) and not any(unchanged.held)  # none changed in place
    at: list[int | None] = []
    same: list[bool] = []
    seen: set[int] = set()  # the object ids of the permanents looked at one by one
    taken = bytearray(len(old))  # the keyframe's places taken by a run known whole
    place, kept = _KNOWN.since(permanents) if vouching else (0, [])
    known: list[Unchanged | None] = []  # each run known whole against this keyframe, for the next delta
    size = _KNOWN.size  # the runs ``_KNOWN`` remembers, one a run
    for r, start in enumerate(range(0, len(permanents), size)):
        end = min(start + size, len(permanents))
        # the keyframe's permanents in the same places, unchanged: known so at the last delta, the same permanents
        # and none written since (``core.walks.RunWalks``), or looked at now
        run = permanents[start:end]
        if vouching and (r < len(kept) and kept[r] is unchanged and all(map(is_, run, unchanged.source[start:end])) or _known_run(run, start, unchanged)):
            at.extend(range(start, end))
            same.extend([True] * (end - start))
            taken[start:end] = b"\x01" * (end - start)
            known.append(unchanged)
            continue
        known.append(None)
        found = _looked_at(run, unchanged, vouching)
        if found is None:
            return False
        keys, places, equal = found
        if len(set(keys)) != len(keys) or not seen.isdisjoint(keys):
            return False  # an object id twice
        seen.update(keys)
        at.extend(places)
        same.extend(equal)
    if any(i is not None and taken[i] for i in map(unchanged.index.get, seen)):  # also in a run known whole
        return False
    if vouching:
        _KNOWN.found(permanents, place, known)
    segments: list[list[Any]] = []
    j = 0
    while j < len(permanents):
        i = at[j]
        if i is None:
            if segments and segments[-1][0] == delta.NEW:
                segments[-1][1].append(visible(permanents[j]))
            else:
                segments.append([delta.NEW, [visible(permanents[j])]])
            j += 1
            continue
        if same[j]:
            end = _run(at, same, j)
        else:
            node = delta.diff(old[i], visible(permanents[j]))
            end = j + 1
            if node is not None:
                segments.append([delta.PATCH, i, node])
                j = end
                continue
        if segments and segments[-1][0] == delta.COPY and segments[-1][2] == i:  # unchanged: copied
            segments[-1][2] = i + end - j
        else:
            segments.append([delta.COPY, i, i + end - j])
        j = end
    if len(permanents) == len(old) and segments == [[delta.COPY, 0, len(old)]]:
        return None  # the lists are equal
    return [delta.ARRAY, segments]


def _run(at: list[int | None], same: list[bool], j: int) -> int:
    """Where the run of unchanged permanents from ``j`` on, in the keyframe's order, ends: looked at
    64 at a time (a board that did not change is a few comparisons), then one by one."""
    first, k = at[j], j
    assert first is not None
    while k < len(at):
        end = min(len(at), k + 64)
        if False not in same[k:end] and at[k:end] == list(range(first + k - j, first + end - j)):
            k = end
            continue
        while k < len(at) and same[k] and at[k] == first + k - j:
            k += 1
        break
    return k


def _known_run(run: list[Permanent], start: int, unchanged: Unchanged) -> bool:
    """Whether these permanents, from place ``start`` on, are the keyframe's own there, all vouched for
    (``Unchanged.objects``) and none written since."""
    end = start + len(run)
    return end <= unchanged.lead and all(map(is_, run, unchanged.source[start:end])) and unwritten(map(id, run), unchanged.since)


def _looked_at(run: list[Permanent], unchanged: Unchanged, vouching: bool) -> tuple[list[int], list[int | None], list[bool]] | None:
    """The run's object ids, each one's place in the keyframe (None: new since) and whether it is unchanged;
    None when an id is missing or not an int."""
    attributes = list(map(vars, run))
    try:
        keys = list(map(_object, attributes))
    except KeyError:  # a permanent without its ``object``
        return None
    if set(map(type, keys)) != {int}:
        return None
    same = _known(run, keys, unchanged) if vouching else [False] * len(run)
    if False in same:
        rest = list(compress(range(len(same)), map(not_, same)))
        for j, equal in zip(rest, _same([attributes[j] for j in rest], [keys[j] for j in rest], unchanged), strict=True):
            same[j] = equal
    return keys, list(map(unchanged.index.get, keys)), same


def _known(permanents: list[Permanent], keys: list[int], unchanged: Unchanged) -> list[bool]:
    """For each permanent, whether ``Unchanged`` vouches for it by identity (False: look at its values).
    Only while none of its permanents' lists and maps was changed in place."""
    same = list(map(is_, map(unchanged.objects.get, keys), permanents))
    return list(map(and_, same, unwritten_each(map(id, permanents), unchanged.since)))


def _same(attributes: list[Map], keys: list[int], unchanged: Unchanged) -> list[bool]:
    """For each permanent (its attributes), whether they are the keyframe's map of it with the sparse
    fields it leaves out at their defaults, as ``diff`` finds maps the same: equal values, of the same types
    at every depth, the fields in the same order (``snapshot_delta.same``), each sparse field of its
    default's type, so that ``visible`` leaves it out exactly when it holds the default. The sparse fields'
    types looked at once for all where all are plain, else one by one."""
    expected = list(map(unchanged.expected.get, keys))
    same = [e is not None and a == e and delta.same(a, e) for a, e in zip(attributes, expected, strict=True)]
    try:
        if all(set(map(type, map(get, attributes))) == {kind} for get, kind in _TYPED):
            return same
    except KeyError:  # a field deleted
        pass
    return [s and all(type(get(a)) is kind for get, kind in _TYPED) for s, a in zip(same, attributes, strict=True)]


def _materialised(new: Map) -> Map:
    """The plain form as ``GameState.to_dict`` gives it: each permanent a map."""
    return {**new, "battlefield": [visible(p) for p in new["battlefield"]]}
