"""Schema 3's event rows (replays.rows): the hash as 32 bytes, the fields sorted, no timestamp; and the
hot path that folds them (replays.checked) agreeing with the general path on every row."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any
from uuid import UUID

import msgpack
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.events import APPLIERS
from mtg_ledger.core.hashing import canonical, chain, chain_fields
from mtg_ledger.core.schema import upgrade
from mtg_ledger.core.state import GameState
from mtg_ledger.replays.stores import checked, pages
from mtg_ledger.replays import logfile
from mtg_ledger.replays.stores import rows
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.play import play_demo
from tests import store_tools
from tests.unit.test_golden_log import GOLDEN


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, UUID]:
    db = tmp_path_factory.mktemp("rows") / "demo.sqlite"
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    try:
        game = play_demo(ledger, demo_setup(7, 2))
    finally:
        ledger.close()
    return db, game


def _ledger(db: Path) -> Ledger:
    return Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}, writes=False)


def test_a_stored_event_is_its_tag_its_32_byte_hash_and_its_sorted_fields_without_a_timestamp(demo: tuple[Path, UUID]) -> None:
    db, game = demo
    ledger = _ledger(db)
    try:
        event = ledger.recorded_log(game)[0][41]
    finally:
        ledger.close()
    _, state = store_tools.row(db, str(game), 42)
    assert state[0] == rows.EVENT_ROW and state[1:33] == bytes.fromhex(event["hash"])
    fields = msgpack.unpackb(state[33:], raw=False)
    assert list(fields) == sorted(fields) and "timestamp" not in fields and "hash" not in fields
    assert {"v": 42, "type": event["type"], **fields, "hash": event["hash"]} == event


def _both_ways(db: Path, game: UUID, versions: Iterable[int], monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The state hash of the game at each version, rebuilt by the hot path, then with every row the general way."""
    ledger = _ledger(db)
    try:
        fast = [ledger.game(game, v).state.state_hash() for v in versions]
        monkeypatch.setattr(checked.Chain, "fast", lambda self, state, page, start: start)  # every row the general way
        general = [ledger.game(game, v).state.state_hash() for v in versions]
    finally:
        ledger.close()
    return fast, general


def test_the_hot_path_and_the_general_path_rebuild_the_same_state_at_every_turn(demo: tuple[Path, UUID], monkeypatch: pytest.MonkeyPatch) -> None:
    db, game = demo
    fast, general = _both_ways(db, game, range(1, max(store_tools.versions(db, str(game))) + 1, 97), monkeypatch)
    assert fast == general


def _forged_copy(db: Path, game: UUID, folder: Path, kind: str, **changes: Any) -> tuple[Path, int, int]:
    """A copy of the store as a forger who can rewrite the whole chain leaves it: the first row of ``kind``
    changed, every hash from it on made anew. Returns the copy, that row's version and the last one."""
    configure_logging(io.StringIO(), level="warning")  # the snapshots it turns away: here, not to a stream an earlier test closed
    copy = folder / "forged.sqlite"
    copy.write_bytes(db.read_bytes())
    version = next(v for v in range(2, 200) if store_tools.row(copy, str(game), v)[0] == kind)
    last = max(store_tools.versions(copy, str(game)))
    previous = store_tools.fields(copy, str(game), version - 1)["hash"]
    for w in range(version, last + 1):
        topic, _ = store_tools.row(copy, str(game), w)
        stored = store_tools.fields(copy, str(game), w)
        del stored["hash"]
        if w == version:
            stored.update(changes)
        previous = chain(previous, {"v": w, "type": topic, **{k: x for k, x in stored.items() if k not in rows.STORAGE_ONLY}})
        store_tools.set_row(copy, str(game), w, state=rows.row(bytes.fromhex(previous), msgpack.packb(dict(sorted(stored.items())))))
    return copy, version, last


@pytest.mark.parametrize("turn", ["8", True, 8.0, None], ids=["a string", "a bool", "a float", "nil"])
def test_a_rehashed_row_with_a_field_of_another_type_goes_the_general_way_and_rebuilds_as_it(
    demo: tuple[Path, UUID], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, turn: Any
) -> None:
    """The hot path decodes an event type whose fields are all plain with msgspec's decoder of those fields'
    types, which refuses a value of another type (msgpack's decoder would take it): that row goes the general
    way, which decodes and applies it (``StepBegan``'s applier does not read ``turn``), and the game rebuilds
    the same either way."""
    db, game = demo
    copy, v, last = _forged_copy(db, game, tmp_path, "StepBegan", turn=turn)
    decode = checked._FAST["StepBegan"][3]
    with pytest.raises(msgspec.ValidationError):  # the hot path does not take it
        decode(store_tools.row(copy, str(game), v)[1][rows.BODY :])
    original = store_tools.row(db, str(game), v)[1][rows.BODY :]
    assert decode(original) == msgpack.unpackb(original)  # the row as recorded: the same fields as msgpack reads
    fast, general = _both_ways(copy, game, [v - 1, v, v + 1, *range(v + 50, last + 1, 211), last], monkeypatch)
    assert fast == general


