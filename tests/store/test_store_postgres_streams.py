"""The streams recorder on the real PostgreSQL (issue 13): the library's recorder conformance tests,
writers of different games never waiting for each other, followers never passing over a row that
commits late, the schema created once by workers starting together, and readers running no DDL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from eventsourcing.persistence import Notification, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.tests import persistence as library_tests
from psycopg import sql

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.stores import RECORDER_ENV
from mtg_ledger.replays.stores import row_dictionary
from mtg_ledger.replays.stores.pg_factory import LAYOUT_ENV, LAYOUTS, Factory
from mtg_ledger.replays.stores.pg_saves import SavesRecorder
from mtg_ledger.replays.stores.postgres import PER_TRANSACTION, StreamsRecorder
from tests.conftest import POSTGRES

pytestmark = pytest.mark.postgres
WAIT_S = 5.0  # the longest any step here may take before the test fails (never reached when it passes)


def _connect() -> psycopg.Connection[Any]:
    return psycopg.connect(
        dbname=POSTGRES["POSTGRES_DBNAME"], host=POSTGRES["POSTGRES_HOST"], port=int(POSTGRES["POSTGRES_PORT"]),
        user=POSTGRES["POSTGRES_USER"], password=POSTGRES["POSTGRES_PASSWORD"], connect_timeout=5, autocommit=True,
    )  # fmt: skip


def _fresh_schema(name: str) -> dict[str, str]:
    with _connect() as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {0} CASCADE; CREATE SCHEMA {0}").format(sql.Identifier(name)))
    return {**POSTGRES, "POSTGRES_SCHEMA": name}


def _drop_schema(name: str) -> None:
    with _connect() as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


def _events(originator_id: UUID, count: int, first: int = 1) -> list[StoredEvent]:
    return [StoredEvent(originator_id, v, "DecisionTaken", b"{}") for v in range(first, first + count)]


# --- the library's own recorder tests ------------------------------------------------------------


class _OnAFreshSchema:
    """A fresh schema per test, and the factory over it with the row-an-event layout (the save rows' own
    conformance tests are in test_store_postgres_saves)."""

    factory: Factory

    def setUp(self) -> None:
        self.schema = f"mtgl_streams_conf_{uuid4().hex[:12]}"
        self.factory = Factory({**_fresh_schema(self.schema), LAYOUT_ENV: "events"})

    def tearDown(self) -> None:
        self.factory.close()
        _drop_schema(self.schema)

    def create_recorder(self) -> Any:
        recorder = self.factory.application_recorder()
        assert type(recorder) is StreamsRecorder
        return recorder


class DenseIds:
    """The recorder seen through ids 1, 2, 3... in the order it gave them: the library's
    ``test_insert_select`` hard-codes ids from a sequence; ours are (xid << 16) + n. Every
    argument and result is mapped both ways, so every assertion of that test still runs."""

    def __init__(self, recorder: StreamsRecorder) -> None:
        self.recorder = recorder
        self.real: list[int] = []

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> list[int] | None:
        ids = self.recorder.insert_events(stored_events, **kwargs)
        if ids is None:
            return None
        self.real.extend(ids)
        assert self.real == sorted(self.real), "ids ascend in the order saves commit, one after another"
        return [self.real.index(i) + 1 for i in ids]

    def select_events(self, *args: Any, **kwargs: Any) -> Any:
        return self.recorder.select_events(*args, **kwargs)

    def select_notifications(self, start: int | None, limit: int, stop: int | None = None, topics: Sequence[str] = (), *, inclusive_of_start: bool = True) -> list[Notification]:
        real = self.recorder.select_notifications(
            None if start is None else self.real[start - 1], limit, None if stop is None else self.real[stop - 1], topics, inclusive_of_start=inclusive_of_start
        )  # fmt: skip
        return [Notification(n.originator_id, n.originator_version, n.topic, n.state, id=self.real.index(n.id) + 1) for n in real]

    def max_notification_id(self) -> int | None:
        top = self.recorder.max_notification_id()
        return None if top is None else self.real.index(top) + 1


class SparseIds(library_tests.ApplicationRecorderTestCase):  # type: ignore[misc]
    """The library's application recorder cases for a recorder whose ids come from transaction ids."""

    EXPECT_CONTIGUOUS_NOTIFICATION_IDS = False

    def test_insert_select(self) -> None:
        recorder = self.create_recorder()
        self.create_recorder = lambda: DenseIds(recorder)  # type: ignore[method-assign]
        super().test_insert_select()

    def test_insert_subscribe(self) -> None:
        self.optional_test_insert_subscribe()


