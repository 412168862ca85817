"""The statements of the save rows' table (``replays.stores.pg_saves``): one table a store for its games'
events, their snapshots and the feed's offset.

.. code-block:: sql

    CREATE TABLE <app>_saves (
        game uuid NOT NULL,       -- the game (text under ORIGINATOR_ID_TYPE=text)
        kind int2 NOT NULL,       -- 0: a run of a game's events; 1: a snapshot; 2: the feed's offset (one row);
                                  -- 3: a game's opening mark (one a game, version 0, no bytes)
        size int2 NOT NULL,       -- events in the run (1 for a snapshot, 0 for the offset's row)
        version int4 NOT NULL,    -- the run's first version; the snapshot's version; 0
        id bigint,                -- the notification id of the run's last event; the offset; NULL for a snapshot
        events bytea NOT NULL,    -- replays.stores.row_dictionary: the run's [topic, state] pairs, compressed
        PRIMARY KEY (game, kind, version));
    CREATE UNIQUE INDEX <app>_saves_id ON <app>_saves (id) WHERE kind = 0;

The run's events are versions ``version .. version + size - 1`` with the notification ids
``id - size + 1 .. id``. The feed's rules are those of ``replays.stores.pg_feed`` (ids from the writing
transaction's id and the offset; a horizon for followers; another cluster's rows adopted by raising the
offset), over this table's runs.

A run is accepted only if it starts a game's events (at version 0 or 1, the game having none) or follows the
game's last run, at the version after it. Two writers of the same game after the same run both write that
version's key, and the second fails on the primary key; a writer that is behind finds the game's last run
elsewhere and writes nothing. Two writers starting the same game both write its opening mark's key, whatever
versions they start at, and the second fails there. Runs never overlap, and a game's runs hold every version
from its first.
"""

from __future__ import annotations

from psycopg.sql import SQL, Composable, Identifier, Literal

from mtg_ledger.replays.stores.pg_feed import ID_BITS, NEWEST, ORDERED, in_flight, qualified

EVENTS, SNAPSHOT, OFFSET, OPENED = 0, 1, 2, 3  # kinds of row
NIL = "00000000-0000-0000-0000-000000000000"  # the offset's row's game


def saves_table_name(prefix: str) -> str:
    return f"{prefix}_saves"[:63]


