"""Save rows on the real PostgreSQL (``replays.stores.pg_saves``): the library's recorder conformance tests for
events and snapshots, a run that must follow its game's last run, long runs cut into rows, reads across rows,
and damaged rows refused saying where."""

from __future__ import annotations

import threading
from itertools import product
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import DataError, IntegrityError, StoredEvent
from eventsourcing.tests import persistence as library_tests
from psycopg import sql

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.stores import row_dictionary
from mtg_ledger.replays.stores.pg_factory import LAYOUT_ENV, Factory
from mtg_ledger.replays.messages import say
from mtg_ledger.replays.stores.checked import Unreadable
from mtg_ledger.replays.stores.pg_saves import ROW_EVENTS, SaveSnapshotsRecorder, SavesRecorder
from tests.log_tools import run
from tests.store.test_store_postgres_streams import SparseIds, _connect, _drop_schema, _fresh_schema

pytestmark = pytest.mark.postgres
WAIT_S = 5.0


class _OnAFreshSchema:
    factory: Factory
    id_type = "uuid"

    def setUp(self) -> None:
        self.schema = f"mtgl_saves_conf_{uuid4().hex[:12]}"
        self.factory = Factory({**_fresh_schema(self.schema), LAYOUT_ENV: "saves", "ORIGINATOR_ID_TYPE": self.id_type})

    def tearDown(self) -> None:
        self.factory.close()
        _drop_schema(self.schema)

    def create_recorder(self) -> Any:
        recorder = self.factory.application_recorder()
        assert type(recorder) is SavesRecorder
        return recorder


class TestSaveRowsPassTheLibrarysApplicationRecorderTests(_OnAFreshSchema, SparseIds):
    pass


class TestSaveRowsWithTextIdsPassTheLibrarysApplicationRecorderTests(TestSaveRowsPassTheLibrarysApplicationRecorderTests):
    id_type = "text"

    def new_originator_id(self) -> Any:
        return f"game-{uuid4().hex[:8]}"

    test_concurrent_no_conflicts = None  # type: ignore[assignment]  # run once, above
    test_concurrent_throughput = None  # type: ignore[assignment]
    test_performance = None  # type: ignore[assignment]


class TestSaveRowsNeverInterleaveTwoSaves(_OnAFreshSchema, library_tests.NonInterleavingNotificationIDsBaseCase):  # type: ignore[misc]
    insert_num = 500


class TestSnapshotRowsPassTheLibrarysAggregateRecorderTests(_OnAFreshSchema, library_tests.AggregateRecorderTestCase):  # type: ignore[misc]
    def create_recorder(self) -> Any:
        recorder = self.factory.aggregate_recorder("snapshots")
        assert type(recorder) is SaveSnapshotsRecorder
        return recorder


# --- the rows ---------------------------------------------------------------------------------------


@pytest.fixture
def recorder(postgres_env: dict[str, str]) -> Any:
    factory = Factory({**postgres_env, LAYOUT_ENV: "saves"})
    yield factory.application_recorder()
    factory.close()


def _events(game: UUID, first: int, count: int, topic: str = "DecisionTaken") -> list[StoredEvent]:
    return [StoredEvent(game, v, topic, f"state {v}".encode()) for v in range(first, first + count)]


def _rows(recorder: SavesRecorder, game: UUID) -> list[tuple[int, int]]:
    """(first version, size) of a game's runs, straight from the table."""
    table = sql.Identifier(recorder.datastore.schema, recorder.events_table_name)
    with _connect() as conn:
        return [(v, n) for v, n in conn.execute(sql.SQL("SELECT version, size FROM {} WHERE game = %s AND kind = 0 ORDER BY version").format(table), (game,))]


def test_a_save_of_a_game_is_one_row_holding_its_events_as_they_were_given(recorder: SavesRecorder) -> None:
    game = uuid4()
    recorder.insert_events(_events(game, 1, 3))
    recorder.insert_events(_events(game, 4, 2))
    assert _rows(recorder, game) == [(1, 3), (4, 2)]
    assert recorder.select_events(game) == _events(game, 1, 5)


def test_a_run_that_does_not_follow_the_games_last_run_is_refused_and_writes_nothing(recorder: SavesRecorder) -> None:
    game = uuid4()
    recorder.insert_events(_events(game, 1, 5))
    for behind in (_events(game, 3, 4), _events(game, 5, 1), _events(game, 7, 1), _events(game, 1, 1)):  # overlapping, a gap, the start again
        with pytest.raises(IntegrityError):
            recorder.insert_events(behind)
    with pytest.raises(IntegrityError):  # a game's events start at version 0 or 1
        recorder.insert_events(_events(uuid4(), 2, 1))
    assert _rows(recorder, game) == [(1, 5)]