class TestStreamsRecorderPassesTheLibrarysApplicationRecorderTests(_OnAFreshSchema, SparseIds):
    pass


class TestStreamsRecorderNeverInterleavesTwoSaves(_OnAFreshSchema, library_tests.NonInterleavingNotificationIDsBaseCase):  # type: ignore[misc]
    insert_num = 500


class TestTrackingStillUsesTheLibrarysRecorder(_OnAFreshSchema, library_tests.TrackingRecorderTestCase):  # type: ignore[misc]
    def create_recorder(self) -> Any:
        return self.factory.tracking_recorder()


# --- the Ledger on the streams recorder -----------------------------------------------------------


@pytest.fixture(params=LAYOUTS)
def streams_env(postgres_env: dict[str, str], request: pytest.FixtureRequest) -> dict[str, str]:
    """The streams recorder's feed over either layout: save rows (a new store's) or a row an event."""
    return {**postgres_env, RECORDER_ENV: "streams", LAYOUT_ENV: request.param}


@pytest.fixture
def ledger(streams_env: dict[str, str]) -> Iterator[Ledger]:
    app = Ledger(env=streams_env)
    yield app
    app.close()


class HeldSave:
    """A save of game X left open in its transaction (a writer stalled mid-save) until released."""

    def __init__(self, recorder: Any, game: UUID) -> None:
        self.recorder, self.game = recorder, game
        self.inserted, self.release, self.committed = threading.Event(), threading.Event(), threading.Event()
        self.ids: list[int] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> HeldSave:
        self.thread.start()
        assert self.inserted.wait(WAIT_S), "the held save did not insert"
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.thread.join(WAIT_S)

    def commit(self) -> None:
        self.release.set()
        assert self.committed.wait(WAIT_S)

    def _run(self) -> None:
        with self.recorder.datastore.get_connection() as conn:
            with conn.transaction(), conn.cursor() as curs:
                events = _events(self.game, 3)
                if isinstance(self.recorder, StreamsRecorder):
                    self.ids = self.recorder.insert_events_in_transaction(curs, events)
                else:  # the library's: lock the table, notify, insert
                    self.recorder._insert_stored_events(curs, events)
                self.inserted.set()
                self.release.wait(WAIT_S)
            self.committed.set()


def test_the_ledger_records_save_rows_on_a_new_postgresql_store_unless_told_otherwise(postgres_env: dict[str, str]) -> None:
    saves = Ledger(env=postgres_env)
    named = Ledger(env={**postgres_env, "PERSISTENCE_MODULE": "mtg_ledger.replays.stores.postgres"})
    library = Ledger(env={**postgres_env, RECORDER_ENV: "library"})
    try:
        assert type(saves.recorder) is SavesRecorder
        assert type(named.recorder) is SavesRecorder
        assert type(library.recorder) is PostgresApplicationRecorder
    finally:
        saves.close()
        named.close()
        library.close()
    with pytest.raises(ValueError, match=RECORDER_ENV):
        Ledger(env={**postgres_env, RECORDER_ENV: "fastest"})
    with pytest.raises(ValueError, match=LAYOUT_ENV):
        Ledger(env={**postgres_env, LAYOUT_ENV: "rows"})


def test_a_store_that_holds_a_row_an_event_keeps_that_layout(postgres_env: dict[str, str]) -> None:
    old = Ledger(env={**postgres_env, LAYOUT_ENV: "events"})
    game = old.start(demo_setup(1))
    old.close()
    again = Ledger(env=postgres_env)  # the default asks for save rows: the store's own layout wins
    try:
        assert type(again.recorder) is StreamsRecorder
        assert again.game_ids() == [game]
    finally:
        again.close()


@pytest.mark.parametrize("recorder", ["streams", "library"])
def test_a_writer_holding_its_save_open_on_one_game_does_not_hold_up_a_save_on_another(postgres_env: dict[str, str], recorder: str) -> None:
    ledger = Ledger(env={**postgres_env, RECORDER_ENV: recorder})
    game_y = ledger.start(demo_setup(1))
    try:
        with HeldSave(ledger.recorder, uuid4()) as held, ThreadPoolExecutor(1) as pool:
            save_y = pool.submit(ledger.decide, game_y, choose(ledger.state_now(game_y)))  # type: ignore[arg-type]
            if recorder == "streams":
                assert len(save_y.result(timeout=WAIT_S)) >= 1
                assert not held.committed.is_set(), "game Y's save finished while X's transaction was still open"
            else:  # the library's recorder locks the whole table: Y waits for X
                time.sleep(0.3)
                assert not save_y.done()
                held.commit()
                assert len(save_y.result(timeout=WAIT_S)) >= 1
    finally:
        ledger.close()


