"""Snapshots in schema 3: keyframes and deltas against a keyframe (replays.snapshot_delta). A delta
costs what changed, any snapshot loads from at most two rows, and a snapshot is still a cache the
chain must vouch for: a delta on a damaged or missing keyframe is turned away and the read falls back."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState, Permanent, Player
from mtg_ledger.replays.stores import snapshot_delta as delta
from mtg_ledger.replays.stores import verify
from mtg_ledger.replays.ledger.application import SNAPSHOT_INTERVAL_ENV, Ledger
from tests.log_tools import Event, demo_log, run
from tests.store_tools import SNAPSHOTS, WHERE, edit_snapshot, row, set_row, snapshot_form, snapshot_state, snapshot_versions, state_hash
from tests.conftest import examples

pytestmark = pytest.mark.usefixtures("cli_env")
INTERVAL = 50
Store = tuple[Path, str, list[Event]]


def open_ledger(db: Path) -> Ledger:
    return Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db), SNAPSHOT_INTERVAL_ENV: str(INTERVAL)})


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A demo game imported once for the module, a snapshot every 50 or so events."""
    db = tmp_path_factory.mktemp("deltas") / "store.sqlite"
    events = demo_log()
    ledger = open_ledger(db)
    try:
        game = ledger.import_events(events, UUID(int=15))
    finally:
        ledger.close()
    return db, str(game), events


@pytest.fixture
def store(pristine: Store, tmp_path: Path) -> Store:
    db = tmp_path / "copy.sqlite"
    shutil.copyfile(pristine[0], db)
    return db, pristine[1], pristine[2]


@pytest.fixture
def ledger_of(store: Store) -> Iterator[Ledger]:
    ledger = open_ledger(store[0])
    yield ledger
    ledger.close()


def folded(events: list[Event], version: int) -> GameState:
    state = GameState()
    for e in events[:version]:
        apply_event(state, e)
    return state


def read(ledger: Ledger, game: str, version: int) -> tuple[GameState, list[verify.SnapshotRejected]]:
    rejected: list[verify.SnapshotRejected] = []
    found = verify.load(ledger, UUID(game), version, rejected.append)
    assert found is not None
    return found.state, rejected


def a_delta_and_its_keyframe(db: Path, game: str) -> tuple[int, int]:
    """The last delta of the store whose keyframe has an older snapshot before it, and that keyframe."""
    versions = snapshot_versions(db, game)
    for v in reversed(versions):
        if snapshot_form(db, game, v) == "delta":
            base = max(k for k in versions if k < v and snapshot_form(db, game, k) == "keyframe")
            if base > versions[0]:
                return v, base
    raise AssertionError("no delta in the store")


# --- the form -------------------------------------------------------------------------------------------


def test_the_store_holds_keyframes_and_deltas_each_delta_on_the_keyframe_before_it(store: Store) -> None:
    db, game, events = store
    forms = [snapshot_form(db, game, v) for v in snapshot_versions(db, game)]
    assert forms[0] == "keyframe" and forms.count("delta") > forms.count("keyframe") > 1
    for v in snapshot_versions(db, game):
        assert state_hash(snapshot_state(db, game, v)) == folded(events, v).state_hash()


def test_a_delta_costs_what_changed_not_the_size_of_the_library_or_the_battlefield() -> None:
    before = GameState(players={"alice": Player("alice", library=[f"Card {i}" for i in range(5000)])})
    before.battlefield = [Permanent(i, f"Land {i}", "alice", "alice") for i in range(1, 1001)]
    old = delta.unpack(delta.pack(before.to_dict()))
    after = GameState.from_dict(delta.unpack(delta.pack(before.to_dict())))
    after.players["alice"].library = after.players["alice"].library[3:]  # three cards drawn (121.1)
    after.players["alice"].hand = ["Card 0", "Card 1", "Card 2"]
    after.battlefield[500].tapped = True
    after.battlefield.append(Permanent(1001, "Forest", "alice", "alice"))
    node = delta.diff(old, after.to_dict())
    assert len(delta.pack(node)) < 300 and len(delta.pack(node)) * 50 < len(delta.pack(old))  # compressed, 18 KB
    assert delta.apply(old, delta.unpack(delta.pack(node))) == after.to_dict()


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(["Forest", "Mountain", "Bolt", ""]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(["a", "b", "object", "id", "life"]), inner, max_size=4),
    max_leaves=25,
)


@st.composite
def related(draw: st.DrawFn) -> tuple[Any, Any]:
    """A value and a changed copy of it: lists cut at either end, grown, items edited and moved."""
    old = draw(plain)

    def change(value: Any) -> Any:
        if isinstance(value, list):
            items = [change(v) for v in value]
            start = draw(st.integers(0, len(items)))
            return items[start : len(items) - draw(st.integers(0, len(items) - start))] + draw(st.lists(plain, max_size=3))
        if isinstance(value, dict):
            return {k: change(v) for k, v in value.items() if draw(st.booleans()) or k == "object"} | draw(st.dictionaries(st.sampled_from(["c", "life"]), plain, max_size=2))
        return draw(plain) if draw(st.integers(0, 3)) == 0 else value

    return old, change(old)


