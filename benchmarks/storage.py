"""What a stored event costs: the demo game of `mtg-ledger demo --seed 7` (two players, the classic decks) played into a
fresh SQLite file and into a fresh PostgreSQL schema (loopback only); bytes per event of the whole SQLite
file, and of PostgreSQL's tables with their indexes (snapshots included in both). Prints and merges
``sqlite_bytes_per_event_demo`` and ``postgres_bytes_per_event_demo`` into benchmarks/results.json."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.results import merge
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.ledger.play import play_demo

SEED, PLAYERS = 7, 2  # `mtg-ledger demo --seed 7`: the demo game every storage figure has been measured on


def sqlite_demo(tmp: Path) -> tuple[int, int]:
    db = tmp / "demo.sqlite"
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    try:
        game = play_demo(ledger, demo_setup(SEED, PLAYERS))
        events = ledger.state_now(game).version
    finally:
        ledger.close()
    return events, db.stat().st_size


def postgres_demo() -> tuple[int, int] | None:
    from psycopg import sql

    from benchmarks.scaleout_store import _connect, postgres_env, schema

    try:
        env = postgres_env()
        with _connect(env):
            pass
    except Exception as e:  # no PostgreSQL here: the figure is left out, the rest measured
        print(f"postgres: not measured ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
        return None
    with schema(env, "streams") as scoped:
        ledger = Ledger(env=scoped)
        try:
            game = play_demo(ledger, demo_setup(SEED, PLAYERS))
            events = ledger.state_now(game).version
        finally:
            ledger.close()
        with _connect(env) as conn:
            conn.execute("CHECKPOINT")
            found: Any = conn.execute(
                sql.SQL("SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        " WHERE n.nspname = {} AND c.relkind = 'r'").format(sql.Literal(scoped["POSTGRES_SCHEMA"]))
            ).fetchone()
        return events, int(found[0])


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"
    configure_logging()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        events, size = sqlite_demo(Path(tmp))
    figures["sqlite_bytes_per_event_demo"] = round(size / events, 1)
    print(f"demo game (seed {SEED}): {events:,} events; SQLite file {size:,} bytes, {size / events:.1f} bytes/event")
    pg = postgres_demo()
    if pg is not None:
        events, size = pg
        figures["postgres_bytes_per_event_demo"] = round(size / events, 1)
        print(f"the same game in PostgreSQL: tables and indexes {size:,} bytes, {size / events:.1f} bytes/event")
    merge(figures)


if __name__ == "__main__":
    main()