def test_a_follower_never_passes_over_a_save_that_commits_late_with_a_smaller_id(ledger: Ledger) -> None:
    recorder = ledger.recorder
    assert isinstance(recorder, StreamsRecorder)
    before = recorder.max_notification_id()
    with HeldSave(recorder, uuid4()) as held, recorder.subscribe(gt=before) as subscription:
        late_ids = held.ids
        game_b = ledger.start(demo_setup(2))  # commits while the earlier save is still open
        b_ids = committed_ids(recorder, game_b)
        assert min(b_ids) > max(late_ids)
        assert recorder.select_notifications(before, 100, inclusive_of_start=False) == []
        assert recorder.max_notification_id() == before
        assert recorder.held_back()

        held.commit()
        began = time.perf_counter()
        seen = [next(subscription).id for _ in range(len(late_ids) + len(b_ids))]
        assert time.perf_counter() - began < WAIT_S
    assert seen == late_ids + b_ids
    assert [n.id for n in recorder.select_notifications(before, 100, inclusive_of_start=False)] == late_ids + b_ids
    assert not recorder.held_back()


def test_only_saves_on_this_table_hold_the_feed_back_not_other_open_transactions(ledger: Ledger) -> None:
    recorder = ledger.recorder
    table = sql.Identifier(recorder.datastore.schema, recorder.events_table_name)  # type: ignore[attr-defined]
    with _connect() as other:
        with other.transaction():  # older than the save below, and still open while it is read
            other.execute("SELECT pg_current_xact_id()")  # an id of its own, as any writer elsewhere has
            other.execute(sql.SQL("SELECT count(*) FROM {}").format(table))  # and reading the events table
            game = ledger.start(demo_setup(5))
            assert {n.originator_id for n in recorder.select_notifications(None, 1000)} == {game}


def committed_ids(recorder: StreamsRecorder, game: UUID) -> list[int]:
    """The ids of a game's committed events, read straight from the table (past the followers' horizon)."""
    with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
        table = sql.Identifier(recorder.datastore.schema, recorder.events_table_name)
        if isinstance(recorder, SavesRecorder):  # a run's events: ids id - size + 1 .. id
            rows = curs.execute(sql.SQL("SELECT id, size FROM {} WHERE game = %s AND kind = 0 ORDER BY 1").format(table), (game,))
            return [i for row in rows.fetchall() for i in range(row["id"] - row["size"] + 1, row["id"] + 1)]
        rows = curs.execute(sql.SQL("SELECT notification_id FROM {} WHERE originator_id = %s ORDER BY 1").format(table), (game,))
        return [row["notification_id"] for row in rows.fetchall()]


def _notified_up_to(listener: psycopg.Connection[Any], game: UUID, version: int) -> list[str]:
    """The payloads ``listener`` gets until one names ``game`` at ``version``. The NOTIFYs are sent after the
    saves by the process's notifier (``replays.stores.pg_notify``), so one of a save made before the LISTEN
    may come after it."""
    payloads = []
    for notice in listener.notifies(timeout=WAIT_S):
        payloads.append(notice.payload)
        if notice.payload == f"{game}:{version}":
            break
    return payloads


def test_a_save_notifies_listeners_with_the_game_and_its_version(ledger: Ledger) -> None:
    game = ledger.start(demo_setup(4))
    started = ledger.state_now(game).version
    with _connect() as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(ledger.recorder.channel_name)))  # type: ignore[attr-defined]
        began = time.perf_counter()
        ledger.decide(game, choose(ledger.state_now(game)))  # type: ignore[arg-type]
        payloads = _notified_up_to(listener, game, ledger.state_now(game).version)
        assert time.perf_counter() - began < 1.0
    assert payloads[-1] == f"{game}:{ledger.state_now(game).version}"
    assert payloads[:-1] in ([], [f"{game}:{started}"])  # the start's own, if it came after the LISTEN


def test_saves_one_after_another_are_all_notified_and_close_sends_the_last(streams_env: dict[str, str]) -> None:
    """The process's notifier sends the NOTIFYs (``replays.stores.pg_notify``): saves of several games one after
    another are each named with their last version, in however many NOTIFYs; one saved just before the
    ledger closes is notified before its connections close."""
    app = Ledger(env=streams_env)
    games = [app.start(demo_setup(4 + i)) for i in range(3)]
    with _connect() as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(app.recorder.channel_name)))  # type: ignore[attr-defined]
        for game in games:
            app.decide(game, choose(app.state_now(game)))  # type: ignore[arg-type]
        versions = {str(game): app.state_now(game).version for game in games}
        app.close()  # at once: what is pending is sent before the pool closes
        named: dict[str, int] = {}
        for notice in listener.notifies(timeout=WAIT_S):
            for item in notice.payload.split(","):
                game, _, version = item.partition(":")
                named[game] = max(int(version), named.get(game, 0))
            if named == versions:
                break
    assert named == versions


