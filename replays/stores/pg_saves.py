"""Compact PostgreSQL tables: a game's save as one row (the stored format of a new PostgreSQL store).

The streams recorder (``replays.stores.postgres``) keeps the library's events table: a row an event, each
with its game's id, its topic's name and two index entries. PostgreSQL spends some 30 bytes on a row before
its first value, and as much again on each index entry: 365 bytes an event on the demo game, where SQLite's
compact tables take 96. Here a save's events are one row (``replays.stores.pg_saves_sql``: the table), their
``[topic, state]`` pairs compressed together with a dictionary (``replays.stores.row_dictionary``), and a
store's snapshots and the feed's offset are rows of the same table: no relation whose pages hold a handful
of rows. Every event keeps its state byte for byte, chain hash included: a game read from here is checked
as it is from any store.

The interface, the feed's order (ids from transaction ids, a horizon, no table lock), imports of any length
and a restored store's adoption are the streams recorder's, which this recorder extends: only the rows
differ. ``replays.stores.pg_factory`` chooses: a schema that holds the library's events table keeps the
streams recorder (older stores are never converted), a new one gets these rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing import postgres as library
from eventsourcing.persistence import AggregateRecorder, DataError, IntegrityError, InterfaceError, Notification, OperationalError, StoredEvent
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL

from mtg_ledger.core.errors import Phrase
from mtg_ledger.replays.stores import row_dictionary
from mtg_ledger.replays.stores.checked import Unreadable, UnreadableRow
from mtg_ledger.replays.stores.pg_arrays import Byteas, Int2s, Int4s
from mtg_ledger.replays.stores.pg_feed import Rendered
from mtg_ledger.replays.stores.pg_saves_sql import EVENTS, SNAPSHOT, SaveStatements
from mtg_ledger.replays.stores.postgres import StreamsRecorder

ROW_EVENTS = 128  # events a row holds at most: a longer run (an import's) is several rows
Run = tuple[Any, int, list[StoredEvent], int]  # game, first version, its events, head (1: checked against the table)


class SavesRecorder(StreamsRecorder):
    """The streams recorder's interface and feed over save rows (kind 0 of the saves table)."""

    def __init__(self, datastore: library.PostgresDatastore, *, events_table_name: str = "stored_saves") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.saves = SaveStatements(datastore.schema, events_table_name, datastore.originator_id_type)
        self.feed = self.saves  # type: ignore[assignment]  # the same statements by name: the inherited feed's methods run them
        self.sql_create_statements = list(self.saves.create)  # in place of the library's (its CREATE TYPE among them)
        self._feed_ready = True  # the offset is a row of the table, made with it
        self._insert = Rendered(self.saves.insert)
        self._last_versions = Rendered(self.saves.last_versions)

    # --- writing -----------------------------------------------------------------------------

    def _insert_rows(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], xid: int | None) -> list[int]:
        runs = save_runs(stored_events)
        params = {
            "xid": xid,
            "games": self._ids([game for game, _, _, _ in runs]),
            "versions": Int4s([first for _, first, _, _ in runs]),
            "sizes": Int2s([len(events) for _, _, events, _ in runs]),
            "rows": Byteas([row_dictionary.pack([[e.topic, e.state] for e in events]) for _, _, events, _ in runs]),
            "heads": Int2s([head for _, _, _, head in runs]),
        }
        curs.execute(self._insert.on(curs), params, prepare=True)
        found = curs.fetchone()
        assert found is not None
        if not found["based"]:
            return []  # another cluster's rows lie above this transaction's ids: adopt, then save again
        if not found["follow"]:
            raise IntegrityError("a game's events must follow its last recorded version (another writer has saved it)")
        ids: list[int] = []
        for last, (_, _, events, _) in zip(found["ids"], runs, strict=True):
            ids += range(last - len(events) + 1, last + 1)
        return ids

    def _create_table(self, curs: Cursor[DictRow]) -> None:
        create_once(curs, self.saves)

    # --- reading -----------------------------------------------------------------------------

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(
        self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None, desc: bool = False, limit: int | None = None
    ) -> Sequence[StoredEvent]:
        return select_kind(self, EVENTS, originator_id, gt=gt, lte=lte, desc=desc, limit=limit)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(
        self, start: int | None, limit: int, stop: int | None = None, topics: Sequence[str] = (), *, inclusive_of_start: bool = True
    ) -> Sequence[Notification]:
        """The library's semantics over the final part of the feed: rows in id order, each run's events
        with the ids ``id - size + 1 .. id``, taken while they are in range, of the topics, and fewer than ``limit``."""
        wanted = set(topics)
        found: list[Notification] = []
        after = None if start is None else (start if inclusive_of_start else start + 1)  # the first id wanted
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            params: dict[str, Any] = {"below": self._below(curs), "rows": limit, "stop": stop}  # its own statement, as the streams recorder's
            while len(found) < limit:
                statement = self.saves.notifications
                if after is not None:
                    statement += SQL(" AND id >= %(after)s")  # the run's last id: it may hold ids from ``after`` on
                    params["after"] = after
                if stop is not None:
                    statement += SQL(" AND id - size < %(stop)s")  # its first id is at most ``stop``
                rows = curs.execute(statement + SQL(" ORDER BY id LIMIT %(rows)s"), params, prepare=True).fetchall()
                for row in rows:
                    first = row["id"] - row["size"] + 1
                    for n, (topic, state) in enumerate(_pairs(row, row["game"], self)):
                        i = first + n
                        if (after is None or i >= after) and (stop is None or i <= stop) and (not wanted or topic in wanted):
                            found.append(Notification(id=i, originator_id=row["game"], originator_version=row["version"] + n, topic=topic, state=state))
                if len(rows) < limit:
                    break
                after = rows[-1]["id"] + 1  # the next rows (a topic's events may be rare)
        return found[:limit]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_starts(self, topics: Sequence[str], start: int, limit: int) -> list[Notification]:
        """The first event of each game whose first event is of one of ``topics``, in feed order from id
        ``start``: the games of the store. Only each game's first row is read (the topic is inside the
        compressed row: filtering the whole feed by topic would decompress every row)."""
        wanted = set(topics)
        found: list[Notification] = []
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            params = {"below": self._below(curs), "after": start, "rows": limit}
            while len(found) < limit:
                rows = curs.execute(self.saves.starts, params, prepare=True).fetchall()
                for row in rows:
                    topic, state = _pairs(row, row["game"], self)[0]
                    if topic in wanted:
                        found.append(Notification(id=row["id"] - row["size"] + 1, originator_id=row["game"], originator_version=row["version"], topic=topic, state=state))
                if len(rows) < limit:
                    break
                params["after"] = rows[-1]["id"] + 1
        return found[:limit]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def max_notification_id(self) -> int | None:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            row = curs.execute(self.saves.max, (self._below(curs),), prepare=True).fetchone()
            assert row is not None
            found: int | None = row["max"]
            return found

    def held_back(self) -> bool:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            row = curs.execute(self.saves.beyond, (self._below(curs),), prepare=True).fetchone()
            assert row is not None
            return bool(row["exists"])


