"""The compact SQLite recorders (schema 3, issue 15): the library's own recorder conformance tests,
version conflicts as the library's IntegrityError (the Ledger's VersionConflict:
tests/store/test_racing_writers.py), readers that create nothing, files written with
the library's tables kept on the library's recorders, and an import in one transaction."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import IntegrityError, PersistenceError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.tests import persistence as library_tests

from mtg_ledger.core.commands import PassPriority
from mtg_ledger.replays.stores import bulk as storage
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.stores import construct_factory
from mtg_ledger.replays.stores.checked import BrokenChain
from mtg_ledger.replays.stores.errors import StreamNotEmpty
from mtg_ledger.replays.stores.sqlite import CompactApplicationRecorder
from mtg_ledger.replays.stores.sqlite_factory import PAGE_SIZE, Factory

FIXTURES = Path(__file__).parents[1] / "fixtures"
WAIT_S = 5.0  # the longest a reader thread of the library's cases may take to stop (never reached)
COMPACT_TABLES = {"games", "topics", "events", "feed", "snapshots"}


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as con:
        return {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _env(path: Path, **more: str) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path), **more}


# --- the library's own recorder tests ------------------------------------------------------------


class _OnAFreshFile:
    """A new SQLite file per test, and the compact recorders' factory over it."""

    factory: Factory

    def setUp(self) -> None:
        self.folder = TemporaryDirectory()
        self.factory = Factory({"SQLITE_DBNAME": str(Path(self.folder.name) / "store.sqlite")})

    def tearDown(self) -> None:
        # The library's concurrency case leaves its reader threads to stop on their own: closing the
        # connections under a reader's query would crash the interpreter.
        for thread in threading.enumerate():
            if thread is not threading.current_thread() and not thread.daemon:
                thread.join(timeout=WAIT_S)
        self.factory.close()
        self.folder.cleanup()


class TestCompactSnapshotsPassTheLibrarysAggregateRecorderCases(_OnAFreshFile, library_tests.AggregateRecorderTestCase):
    def create_recorder(self) -> Any:
        return self.factory.aggregate_recorder("snapshots")


class TestCompactEventsPassTheLibrarysApplicationRecorderCases(_OnAFreshFile, library_tests.ApplicationRecorderTestCase):
    def create_recorder(self) -> Any:
        return self.factory.application_recorder()


class TestCompactEventsWithTextIdsPassTheLibrarysApplicationRecorderCases(_OnAFreshFile, library_tests.ApplicationRecorderTestCase):
    def setUp(self) -> None:
        self.folder = TemporaryDirectory()
        self.factory = Factory({"SQLITE_DBNAME": str(Path(self.folder.name) / "store.sqlite"), "ORIGINATOR_ID_TYPE": "text"})

    def new_originator_id(self) -> str:
        return f"game-{uuid4().hex[:8]}"

    def create_recorder(self) -> Any:
        return self.factory.application_recorder()

    test_concurrent_no_conflicts = None  # type: ignore[assignment]  # run once, above
    test_concurrent_throughput = None  # type: ignore[assignment]
    test_performance = None  # type: ignore[assignment]


# --- the layout ------------------------------------------------------------------------------------


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    app = Ledger(env=_env(tmp_path / "store.sqlite", MTG_LEDGER_SNAPSHOT_INTERVAL="100"))
    yield app
    app.close()


def test_a_new_file_stores_games_in_the_compact_tables_and_rebuilds_them(ledger: Ledger, tmp_path: Path) -> None:
    game = play_demo(ledger, demo_setup(7))
    assert isinstance(ledger.recorder, CompactApplicationRecorder)
    path = tmp_path / "store.sqlite"
    assert _tables(path) == COMPACT_TABLES
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
        assert con.execute("SELECT uuid FROM games").fetchall() == [(game.bytes,)]
        count, versions = con.execute("SELECT COUNT(*), SUM(size) FROM feed").fetchone()
        assert con.execute("SELECT COUNT(*) FROM events").fetchone()[0] == versions
        assert con.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] >= 1
    events = list(ledger.event_maps(game))
    assert versions == len(events) and count < len(events) / 2  # one feed row per save, not per event
    assert [n.id for n in ledger.recorder.select_notifications(None, 10_000)] == list(range(1, len(events) + 1))
    assert Ledger.game(ledger, game).state.state_hash() == ledger.state_now(game).state_hash()
    assert ledger.game_ids() == [game]