class SaveStatements:
    """Every statement of one save rows' table."""

    def __init__(self, schema: str, table: str, id_type: str) -> None:
        self.regclass = qualified(schema, table)
        names: dict[str, Composable] = {
            "t": SQL("{}.{}").format(Identifier(schema), Identifier(table)), "regclass": self.regclass,
            "bits": Literal(ID_BITS), "span": Literal(1 << ID_BITS), "id_type": Identifier(id_type),
            "nil": Literal(NIL), "offset_row": SQL("game = {nil} AND kind = 2 AND version = 0").format(nil=Literal(NIL)),
        }  # fmt: skip
        # Made once, in one transaction, when the table is missing: SET STORAGE takes an ACCESS EXCLUSIVE lock, which
        # a writer starting beside running ones must not queue for (every read would then queue behind it).
        self.exists = SQL("SELECT to_regclass({regclass}) IS NOT NULL AS ok").format(**names)
        self.create = [
            SQL(
                "CREATE TABLE IF NOT EXISTS {t} (game {id_type} NOT NULL, kind int2 NOT NULL, size int2 NOT NULL,"
                " version int4 NOT NULL, id bigint, events bytea NOT NULL, PRIMARY KEY (game, kind, version))"
                " WITH (autovacuum_enabled = true, autovacuum_vacuum_threshold = 100000000,"
                " autovacuum_vacuum_scale_factor = 0.5, autovacuum_analyze_threshold = 1000,"
                " autovacuum_analyze_scale_factor = 0.01)"
            ).format(**names),
            # compressed already: kept in its row, out of line only past a page (PostgreSQL's own compression,
            # tried on a long row, finds nothing in zstd's bytes)
            SQL("ALTER TABLE {t} ALTER COLUMN events SET STORAGE MAIN").format(**names),
            SQL("CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {t} (id) WHERE kind = 0").format(index=Identifier(f"{table}_id"[:63]), **names),
            SQL("INSERT INTO {t} VALUES ({nil}, 2, 0, 0, 0, '') ON CONFLICT DO NOTHING").format(**names),
        ]
        offset = SQL("(SELECT id AS xid_offset FROM {t} WHERE {offset_row})").format(**names)
        # As pg_feed's insert: one statement, the ids of the transaction (or of a subtransaction, %(xid)s),
        # nothing written while a foreign row is visible. Each run must start its game or follow its last run
        # (``follows``); if any does not, nothing is written and the statement says so. A row whose head is 0
        # continues the row before it in the statement (a run longer than a row holds). A run that starts its
        # game also writes the game's opening mark (kind 3), which a second first run of it, from another
        # writer at the same moment, finds already taken whatever version it starts at.
        self.insert = SQL(
            "WITH own AS MATERIALIZED (SELECT COALESCE(%(xid)s::bigint, pg_current_xact_id()::text::bigint) AS xid), "
            "x AS MATERIALIZED ("
            " SELECT (own.xid + f.xid_offset) << {bits} AS lo,"
            " (GREATEST(pg_snapshot_xmax(pg_current_snapshot())::text::bigint, own.xid + 1) + f.xid_offset) << {bits} AS ceiling"
            " FROM own, {offset} AS f), "
            "base AS MATERIALIZED ("
            " SELECT COALESCE((SELECT MAX(t.id) FROM {t} AS t WHERE t.kind = 0 AND t.id > x.lo AND t.id < x.lo + {span}), x.lo) AS id"
            " FROM x WHERE COALESCE((SELECT MAX(o.id) FROM {t} AS o WHERE o.kind = 0), -1) < x.ceiling), "
            "runs AS MATERIALIZED ("
            " SELECT r.g, r.v, r.n, r.p, SUM(r.n) OVER (ORDER BY r.i) AS upto,"
            " r.h = 0 OR COALESCE(l.next, CASE WHEN r.v IN (0, 1) THEN r.v END) IS NOT DISTINCT FROM r.v AS follows,"
            " r.h = 1 AND l.next IS NULL AS opens"
            " FROM unnest(%(games)b::{id_type}[], %(versions)b::int4[], %(sizes)b::int2[], %(rows)b::bytea[], %(heads)b::int2[])"
            " WITH ORDINALITY AS r(g, v, n, p, h, i)"
            " LEFT JOIN LATERAL (SELECT l.version + l.size AS next FROM {t} AS l WHERE l.game = r.g AND l.kind = 0"
            "  ORDER BY l.version DESC LIMIT 1) AS l ON true), "
            "inserted AS ("
            " INSERT INTO {t} (game, kind, size, version, id, events)"
            " SELECT runs.g, 0, runs.n, runs.v, base.id + runs.upto, runs.p FROM base, runs"
            " WHERE NOT EXISTS (SELECT 1 FROM runs AS r WHERE NOT r.follows)"
            " UNION ALL SELECT runs.g, 3, 0, 0, NULL, ''::bytea FROM base, runs"  # the game's one opening mark
            " WHERE runs.opens AND NOT EXISTS (SELECT 1 FROM runs AS r WHERE NOT r.follows)"
            " RETURNING id) "
            "SELECT EXISTS (SELECT 1 FROM base) AS based, NOT EXISTS (SELECT 1 FROM runs WHERE NOT follows) AS follow,"
            " ARRAY(SELECT id FROM inserted WHERE id IS NOT NULL ORDER BY id) AS ids"
        ).format(offset=offset, **names)
        self.insert_snapshot = SQL("INSERT INTO {t} (game, kind, size, version, id, events) VALUES (%s, 1, 1, %s, NULL, %s)").format(**names)
        # A game's rows of one kind that hold versions in (gt, lte]: from the run that holds gt + 1.
        self.select = SQL("SELECT version, size, events FROM {t} WHERE game = %(game)s AND kind = %(kind)s").format(**names)
        self.after = SQL(
            " AND version >= COALESCE((SELECT MAX(a.version) FROM {t} AS a WHERE a.game = %(game)s AND a.kind = %(kind)s"
            " AND a.version <= %(gt)s + 1), -2147483648) AND version + size - 1 > %(gt)s"
        ).format(**names)
        self.last_versions = SQL(
            "SELECT s.id::text AS id, (SELECT l.version + l.size - 1 FROM {t} AS l WHERE l.game = s.id AND l.kind = 0"
            " ORDER BY l.version DESC LIMIT 1) AS version FROM unnest(%b::{id_type}[]) AS s(id)"
        ).format(**names)
        self.notifications = SQL("SELECT game, version, size, id, events FROM {t} WHERE kind = 0 AND id < %(below)s").format(**names)
        # each game's first run (it starts at version 0 or 1) whose first id is at or after %(after)s
        self.starts = SQL(
            "SELECT game, version, size, id, events FROM {t} WHERE kind = 0 AND version <= 1 AND id < %(below)s"
            " AND id >= %(after)s AND id - size + 1 >= %(after)s ORDER BY id LIMIT %(rows)s"
        ).format(**names)
        self.max = SQL("SELECT MAX(id) FROM {t} WHERE kind = 0 AND id < %s").format(**names)
        self.beyond = SQL("SELECT EXISTS (SELECT 1 FROM {t} WHERE kind = 0 AND id >= %s)").format(**names)
        self.slot = NEWEST + SQL(
            "SELECT n.xid, COALESCE((SELECT MAX(t.id) FROM {t} AS t WHERE t.kind = 0 AND t.id > n.lo AND t.id < n.lo + {span}) - n.lo, 0) AS used"
            " FROM (SELECT newest.xid, (newest.xid + f.xid_offset) << {bits} AS lo FROM newest, {offset} AS f) AS n"
        ).format(offset=offset, **names)
        self.ordered = ORDERED.format(**names)
        self.lock_for_insert = SQL("LOCK TABLE {t} IN ROW EXCLUSIVE MODE").format(**names)
        # pg_feed's horizon, over this table (its runs' last ids; the offset from its own row)
        self.horizon = SQL(
            "SELECT h.horizon, h.next, f.xid_offset,"
            " (SELECT MAX(o.id) FROM {t} AS o WHERE o.kind = 0 AND o.id >= (h.next + f.xid_offset) << {bits}) AS foreign_top "
            "FROM {in_flight} CROSS JOIN {offset} AS f"
        ).format(in_flight=in_flight(self.regclass), offset=offset, **names)
        self.adopt = [
            SQL("LOCK TABLE {t} IN SHARE ROW EXCLUSIVE MODE").format(**names),
            SQL(
                "UPDATE {t} SET id = GREATEST(id, (SELECT (MAX(o.id) >> {bits}) + 1 FROM {t} AS o WHERE o.kind = 0)"
                " - pg_current_xact_id()::text::bigint) WHERE {offset_row} RETURNING id AS xid_offset"
            ).format(**names),
        ]
