"""The feed order of the streams recorder (``replays.stores.postgres``): notification ids from
transaction ids, made independent of the cluster that wrote them.

**Ids.** A save's events get ``((xid + offset) << 16) + 1, + 2, ...``: ``xid`` is the saving
transaction's id, ``offset`` a number kept in the one-row table ``<events table>_feed`` beside the
events. Transaction ids grow with time on one cluster, so ids order the feed by transaction, then by
event, and followers read below a horizon: the oldest transaction id that may still add rows.

**Another cluster's ids.** A store restored from ``pg_dump`` onto a new server, moved to another
database, or promoted from a logical replica keeps its ids, but the new cluster counts its transactions
from wherever it stands, often far lower. Its rows lie then at or above ``(next xid + offset) << 16``:
beyond anything this cluster could have written with this offset. We call them *foreign*. Two rules
keep the feed whole across the move:

- *A writer never writes below a foreign row.* Its insert checks, in the same statement, that no row
  at or above ``(next xid + offset) << 16`` is visible; if one is, it inserts nothing, and the recorder
  raises the offset first (``adopt``): under a SHARE ROW EXCLUSIVE lock on the events table, taken once
  per move, it waits for the inserts in flight and sets the offset so that every later transaction's
  ids lie above the highest row stored. Then the save is retried.
- *A follower may read foreign rows once no insert is in flight.* Foreign rows were all committed
  before the reader's snapshot, and a writer that starts later sees them and raises the offset before
  writing; so when no transaction holds a writer's lock on the table, the horizon is the top foreign row.

After the offset is raised no row is foreign any more: the horizon is the transaction one again, and
it lies above every restored row. An old store that has no ``_feed`` table yet reads with offset 0;
its first writer creates the table.

**Imports of any length.** One transaction id numbers at most 65,535 events. A transaction that records
more takes a further id for each further 65,535: a subtransaction (a savepoint) that writes a row of a
temporary table gets an id of its own, larger than its parent's, and held until the whole transaction
ends, so the horizon (the smallest id in flight) still covers every row it writes.
"""

from __future__ import annotations

from typing import Any

from psycopg.sql import SQL, Composable, Identifier, Literal

ID_BITS = 16
PER_TRANSACTION = (1 << ID_BITS) - 1  # events one transaction id numbers: (xid + offset) << 16, + 1 .. + 65,535
XID32 = 4294967295  # pg_locks gives 32-bit transaction ids: the low bits of the 64-bit ones


# The transaction's newest id (its own or a subtransaction's), in 64 bits: a CTE ``newest`` (xid).
NEWEST = SQL(
    "WITH me AS (SELECT pg_current_xact_id()::text::bigint AS top), "
    "newest AS (SELECT COALESCE(MAX(me.top + ((l.transactionid::text::bigint - (me.top & {xid32})) & {xid32})),"
    " (SELECT top FROM me)) AS xid"
    " FROM me, pg_locks AS l WHERE l.pid = pg_backend_pid() AND l.locktype = 'transactionid'"
    " AND l.mode = 'ExclusiveLock' AND l.granted) "
).format(xid32=Literal(XID32))
# The oldest transaction that may still add rows to the table {regclass}: reading the snapshot's next id first,
# then the locks, so a writer that has no id yet when the locks are read can only get a larger one. Every insert
# holds ROW EXCLUSIVE on the table; other modes (readers, autovacuum's ANALYZE) never add rows. A subquery ``h``
# (horizon, next).
IN_FLIGHT = SQL(
    "(SELECT LEAST(s.next, MIN(s.next - (((s.next & {xid32}) - l.xid) & {xid32}))) AS horizon, s.next"
    " FROM (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS next) AS s"
    " LEFT JOIN (SELECT x.transactionid::text::bigint AS xid FROM pg_locks AS r JOIN pg_locks AS x"
    "  ON x.virtualtransaction = r.virtualtransaction AND x.locktype = 'transactionid'"
    "  AND x.mode = 'ExclusiveLock' AND x.granted"
    "  WHERE r.locktype = 'relation' AND r.mode = 'RowExclusiveLock' AND r.relation = {regclass}::regclass"
    "  AND r.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS l ON true"
    " GROUP BY s.next) AS h"
)
# Whether this transaction may still take ids for the table {regclass}: it has none yet, or holds the table's lock.
ORDERED = SQL(
    "SELECT pg_current_xact_id_if_assigned() IS NULL"
    " OR EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'relation' AND pid = pg_backend_pid()"
    "  AND mode = 'RowExclusiveLock' AND relation = {regclass}::regclass) AS ordered"
)