def test_events_are_notified_in_the_order_they_were_saved_across_games(ledger: Ledger) -> None:
    first, second = ledger.start(demo_setup(1)), ledger.start(demo_setup(2))
    holder = ledger.state_now(first).priority
    assert holder is not None
    ledger.decide(first, PassPriority(holder))
    notes = ledger.recorder.select_notifications(start=None, limit=10_000)
    assert [n.id for n in notes] == list(range(1, len(notes) + 1))
    games = [n.originator_id for n in notes]
    assert games[0] == first and second in games and games[-1] == first
    assert ledger.recorder.max_notification_id() == len(notes)
    started = ledger.recorder.select_notifications(start=None, limit=10, topics=["GameStarted"])
    assert [n.originator_id for n in started] == [first, second]


def test_a_second_writer_of_the_same_version_gets_the_librarys_integrity_error(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    one, two = Factory({"SQLITE_DBNAME": str(path)}), Factory({"SQLITE_DBNAME": str(path)})
    game = uuid4()
    try:
        a, b = one.application_recorder(), two.application_recorder()
        assert a.insert_events([StoredEvent(game, 1, "GameStarted", b"a")]) == [1]
        with pytest.raises(IntegrityError):
            b.insert_events([StoredEvent(game, 2, "PriorityPassed", b"b"), StoredEvent(game, 1, "GameStarted", b"c")])
        assert [e.state for e in b.select_events(game)] == [b"a"]  # nothing of the refused save
        assert b.insert_events([StoredEvent(game, 2, "PriorityPassed", b"b")]) == [2]
    finally:
        one.close()
        two.close()


def test_a_reader_of_a_compact_store_creates_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    writer = Ledger(env=_env(path))
    game = writer.start(demo_setup(3))
    writer.close()
    with sqlite3.connect(path) as con:
        before = con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    reader = Ledger(env=_env(path), writes=False)
    try:
        assert reader.game_ids() == [game]
        assert reader.state_now(game).version >= 1
    finally:
        reader.close()
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall() == before


def test_a_reader_of_an_empty_file_creates_no_table(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    reader = Ledger(env=_env(path), writes=False)
    try:
        with pytest.raises(Exception, match="no such table"):
            reader.recorder.max_notification_id()
    finally:
        reader.close()
    assert _tables(path) == set()


def test_a_store_with_the_librarys_tables_keeps_the_librarys_recorders_and_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURES / "schema1-store.sqlite", path)
    before = _tables(path)
    ledger = Ledger(env=_env(path))
    try:
        assert type(ledger.recorder) is SQLiteApplicationRecorder
        games = ledger.game_ids()
        game = play_demo(ledger, demo_setup(5))  # a writer adds its game in the library's tables
        assert ledger.game_ids() == [*games, game]
    finally:
        ledger.close()
    assert _tables(path) == before and not before & {"games", "topics", "events"}


def test_the_library_recorder_can_be_chosen_for_a_new_file(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    factory = construct_factory(_env(path, MTG_LEDGER_SQLITE_RECORDER="library"))  # type: ignore[arg-type]
    try:
        assert type(factory.application_recorder()) is SQLiteApplicationRecorder
    finally:
        factory.close()
    assert "stored_events" in _tables(path)
    with pytest.raises(ValueError, match="MTG_LEDGER_SQLITE_RECORDER"):
        construct_factory(_env(tmp_path / "x.sqlite", MTG_LEDGER_SQLITE_RECORDER="fastest"))  # type: ignore[arg-type]


def test_an_import_stores_its_events_and_snapshots_in_one_transaction(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    game = uuid4()
    events = [StoredEvent(game, v, "PriorityPassed", b"e%d" % v) for v in range(1, 2501)]
    snapshots = [StoredEvent(game, v, "GameSnapshot", b"s") for v in (1000, 2000)]
    assert ledger.snapshots is not None
    snapshot_recorder = ledger.snapshots.recorder
    storage.insert_game(ledger.recorder, snapshot_recorder, events, snapshots)
    assert len(ledger.recorder.select_events(game)) == 2500
    assert [s.originator_version for s in snapshot_recorder.select_events(game)] == [1000, 2000]

    other = uuid4()
    clash = [StoredEvent(other, v, "PriorityPassed", b"x") for v in range(1, 1500)]
    bad_snapshots = [StoredEvent(other, 1000, "GameSnapshot", b"s")] * 2  # the second one fails, last of all
    with pytest.raises(IntegrityError):
        storage.insert_game(ledger.recorder, snapshot_recorder, clash, bad_snapshots)
    assert ledger.recorder.select_events(other) == [] and snapshot_recorder.select_events(other) == []
    assert ledger.recorder.max_notification_id() == 2500


def test_the_stored_game_key_is_the_uuid_s_sixteen_bytes(tmp_path: Path) -> None:
    factory = Factory({"SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    try:
        recorder = factory.application_recorder()
        game = UUID(int=7)
        recorder.insert_events([StoredEvent(game, 1, "GameStarted", b"{}")])
        assert recorder.select_events(str(game))[0].originator_id == game
    finally:
        factory.close()
    with sqlite3.connect(tmp_path / "store.sqlite") as con:
        assert con.execute("SELECT uuid, typeof(uuid) FROM games").fetchall() == [(UUID(int=7).bytes, "blob")]


def test_notification_ids_follow_the_order_of_a_save_that_mixes_games(tmp_path: Path) -> None:
    factory = Factory({"SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    one, two = UUID(int=1), UUID(int=2)
    try:
        recorder = factory.application_recorder()
        saved = [StoredEvent(one, 1, "A", b"1"), StoredEvent(one, 2, "B", b"2"), StoredEvent(two, 1, "A", b"3"),
                 StoredEvent(one, 3, "B", b"4"), StoredEvent(one, 4, "A", b"5")]  # fmt: skip
        assert recorder.insert_events(saved) == [1, 2, 3, 4, 5]
        assert recorder.insert_events([StoredEvent(two, 2, "C", b"6")]) == [6]

        def ids(*args: Any, **kwargs: Any) -> list[tuple[int, bytes]]:
            return [(n.id, n.state) for n in recorder.select_notifications(*args, **kwargs)]

        assert ids(None, 10) == [(i, str(i).encode()) for i in range(1, 7)]
        assert ids(2, 2) == [(2, b"2"), (3, b"3")]
        assert ids(4, 10, inclusive_of_start=False) == [(5, b"5"), (6, b"6")]
        assert ids(None, 10, stop=4) == [(1, b"1"), (2, b"2"), (3, b"3"), (4, b"4")]
        assert ids(2, 10, topics=["A"]) == [(3, b"3"), (5, b"5")]
        assert recorder.max_notification_id() == 6
    finally:
        factory.close()
    with sqlite3.connect(tmp_path / "store.sqlite") as con:  # a person deletes a row in the middle of a save
        con.execute("DELETE FROM events WHERE key = (SELECT id FROM games WHERE uuid = ?) * 4294967296 + 2", (one.bytes,))
    factory = Factory({"SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    try:
        assert [n.id for n in factory.application_recorder().select_notifications(None, 10)] == [1, 3, 4, 5, 6]
    finally:
        factory.close()


def test_a_new_file_that_cannot_be_made_is_the_librarys_persistence_error(tmp_path: Path) -> None:
    with pytest.raises(PersistenceError, match="unable to open database file"):
        Factory({"SQLITE_DBNAME": str(tmp_path / "no such folder" / "store.sqlite")})


def test_a_save_stands_only_if_it_follows_its_games_last_stored_event(tmp_path: Path) -> None:
    """The events' table holds each game's events without a gap: a save from version v > 1 needs event
    v - 1 stored (checked under the write lock), and with the unique key, exactly the game's last. A save
    that does not follow is the library's IntegrityError, as a second writer's is, and stores nothing."""
    factory = Factory({"SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    one, two = UUID(int=1), UUID(int=2)
    try:
        recorder = factory.application_recorder()
        recorder.insert_events([StoredEvent(one, 1, "A", b"1"), StoredEvent(one, 2, "B", b"2")])
        for behind_or_beyond in ([StoredEvent(one, 4, "A", b"x")], [StoredEvent(two, 1, "A", b"y"), StoredEvent(one, 2, "A", b"z")],
                                 [StoredEvent(two, 1, "A", b"y"), StoredEvent(two, 3, "A", b"z")]):  # fmt: skip
            with pytest.raises(IntegrityError):
                recorder.insert_events(behind_or_beyond)
        assert [s.state for s in recorder.select_events(one)] == [b"1", b"2"]
        assert recorder.select_events(two) == [] and recorder.max_notification_id() == 2
        assert recorder.insert_events([StoredEvent(one, 3, "A", b"3"), StoredEvent(two, 1, "A", b"4")]) == [3, 4]
    finally:
        factory.close()


def test_a_save_given_streams_that_must_be_empty_stands_only_while_each_is(tmp_path: Path) -> None:
    """``absent``: what a writer would have read before its save (has the player registered a key?) is
    checked in the save's transaction, under the write lock; a stream written meanwhile refuses the whole
    save (``StreamNotEmpty``, an IntegrityError) and nothing of it is kept."""
    factory = Factory({"SQLITE_DBNAME": str(tmp_path / "store.sqlite")})
    game, key, other = UUID(int=1), UUID(int=2), UUID(int=3)
    try:
        recorder = factory.application_recorder()
        assert recorder.checks_absent
        recorder.insert_events([StoredEvent(game, 1, "A", b"1")], absent=[key, other])  # neither written yet
        recorder.insert_events([StoredEvent(key, 1, "Key", b"k")])
        with pytest.raises(StreamNotEmpty):
            recorder.insert_events([StoredEvent(game, 2, "B", b"2")], absent=[other, key])
        assert [s.state for s in recorder.select_events(game)] == [b"1"] and recorder.max_notification_id() == 2
        assert issubclass(StreamNotEmpty, IntegrityError)
    finally:
        factory.close()


def test_a_decision_on_a_copy_the_store_no_longer_holds_is_taken_on_the_game_as_stored(ledger: Ledger, tmp_path: Path) -> None:
    """The ledger decides on the game as it last saved it without reading the store first; when the store
    holds less (restored from an earlier backup) or more (another writer), that save fails on the store's
    check and the decision is taken on the game as stored: never a gap, never a second event ``v``."""
    game = ledger.start(demo_setup(3))
    backup = ledger.state_now(game).version
    holder = ledger.state_now(game).priority
    assert holder is not None
    ledger.decide(game, PassPriority(holder))
    assert ledger.state_now(game).version > backup
    with sqlite3.connect(tmp_path / "store.sqlite") as con:  # the store restored to before the decision
        con.execute("DELETE FROM events WHERE key > (SELECT id FROM games WHERE uuid = ?) * 4294967296 + ?", (game.bytes, backup))
    new = ledger.decide(game, PassPriority(holder))  # the same decision, on the game as the store holds it
    assert new[0]["v"] == backup + 1
    other = Ledger(env=_env(tmp_path / "store.sqlite"))
    try:
        holder = other.state_now(game).priority
        assert holder is not None
        other.decide(game, PassPriority(holder))  # another writer moves the store on
        version = other.state_now(game).version
    finally:
        other.close()
    holder = ledger.game(game).state.priority  # what the player sees now (a checked read)
    assert holder is not None
    assert ledger.decide(game, PassPriority(holder))[0]["v"] == version + 1
    events = list(ledger.event_maps(game))
    assert [e["v"] for e in events] == list(range(1, len(events) + 1))
    assert Ledger.game(ledger, game).state.state_hash() == ledger.state_now(game).state_hash()


def test_a_decision_and_the_snapshot_it_takes_are_one_commit(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the compact tables a writer takes a due snapshot from its copy of the game before the save and
    stores it in the save's transaction: one commit a decision, a snapshot included. Only a game's first
    snapshot in a process, with no copy yet, is read and stored after the save, in a commit of its own."""
    from eventsourcing.sqlite import SQLiteConnection

    commits: list[bool] = []
    commit = SQLiteConnection.commit

    def counted(self: SQLiteConnection) -> None:
        commits.append(True)
        commit(self)

    decisions: list[int] = []
    decide = Ledger.decide

    def counted_decide(self: Ledger, *args: Any, **kwargs: Any) -> Any:
        decisions.append(1)
        return decide(self, *args, **kwargs)

    monkeypatch.setattr(SQLiteConnection, "commit", counted)
    monkeypatch.setattr(Ledger, "decide", counted_decide)
    game = play_demo(ledger, demo_setup(7))
    assert ledger.snapshots is not None
    snapshots = ledger.snapshots.recorder.select_events(game)
    assert len(snapshots) >= 8  # a snapshot every 100 or so events of 1,076
    assert sum(commits) == 1 + len(decisions) + 1  # the start, each decision, the game's first snapshot


def test_a_run_of_versions_reads_every_row_numbered_or_nothing_when_a_row_is_missing(tmp_path: Path) -> None:
    """``select_run`` gives a page's rows without their versions only when they are every version of the
    run up to the last one stored (the rows as many as those versions); else None, and the page is read
    with its versions (``replays.stores.pages``), where the fold says which row is missing."""
    db = tmp_path / "run.sqlite"
    ledger = Ledger(env=_env(db))
    try:
        game = play_demo(ledger, demo_setup(7, 2))
        recorder = ledger.recorder
        stored = [(e.topic, e.state) for e in recorder.select_events(game, gt=10, lte=30)]
        names, rows = recorder.select_run(game, gt=10, lte=30)
        assert [(names[t], s) for t, s in rows] == stored
        last = ledger.last_version(game)
        names, rows = recorder.select_run(game, gt=last - 5, lte=last + 100)  # the game's end within the run
        assert len(rows) == 5
        assert recorder.select_run(game, gt=last, lte=last + 100) == (names, [])
    finally:
        ledger.close()
    with sqlite3.connect(db) as con:
        key = con.execute("SELECT id FROM games WHERE uuid = ?", (game.bytes,)).fetchone()[0] * 2**32 + 20
        con.execute("DELETE FROM events WHERE key = ?", (key,))
    ledger = Ledger(env=_env(db), writes=False)
    try:
        assert ledger.recorder.select_run(game, gt=10, lte=30) is None
        assert ledger.recorder.select_run(game, gt=last - 5, lte=last + 100) is not None  # past the hole
        with pytest.raises(BrokenChain, match="20"):
            ledger.game(game, 25)  # no snapshot before: folded from the first event
    finally:
        ledger.close()
