"""What a GAME or FILE|GAME argument names: a game id, a unique prefix of one (as git takes a commit's
abbreviated hash), or a file.

A GAME is checked for its form before the store is opened (``not-a-uuid`` is said without reading
anything); a prefix is looked up among the store's games. A FILE|GAME that is no file and looks like one
(a path separator, a log file's extension) or names no game is "no such file".
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

from mtg_ledger.replays.cli.errors import UserError

if TYPE_CHECKING:
    from mtg_ledger.replays.cli.store import Store

MIN_PREFIX = 4  # as git: fewer hex digits than this name no game
SHOWN = 3  # candidates named when a prefix is ambiguous
FILE_SUFFIXES = (".mtgl", ".log", ".json", ".jsonl")
_PREFIX = re.compile(r"[0-9a-fA-F][0-9a-fA-F-]*")


def looks_like_a_file(text: str) -> bool:
    return "/" in text or os.sep in text or text.lower().endswith(FILE_SUFFIXES)


def _is_prefix(text: str) -> bool:
    return len(text.replace("-", "")) >= MIN_PREFIX and _PREFIX.fullmatch(text) is not None


def game_form(text: str) -> UUID | str:
    """A whole game id, or a prefix of one to look up; anything else is a user error, said before any store is read."""
    try:
        return UUID(text)
    except ValueError:
        pass
    if _is_prefix(text):
        return text.lower()
    raise UserError(
        f"{text!r} is not a game id (a UUID such as the one `mtg-ledger demo` prints, or its first {MIN_PREFIX} or more characters)"
    )


def lookup(store: Store, prefix: str) -> UUID | None:
    """The one game of the store whose id starts with ``prefix``; None when none does; a user error when several do."""
    found = [g for g in store.ledger.game_ids() if str(g).startswith(prefix)]
    if len(found) > 1:
        named = ", ".join(str(g) for g in found[:SHOWN]) + (f" and {len(found) - SHOWN} more" if len(found) > SHOWN else "")
        raise UserError(f"{prefix!r} is ambiguous: {len(found)} games start with it ({named}); give more of the id")
    return found[0] if found else None


def game(store: Store, text: str) -> UUID:
    """The game a GAME argument names: a whole id as given (its reader says if the store has no such
    game), or the one game of the store whose id starts with it."""
    form = game_form(text)
    if isinstance(form, UUID):
        return form
    found = lookup(store, form)
    if found is None:
        raise UserError(f"no game id starts with {text!r} in {store.where(store.ledger)} (`mtg-ledger games` lists them)")
    return found


def file_or_game(store: Store, text: str, label: str = "") -> Path | UUID:
    """A FILE|GAME argument: an existing file, else a game of the store; "no such file" when it looks
    like a file or names no game (the store is read only for what could be a game id)."""
    path = Path(text)
    if path.exists():
        return path
    if looks_like_a_file(text):
        raise UserError(f"{label}no such file: {text}")
    try:
        form = game_form(text)
    except UserError:
        raise UserError(f"{label}no such file: {text}") from None
    if isinstance(form, UUID):
        return form
    found = lookup(store, form)
    if found is None:
        raise UserError(f"{label}no such file: {text} (and no game id of the store starts with it)")
    return found