def in_flight(regclass: Composable) -> Composable:
    return IN_FLIGHT.format(xid32=Literal(XID32), regclass=regclass)


def feed_table_name(events_table: str) -> str:
    return f"{events_table}_feed"[:63]


def quoted(name: str) -> str:
    """An identifier as PostgreSQL quotes it, for ``to_regclass`` and ``to_regnamespace``."""
    return '"' + name.replace('"', '""') + '"'


def qualified(schema: str, table: str) -> Literal:
    """``"schema"."table"`` as a literal for ``::regclass`` and ``to_regclass``."""
    return Literal(f"{quoted(schema)}.{quoted(table)}")


class Rendered:
    """A composed statement as its bytes, rendered once for each client encoding met (as psycopg renders
    it for a connection: the identifiers quoted, the literals adapted), then given to ``execute`` as
    such. Given the ``Composed`` itself, psycopg renders it again at every execute: 40 us for the
    insert of a decision, 12 us for the read of its versions."""

    def __init__(self, statement: Composable) -> None:
        self.statement = statement
        self._bytes: dict[str, bytes] = {}

    def on(self, curs: Any) -> bytes:
        """The statement for ``curs``'s connection."""
        encoding: str = curs.connection.info.encoding
        found = self._bytes.get(encoding)
        if found is None:
            found = self._bytes[encoding] = self.statement.as_bytes(curs)
        return found