def test_the_notifys_go_on_a_connection_of_their_own_and_a_new_one_after_it_is_cut(ledger: Ledger) -> None:
    """The NOTIFYs' connection is none of the pool's (the saves keep the pool's connections as they lend them);
    cut by the server, the next NOTIFY fails there and goes again on a new connection."""
    game = ledger.start(demo_setup(4))
    channel = ledger.recorder.notices._send  # type: ignore[attr-defined]
    with _connect() as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel.name)))
        ledger.decide(game, choose(ledger.state_now(game)))  # type: ignore[arg-type]
        assert _notified_up_to(listener, game, ledger.state_now(game).version)[-1] == f"{game}:{ledger.state_now(game).version}"
        first = channel._conn.info.backend_pid
        with ledger.recorder.datastore.get_connection() as pooled:  # type: ignore[attr-defined]
            assert pooled.info.backend_pid != first
        listener.execute("SELECT pg_terminate_backend(%s)", (first,))
        ledger.decide(game, choose(ledger.state_now(game)))  # type: ignore[arg-type]
        assert [n.payload for n in listener.notifies(timeout=WAIT_S, stop_after=1)] == [f"{game}:{ledger.state_now(game).version}"]
        assert channel._conn.info.backend_pid != first


def test_workers_starting_together_create_the_schema_once_without_error(streams_env: dict[str, str]) -> None:
    barrier = threading.Barrier(6)
    small_pools = {**streams_env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "1"}  # the server is shared

    def worker(seed: int) -> UUID:
        barrier.wait(WAIT_S)
        app = Ledger(env=small_pools)
        try:
            return play_demo(app, demo_setup(seed)) if seed == 0 else app.start(demo_setup(seed))
        finally:
            app.close()

    with ThreadPoolExecutor(6) as pool:
        games = list(pool.map(worker, range(6), timeout=60))
    reader = Ledger(env={**streams_env, "CREATE_TABLE": "false"})
    try:
        assert sorted(reader.game_ids()) == sorted(games)
    finally:
        reader.close()


