"""Compact SQLite tables for the ledger's events and snapshots (schema 3, issue 15).

The library's SQLite recorders store each event's 32-character hex game id and its topic in every
row, and again in the primary key's index. These recorders keep the library's interface
(``insert_events``, ``select_events``, ``select_notifications``, ``max_notification_id``; version
conflicts raise the library's ``IntegrityError``) over tables where nothing is stored twice:

.. code-block:: sql

    CREATE TABLE games  (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE);  -- a game's id: 16 bytes
    CREATE TABLE topics (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);  -- an event's stored name
    CREATE TABLE events (
        key INTEGER PRIMARY KEY,   -- games.id * 2^32 + the event's version (its position in its game)
        topic INTEGER NOT NULL,    -- topics.id
        state BLOB NOT NULL);      -- the event's bytes, as the transcoder made them
    CREATE TABLE feed (            -- the notification log: one row per run of a save's events
        id INTEGER PRIMARY KEY,    -- the notification id of the run's first event
        game INTEGER NOT NULL,     -- games.id
        version INTEGER NOT NULL,  -- the run's first version
        size INTEGER NOT NULL);    -- events in the run: versions version .. version + size - 1
    CREATE TABLE snapshots (key INTEGER PRIMARY KEY, topic INTEGER NOT NULL, state BLOB NOT NULL);  -- the same key

An event's key is its game and version in one integer, SQLite's rowid: a game's events lie side by side in
key order, a second writer of a (game, version) fails on it, and a game's new events go at the end of its
keys, so SQLite fills its pages (a table keyed by (game, version) WITHOUT ROWID left 13% of its pages
empty on the demo game: 6 bytes an event more). A game holds at most 2^32 - 1 events.

An event's notification id is ``feed.id + (version - feed.version)`` for the feed row whose
run holds it: a save of consecutive versions of one game (every save of the ledger) is one feed row
however many events it has, so no per-event key is stored twice and no second index is kept.
(Measured against a rowid events table, the rowid as notification id and a unique index on
(game, version): ~14 B/event more for that index, against ~4.5 B/event for the feed's rows.)

``games.uuid`` holds ``UUID.bytes`` (the text itself under ``ORIGINATOR_ID_TYPE=text``). A new file
gets pages of ``sqlite_factory.PAGE_SIZE`` bytes (set before the library turns on WAL, after which it
cannot change): a store's small tables each take a page, and smaller pages waste less of a short game.

``replays.stores.construct_factory`` chooses (``replays.stores.sqlite_factory``): a file that already holds the library's
``stored_events`` keeps the library's recorders (older stores are read and written as they are,
never converted); a new file gets these tables, unless ``MTG_LEDGER_SQLITE_RECORDER=library``.

Writers: SQLite lets one write transaction at a time. Every save's first statement is a write
(``INSERT OR IGNORE INTO games``), so the writer takes SQLite's lock (waiting as the library's
recorder does) before it reads anything; its notification ids then follow the feed's last, contiguous
within the save. A second writer of a (game, version) fails on the events' key with the
library's ``IntegrityError``, and nothing of its save is kept.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Final
from uuid import UUID

from eventsourcing import sqlite as library
from eventsourcing.persistence import (
    DataError,
    IntegrityError,
    Notification,
    StoredEvent,
)

from mtg_ledger.replays.stores.errors import StreamNotEmpty, library_error

EVENTS: Final = "events"
SNAPSHOTS: Final = "snapshots"
FEED: Final = "feed"

_NAMES = (
    "CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS topics (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
)
_GAME = "(SELECT id FROM games WHERE uuid = ?)"
_INSERT_GAME = "INSERT OR IGNORE INTO games (uuid) VALUES (?)"
SPAN: Final = 1 << 32  # versions a game may have: an event's key is games.id * SPAN + its version
_BASE = f"({_GAME} * {SPAN})"  # the key of a game's event 0


def _insert_statement(table: str, verb: str = "INSERT") -> str:
    """The insert of a row of ``table`` (a game's rows keyed as ``CompactAggregateRecorder``'s) from its
    game's uuid, version, topic name and state."""
    return f"{verb} INTO {table} (key, topic, state) VALUES ({_BASE} + ?, (SELECT id FROM topics WHERE name = ?), ?)"


