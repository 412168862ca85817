"""By hand (not part of `make bench`): how small the demo game's rows could be in PostgreSQL in other layouts.

The demo game (seed 7) is played on the compact SQLite tables; its stored rows (each event's topic id and
state: the row form, the chain hash, the fields) are then written into experimental tables of a fresh schema
of the loopback PostgreSQL, one save a transaction as the ledger saves them, and measured as
``benchmarks/storage.py`` measures the ledger's own tables (after a CHECKPOINT, ``pg_total_relation_size`` of
every table of the schema: heap, free space map, indexes, TOAST). The last layouts are the ledger's save rows
(``replays.stores.pg_saves_sql``: its table, its rows' bytes) and variants of them, written by plain INSERTs on
one connection; the others are experiments. None keeps the ledger's checks but the rows' own bytes. Prints each
layout's bytes per event and its relations; measures, never asserts.

    python -m benchmarks.pg_layouts

``--train`` makes the dictionary the PostgreSQL save rows are compressed with (``replays.stores.row_dictionary``)
from 90 demo games (seeds 100 to 129, of 2, 3 and 4 players; never the measured game), their rows as the
recorder packs them; the package ships the file it wrote and pins its SHA-256.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import uuid4

import msgpack
import zstandard
from psycopg import sql

from benchmarks.scaleout_store import _connect, postgres_env
from benchmarks.storage import sqlite_demo
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.stores import row_dictionary

Row = tuple[int, int, bytes]  # version, topic id, state
Statements = Callable[[int, list[Row], list[Row]], list[tuple[str, tuple[Any, ...]]]]  # save i, its rows, the snapshots taken at its end
STREAM = "5d74c23f-29f1-4eb2-a78f-d669777c8fe4"

_PER_SAVE = "CREATE TABLE saves ({stream}, version int4 NOT NULL, id int8 NOT NULL, events bytea NOT NULL, PRIMARY KEY (stream, version))"


def _save_row(stream: Any) -> Statements:
    def statements(i: int, save: list[Row], _snapshots: list[Row]) -> list[tuple[str, tuple[Any, ...]]]:
        packed = msgpack.packb([[topic, state] for _, topic, state in save])
        return [("INSERT INTO saves VALUES (%s, %s, %s, %s)", (stream, save[0][0], i << 16, packed))]

    return statements


_ONE_TABLE = ("CREATE TABLE saves (stream uuid NOT NULL, kind int2 NOT NULL, version int4 NOT NULL, id int8,"
              " events bytea NOT NULL, PRIMARY KEY (stream, kind, version))")


def _with_snapshots(squeeze: Callable[[bytes], bytes]) -> Statements:
    def statements(i: int, save: list[Row], snapshots: list[Row]) -> list[tuple[str, tuple[Any, ...]]]:
        packed = squeeze(msgpack.packb([[topic, state] for _, topic, state in save]))
        return [("INSERT INTO saves VALUES (%s, 0, %s, %s, %s)", (STREAM, save[0][0], i << 16, packed))] + [
            ("INSERT INTO saves VALUES (%s, 1, %s, NULL, %s)", (STREAM, v, squeeze(msgpack.packb([topic, state])))) for v, topic, state in snapshots
        ]

    return statements


def _event_rows(i: int, save: list[Row], _snapshots: list[Row]) -> list[tuple[str, tuple[Any, ...]]]:
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
    ], _save_row(STREAM)),
    ("one table for everything: each save's row (uuid, kind 0, first version, feed id, its rows) and each snapshot's (kind 1,"
     " its version, no feed id), MAIN, an index of feed ids", [
        _ONE_TABLE, "ALTER TABLE saves ALTER events SET STORAGE MAIN", "CREATE UNIQUE INDEX ON saves (id) WHERE id IS NOT NULL",
    ], _with_snapshots(lambda b: b)),
    ("the same, each row's bytes compressed by zstd (level 19) before they are sent", [
        _ONE_TABLE, "ALTER TABLE saves ALTER events SET STORAGE MAIN", "CREATE UNIQUE INDEX ON saves (id) WHERE id IS NOT NULL",
    ], _with_snapshots(zstandard.ZstdCompressor(level=19, write_content_size=False, write_checksum=False).compress)),
]


_SAVE_ROWS = [  # the ledger's save rows (replays.stores.pg_saves_sql), the offset's row included
    "CREATE TABLE saves (game uuid NOT NULL, kind int2 NOT NULL, size int2 NOT NULL, version int4 NOT NULL, id bigint,"
    " events bytea NOT NULL, PRIMARY KEY (game, kind, version))",
    "ALTER TABLE saves ALTER events SET STORAGE MAIN", "CREATE UNIQUE INDEX ON saves (id) WHERE kind = 0",
    "INSERT INTO saves VALUES ('00000000-0000-0000-0000-000000000000', 2, 0, 0, 0, '')",
]


def _hash_a_save(save: list[tuple[int, str, bytes]]) -> list[tuple[int, str, bytes]]:
    """Every event's chain hash left out but the save's last (its 0x03 tag kept)."""
    return [(v, t, s if i == len(save) - 1 else s[:1] + s[33:]) for i, (v, t, s) in enumerate(save)]


def _named_rows(squeeze: Callable[[Any], bytes], hash_a_save: bool = False) -> Statements:
    def statements(i: int, save: list[Any], snapshots: list[Any]) -> list[tuple[str, tuple[Any, ...]]]:
        kept = _hash_a_save(save) if hash_a_save else save
        row = squeeze([[t, s] for _, t, s in kept])
        return [("INSERT INTO saves VALUES (%s, 0, %s, %s, %s, %s)", (STREAM, len(save), save[0][0], (i + 1) << 16, row))] + [
            ("INSERT INTO saves VALUES (%s, 1, 1, %s, NULL, %s)", (STREAM, v, squeeze([t, s]))) for v, t, s in snapshots
        ]

    return statements


def _plain(value: Any) -> bytes:
    return bytes(msgpack.packb(value, use_bin_type=True))


NAMED_LAYOUTS: list[tuple[str, list[str], Statements]] = [  # measured on the rows with their topics' names, as the ledger keeps them
    ("save rows as the ledger's (topics by name, snapshots and the offset in the table), without the dictionary", _SAVE_ROWS, _named_rows(_plain)),
    ("the same, compressed with the shipped dictionary (the ledger's: replays.stores.row_dictionary)", _SAVE_ROWS, _named_rows(row_dictionary.pack)),
    ("the same, a chain hash a save rather than an event (not the ledger's: a damaged event would be named by its save)",
     _SAVE_ROWS, _named_rows(row_dictionary.pack, hash_a_save=True)),
]


def demo_saves() -> tuple[int, list[list[Row]], list[Row]]:
    """The demo game's events, its rows save by save (the compact tables' feed: one row a save), and its
    snapshots' rows (version, topic id, state)."""
    with tempfile.TemporaryDirectory() as tmp:
        events, _ = sqlite_demo(Path(tmp))
        (db,) = Path(tmp).glob("*.sqlite")
        con = sqlite3.connect(db)
        rows = con.execute("SELECT key & 4294967295, topic, state FROM events ORDER BY key").fetchall()
        feed = con.execute("SELECT version, size FROM feed ORDER BY id").fetchall()
        snapshots = con.execute("SELECT key & 4294967295, topic, state FROM snapshots ORDER BY key").fetchall()
        con.close()
    return events, [[r for r in rows if version <= r[0] < version + size] for version, size in feed], snapshots


