"""The verbs that move a log file into or out of the store: ``import`` and ``export``.

A file is checked whole before anything of it is stored, and written whole or not at all.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from uuid import UUID, uuid4

from mtg_ledger.core.errors import Phrase
from mtg_ledger.replays.cli import names
from mtg_ledger.replays.cli.store import Store
from mtg_ledger.replays.cli.verbs import UserError, confirm, emit
from mtg_ledger.replays.stores.verify import BrokenChain


def cmd_import(store: Store, args: argparse.Namespace) -> int:
    game, count = import_file(store, args.file, args.new_id)
    if args.json:
        emit({"game": str(game), "events": count})
    else:
        print(game)
    return 0


def import_file(store: Store, path: str, new_id: bool) -> tuple[UUID, int]:
    """A log file stored as a game after its checks (``import``, ``view FILE``): its id and event count.
    The file is read in passes, never held whole (``logfile.LogEvents``): the first reads every event
    (a file that cannot be read whole is refused there), then the checks', then the store's."""
    from mtg_ledger.replays import logfile

    if not Path(path).exists():
        raise UserError(f"no such file: {path}")
    events = logfile.LogEvents(path)
    count = len(events)
    from mtg_ledger.replays.cli.progress import progress_bar

    with progress_bar(count, "import") as done:
        try:  # checked whole (header, chain, schema, every decision by replay) before anything is stored
            game = store.ledger.import_log(events.header, events, uuid4() if new_id else None, done)
        except logfile.UnreadableLog as e:
            raise logfile.UnreadableLog(Phrase("read.in_file", {"file": path, "reason": e.why})) from None
    return game, count


def cmd_export(store: Store, args: argparse.Namespace) -> int:
    from mtg_ledger.replays import logfile
    from mtg_ledger.replays.ledger.imports import checked_log

    game = names.game(store, args.game)
    ledger = store.ledger
    if args.forensic:  # every row that reads, as recorded, damage and all, for a judge to audit
        try:
            from mtg_ledger.replays.audit import forensic_copy

            rows, problems = forensic_copy(ledger, game, args.output)
        except OSError as e:
            raise UserError(f"{args.output}: cannot write: {e.strerror}") from None
        said = f"; {problems[0].place}: {problems[0].message}" if problems else ", clean"
        emit({"output": args.output, "rows": rows, "clean": not problems}) if args.json else confirm(
            f"{args.output}: forensic copy of {rows} rows as recorded{said}")
        return 1 if problems else 0
    from mtg_ledger.replays.receipts.records import kept_for_log, players_of

    versions: dict[str, int] = {}
    # a game that has given receipts: its commitments' secret, its players' keys and their signed decisions
    kept = kept_for_log(ledger, str(game), players_of(ledger, game), ledger.last_version(game))
    try:  # as recorded, a page at a time, each row checked against the chain: the file is written whole or not at all
        header = logfile.write(args.output, str(game), checked_log(ledger, game, versions), versions, kept)
    except BrokenChain as e:
        raise BrokenChain(game, e.version, Phrase("store.nothing_exported", {"problem": e.problem})) from None
    except OSError as e:
        raise UserError(f"{args.output}: cannot write: {e.strerror}") from None
    if args.json:
        emit(header)
    else:
        confirm(f"{args.output}: {header['events']} events, final hash {header['hash']}")
    return 0