class SaveSnapshotsRecorder(AggregateRecorder):
    """A store's snapshots as rows of its saves table (kind 1): one row a snapshot, its [topic, state]
    compressed as a save's events are."""

    def __init__(self, datastore: library.PostgresDatastore, *, events_table_name: str = "stored_saves") -> None:
        self.datastore = datastore
        self.events_table_name = events_table_name
        self.saves = SaveStatements(datastore.schema, events_table_name, datastore.originator_id_type)

    def create_table(self) -> None:
        with self.datastore.transaction(commit=True) as curs:
            create_once(curs, self.saves)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        with self.datastore.transaction(commit=True) as curs:
            self.insert_events_in_transaction(curs, stored_events)
        return None

    def insert_events_in_transaction(self, curs: Cursor[DictRow], stored_events: Iterable[StoredEvent]) -> None:
        """Records the snapshots inside the caller's open transaction (an import's)."""
        for e in stored_events:
            curs.execute(self.saves.insert_snapshot, (e.originator_id, e.originator_version, row_dictionary.pack([e.topic, e.state])), prepare=True)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(
        self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None, desc: bool = False, limit: int | None = None
    ) -> Sequence[StoredEvent]:
        return select_kind(self, SNAPSHOT, originator_id, gt=gt, lte=lte, desc=desc, limit=limit)


def create_once(curs: Cursor[DictRow], saves: SaveStatements) -> None:
    """The table, its index and its offset's row, in the caller's transaction, where the table is missing."""
    found = curs.execute(saves.exists).fetchone()
    if not (found and found["ok"]):
        for statement in saves.create:
            curs.execute(statement, prepare=False)


