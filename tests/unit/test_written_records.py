"""Permanents note their writes (core.written), so that what is worked out of them (their state-hash
encodings, their part of a snapshot's delta) is known unchanged without reading them again. A permanent
is made as the dataclass would make it, without a noted write."""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields

from mtg_ledger.core import written
from mtg_ledger.core.state import Permanent
from mtg_ledger.core.written import moment, unwritten, unwritten_each


def test_a_permanent_is_made_field_for_field_as_its_dataclass_declares() -> None:
    parameters = list(inspect.signature(Permanent.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in fields(Permanent)]
    for parameter, f in zip(parameters, fields(Permanent), strict=True):
        if f.default is not MISSING:
            assert parameter.default == f.default and type(parameter.default) is type(f.default)
        elif f.default_factory is not MISSING:  # a fresh list or map for each permanent
            assert parameter.default is None
        else:
            assert parameter.default is inspect.Parameter.empty
    a, b = Permanent(1, "Forest", "alice", "alice"), Permanent(2, "Forest", "alice", "alice")
    assert list(vars(a)) == [f.name for f in fields(Permanent)]  # the order the canonical maps are made in
    assert a.blocking is not b.blocking and a.counters is not b.counters
    assert vars(a) == {**{f.name: f.default_factory() if f.default_factory is not MISSING else f.default for f in fields(Permanent) if f.default is not MISSING or f.default_factory is not MISSING}, "object": 1, "card": "Forest", "owner": "alice", "controller": "alice"}


def test_a_permanent_entering_is_the_permanent_its_dataclass_makes_of_the_same_four_fields() -> None:
    since = moment()
    made, entering, other = Permanent(7, "Forest", "alice", "bob"), Permanent.entering(7, "Forest", "alice", "bob"), Permanent.entering(8, "Island", "bob", "bob")
    assert type(entering) is Permanent and vars(entering) == vars(made) and list(vars(entering)) == list(vars(made))
    assert entering.blocking is not other.blocking and entering.blocked_by is not other.blocked_by and entering.counters is not other.counters
    assert unwritten([id(entering), id(other)], since)  # made, not written
    entering.blocking.append(3)
    assert other.blocking == [] and Permanent.entering(9, "Forest", "alice", "alice").blocking == []


def test_a_permanent_made_is_not_written_and_one_assigned_or_deleted_is() -> None:
    since = moment()
    perm = Permanent(1, "Forest", "alice", "alice")
    land = Permanent(2, "Forest", "alice", "alice")
    assert unwritten([id(perm), id(land)], since)
    perm.tapped = True  # 701.26a
    assert not unwritten([id(perm), id(land)], since) and unwritten_each([id(perm), id(land)], since) == [False, True]
    later = moment()
    assert unwritten([id(perm)], later)
    del land.tapped
    assert unwritten_each([id(perm), id(land)], later) == [True, False]


def test_writes_forgotten_past_the_limit_void_every_earlier_moment(monkeypatch) -> None:
    monkeypatch.setattr(written, "_LIMIT", 3)
    monkeypatch.setattr(written, "_last", {})
    since = moment()
    perm = Permanent(1, "Forest", "alice", "alice")
    others = [Permanent(i, "Forest", "alice", "alice") for i in range(2, 6)]
    for other in others:
        other.damage = 1  # 120.3e: the record of writes fills up and is emptied
    assert not unwritten([id(perm)], since)  # not written, but no longer known not to be
    assert unwritten_each([id(perm)], since) == [False]
    assert unwritten([id(perm)], moment())


def test_writes_are_kept_in_their_order_and_named_after_a_place() -> None:
    perm, land = Permanent(1, "Forest", "alice", "alice"), Permanent(2, "Forest", "alice", "alice")
    place = written.writes()
    assert written.written_after(place) == []
    perm.tapped = True  # 701.26a
    land.damage = 0
    perm.tapped = False  # 701.26b
    assert written.written_after(place) == [id(perm), id(land), id(perm)]
    assert written.writes() == place + 3


def test_writes_no_longer_kept_void_every_earlier_place(monkeypatch) -> None:
    monkeypatch.setattr(written, "_LOG_LIMIT", 2)
    perm = Permanent(1, "Forest", "alice", "alice")
    place = written.writes()
    perm.tapped = True
    perm.tapped = False  # the order holds two writes: the next starts it again
    assert written.written_after(place) == [id(perm), id(perm)]
    perm.damage = 1
    assert written.written_after(place) is None  # not unwritten: no longer known
    assert written.written_after(written.writes() - 1) == [id(perm)]