def test_a_rehashed_row_with_a_field_beyond_its_types_goes_the_general_way_and_rebuilds_as_it(
    demo: tuple[Path, UUID], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """msgspec's decoder leaves out a key its type does not have; the map then holds fewer keys than the
    body's header counts, and the hot path's check of that count sends the row the general way."""
    db, game = demo
    copy, v, last = _forged_copy(db, game, tmp_path, "StepEnded", zone="exile")
    body = store_tools.row(copy, str(game), v)[1][rows.BODY :]
    assert "zone" not in checked._FAST["StepEnded"][3](body) and "zone" in msgpack.unpackb(body)
    fast, general = _both_ways(copy, game, [v - 1, v, v + 1, last], monkeypatch)
    assert fast == general


def test_the_hot_paths_decoders_read_every_row_of_a_game_as_msgpack_does(demo: tuple[Path, UUID]) -> None:
    db, game = demo
    for v in store_tools.versions(db, str(game)):
        topic, state = store_tools.row(db, str(game), v)
        entry = checked._FAST.get(topic)
        if entry is not None and state[0] == rows.EVENT_ROW:
            body = state[rows.BODY :]
            assert list(entry[3](body).items()) == list(msgpack.unpackb(body).items()), (v, topic)


def test_an_event_type_with_a_field_of_any_type_keeps_msgpacks_decoder() -> None:
    """Where a field may hold anything, msgspec and msgpack can read a value apart (a timestamp extension:
    a ``datetime``, a ``Timestamp``): such types keep msgpack's decoder on the hot path."""
    entries = checked._FAST
    assert entries["SpellCast"][3] is msgpack.unpackb  # targets: list[Any]
    assert entries["PriorityPassed"][3] is not msgpack.unpackb


def test_a_game_read_a_few_rows_a_page_rebuilds_the_same_at_every_version(demo: tuple[Path, UUID], monkeypatch: pytest.MonkeyPatch) -> None:
    """A fold reads a game a page at a time (``replays.stores.pages.PAGE`` rows): at every page's end the hot
    path stops and the next page goes on from its version and hash, wherever the pages fall."""
    db, game = demo
    ledger = _ledger(db)
    try:
        last = ledger.state_now(game).version
        versions = range(1, last + 1, 89)
        whole = [ledger.game(game, v).state.state_hash() for v in versions]
        for page in (7, 64):
            monkeypatch.setattr(pages, "PAGE", page)
            assert [ledger.game(game, v).state.state_hash() for v in versions] == whole, page
    finally:
        ledger.close()


def test_a_row_whose_fields_were_re_encoded_in_another_order_still_checks(demo: tuple[Path, UUID], tmp_path: Path) -> None:
    db, game = demo
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(db.read_bytes())
    v = next(v for v in range(2, 100) if len(msgpack.unpackb(store_tools.row(copy, str(game), v)[1][33:])) >= 3)
    _, state = store_tools.row(copy, str(game), v)
    fields = msgpack.unpackb(state[33:], raw=False)
    store_tools.set_row(copy, str(game), v, state=state[:33] + msgpack.packb(dict(reversed(list(fields.items())))))
    ledger = _ledger(copy)
    try:
        assert ledger.game(game).state.state_hash() == _ledger_state_hash(db, game)
    finally:
        ledger.close()


def _ledger_state_hash(db: Path, game: UUID) -> str:
    ledger = _ledger(db)
    try:
        return ledger.game(game).state.state_hash()
    finally:
        ledger.close()


_KEYS = st.text(alphabet="abcdefghijklmnopqrs_", min_size=1, max_size=8)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=6,
)