def save_runs(stored_events: Sequence[StoredEvent]) -> list[Run]:
    """The rows of one statement: each game's events (in the order the games first appear) as runs of
    consecutive versions, each cut into rows of at most ROW_EVENTS. A game's first row in the statement is
    checked against the table (head 1); its next rows continue it (head 0) where the versions follow, and
    are checked again (and refused) where they do not: a version given twice, or a gap."""
    by_game: dict[Any, list[StoredEvent]] = {}
    for e in stored_events:
        by_game.setdefault(e.originator_id, []).append(e)
    runs: list[Run] = []
    for game, events in by_game.items():
        run: list[StoredEvent] = [events[0]]
        head = 1
        for e in events[1:]:
            if e.originator_version == run[-1].originator_version + 1 and len(run) < ROW_EVENTS:
                run.append(e)
                continue
            runs.append((game, run[0].originator_version, run, head))
            head = 0 if e.originator_version == run[-1].originator_version + 1 else 1
            run = [e]
        runs.append((game, run[0].originator_version, run, head))
    return runs


def select_kind(
    recorder: Any, kind: int, game: UUID | str, *, gt: int | None, lte: int | None, desc: bool, limit: int | None
) -> list[StoredEvent]:
    """A game's events (kind 0) or snapshots (kind 1) in (gt, lte], as the library's ``select_events``. A row
    that does not read back gives its versions with the topic ``Unreadable`` (the problem) and no state."""
    feed: SaveStatements = recorder.saves
    params: dict[str, Any] = {"game": game, "kind": kind, "gt": gt, "lte": lte, "limit": limit}
    statement = feed.select
    if gt is not None:
        statement += feed.after
    if lte is not None:
        statement += SQL(" AND version <= %(lte)s")
    statement += SQL(" ORDER BY version DESC" if desc else " ORDER BY version")
    if limit is not None:
        statement += SQL(" LIMIT %(limit)s")  # every row holds at least one event in range
    with recorder.datastore.get_connection() as conn, conn.cursor() as curs:
        rows = curs.execute(statement, params, prepare=True).fetchall()
    found: list[StoredEvent] = []
    for row in rows:
        try:
            pairs = _pairs(row, game, recorder) if kind == EVENTS else [_pair(row, game, recorder)]
        except DamagedRow as e:  # its versions, each saying so: the checks name it where the chain reaches it
            pairs = [(Unreadable(e.problem), b"")] * row["size"]
        events = [StoredEvent(game, row["version"] + n, topic, state) for n, (topic, state) in enumerate(pairs)]
        found += reversed(events) if desc else events
    found = [e for e in found if (gt is None or e.originator_version > gt) and (lte is None or e.originator_version <= lte)]
    return found if limit is None else found[:limit]


class DamagedRow(UnreadableRow, DataError):
    """A save row that does not read back as what it says it holds: damage to the ledger (the game and the
    first version of the row named, as any unreadable row's), a ``DataError`` to the library."""


def _pairs(row: Any, game: Any, recorder: Any) -> list[tuple[str, bytes]]:
    """A run's [topic, state] pairs, as many as its size says."""
    value = _unpack(row, game, recorder)
    if not isinstance(value, list) or len(value) != row["size"] or not all(_is_pair(p) for p in value):
        raise _damaged(row, game, recorder, f"it does not hold {row['size']} [topic, state] pairs")
    return [(topic, bytes(state)) for topic, state in value]


def _pair(row: Any, game: Any, recorder: Any) -> tuple[str, bytes]:
    value = _unpack(row, game, recorder)
    if not _is_pair(value):
        raise _damaged(row, game, recorder, "it does not hold a [topic, state] pair")
    return value[0], bytes(value[1])


def _unpack(row: Any, game: Any, recorder: Any) -> Any:
    try:
        return row_dictionary.unpack(bytes(row["events"]))
    except row_dictionary.RowFormError as e:
        raise _damaged(row, game, recorder, str(e)) from None


def _damaged(row: Any, game: Any, recorder: Any, problem: str) -> DamagedRow:
    v, size = row["version"], row["size"]
    where = f"the row of version {v}" if size == 1 else f"the row of versions {v} to {v + size - 1}"
    return DamagedRow(game, v, Phrase("store.undecodable", {"error": f"{recorder.events_table_name}: {where}: {problem}"}))


def _is_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], bytes)
