"""The msgpack transcoder round-trips what our events and snapshots hold."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.persistence import Mapper, Transcoding, TranscodingNotRegisteredError
from hypothesis import given
from hypothesis import strategies as st

from mtg_ledger.core.catalog import _MEMO_LIMIT, Catalog
from mtg_ledger.core.state import Effect, GameState, Permanent, Player, StackObject
from mtg_ledger.replays.stores.transcoder import EXT_CODES, MsgpackTranscoder


@pytest.fixture
def transcoder() -> MsgpackTranscoder:
    return MsgpackTranscoder()


def round_trip(transcoder: MsgpackTranscoder, obj: Any) -> Any:
    return transcoder.decode(transcoder.encode(obj))


def a_game_state() -> GameState:
    return GameState(
        seed=7,
        turn_order=["alice", "bob"],
        players={
            "alice": Player(name="alice", library=["Forest", "Grizzly Bears"], mana_pool={"G": 1}),
            "bob": Player(name="bob", life=17, hand=["Shock"]),
        },
        battlefield=[Permanent(object=3, card="Grizzly Bears", owner="alice", controller="alice")],
        stack=[StackObject(object=4, card="Shock", controller="bob", targets=["alice", 3])],
        effects=[Effect(id=1, kind="pt", object=3, power=2, toughness=2)],
        turn=3,
        active_player="alice",
        phase="combat",
        step="declare_blockers",
        spells_cast_this_turn={"bob": 1},
    )


def test_uuid_round_trips_as_sixteen_raw_bytes(transcoder: MsgpackTranscoder) -> None:
    game_id = UUID("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")

    encoded = transcoder.encode(game_id)

    assert transcoder.decode(encoded) == game_id
    assert game_id.bytes in encoded
    assert len(encoded) == 2 + 16  # fixext16: marker byte, ext code, payload


def test_aware_datetime_keeps_its_utc_offset(transcoder: MsgpackTranscoder) -> None:
    in_utc = datetime(2024, 5, 1, 12, 30, 15, 123456, tzinfo=timezone.utc)
    in_tokyo = in_utc.astimezone(timezone(timedelta(hours=9)))

    back_utc, back_tokyo = round_trip(transcoder, [in_utc, in_tokyo])

    assert back_utc == in_utc and back_utc.utcoffset() == timedelta(0)
    assert back_tokyo == in_tokyo and back_tokyo.utcoffset() == timedelta(hours=9)


def test_nested_dicts_and_lists_round_trip_with_registered_types_inside(
    transcoder: MsgpackTranscoder,
) -> None:
    event_state = {
        "timestamp": datetime(2024, 1, 1, tzinfo=timezone.utc),
        "players": [{"name": "alice", "zones": {"hand": ["Forest"], "ids": [UUID(int=1)]}}],
        "nothing": None,
        "flags": [True, False],
        "ratio": 0.5,
    }

    assert round_trip(transcoder, event_state) == event_state


def test_int_map_keys_stay_ints(transcoder: MsgpackTranscoder) -> None:
    assert round_trip(transcoder, {1: "attacker", 2: {3: "blocker"}}) == {1: "attacker", 2: {3: "blocker"}}


def test_bytes_stay_bytes_and_strings_stay_strings(transcoder: MsgpackTranscoder) -> None:
    assert round_trip(transcoder, [b"\x00\xffhash", "text"]) == [b"\x00\xffhash", "text"]


def test_tuples_come_back_as_lists(transcoder: MsgpackTranscoder) -> None:
    assert round_trip(transcoder, {"targets": ("alice", 3)}) == {"targets": ["alice", 3]}


def test_game_state_round_trips(transcoder: MsgpackTranscoder) -> None:
    state = a_game_state()

    back = round_trip(transcoder, state)

    assert isinstance(back, GameState)
    assert back == state
    assert back.state_hash() == state.state_hash()


class Game(Aggregate):
    def __init__(self) -> None:
        self.state = a_game_state()


def test_aggregate_snapshot_holding_a_game_state_round_trips_through_a_mapper(
    transcoder: MsgpackTranscoder,
) -> None:
    game = Game()
    mapper: Mapper[UUID] = Mapper(transcoder=transcoder)

    snapshot = mapper.to_domain_event(mapper.to_stored_event(Snapshot.take(game)))
    restored = snapshot.mutate(None)

    assert restored.id == game.id
    assert restored.state == game.state
    assert restored.created_on == game.created_on


def test_unregistered_type_raises_transcoding_not_registered_error_naming_it(
    transcoder: MsgpackTranscoder,
) -> None:
    @dataclass
    class Mystery:
        value: int

    with pytest.raises(TranscodingNotRegisteredError, match="Mystery"):
        transcoder.encode({"x": [Mystery(1)]})
    assert round_trip(transcoder, [1, 2]) == [1, 2]  # still usable afterwards


def test_data_with_an_unknown_ext_code_fails_to_decode_with_a_clear_error() -> None:
    import msgpack

    with pytest.raises(TranscodingNotRegisteredError, match="ext code 99"):
        MsgpackTranscoder().decode(msgpack.packb(msgpack.ExtType(99, b"")))


class Point:
    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)


class PointAsList(Transcoding):
    type = Point
    name = "point_list"

    def encode(self, obj: Point) -> list[int]:
        return [obj.x, obj.y]

    def decode(self, data: list[int]) -> Point:
        return Point(*data)


def test_a_custom_transcoding_needs_an_explicit_ext_code(transcoder: MsgpackTranscoder) -> None:
    assert "point_list" not in EXT_CODES
    with pytest.raises(ValueError, match="EXT_CODES"):
        transcoder.register(PointAsList())

    transcoder.register(PointAsList(), code=100)

    assert round_trip(transcoder, {"p": Point(1, 2)}) == {"p": Point(1, 2)}


def test_an_ext_code_cannot_be_claimed_by_two_transcodings(transcoder: MsgpackTranscoder) -> None:
    with pytest.raises(ValueError, match="already taken"):
        transcoder.register(PointAsList(), code=EXT_CODES["game_state"])


plain_data = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary()
    | st.uuids()
    | st.datetimes(timezones=st.just(timezone.utc)),
    lambda children: st.lists(children) | st.dictionaries(st.text() | st.integers(0, 1000), children),
    max_leaves=20,
)


@given(plain_data)
def test_any_event_shaped_data_round_trips(value: Any) -> None:
    assert round_trip(MsgpackTranscoder(), value) == value


def test_game_state_round_trips_after_more_catalogs_than_are_memoised(transcoder: MsgpackTranscoder) -> None:
    """A state's cards are a catalog of definitions: read back, it is an equal catalog, even once the memo
    of catalogs has been emptied (as after a process has played more than its limit of distinct games)."""
    state = a_game_state()
    for n in range(_MEMO_LIMIT + 1):  # as many distinct definitions as empty the memo
        Catalog.of({f"Card {n}": {"name": f"Card {n}", "types": ["Land"], "oracle": ""}})

    back = round_trip(transcoder, state)

    assert back.cards is not state.cards  # a new catalog, of the same definitions
    assert back == state