class CompactAggregateRecorder(library.SQLiteAggregateRecorder):
    """A game's rows keyed by one integer, games.id * 2^32 + version: the snapshots' table (and the events')."""

    def __init__(self, datastore: library.SQLiteDatastore, events_table_name: str = SNAPSHOTS) -> None:
        super().__init__(datastore, events_table_name)
        self._known_topics: set[str] = set()  # names already committed to ``topics`` (never rolled back)
        table = self.events_table_name
        self.insert_events_statement = _insert_statement(table)
        self.select_events_statement = (
            f"SELECT e.key - g.base, e.topic, e.state FROM {table} AS e, (SELECT id * {SPAN} AS base FROM games WHERE uuid = ?) AS g"
            " WHERE e.key > g.base + ? AND e.key <= g.base + ? "
        )
        # A run of versions without them (``select_run``): the topic and bytes of each row, then the last
        # version of the run that is stored.
        self.select_run_statements = (
            f"SELECT e.topic, e.state FROM {table} AS e, (SELECT id * {SPAN} AS base FROM games WHERE uuid = ?) AS g"
            " WHERE e.key > g.base + ? AND e.key <= g.base + ? ORDER BY e.key ASC",
            f"SELECT MAX(e.key) - g.base FROM {table} AS e, (SELECT id * {SPAN} AS base FROM games WHERE uuid = ?) AS g"
            " WHERE e.key > g.base + ? AND e.key <= g.base + ?",
        )

    def construct_create_table_statements(self) -> list[str]:
        return [
            *_NAMES,
            f"CREATE TABLE IF NOT EXISTS {self.events_table_name} (key INTEGER PRIMARY KEY, topic INTEGER NOT NULL, state BLOB NOT NULL)",
        ]

    def game_key(self, originator_id: UUID | str) -> bytes | str:
        """What ``games.uuid`` holds for ``originator_id``."""
        if isinstance(originator_id, UUID):
            return originator_id.bytes
        if self.datastore.originator_id_type == "uuid":
            return UUID(originator_id).bytes
        return originator_id

    def originator_id(self, key: bytes | str) -> UUID | str:
        if isinstance(key, bytes):
            return UUID(bytes=key)
        return self.convert_originator_id(key)

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """The library's ``insert_events``: ``_insert_events`` in ``datastore.transaction(commit=True)``,
        whose three nested context managers are written out here, in the same order: a writer's connection
        from the pool (its locks), the library's transaction on it (``BEGIN``; the commit, or on an error the
        rollback and the library's exception for it), the cursor closed before the commit, the connection
        put back whatever happens."""
        pool = self.datastore.pool
        connection = pool.get_connection(is_writer=True)
        try:
            with library.SQLiteTransaction(connection, commit=True) as cursor, cursor:
                return self._insert_events(cursor, stored_events, **kwargs)
        finally:
            pool.put_connection(connection)

    def _insert_events(self, c: library.SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        if stored_events:
            self._insert_rows(c, stored_events, self.insert_events_statement)
        return None

    def _insert_rows(self, c: library.SQLiteCursor, stored_events: Sequence[StoredEvent], statement: str) -> list[Row]:
        """The rows by ``statement`` (``_insert_statement``'s, for a table keyed as this one), their games
        and topics named first; returns them: (game key, version, topic, state)."""
        rows: list[Row] = []
        games: dict[bytes | str, None] = {}  # in the order first met
        topics: dict[str, None] = {}  # not known to be committed yet
        known = self._known_topics
        last: Any = None
        key: bytes | str = b""
        for s in stored_events:  # a save's events are one game's, most often: its key made once
            if s.originator_id is not last:
                last = s.originator_id
                key = self.game_key(last)
                games[key] = None
            version, topic = s.originator_version, s.topic
            if not 0 <= version < SPAN:
                raise DataError(f"a version outside 0 .. {SPAN - 1:,}: a game holds at most {SPAN - 1:,} events here")
            if topic not in known:
                topics[topic] = None
            rows.append((key, version, topic, s.state))
        # The first statement writes: SQLite's write lock is taken (or waited for) before anything is read.
        if len(games) == 1:
            c.execute(_INSERT_GAME, (key,))
        else:
            c.executemany(_INSERT_GAME, [(game,) for game in games])
        for topic in topics:
            c.execute("INSERT OR IGNORE INTO topics (name) VALUES (?)", (topic,))
            if c.sqlite_cursor.rowcount == 0:  # it was there before this transaction: committed
                known.add(topic)
        c.executemany(statement, rows)
        return rows

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        oid = originator_id if isinstance(originator_id, UUID) else self.convert_originator_id(originator_id)
        names, found = self.select_rows(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        return [StoredEvent(oid, v, names[t], state) for v, t, state in found]

    def last_versions(self, originator_ids: Sequence[UUID | str]) -> dict[UUID | str, int]:
        """The version of each stream's last row (0: none), in one statement: on its own, outside any
        ``BEGIN``, it reads one snapshot of the store (SQLite's implicit transaction of a statement), so it
        is run without the library's transaction (its ``BEGIN`` and ``ROLLBACK``, a fifth of the read's time)."""
        keys = [self.game_key(i) for i in originator_ids]
        last = f"(SELECT e.key FROM {self.events_table_name} AS e WHERE e.key >= g.id * {SPAN} AND e.key < (g.id + 1) * {SPAN} ORDER BY e.key DESC LIMIT 1)"
        statement = f"SELECT g.uuid, {last} - g.id * {SPAN} FROM games AS g WHERE g.uuid IN ({','.join('?' * len(keys))})"
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
            cursor.row_factory = None
            try:
                found = dict(cursor.execute(statement, keys).fetchall())
            except sqlite3.Error as e:
                raise library_error(e) from e
        return {i: int(found.get(key) or 0) for i, key in zip(originator_ids, keys, strict=True)}

    def select_rows(
        self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None, desc: bool = False, limit: int | None = None
    ) -> tuple[TopicNames, list[tuple[int, int, bytes]]]:
        """``select_events``' rows as they are stored, (version, topic id, state), and the topics table
        (id -> name) read in the same transaction: for readers that fold many rows
        (``replays.checked.raw_pages``), no StoredEvent, no id converted, no name looked up per row."""
        statement = self.select_events_statement
        params: list[Any] = [self.game_key(originator_id), -1 if gt is None else gt, SPAN - 1 if lte is None else min(lte, SPAN - 1)]
        statement += "ORDER BY e.key DESC " if desc else "ORDER BY e.key ASC "
        if limit is not None:
            statement += "LIMIT ?"
            params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor
            cursor.row_factory = None  # plain tuples (the connection's factory makes sqlite3.Row objects)
            names = TopicNames(cursor.execute("SELECT id, name FROM topics").fetchall())  # a few dozen rows, read with them
            found = cursor.execute(statement, params).fetchall()
        return names, found

    def select_run(
        self, originator_id: UUID | str, *, gt: int, lte: int
    ) -> tuple[TopicNames, list[tuple[int, bytes]]] | None:
        """The rows of versions ``gt + 1`` .. ``lte`` as (topic id, state), in version order, without their
        versions (an integer less to fetch a row, for ``replays.checked.raw_pages``): row i is version
        ``gt + 1 + i``, for every row, or this answers None. Keys are unique integers, so rows as many as
        the versions from ``gt + 1`` to the last one stored in the run are all of those versions: the last
        stored is asked in the same transaction whenever the rows are fewer than the run (the game's end,
        or rows missing: then None, and the caller reads the rows with their versions). With the topics
        table, read in the same transaction, as ``select_rows`` gives it."""
        rows, last = self.select_run_statements
        top = min(lte, SPAN - 1)
        params = [self.game_key(originator_id), gt, top]
        with self.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor
            cursor.row_factory = None
            names = TopicNames(cursor.execute("SELECT id, name FROM topics").fetchall())
            found = cursor.execute(rows, params).fetchall()
            if len(found) < top - gt:
                stored = cursor.execute(last, params).fetchone()[0]
                if (stored or gt) - gt != len(found):
                    return None
        return names, found


Row = tuple[bytes | str, int, str, bytes]  # a row as ``_insert_rows`` inserts it: game key, version, topic name, state


class TopicNames(dict[int, str]):
    """The topics table, id -> name. An id it lacks gives a name no event type has, so that its row reads
    as damaged, naming the id."""

    def __missing__(self, topic: int) -> str:
        return f"#{topic} (a topic id the topics table lacks)"


class CompactApplicationRecorder(CompactAggregateRecorder, library.SQLiteApplicationRecorder):
    """The events' table (keyed as the snapshots'), and the feed numbering them in the order saved.

    A save of a game's events from version ``v`` > 1 on stands only if the store holds its event
    ``v - 1``, checked under the write lock (``checks_predecessor``): with the events' unique key, a save
    stands only if it follows exactly the game's last stored event, so a writer may build on the copy of
    the game it holds without reading the store's last version first (``Ledger.decide``). A save given
    ``absent`` streams stands only if each of them holds no row then (``checks_absent``): what the writer
    would otherwise have read first, a player's key say, is checked under the same lock."""

    checks_predecessor = True
    checks_absent = True
    saves_snapshots = True  # ``insert_events(..., snapshots=rows)``: the snapshots' rows in the same transaction

    def __init__(self, datastore: library.SQLiteDatastore, events_table_name: str = EVENTS) -> None:
        super().__init__(datastore, events_table_name)
        self.feed_table_name = FEED
        self._insert_snapshots_statement = _insert_statement(SNAPSHOTS, "INSERT OR IGNORE")
        self._insert_feed_statement = f"INSERT INTO {FEED} (id, game, version, size) VALUES (?, {_GAME}, ?, ?)"
        self._predecessor_statement = f"SELECT 1 FROM {self.events_table_name} WHERE key = {_BASE} + ?"
        # Whether a stream holds a row (``absent``): its games row, then the first of its keys.
        self._written_statement = (
            f"SELECT 1 FROM games AS g WHERE g.uuid = ? AND EXISTS (SELECT 1 FROM {self.events_table_name} AS e"
            f" WHERE e.key > g.id * {SPAN} AND e.key < (g.id + 1) * {SPAN})"
        )
        # A save of one run, in one statement: its feed row, numbered after the feed's last, stored only if
        # the run begins its game or the game's event before it is stored (else no row: the save is refused).
        self._insert_run_statement = (
            f"INSERT INTO {FEED} (id, game, version, size) SELECT COALESCE((SELECT id + size FROM {FEED} ORDER BY id DESC LIMIT 1), 1),"
            f" {_GAME}, ?, ? WHERE ? <= 1 OR EXISTS (SELECT 1 FROM {self.events_table_name} WHERE key = {_BASE} + ?)"
        )
        # One row, NULL when nothing is recorded: the library's _max_notification_id reads row[0].
        self.select_max_notification_id_statement = f"SELECT (SELECT id + size - 1 FROM {FEED} ORDER BY id DESC LIMIT 1)"

    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            f"CREATE TABLE IF NOT EXISTS {FEED} (id INTEGER PRIMARY KEY, game INTEGER NOT NULL, version INTEGER NOT NULL, size INTEGER NOT NULL)",
        ]

    def _insert_events(
        self, c: library.SQLiteCursor, stored_events: Sequence[StoredEvent], snapshots: Sequence[StoredEvent] = (),
        absent: Sequence[UUID | str] = (), **kwargs: Any,
    ) -> Sequence[int] | None:
        """The events, their feed rows and the check of each run's predecessor; the check that each stream of
        ``absent`` (none this save writes) holds no row (else ``StreamNotEmpty``); then ``snapshots``, rows of
        the snapshots' table taken with them (a row already there is left as it is: a snapshot is a cache,
        and the read that uses one checks it), so that a decision and its snapshot are one commit."""
        if not stored_events:
            return []
        ids = self._insert_run(c, stored_events, **kwargs)  # its first statement a write: what follows is read under the lock
        for stream in absent:
            c.execute(self._written_statement, (self.game_key(stream),))
            if c.fetchone() is not None:
                raise StreamNotEmpty(f"stream {stream} holds events: a save that needed it empty stored nothing")
        if snapshots:
            self._insert_rows(c, snapshots, self._insert_snapshots_statement)
        return ids

    def _insert_run(self, c: library.SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any) -> list[int]:
        rows = self._insert_rows(c, stored_events, self.insert_events_statement)  # begins with a write: the rest runs under SQLite's lock
        key, version = rows[0][0], rows[0][1]
        one_run = True  # consecutive versions of one game: every save of a game's decision
        for i, row in enumerate(rows):
            if row[0] != key or row[1] != version + i:
                one_run = False
                break
        if one_run:
            c.execute(self._insert_run_statement, (key, version, len(rows), version, key, version - 1))
            if c.sqlite_cursor.rowcount != 1:
                raise IntegrityError(f"event {version} of a game saved, but the store holds no event {version - 1} of it: a save follows its game's last event")
            first = int(c.lastrowid)
            return list(range(first, first + len(rows)))
        c.execute(self.select_max_notification_id_statement)
        first = int(c.fetchone()[0] or 0) + 1
        runs: list[list[Any]] = []  # [first id, game, first version, size]: consecutive versions of one game
        last: list[Any] | None = None
        for i, (key, version, _, _) in enumerate(rows):
            if last is not None and last[1] == key and last[2] + last[3] == version:
                last[3] += 1
            else:
                last = [first + i, key, version, 1]
                runs.append(last)
        c.executemany(self._insert_feed_statement, runs)
        for _, key, version, _ in runs:  # each run follows its game's last stored event, or begins it
            if version <= 1:
                continue
            c.execute(self._predecessor_statement, (key, version - 1))
            if c.fetchone() is None:
                raise IntegrityError(f"event {version} of a game saved, but the store holds no event {version - 1} of it: a save follows its game's last event")
        return list(range(first, first + len(stored_events)))

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """The library's semantics: ids ascending from ``start`` (inclusive unless told), to ``stop``,
        of ``topics`` only if given, at most ``limit``. The feed's rows are read in id order (CROSS
        JOINs keep the tables in this order), each one's events by their key: no sort, LIMIT ends the scan."""
        version = f"(e.key - f.game * {SPAN})"
        nid = f"f.id + {version} - f.version"
        statement = (
            f"SELECT {nid}, g.uuid, {version}, t.name, e.state FROM {FEED} AS f CROSS JOIN {self.events_table_name} AS e"
            f" ON e.key >= f.game * {SPAN} + f.version AND e.key < f.game * {SPAN} + f.version + f.size"
            " CROSS JOIN games AS g ON g.id = f.game CROSS JOIN topics AS t ON t.id = e.topic WHERE 1 "
        )
        params: list[Any] = []
        if start is not None:
            low = start if inclusive_of_start else start + 1
            statement += f"AND f.id >= COALESCE((SELECT id FROM {FEED} WHERE id <= ? ORDER BY id DESC LIMIT 1), ?) AND {nid} >= ? "
            params += [low, low, low]
        if stop is not None:
            statement += f"AND f.id <= ? AND {nid} <= ? "
            params += [stop, stop]
        if topics:
            statement += f"AND t.name IN ({','.join('?' * len(topics))}) "
            params.extend(topics)
        statement += "ORDER BY f.id, e.key LIMIT ?"
        params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            return [
                Notification(id=row[0], originator_id=self.originator_id(row[1]), originator_version=row[2], topic=row[3], state=row[4])
                for row in c.fetchall()
            ]