def test_a_save_that_gives_a_version_twice_or_leaves_a_gap_is_refused_whole(recorder: SavesRecorder) -> None:
    game, other = uuid4(), uuid4()
    twice = [*_events(other, 1, 2), *_events(game, 1, 3), *_events(game, 3, 1)]
    gap = [*_events(other, 1, 2), *_events(game, 1, 3), *_events(game, 5, 1)]
    for save in (twice, gap):
        with pytest.raises(IntegrityError):
            recorder.insert_events(save)
    assert recorder.select_events(game) == [] and recorder.select_events(other) == []


def _second_writer_while_first_holds(recorder: SavesRecorder, first: list[StoredEvent], second: list[StoredEvent]) -> None:
    """``first`` saved in a transaction left open, then ``second`` saved beside it: the second waits on a key
    the first has written until the first commits (0.3 s later), and must then fail on it."""
    inserted, release = threading.Event(), threading.Event()

    def first_writer() -> None:
        with recorder.datastore.transaction(commit=True) as curs:
            recorder.insert_events_in_transaction(curs, first)
            inserted.set()
            release.wait(WAIT_S)

    writer = threading.Thread(target=first_writer)
    writer.start()
    assert inserted.wait(WAIT_S)
    threading.Timer(0.3, release.set).start()
    try:
        with pytest.raises(IntegrityError, match="duplicate key"):
            recorder.insert_events(second)
    finally:
        writer.join(WAIT_S)


def test_two_writers_after_the_same_run_collide_on_its_next_version_and_the_second_writes_nothing(recorder: SavesRecorder) -> None:
    game = uuid4()
    recorder.insert_events(_events(game, 1, 2))
    _second_writer_while_first_holds(recorder, _events(game, 3, 4), _events(game, 3, 1, topic="Other"))
    assert [e.topic for e in recorder.select_events(game)] == ["DecisionTaken"] * 6


@pytest.mark.parametrize("second_first", [0, 1])
def test_two_writers_starting_one_game_at_once_collide_on_its_opening_mark_whatever_version_they_start_at(
    recorder: SavesRecorder, second_first: int
) -> None:
    game = uuid4()
    _second_writer_while_first_holds(recorder, _events(game, 1, 3), _events(game, second_first, 2, topic="Other"))
    assert recorder.select_events(game) == _events(game, 1, 3)


def test_a_run_longer_than_a_row_holds_is_cut_into_rows_and_reads_back_whole_from_any_version(recorder: SavesRecorder) -> None:
    game = uuid4()
    total = 2 * ROW_EVENTS + 5
    events = _events(game, 1, total)
    recorder.insert_events(events)
    assert _rows(recorder, game) == [(1, ROW_EVENTS), (ROW_EVENTS + 1, ROW_EVENTS), (2 * ROW_EVENTS + 1, 5)]
    edges = [None, 0, 1, ROW_EVENTS - 1, ROW_EVENTS, ROW_EVENTS + 1, total - 1, total]
    for gt, lte, desc, limit in product(edges, edges, (False, True), (None, 1, 3)):
        expected = [e for e in events if (gt is None or e.originator_version > gt) and (lte is None or e.originator_version <= lte)]
        expected = list(reversed(expected)) if desc else expected
        assert recorder.select_events(game, gt=gt, lte=lte, desc=desc, limit=limit) == expected[:limit], (gt, lte, desc, limit)


def test_the_feed_gives_each_event_of_a_run_its_own_id_and_pages_through_runs_for_a_rare_topic(recorder: SavesRecorder) -> None:
    game = uuid4()
    ids: list[int] = []
    for first in range(1, 40, 3):  # runs of three, the last event of each a rare topic
        ids += recorder.insert_events([*_events(game, first, 2), *_events(game, first + 2, 1, topic="Rare")]) or []
    feed = recorder.select_notifications(None, 1000)
    assert [n.id for n in feed] == ids and [n.originator_version for n in feed] == list(range(1, 40))
    rare = recorder.select_notifications(None, 5, topics=["Rare"])
    assert [n.originator_version for n in rare] == [3, 6, 9, 12, 15]
    assert [n.id for n in recorder.select_notifications(ids[4], 3, inclusive_of_start=False)] == ids[5:8]
    assert [n.id for n in recorder.select_notifications(ids[4], 100, stop=ids[10])] == ids[4:11]
    assert recorder.max_notification_id() == ids[-1]


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (b"\x07", "form 7"),
        (b"\x01\x00\x01\x02", "does not decompress"),
        (row_dictionary.pack([["DecisionTaken", b"one"]]), "does not hold 2"),
        (row_dictionary.pack({"not": "pairs"}), "does not hold 2"),
    ],
    ids=["an unknown form", "not a zstd frame", "fewer events than its size", "not a list of pairs"],
)
def test_a_damaged_row_reads_as_its_versions_saying_what_is_wrong_and_the_feed_refuses_it(recorder: SavesRecorder, damage: bytes, says: str) -> None:
    game = uuid4()
    recorder.insert_events(_events(game, 1, 2))
    recorder.insert_events(_events(game, 3, 1))
    table = sql.Identifier(recorder.datastore.schema, recorder.events_table_name)
    with _connect() as conn:
        conn.execute(sql.SQL("UPDATE {} SET events = %s WHERE game = %s AND kind = 0 AND version = 1").format(table), (damage, game))
    found = recorder.select_events(game)
    assert [(e.originator_version, type(e.topic), e.state) for e in found[:2]] == [(1, Unreadable, b""), (2, Unreadable, b"")]
    assert found[2] == _events(game, 3, 1)[0]
    problem = say("store.damage", {"game": game, "v": 1, "problem": found[0].topic.problem})  # type: ignore[attr-defined]
    assert f"{recorder.events_table_name}: the row of versions 1 to 2: " in problem and says in problem
    with pytest.raises(DataError, match=f"event 1: .*the row of versions 1 to 2: .*{says}"):
        recorder.select_notifications(None, 10)


