"""By hand (not part of `make bench`): how small the demo game's rows could be in PostgreSQL in other layouts.

The demo game (seed 7) is played on the compact SQLite tables; its stored rows (each event's topic id and
state: the row form, the chain hash, the fields) are then written into experimental tables of a fresh schema
of the loopback PostgreSQL, one save a transaction as the ledger saves them, and measured as
``benchmarks/storage.py`` measures the ledger's own tables (after a CHECKPOINT, ``pg_total_relation_size`` of
every table of the schema: heap, free space map, indexes, TOAST). Nothing here is the ledger's stored format;
the layouts keep none of its checks but the rows' own bytes. Prints each layout's bytes per event and its
relations; measures, never asserts.

    python -m benchmarks.pg_layouts
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import uuid4

import msgpack
from psycopg import sql

from benchmarks.scaleout_store import _connect, postgres_env
from benchmarks.storage import sqlite_demo
from mtg_ledger.replays.ledger.logs import configure_logging

Row = tuple[int, int, bytes]  # version, topic id, state
Statements = Callable[[int, list[Row]], list[tuple[str, tuple[Any, ...]]]]

_PER_SAVE = "CREATE TABLE saves ({stream}, version int4 NOT NULL, id int8 NOT NULL, events bytea NOT NULL, PRIMARY KEY (stream, version))"


def _save_row(stream: Any) -> Statements:
    def statements(i: int, save: list[Row]) -> list[tuple[str, tuple[Any, ...]]]:
        packed = msgpack.packb([[topic, state] for _, topic, state in save])
        return [("INSERT INTO saves VALUES (%s, %s, %s, %s)", (stream, save[0][0], i << 16, packed))]

    return statements


def _event_rows(i: int, save: list[Row]) -> list[tuple[str, tuple[Any, ...]]]:
    versions, topics, states = ([r[k] for r in save] for k in range(3))
    return [
        ("INSERT INTO events SELECT 1, v, t, s FROM unnest(%s::int4[], %s::int2[], %s::bytea[]) AS x(v, t, s)", (versions, topics, states)),
        ("INSERT INTO feed VALUES (%s, 1, %s, %s)", (i << 16, save[0][0], len(save))),
    ]


LAYOUTS: list[tuple[str, list[str], Statements]] = [
    ("one row an event (game int4, version int4, topic int2, state bytea) and one feed row a save", [
        "CREATE TABLE events (game int4 NOT NULL, version int4 NOT NULL, topic int2 NOT NULL, state bytea NOT NULL, PRIMARY KEY (game, version))",
        "CREATE TABLE feed (id int8 PRIMARY KEY, game int4 NOT NULL, version int4 NOT NULL, size int2 NOT NULL)",
    ], _event_rows),
    ("one row a save (game int4, first version, feed id, its rows as one msgpack array), an index of feed ids", [
        _PER_SAVE.format(stream="stream int4 NOT NULL"), "CREATE UNIQUE INDEX ON saves (id)",
    ], _save_row(1)),
    ("the same, the array stored MAIN (compressed in the row; out of line only past a page)", [
        _PER_SAVE.format(stream="stream int4 NOT NULL"), "ALTER TABLE saves ALTER events SET STORAGE MAIN", "CREATE UNIQUE INDEX ON saves (id)",
    ], _save_row(1)),
    ("the same, the stream named by its uuid (no table of games)", [
        _PER_SAVE.format(stream="stream uuid NOT NULL"), "ALTER TABLE saves ALTER events SET STORAGE MAIN", "CREATE UNIQUE INDEX ON saves (id)",
    ], _save_row("5d74c23f-29f1-4eb2-a78f-d669777c8fe4")),
]


def demo_saves() -> tuple[int, list[list[Row]]]:
    """The demo game's events and its rows, save by save (the compact tables' feed: one row a save)."""
    with tempfile.TemporaryDirectory() as tmp:
        events, _ = sqlite_demo(Path(tmp))
        (db,) = Path(tmp).glob("*.sqlite")
        con = sqlite3.connect(db)
        rows = con.execute("SELECT key & 4294967295, topic, state FROM events ORDER BY key").fetchall()
        feed = con.execute("SELECT version, size FROM feed ORDER BY id").fetchall()
        con.close()
    return events, [[r for r in rows if version <= r[0] < version + size] for version, size in feed]


def measure(env: dict[str, str], ddl: list[str], statements: Statements, saves: list[list[Row]]) -> tuple[int, list[tuple[Any, ...]]]:
    schema = f"mtgl_layout_{uuid4().hex[:8]}"
    with _connect(env) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        try:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
            for statement in ddl:
                conn.execute(statement)  # type: ignore[arg-type]
            for i, save in enumerate(saves):
                for statement, params in statements(i, save):
                    conn.execute(statement, params)  # type: ignore[arg-type]
            conn.execute("CHECKPOINT")
            in_schema = "SELECT c.oid, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s"
            total = conn.execute(f"SELECT COALESCE(SUM(pg_total_relation_size(oid)), 0) FROM ({in_schema}) s WHERE relkind = 'r'", (schema,)).fetchone()
            parts = conn.execute(
                "SELECT c.relname, pg_relation_size(c.oid, 'main'), pg_relation_size(c.oid, 'fsm'),"
                " CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END"
                " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s ORDER BY c.relname", (schema,)
            ).fetchall()
        finally:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    assert total is not None
    return int(total[0]), parts


def main() -> None:
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    configure_logging()
    events, saves = demo_saves()
    print(f"demo game (seed 7): {events:,} events in {len(saves)} saves")
    env = postgres_env()
    for name, ddl, statements in LAYOUTS:
        total, parts = measure(env, ddl, statements, saves)
        print(f"{total / events:6.1f} B/event  ({total:,} bytes)  {name}")
        for relation, main_bytes, fsm, toast in parts:
            extra = (f", a free space map of {fsm:,}" if fsm else "") + (f", TOAST (table and index) {toast:,}" if toast else "")
            print(f"          {relation}: {main_bytes:,} bytes{extra}")


if __name__ == "__main__":
    main()