def measure(env: dict[str, str], ddl: list[str], statements: Statements, saves: list[list[Row]], snapshots: list[Row]) -> tuple[int, list[tuple[Any, ...]]]:
    schema = f"mtgl_layout_{uuid4().hex[:8]}"
    with _connect(env) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        try:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
            for statement in ddl:
                conn.execute(statement)  # type: ignore[arg-type]
            for i, save in enumerate(saves):
                taken = [r for r in snapshots if save[0][0] <= r[0] < save[0][0] + len(save)]
                for statement, params in statements(i, save, taken):
                    conn.execute(statement, params)  # type: ignore[arg-type]
            conn.execute("CHECKPOINT")
            in_schema = "SELECT c.oid, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s"
            total = conn.execute(f"SELECT COALESCE(SUM(pg_total_relation_size(oid)), 0) FROM ({in_schema}) s WHERE relkind = 'r'", (schema,)).fetchone()
            parts = conn.execute(
                "SELECT c.relname, pg_relation_size(c.oid, 'main'), pg_relation_size(c.oid, 'fsm'),"
                " CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END"
                " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s ORDER BY c.relname", (schema,)
            ).fetchall()
            tables = [name for name, _, _, _ in parts if name in ("events", "feed", "saves")]
            held = {name: conn.execute(sql.SQL("SELECT COUNT(*), COALESCE(SUM(pg_column_size(t.*)), 0) FROM {} AS t").format(sql.Identifier(name))).fetchone()
                    for name in tables}  # rows, and their bytes as stored (headers and compression included, line pointers not)
            parts = [(*part, held.get(part[0])) for part in parts]
        finally:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    assert total is not None
    return int(total[0]), parts