class FeedStatements:
    """The statements that number and follow the feed of one events table."""

    def __init__(self, schema: str, events_table: str, id_type: str) -> None:
        feed_name = feed_table_name(events_table)
        self.feed_regclass = qualified(schema, feed_name)
        names: dict[str, Composable] = {
            "schema": Identifier(schema), "table": Identifier(events_table), "feed": Identifier(feed_name),
            "regclass": qualified(schema, events_table), "bits": Literal(ID_BITS), "span": Literal(1 << ID_BITS),
        }  # fmt: skip
        offset = SQL("(SELECT xid_offset, true AS ready FROM {schema}.{feed})").format(**names)
        legacy = SQL("(SELECT 0::bigint AS xid_offset, to_regclass({feed_regclass}) IS NOT NULL AS ready)").format(
            feed_regclass=self.feed_regclass
        )
        self.create = [
            SQL(
                "CREATE TABLE IF NOT EXISTS {schema}.{feed} ("
                "one boolean PRIMARY KEY DEFAULT true CHECK (one), xid_offset bigint NOT NULL)"
            ).format(**names),
            SQL("INSERT INTO {schema}.{feed} (xid_offset) VALUES (0) ON CONFLICT DO NOTHING").format(**names),
        ]
        # One statement, its own transaction on the autocommit path. %(xid)s: a subtransaction's id (None:
        # the transaction's own). The rows' arrays go in binary (%(...)b): the same values, without quoting
        # each element of a text array (adapting a decision's rows: 61 -> 34 us). Nothing is inserted while a
        # foreign row is visible (the writer's rule): one at or above the ids of every transaction that has
        # ended (the snapshot's xmax) and of this one. Both looks at the ids are MAX over the ids' index (one
        # index probe whatever the planner believes of the table): a "NOT EXISTS ... >= ceiling" planned on a
        # table not yet analyzed was a scan of the whole table at every save (9 ms of the server's CPU a
        # decision on 20,000 rows).
        self.insert = SQL(
            "WITH own AS MATERIALIZED (SELECT COALESCE(%(xid)s::bigint, pg_current_xact_id()::text::bigint) AS xid), "
            "x AS MATERIALIZED ("
            " SELECT (own.xid + f.xid_offset) << {bits} AS lo,"
            " (GREATEST(pg_snapshot_xmax(pg_current_snapshot())::text::bigint, own.xid + 1) + f.xid_offset) << {bits} AS ceiling"
            " FROM own, {schema}.{feed} AS f), "
            "base AS MATERIALIZED ("
            " SELECT COALESCE((SELECT MAX(t.notification_id) FROM {schema}.{table} AS t"  # earlier inserts under the same id
            "  WHERE t.notification_id > x.lo AND t.notification_id < x.lo + {span}), x.lo) AS id"
            " FROM x WHERE COALESCE((SELECT MAX(o.notification_id) FROM {schema}.{table} AS o), -1) < x.ceiling), "
            "inserted AS ("
            " INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state, notification_id)"
            " SELECT e.i, e.v, e.t, e.s, base.id + e.n FROM base,"
            " unnest(%(ids)b::{id_type}[], %(versions)b::bigint[], %(topics)b::text[], %(states)b::bytea[])"
            " WITH ORDINALITY AS e(i, v, t, s, n)"
            " RETURNING notification_id) "
            "SELECT notification_id FROM inserted"
        ).format(id_type=Identifier(id_type), **names)
        # The transaction's newest id (its own or a subtransaction's) in 64 bits, and how many ids it used.
        self.slot = NEWEST + SQL(
            "SELECT newest.xid, (SELECT COUNT(*) FROM {schema}.{table} AS t, {schema}.{feed} AS f"
            " WHERE t.notification_id > (newest.xid + f.xid_offset) << {bits}"
            " AND t.notification_id < (newest.xid + f.xid_offset + 1) << {bits}) AS used FROM newest"
        ).format(**names)
        self.ordered = ORDERED.format(**names)
        self.lock_for_insert = SQL("LOCK TABLE {schema}.{table} IN ROW EXCLUSIVE MODE").format(**names)
        horizon = SQL(
            "SELECT h.horizon, h.next, f.xid_offset, f.ready,"
            " (SELECT MAX(o.notification_id) FROM {schema}.{table} AS o"
            "  WHERE o.notification_id >= (h.next + f.xid_offset) << {bits}) AS foreign_top "
            "FROM {in_flight} CROSS JOIN {offset} AS f"
        )
        self.horizon = horizon.format(in_flight=in_flight(names["regclass"]), offset=offset, **names)
        self.legacy_horizon = horizon.format(in_flight=in_flight(names["regclass"]), offset=legacy, **names)
        # The writer's rule, applied once per move: under a lock that waits for the inserts in flight and
        # holds back new ones, every later transaction's ids above the highest row stored.
        self.adopt = [
            SQL("LOCK TABLE {schema}.{table} IN SHARE ROW EXCLUSIVE MODE").format(**names),
            SQL(
                "UPDATE {schema}.{feed} SET xid_offset = GREATEST(xid_offset,"
                " (SELECT (MAX(notification_id) >> {bits}) + 1 FROM {schema}.{table}) - pg_current_xact_id()::text::bigint)"
                " RETURNING xid_offset"
            ).format(**names),
        ]


def readable_below(horizon: int, next_xid: int, offset: int, foreign_top: int | None) -> int:
    """The first notification id a follower may not read yet, from the horizon statement's row."""
    if foreign_top is not None and horizon == next_xid:  # no insert in flight: foreign rows are final
        return foreign_top + 1
    return (horizon + offset) << ID_BITS