@settings(max_examples=examples(60), deadline=None)
@given(related())
def test_a_delta_turns_its_keyframe_into_the_state_for_any_pair_of_values(pair: tuple[Any, Any]) -> None:
    old, new = pair
    node = delta.diff(old, new)
    got = old if node is None else delta.apply(old, delta.unpack(delta.pack(node)))
    assert delta.pack(got) == delta.pack(new)  # the same bytes: types kept (1 is not True)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"object": True}, {"object": 1}),  # equal, of another type
        ({"life": [1, 2.0]}, {"life": [1, 2]}),
        ({"pool": {"G": 1, "W": 1}}, {"pool": {"W": 1, "G": 1}}),  # equal, the keys in another order
        ([{"a": {"x": 0, "y": 0}}], [{"a": {"y": 0, "x": 0}}]),
    ],
    ids=["True then 1", "2.0 then 2", "a map's keys reordered", "deeper"],
)
def test_a_delta_keeps_what_equal_values_do_not_a_type_and_a_maps_order(old: Any, new: Any) -> None:
    """A snapshot's state is kept as the game holds it: a map's order (the seating, the order mana came in)
    and each value's type, which ``==`` does not tell apart."""
    node = delta.diff(old, new)
    assert node is not None
    assert delta.pack(delta.apply(old, delta.unpack(delta.pack(node)))) == delta.pack(new)


@settings(max_examples=examples(25), deadline=None)
@given(st.data())
def test_a_delta_between_any_two_states_of_a_game_rebuilds_the_later_one(data: st.DataObject) -> None:
    events = demo_log()
    first = data.draw(st.integers(1, len(events) - 1))
    later = data.draw(st.integers(first, len(events)))
    keyframe = delta.unpack(delta.pack(folded(events, first).to_dict()))
    state = folded(events, later)
    node = delta.diff(keyframe, state.to_dict())
    rebuilt = GameState.from_dict(keyframe if node is None else delta.apply(keyframe, delta.unpack(delta.pack(node))))
    assert rebuilt.state_hash() == state.state_hash() and rebuilt == state


# --- reads ------------------------------------------------------------------------------------------


def test_the_state_after_every_version_from_keyframes_and_deltas_is_the_log_folded_without_a_rejection(store: Store, ledger_of: Ledger) -> None:
    db, game, events = store
    state = GameState()
    for e in events:
        apply_event(state, e)
        if e["v"] % 5 == 0 or e["v"] == len(events):
            got, rejected = read(ledger_of, game, e["v"])
            assert not rejected and got.state_hash() == state.state_hash(), e["v"]


@pytest.mark.parametrize("damage", ["flipped bytes", "forged and rehashed", "deleted"])
def test_a_damaged_or_missing_keyframe_makes_its_deltas_rejected_and_the_read_falls_back_right(damage: str, store: Store, ledger_of: Ledger) -> None:
    db, game, events = store
    at, base = a_delta_and_its_keyframe(db, game)
    if damage == "flipped bytes":
        data = row(db, game, base, SNAPSHOTS)[1]
        set_row(db, game, base, state=data[:-1] + bytes([data[-1] ^ 1]), table=SNAPSHOTS)
    elif damage == "forged and rehashed":
        edit_snapshot(db, game, base, lambda s: s["players"]["alice"].update(life=99), rehash=True)
    else:
        with sqlite3.connect(db) as con:
            con.execute(f"DELETE FROM {SNAPSHOTS} WHERE {WHERE}", (UUID(game).bytes, base))
    got, rejected = read(ledger_of, game, at + 3)
    assert got.state_hash() == folded(events, at + 3).state_hash()
    assert rejected and all(r.keyframe == base for r in rejected)
    assert {r.version for r in rejected} == {at}  # one try, then on to the snapshots before the keyframe
    assert "keyframe (the snapshot at version" in rejected[0].reason


def test_audit_reports_a_forged_delta_even_with_its_hash_recomputed(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, _ = store
    at, _ = a_delta_and_its_keyframe(db, game)
    edit_snapshot(db, game, at, lambda s: s["players"]["bob"].update(life=1), rehash=True)
    code, out, _ = run(capsys, "audit", game, "--db", str(db))
    assert code == 1 and f"bad stored snapshot: {at}" in out and "players.bob.life is" in out


def test_audit_reports_every_delta_on_a_damaged_keyframe(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, _ = store
    at, base = a_delta_and_its_keyframe(db, game)
    edit_snapshot(db, game, base, lambda s: s["players"]["bob"].update(life=2))  # its own hash no longer matches
    code, out, _ = run(capsys, "audit", game, "--db", str(db))
    assert code == 1 and f"bad stored snapshot: {base}" in out and f"bad stored snapshot: {at}" in out
    assert "not the one it was made from" in out


def test_a_clean_store_of_keyframes_and_deltas_audits_clean(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, _ = store
    code, out, _ = run(capsys, "audit", game, "--db", str(db))
    assert code == 0, out


def test_a_writer_takes_the_keyframes_and_deltas_an_import_of_its_log_takes_byte_for_byte(tmp_path: Path) -> None:
    """A writer snapshots the state before a turn from its copy at its last snapshot, folded on with what it
    saved since (``replays.ledger.snapshotting``), not from a read of the store: the same keyframes and
    deltas, byte for byte, as an import of the same log takes folding every event."""
    from mtg_ledger.replays.demo.decks import demo_setup
    from mtg_ledger.replays.ledger.play import play_demo

    played, imported = tmp_path / "played.sqlite", tmp_path / "imported.sqlite"
    writer = open_ledger(played)
    try:
        game = play_demo(writer, demo_setup(7))
        events = list(writer.event_maps(game))
    finally:
        writer.close()
    importer = open_ledger(imported)
    try:
        importer.import_events(events, game)
    finally:
        importer.close()
    versions = snapshot_versions(played, str(game))
    assert len(versions) >= 10 and versions == snapshot_versions(imported, str(game))

    def taken(db: Path, version: int) -> dict[str, Any]:  # the state's fields, not when the rows were written
        fields = msgpack.unpackb(row(db, str(game), version, SNAPSHOTS)[1], raw=False, strict_map_key=False)["state"]
        return {k: v for k, v in fields.items() if k in ("state_hash", "keyframe", "base", "delta")}

    assert [taken(played, v) for v in versions] == [taken(imported, v) for v in versions]
