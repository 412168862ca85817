"""``mtg-ledger backup DEST``: a consistent copy of an SQLite store, safe while ``serve`` (or any other
writer) writes to it.

The copy is SQLite's online backup API (``sqlite3.Connection.backup``) in one step: every page of the
store read in one read transaction, so the copy is the store as it stood at one moment, and in WAL mode
(the store's) the writers go on writing meanwhile. It is written beside ``DEST`` under a temporary name,
checked (``PRAGMA quick_check``), flushed to disk, then linked to ``DEST``: a copy that fails leaves
nothing at ``DEST``, and an existing ``DEST`` is never overwritten, even one made while the copy ran.
PostgreSQL has its own tools (``pg_dump``; docs/backups.md).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from mtg_ledger.replays.cli.store import SQLITE_MODULES, NoStore, Store, chosen_module, store_env
from mtg_ledger.replays.stores.errors import StoreFailure
from mtg_ledger.replays.cli.verbs import UserError, confirm, emit

BUSY_TIMEOUT_S = 30.0  # how long the copy waits for a lock it needs (a writer's WAL recovery, say)


def cmd_backup(store: Store, args: argparse.Namespace) -> int:
    module = chosen_module()
    if module not in SQLITE_MODULES:
        raise UserError(
            f"backup copies an SQLite store, and PERSISTENCE_MODULE={module} chooses another: back PostgreSQL up with "
            "pg_dump (see docs/backups.md)"
        )
    source = store_env(store.db)["SQLITE_DBNAME"]
    dest = Path(args.dest)
    if ":memory:" in source or "mode=memory" in source:
        raise UserError(f"{source}: a store in memory has no file to back up")
    if not Path(source).is_file():
        raise NoStore(f"no store at {source}: nothing to back up")
    if dest.exists():
        raise UserError(f"{dest} already exists: a backup never overwrites a file; name a new one")
    size = copy(Path(source), dest)
    games = count_games(dest)
    if args.json:
        emit({"store": source, "backup": str(dest), "bytes": size, "games": games})
    else:
        confirm(f"{dest}: a copy of {source} ({games} game{'' if games == 1 else 's'}, {size} bytes)")
    return 0


def copy(source: Path, dest: Path) -> int:
    """Copy the store at ``source`` to the new file ``dest`` (which must not exist); its size in bytes."""
    try:
        handle, partial = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent)
    except OSError as e:
        raise UserError(f"{dest}: cannot write there: {e.strerror}") from None
    os.close(handle)
    try:
        os.chmod(partial, source.stat().st_mode & 0o777)  # the store's own permissions, not mkstemp's
        _backup(source, Path(partial))
        try:
            os.link(partial, dest)  # fails if dest appeared meanwhile: nothing is ever overwritten
        except FileExistsError:
            raise UserError(f"{dest} already exists: a backup never overwrites a file; name a new one") from None
        _sync_folder(dest.parent)
        return dest.stat().st_size
    finally:
        Path(partial).unlink(missing_ok=True)


def _backup(source: Path, partial: Path) -> None:
    try:
        with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)) as store:
            with closing(sqlite3.connect(partial)) as copied:
                store.backup(copied)  # pages=-1: one step, one read transaction, one moment of the store
                found = copied.execute("PRAGMA quick_check").fetchone()[0]
                if found != "ok":
                    raise StoreFailure(f"the copy of {source} fails SQLite's check ({found}); nothing written")
    except sqlite3.Error as e:
        raise StoreFailure(f"cannot back up {source}: {e}") from e
    with open(partial, "rb") as written:
        os.fsync(written.fileno())


def _sync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def count_games(path: Path) -> int:
    """The games the copy holds, read as any reading verb reads them."""
    copied = Store(str(path), reading=True)
    try:
        return len(copied.ledger.game_ids())
    finally:
        copied.close()
