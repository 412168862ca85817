"""Shared tools for the replay, audit and time-travel tests: a demo game's log, a forger's kit
(edit an event, re-hash a whole chain) and a writer for log files with any header."""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path
from typing import Any


from mtg_ledger.core.events import apply_event
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays import logfile

Event = dict[str, Any]
SEED = 3  # a two-player demo game of about 950 events in which Lightning Bolt hits a creature and a player


@lru_cache(maxsize=4)
def _played(seed: int) -> tuple[Event, ...]:
    table = LocalTable.start(demo_setup(seed))
    while (command := choose(table.state)) is not None:
        table.handle(command)
    return tuple(table.events)


def demo_log(seed: int = SEED) -> list[Event]:
    """The whole log of a demo game, a fresh copy each call (tests edit it)."""
    return copy.deepcopy(list(_played(seed)))


def rehash(events: list[Event]) -> list[Event]:
    """A forger's chain: versions renumbered from 1 and every hash recomputed, so the chain holds."""
    previous = GENESIS_HASH
    out = []
    for i, e in enumerate(events, start=1):
        e = {**{k: v for k, v in e.items() if k != "hash"}, "v": i}
        e["hash"] = chain(previous, e)
        previous = e["hash"]
        out.append(e)
    return out


def edited(events: list[Event], version: int, **changes: Any) -> list[Event]:
    """The log with fields of event ``version`` changed in place, its hash left as it was."""
    out = copy.deepcopy(events)
    out[version - 1].update(changes)
    return out


def first(events: list[Event], kind: str, after: int = 0, **fields: Any) -> Event:
    """The first event of type ``kind`` after version ``after`` whose fields match."""
    for e in events:
        if e["v"] > after and e["type"] == kind and all(e.get(k) == v for k, v in fields.items()):
            return e
    raise AssertionError(f"no {kind} {fields} after event {after} in this log")


def state_after(events: list[Event], version: int) -> GameState:
    """The state folded from the first ``version`` events."""
    state = GameState()
    for e in events[:version]:
        apply_event(state, e)
    return state


def write_raw(path: Path, header: Event, events: list[Event]) -> Path:
    """A log file with exactly this header and these events (no checks, no recomputed header)."""
    logfile.write_items(path, header, events)
    return path


def header_of(events: list[Event], game: str = "00000000-0000-0000-0000-00000000c0de") -> Event:
    return logfile.header_for(game, events)


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """The command line as a user runs it: exit status, stdout, stderr."""
    from mtg_ledger.replays.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def demo_game(capsys: Any, db: Path, seed: int = SEED) -> str:
    """Play a demo game into the SQLite store ``db`` through the CLI; its game id."""
    code, out, _ = run(capsys, "demo", "--seed", str(seed), "--db", str(db), "--quiet")
    assert code == 0
    return dict(line.split(None, 1) for line in out.strip().splitlines())["game"]
