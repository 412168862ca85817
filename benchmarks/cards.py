"""`make bench`, cards: what the pool costs to load, and how fast games between real decks are decided.

``pool_load_ms``: the median of 5 reads of the whole pool from its files (``replays.cards.live_pool``, its
cache cleared before each): every file parsed and checked field by field. ``pool_compile_ms``: the median of 5
compilations of every definition the pool holds into the engine's cards (``Catalog.of(...).cards``).

``decks_decisions_per_s``: demo games between two of the shipped deck lists (both shuffled by the seed, the
demo's policy deciding for both players), played decision by decision through ``Ledger.decide`` on a fresh
SQLite file; decisions over the time spent deciding them. Measures and prints; never asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import results
from mtg_ledger.core.catalog import Catalog
from mtg_ledger.replays.cards import live_pool
from mtg_ledger.replays.cards.decks import parse_deck, shipped_decks
from mtg_ledger.replays.demo import policy
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.application import Ledger

LOADS = 5


def pool_times() -> tuple[float, float, int]:
    """The median time (ms) to read the pool, to compile it, and how many cards it holds."""
    reads, compiles = [], []
    for _ in range(LOADS):
        live_pool.cache_clear()
        began = time.perf_counter()
        pool = live_pool()
        reads.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        compiled = Catalog.of(pool.definitions).cards
        compiles.append((time.perf_counter() - began) * 1000)
    return statistics.median(reads), statistics.median(compiles), len(compiled)


def deck_games(db: Path, decks: list[list[str]], seeds: list[int]) -> tuple[int, float, int]:
    """Decisions taken, seconds spent deciding them, and games that reached their end."""
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    decisions, spent, ended = 0, 0.0, 0
    try:
        for seed in seeds:
            game = ledger.start(demo_setup(seed, decks=decks))
            while (command := policy.choose(ledger.state_now(game))) is not None:
                began = time.perf_counter()
                ledger.decide(game, command)
                spent += time.perf_counter() - began
                decisions += 1
            ended += ledger.state_now(game).ended
    finally:
        ledger.close()
    return decisions, spent, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games played between the decks (seeds 1 to N)")
    parser.add_argument("--deck", action="append", default=None, help="a shipped deck list by name (twice); default: the two make demo plays")
    args = parser.parse_args()
    os.environ["MTG_LEDGER_LOG_LEVEL"] = "warning"  # no line per decision
    from mtg_ledger.replays.ledger.logs import configure_logging

    configure_logging()
    read_ms, compile_ms, cards = pool_times()
    shipped = shipped_decks()
    names = args.deck or ["selesnya-counters", "rakdos-aggro"]
    decks = [parse_deck(shipped[name]).main for name in names]
    with tempfile.TemporaryDirectory() as folder:
        deck_games(Path(folder) / "warm.sqlite", decks, [0])  # imports, caches
        decisions, spent, ended = deck_games(Path(folder) / "decks.sqlite", decks, list(range(1, args.games + 1)))
    figures = {
        "pool_cards": cards,
        "pool_load_ms": round(read_ms, 2),
        "pool_compile_ms": round(compile_ms, 2),
        "decks_decisions_per_s": round(decisions / spent, 1) if spent else 0.0,
    }
    print(f"cards: the pool of {cards} cards read in {read_ms:.1f} ms, compiled in {compile_ms:.1f} ms (medians of {LOADS})")
    print(f"  {' against '.join(names)}: {decisions} decisions in {args.games} games ({ended} played to the end), "
          f"{figures['decks_decisions_per_s']:.0f} decisions a second through Ledger.decide on SQLite")
    results.merge(figures)


if __name__ == "__main__":
    main()