def test_an_audit_of_a_game_with_a_damaged_save_row_names_its_first_version_and_vouches_for_the_events_before_it(
    postgres_env: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = Ledger(env={**postgres_env, LAYOUT_ENV: "saves"})
    try:
        game = play_demo(ledger, demo_setup(7))
        table = sql.Identifier(ledger.recorder.datastore.schema, ledger.recorder.events_table_name)  # type: ignore[attr-defined]
    finally:
        ledger.close()
    with _connect() as conn:
        first = conn.execute(sql.SQL("SELECT MIN(version) FROM {} WHERE game = %s AND kind = 0 AND version >= 300").format(table), (game,)).fetchone()[0]
        conn.execute(sql.SQL("UPDATE {} SET events = '\\x0100' WHERE game = %s AND kind = 0 AND version = %s").format(table), (game, first))
    for key, value in postgres_env.items():
        monkeypatch.setenv(key, value)
    code, out, _ = run(capsys, "audit", str(game))
    assert code == 1
    assert f"first bad event: {first} (integrity)" in out and f"events 1 to {first - 1} verified" in out
    code, out, _ = run(capsys, "games")
    assert code == 0 and str(game) in out
    code, _, err = run(capsys, "views", str(game))  # the read models follow the feed: they stop at the row, saying so
    assert code == 3 and f"game {game}, event {first}: its stored bytes do not decode" in err and "Traceback" not in err


def test_the_demo_game_on_save_rows_reads_back_as_it_was_played(postgres_env: dict[str, str]) -> None:
    ledger = Ledger(env={**postgres_env, LAYOUT_ENV: "saves"})
    try:
        game = play_demo(ledger, demo_setup(7))
        played = ledger.state_now(game)
    finally:
        ledger.close()
    reader = Ledger(env={**postgres_env, "CREATE_TABLE": "false"})
    try:
        assert type(reader.recorder) is SavesRecorder
        assert reader.state(game).state_hash() == played.state_hash()
        assert [e["hash"] for e in reader.event_maps(game)][-1] == played.last_hash
    finally:
        reader.close()


def test_the_pool_lends_the_connection_returned_last(recorder: SavesRecorder) -> None:
    pids = set()
    for _ in range(6):
        with recorder.datastore.get_connection() as conn:
            pids.add(conn.execute("SELECT pg_backend_pid()").fetchone()["pg_backend_pid"])  # type: ignore[index]
    assert len(pids) == 1, "one thread at a time writes through one server session"


def test_the_stores_sessions_plan_each_statement_once_and_keep_the_options_pgoptions_gives(
    postgres_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PGOPTIONS", "-c default_transaction_read_only=on")
    factory = Factory({**postgres_env, "CREATE_TABLE": "false"})
    try:
        with factory.datastore.get_connection() as conn:
            found = conn.execute("SELECT current_setting('plan_cache_mode') AS plans, current_setting('default_transaction_read_only') AS ro").fetchone()
    finally:
        factory.close()
    assert found == {"plans": "force_generic_plan", "ro": "on"}


def test_a_writer_starting_beside_a_long_reader_creates_nothing_and_waits_for_no_lock(
    postgres_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Factory({**postgres_env, LAYOUT_ENV: "saves"})
    recorder = first.application_recorder()
    table = sql.Identifier(recorder.datastore.schema, recorder.events_table_name)
    monkeypatch.setenv("PGOPTIONS", "-c lock_timeout=2000")  # a lock the start waited for fails it, rather than hang
    with _connect() as reader, reader.transaction():
        reader.execute(sql.SQL("SELECT count(*) FROM {}").format(table))  # holds ACCESS SHARE until it ends
        started = Factory({**postgres_env, LAYOUT_ENV: "saves"})
        try:  # a second writer's start: its recorders and their tables, as serve or play make them
            assert type(started.application_recorder()) is SavesRecorder
            assert type(started.aggregate_recorder("snapshots")) is SaveSnapshotsRecorder
        finally:
            started.close()
    first.close()
