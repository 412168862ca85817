"""`make bench`, receipts: what they add to a decision, and to the store. Measures, never asserts.

Demo games (both decks, shuffled, every draw a hidden card) are played decision by decision through
``Ledger.decide`` on a fresh SQLite file; after each decision, what the service adds for receipts is timed
apart: the acting player's view of the new events with their commitments, the public chain extended by
them, the Ed25519 receipt, less the plain views the answer held before receipts (timed just before). Its
p50 is ``receipt_overhead_p50_ms`` (target: at most 0.2 ms); the decision's own p50 is printed beside it.

The same games are stored again without receipts, on another file: the difference in file size, over the
events, is ``receipt_bytes_per_event`` (target: at most 40 B): a secret a game and the service's key,
nothing an event.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import results
from mtg_ledger.core.redact import view_of_event
from mtg_ledger.replays.demo import policy
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.receipts.book import ReceiptBook


def play(db: Path, seeds: list[int], receipts: bool) -> tuple[list[float], list[float], int]:
    """Each decision's time (ms), each decision's receipt time (ms), and the events stored."""
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    book = ReceiptBook(ledger)
    decided: list[float] = []
    added: list[float] = []
    events = 0
    try:
        for seed in seeds:
            game = ledger.start(demo_setup(seed))
            if receipts:
                book.receipt(game, ledger.last_version(game))  # the game's secret and first head, as on its creation
            while (command := policy.choose(ledger.state_now(game))) is not None:
                began = time.perf_counter()
                new = ledger.decide(game, command)
                done = time.perf_counter()
                if receipts:
                    version = int(new[-1]["v"])
                    [view_of_event(e, command.player) for e in new]  # what an answer held before receipts
                    plain = time.perf_counter()
                    _, receipt = book.decided(game, version, new, command.player)
                    book.remember(game, version, bytes.fromhex(receipt["head"]))
                    added.append((time.perf_counter() - plain - (plain - done)) * 1000)
                decided.append((done - began) * 1000)
            events += ledger.last_version(game)
    finally:
        ledger.close()
    return decided, added, events


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="demo games played (seeds 1 to N)")
    args = parser.parse_args()
    seeds = list(range(1, args.games + 1))
    with tempfile.TemporaryDirectory() as folder:
        with_db, without_db = Path(folder) / "with.sqlite", Path(folder) / "without.sqlite"
        play(Path(folder) / "warm.sqlite", seeds[:1], True)  # imports, caches
        decided, added, events = play(with_db, seeds, True)
        _, _, events_without = play(without_db, seeds, False)
        assert events == events_without
        extra = with_db.stat().st_size - without_db.stat().st_size
    figures = {
        "receipt_overhead_p50_ms": round(statistics.median(added), 4),
        "receipt_overhead_p99_ms": round(p(added, 99), 4),
        "receipt_decide_p50_ms": round(statistics.median(decided), 4),
        "receipt_bytes_per_event": round(extra / events, 2),
    }
    print(f"receipts, {len(added)} decisions of {len(seeds)} demo games ({events} events), SQLite:")
    print(f"  a decision through Ledger.decide: p50 {figures['receipt_decide_p50_ms']:.3f} ms")
    print(f"  what receipts add to it (views with commitments, the public head, the signature): "
          f"p50 {figures['receipt_overhead_p50_ms']:.3f} ms, p99 {figures['receipt_overhead_p99_ms']:.3f} ms")
    print(f"  the store with receipts against without: {extra:+,} bytes, {figures['receipt_bytes_per_event']:.2f} B an event")
    results.merge(figures)


if __name__ == "__main__":
    main()