@given(fields=st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=12), version=st.integers(1, 2**40))
def test_the_canonical_bytes_of_a_stored_row_are_the_chains_canonical_encoding(fields: dict[str, Any], version: int) -> None:
    digest = hashlib.sha256(b"x").hexdigest()
    data = rows.encode({**fields, "hash": digest, "timestamp": "dropped"})
    decoded = rows.decode(data, lambda b: msgpack.unpackb(b, raw=False, strict_map_key=False))
    assert decoded == {**fields, "hash": digest}
    body = data[rows.BODY :]
    assert rows.canonical_bytes("PriorityPassed", version, msgpack.unpackb(body, raw=False), body) == canonical(
        {"v": version, "type": "PriorityPassed", **fields}
    )


_ANY_KEYS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)  # "type" and after among them


@given(fields=st.dictionaries(_ANY_KEYS, _VALUES, min_size=0, max_size=20), version=st.integers(1, 2**40))
def test_an_event_made_by_a_game_is_hashed_and_stored_as_its_map_would_be(fields: dict[str, Any], version: int) -> None:
    """Game.emit encodes an event's fields once (core.hashing.chain_fields) for its chain hash and its row:
    the hash is the chain's of its contract map, and the row the one rows.encode makes of its fields."""
    fields.pop("type", None)
    fields.pop("v", None)
    fields.pop("hash", None)
    previous = hashlib.sha256(b"x").hexdigest()
    digest, body = chain_fields(previous, version, "PriorityPassed", fields)
    assert digest == chain(previous, {"v": version, "type": "PriorityPassed", **fields})
    assert rows.row(bytes.fromhex(digest), body) == rows.encode({**fields, "hash": digest})


def test_an_event_a_game_emits_is_the_one_the_librarys_trigger_event_makes() -> None:
    """Game.emit makes an event without the library's trigger_event when its fields are the class's: the
    same event (fields, ids, version, hash), applied the same way, and the game's version and pending list
    as the library leaves them; a field missing is refused by the library as before."""
    from uuid import uuid4

    from mtg_ledger.core import events as ev
    from mtg_ledger.core.table import Game

    game = Game.start(demo_setup(7, 2), uuid4())
    twin = Game.start(demo_setup(7, 2), game.id)
    game.collect_events()
    twin.collect_events()
    game.emit(ev.LifeGained, {"player": "alice", "amount": 3, "source": None})
    digest = chain(twin.state.last_hash, {"v": twin.version + 1, "type": "LifeGained", "player": "alice", "amount": 3, "source": None})
    twin.trigger_event(ev.LifeGained, hash=digest, player="alice", amount=3, source=None)
    (made,), (library,) = game.collect_events(), twin.collect_events()
    assert made.to_map() == library.to_map()
    assert (made.originator_id, made.originator_version, type(made.timestamp)) == (library.originator_id, library.originator_version, type(library.timestamp))
    assert game.version == twin.version and game.modified_on == made.timestamp
    assert game.state.to_dict() == twin.state.to_dict()
    with pytest.raises(TypeError, match="LifeGained"):
        game.emit(ev.LifeGained, {"player": "alice", "amount": 3})


def test_an_older_row_a_msgpack_map_reads_as_it_was_written() -> None:
    older = msgpack.packb({"timestamp": "2026-01-01T00:00:00+00:00", "hash": "ab" * 32, "player": "bob"})
    assert rows.decode(older, msgpack.unpackb) == {"timestamp": "2026-01-01T00:00:00+00:00", "hash": "ab" * 32, "player": "bob"}
    assert not rows.is_event_row(older)


def test_a_hash_that_is_not_32_bytes_is_refused() -> None:
    with pytest.raises(rows.RowError, match="32"):
        rows.encode({"hash": "abcd", "player": "bob"})


def test_an_applier_reads_the_fields_alone_and_neither_changes_nor_keeps_the_map() -> None:
    """core.events.base: the hot path hands an applier the fields without v, type and hash, and the rows
    of a body seen before one map. Every event of the golden log (a four-player game of many event
    types), applied from a read-only map of its fields alone, rebuilds the state the contract maps do."""
    header, events = logfile.read(GOLDEN)
    by_contract, by_fields = GameState(), GameState()
    for e in (upgrade(e, header["event_versions"]) for e in events):
        apply_event(by_contract, e)
        fields = MappingProxyType({k: x for k, x in e.items() if k not in ("v", "type", "hash")})  # a change raises
        APPLIERS[e["type"]](by_fields, fields)  # type: ignore[arg-type]
        by_fields.version, by_fields.last_hash = e["v"], e["hash"]
    # a kept map would be in the state: a mappingproxy, which msgpack cannot hash
    assert by_fields.state_hash() == by_contract.state_hash()
