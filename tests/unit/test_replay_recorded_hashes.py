"""An audit's replay takes a derived event's hash from the log only where the derived event encodes as the
recorded one, byte for byte, on a chain the audit has checked: a value Python finds equal but msgpack
writes otherwise (a bool for an int, a float for an int, -0.0 for 0.0) is never taken for it, and a
re-hashed forgery that says so is found where it was before."""

from __future__ import annotations

import enum

import pytest

from mtg_ledger.core.hashing import canonical
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.audit.same_bytes import same_bytes, same_encoding
from tests.log_tools import demo_log, first, rehash


class Step(enum.StrEnum):
    UPKEEP = "upkeep"


H = {"hash": "00" * 32}
EQUAL_BUT_WRITTEN_OTHERWISE = [
    ({"n": 1}, {"n": True}),
    ({"n": 1}, {"n": 1.0}),
    ({"n": 0.0}, {"n": -0.0}),
    ({"n": [1, 1]}, {"n": [1, True]}),
    ({"n": {"a": 1}}, {"n": {"a": True}}),
]
WRITTEN_ALIKE = [({"n": [1, 2]}, {"n": (1, 2)}), ({"step": "upkeep"}, {"step": Step.UPKEEP}), ({"p": {"a": ["x"]}}, {"p": {"a": ["x"]}})]


@pytest.mark.parametrize(("recorded", "derived"), EQUAL_BUT_WRITTEN_OTHERWISE)
def test_a_derived_event_equal_to_the_recorded_one_but_encoded_otherwise_has_not_its_encoding(recorded: dict, derived: dict) -> None:
    assert recorded == derived
    assert not same_encoding({**recorded, **H}, {**derived, **H})
    assert canonical(recorded) != canonical(derived)


@pytest.mark.parametrize(("recorded", "derived"), WRITTEN_ALIKE)
def test_a_derived_event_written_as_the_recorded_one_has_its_encoding(recorded: dict, derived: dict) -> None:
    assert same_encoding({**recorded, **H}, {**derived, **H})
    assert canonical(recorded) == canonical(derived)


def test_a_value_msgspec_cannot_write_is_never_taken_for_the_recorded_one() -> None:
    import msgpack

    stamp = msgpack.Timestamp(1, 0)
    assert not same_encoding({"n": stamp, **H}, {"n": stamp, **H})


@pytest.mark.parametrize(
    ("recorded", "derived"),
    [*EQUAL_BUT_WRITTEN_OTHERWISE, ({"n": [1, 2]}, {"n": [1, True]}), ({"n": 1}, {"m": 1}), ({"n": 1, "m": 2}, {"n": 1})],
)
def test_a_derived_value_equal_to_the_recorded_one_but_encoded_otherwise_is_not_taken_for_it(recorded: dict, derived: dict) -> None:
    assert not same_bytes({**recorded, **H}, derived)


@pytest.mark.parametrize(("recorded", "derived"), WRITTEN_ALIKE)
def test_a_derived_value_written_as_the_recorded_one_is_taken_for_it(recorded: dict, derived: dict) -> None:
    assert same_bytes({**recorded, **H}, derived)
    assert canonical({**recorded, **H}) == canonical(derived)


def test_a_rehashed_log_with_a_float_where_the_engine_derives_an_int_diverges_there_in_a_checked_replay() -> None:
    events = demo_log()
    step = first(events, "StepBegan", after=20)
    events[step["v"] - 1]["turn"] = float(step["turn"])  # equal to the turn, written as a float
    forged = rehash(events)
    checked, unchecked = replay(forged, chained=True), replay(forged)
    assert [f.version for f in checked.findings] == [f.version for f in unchecked.findings] == [step["v"]]
    assert checked.findings[0].message == unchecked.findings[0].message


def test_a_sound_log_audits_clean_and_its_checked_replay_derives_every_recorded_hash() -> None:
    events = demo_log()
    assert audit("00000000-0000-0000-0000-00000000c0de", events).clean
    checked = replay(events, chained=True)
    assert checked.ok and checked.state is not None
    assert checked.state.last_hash == events[-1]["hash"] == replay(events).state.last_hash  # type: ignore[union-attr]