TRAINING = [(seed, players) for seed in range(100, 130) for players in (2, 3, 4)]
DICTIONARY_BYTES = 16384  # 8 KB and 4 KB dictionaries left the demo game a heap page more (2026-12-04)


def game_rows(seed: int, players: int) -> tuple[list[list[tuple[int, str, bytes]]], list[tuple[int, str, bytes]]]:
    """A demo game's rows save by save and its snapshots' rows, as (version, topic name, state)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "game.sqlite"
        ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
        play_demo(ledger, demo_setup(seed, players))
        ledger.close()
        con = sqlite3.connect(db)
        names = dict(con.execute("SELECT id, name FROM topics"))
        rows = {key: (names[topic], state) for key, topic, state in con.execute("SELECT key, topic, state FROM events")}
        feed = con.execute("SELECT game, version, size FROM feed ORDER BY id").fetchall()
        snapshots = [(v, names[t], s) for v, t, s in con.execute("SELECT key & 4294967295, topic, state FROM snapshots ORDER BY key")]
        con.close()
    return [[(v + i, *rows[(game << 32) + v + i]) for i in range(size)] for game, v, size in feed], snapshots


def train(path: Path) -> None:
    samples: list[bytes] = []
    for seed, players in TRAINING:
        saves, snapshots = game_rows(seed, players)
        samples += [msgpack.packb([[t, s] for _, t, s in save], use_bin_type=True) for save in saves]
        samples += [msgpack.packb([t, s], use_bin_type=True) for _, t, s in snapshots]
    made = zstandard.train_dictionary(DICTIONARY_BYTES, samples, dict_id=1, level=19, threads=1)
    path.write_bytes(made.as_bytes())
    print(f"{path}: {len(made.as_bytes()):,} bytes from {len(samples):,} rows of {len(TRAINING)} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", type=Path, metavar="FILE", help="write the save rows' zstd dictionary to FILE, and measure nothing")
    args = parser.parse_args()
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    configure_logging()
    if args.train:
        train(args.train)
        return
    events, saves, snapshots = demo_saves()
    print(f"demo game (seed 7): {events:,} events in {len(saves)} saves, {len(snapshots)} snapshots")
    env = postgres_env()
    named_saves, named_snapshots = game_rows(7, 2)
    for (name, ddl, statements), rows, taken in [*((layout, saves, snapshots) for layout in LAYOUTS),
                                                 *((layout, named_saves, named_snapshots) for layout in NAMED_LAYOUTS)]:
        total, parts = measure(env, ddl, statements, rows, taken)  # type: ignore[arg-type]
        print(f"{total / events:6.1f} B/event  ({total:,} bytes)  {name}")
        for relation, main_bytes, fsm, toast, held in parts:
            extra = (f", a free space map of {fsm:,}" if fsm else "") + (f", TOAST (table and index) {toast:,}" if toast else "")
            extra += f"; {held[0]:,} rows of {held[1]:,} bytes" if held else ""
            print(f"          {relation}: {main_bytes:,} bytes{extra}")


if __name__ == "__main__":
    main()
