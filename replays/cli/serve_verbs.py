"""The verbs that start the HTTP service: ``serve`` (docs/reference/http.md) and ``view`` (the time-travel
viewer of one game or log file on a local port). The web stack is imported only by these verbs."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from uuid import UUID

from mtg_ledger.replays.ledger.access import JUDGE_HOLDER, issue
from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.cli.store import SQLITE_MODULES, Store, store_env
from mtg_ledger.replays.cli import names
from mtg_ledger.replays.cli.transfer_verbs import import_file
from mtg_ledger.replays.cli.verbs import UserError
from mtg_ledger.replays.cli.receipt_verbs import signing_env


def _quiet_server() -> None:
    os.environ.setdefault("MTG_LEDGER_LOG_LEVEL", "warning")  # a server prints its URL, and only that, unless asked
    configure_logging()


def _port(port: int) -> None:
    if not 0 <= port <= 65535:
        raise UserError(f"--port {port}: a port is 1 to 65535 (0: any free one)")


SHARED_STORES = ("eventsourcing.postgres", "mtg_ledger.replays.stores.postgres")  # what several processes may share


def cmd_serve(store: Store, args: argparse.Namespace) -> int:
    from mtg_ledger.replays.service.server import log_level, serve

    _port(args.port)
    if args.workers < 1:
        raise UserError(f"--workers {args.workers}: at least one worker serves")
    module = os.environ.get("PERSISTENCE_MODULE") or "eventsourcing.sqlite"
    if args.workers > 1 and module not in SHARED_STORES:
        kind = "SQLite lets one process write a file at a time" if module in SQLITE_MODULES else f"{module} is not shared between processes"
        raise UserError(
            f"--workers {args.workers} needs PostgreSQL (PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_*): {kind}; serve with one worker, or store on PostgreSQL"
        )
    store.check()  # before anything is served: a setup mistake is one line and exit 2, a server out of reach exit 3
    signing_env()  # MTG_LEDGER_SIGNING_KEY, when set, checked before anything is served
    _quiet_server()
    return serve(store_env(store.db), args.host, args.port, args.workers, log_level())


def cmd_view(store: Store, args: argparse.Namespace) -> int:
    """One game of the store, or a log file (imported into a store of its own in a temporary folder),
    in the viewer: a judge's token is issued for it (stored hashed, as the service's), and the page's
    address printed with the token in its fragment."""
    _port(args.port)
    _quiet_server()
    found = names.file_or_game(store, args.source)
    if isinstance(found, Path):
        with tempfile.TemporaryDirectory(prefix="mtg-ledger-view-") as folder:
            os.environ["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"  # this process serves the file's own store
            own = Store(str(Path(folder) / "view.sqlite"), reading=False)
            game, _ = import_file(own, args.source, new_id=False)
            return _view(own, game, args)
    store.ledger.game(found)  # GameNotFound before anything is served
    return _view(store, found, args)


def _view(store: Store, game: UUID, args: argparse.Namespace) -> int:
    from mtg_ledger.replays.service.server import view

    tokens, records = issue(str(game), [JUDGE_HOLDER])
    store.ledger.save(*records)
    store.ledger.close()
    return view(store_env(store.db), str(game), tokens[JUDGE_HOLDER], args.host, args.port, args.open)