def test_a_reader_with_schema_creation_off_runs_no_ddl(ledger: Ledger, streams_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    game = play_demo(ledger, demo_setup(3))
    # Every connection of the reader is read-only: any CREATE, ALTER or INSERT would fail.
    monkeypatch.setenv("PGOPTIONS", "-c default_transaction_read_only=on")
    reader = Ledger(env={**streams_env, "CREATE_TABLE": "false"})
    try:
        assert reader.game_ids() == [game]
        assert reader.state(game).state_hash() == ledger.state_now(game).state_hash()
        assert reader.recorder.max_notification_id() == ledger.recorder.max_notification_id()
    finally:
        reader.close()


def test_a_reader_with_schema_creation_off_leaves_an_empty_schema_empty(streams_env: dict[str, str]) -> None:
    reader = Ledger(env={**streams_env, "CREATE_TABLE": "false"})
    try:
        with pytest.raises(Exception, match="does not exist"):
            reader.game_ids()
    finally:
        reader.close()
    with _connect() as conn:
        found = conn.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s", (streams_env["POSTGRES_SCHEMA"],)).fetchone()  # fmt: skip
    assert found == (0,)


def test_more_events_than_one_transaction_id_numbers_are_recorded_whole_and_in_order(ledger: Ledger) -> None:
    game, other = uuid4(), uuid4()
    ids = ledger.recorder.insert_events(_events(game, PER_TRANSACTION + 1_500))
    assert ids is not None and len(ids) == PER_TRANSACTION + 1_500 and ids == sorted(set(ids))
    later = ledger.recorder.insert_events(_events(other, 2))
    assert later is not None and min(later) > max(ids)
    followed = [n.originator_version for n in ledger.recorder.select_notifications(None, 100_000) if n.originator_id == game]
    assert followed == list(range(1, PER_TRANSACTION + 1_501))


def test_a_save_spread_over_many_subtransaction_ids_stays_in_order_and_followers_see_it_only_whole(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mtg_ledger.replays.stores import postgres

    monkeypatch.setattr(postgres, "PER_TRANSACTION", 1_000)  # a further transaction id every 1,000 events
    game = uuid4()
    recorder = ledger.recorder
    assert isinstance(recorder, StreamsRecorder)
    with recorder.datastore.transaction(commit=True) as curs:
        ids = recorder.insert_events_in_transaction(curs, iter(_events(game, 4_500)))
        assert recorder.select_notifications(None, 10_000) == [], "nothing is final before the commit"
    assert len(ids) == 4_500 and ids == sorted(set(ids)) and len({i >> 16 for i in ids}) == 5
    assert [n.originator_version for n in recorder.select_notifications(None, 10_000)] == list(range(1, 4_501))


def test_a_long_save_that_fails_part_way_stores_nothing(ledger: Ledger) -> None:
    game = uuid4()
    events = _events(game, PER_TRANSACTION + 10)
    events[-1] = StoredEvent(game, 5, "DecisionTaken", b"{}")  # version 5 twice: refused (the primary key; a run that follows nothing)
    with pytest.raises(Exception, match="duplicate key|must follow"):
        ledger.recorder.insert_events(events)
    assert ledger.recorder.select_events(game) == []


def _restore_rows(ledger: Ledger, rows: list[tuple[UUID, int, int]]) -> None:
    """Rows as a restore from another cluster leaves them: ids far above this cluster's transaction ids."""
    table = sql.Identifier(ledger.recorder.datastore.schema, ledger.recorder.events_table_name)  # type: ignore[attr-defined]
    with _connect() as conn:
        for game, version, nid in rows:
            if isinstance(ledger.recorder, SavesRecorder):  # a run of one event
                row = row_dictionary.pack([["DecisionTaken", b"\x80"]])
                conn.execute(sql.SQL("INSERT INTO {} VALUES (%s, 0, 1, %s, %s, %s)").format(table), (game, version, nid, row))
            else:
                conn.execute(sql.SQL("INSERT INTO {} VALUES (%s, %s, 'DecisionTaken', '\\x80', %s)").format(table), (game, version, nid))


def test_rows_restored_from_another_cluster_are_followed_and_new_saves_land_after_them(streams_env: dict[str, str]) -> None:
    writer = Ledger(env=streams_env)
    try:
        first = writer.recorder.insert_events(_events(uuid4(), 2))
        assert first is not None
        far = (1 << 40) << 16  # a cluster that had run some trillion transactions
        restored = uuid4()
        _restore_rows(writer, [(restored, 1, far + 1), (restored, 2, far + 2)])
        reader = Ledger(env={**streams_env, "CREATE_TABLE": "false"})
        try:  # a follower reads the restored rows at once, before any writer has moved the offset
            assert [n.id for n in reader.recorder.select_notifications(None, 10)] == [*first, far + 1, far + 2]
            assert reader.recorder.max_notification_id() == far + 2
            after = writer.recorder.insert_events(_events(uuid4(), 3))
            assert after is not None and min(after) > far + 2, "new events come after every event already stored"
            assert [n.id for n in reader.recorder.select_notifications(far + 1, 10)] == [far + 1, far + 2, *after]
        finally:
            reader.close()
    finally:
        writer.close()


def test_an_import_into_a_restored_store_lands_after_the_restored_rows(streams_env: dict[str, str]) -> None:
    writer = Ledger(env=streams_env)
    try:
        far = (1 << 40) << 16
        _restore_rows(writer, [(uuid4(), 1, far + 7)])
        with writer.recorder.datastore.transaction(commit=True) as curs:
            ids = writer.recorder.insert_events_in_transaction(curs, _events(uuid4(), 3))
        assert min(ids) > far + 7
    finally:
        writer.close()


def test_a_store_made_by_the_library_is_taken_over_and_its_feed_continues_in_order(postgres_env: dict[str, str]) -> None:
    old = Ledger(env={**postgres_env, RECORDER_ENV: "library"})
    first = old.start(demo_setup(1))
    old_ids = [n.id for n in old.recorder.select_notifications(None, 1000)]
    old.close()
    new = Ledger(env=postgres_env)
    try:
        second = new.start(demo_setup(2))
        ids = [n.id for n in new.recorder.select_notifications(None, 1000)]
        assert ids[: len(old_ids)] == old_ids and ids == sorted(ids) and len(ids) > len(old_ids)
        assert new.game_ids() == [first, second]
        library = Ledger(env={**postgres_env, RECORDER_ENV: "library"})
        try:  # the two recorders can never write one table together: the sequence default is gone
            with pytest.raises(Exception, match="notification_id"):
                library.start(demo_setup(3))
        finally:
            library.close()
    finally:
        new.close()
