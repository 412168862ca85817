"""Deck lists given on the command line (``mtg-ledger demo --deck``, docs/decks.md)."""

from __future__ import annotations

from pathlib import Path

from mtg_ledger.replays.cards.decks import DeckError, parse_deck, shipped_decks, unknown_cards
from mtg_ledger.replays.cli.errors import UserError
from mtg_ledger.replays.messages import say


def deck_lists(given: list[str]) -> list[list[str]]:
    """The main decks of ``--deck`` arguments: each a deck list file, or a shipped deck's name; every
    unknown card of all of them in one error (exit 2)."""
    if not 2 <= len(given) <= 4:
        raise UserError(f"--deck: the demo seats 2 to 4 players, one deck each, not {len(given)}")
    shipped = shipped_decks()
    decks: list[list[str]] = []
    names: list[str] = []
    for item in given:
        path = Path(item)
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise UserError(f"{item}: cannot read the deck list ({e})") from None
        elif item in shipped:
            text = shipped[item]
        else:
            raise UserError(f"{item}: no such file, nor a shipped deck ({', '.join(shipped)})")
        try:
            deck = parse_deck(text)
        except DeckError as e:
            raise UserError(say("deck.file_error", {"file": item, "line": e.line, "why": e.why})) from None
        decks.append(deck.main)
        names.extend(deck.names())
    unknown = unknown_cards(names)
    if unknown is not None:
        raise UserError(say(unknown.id, unknown.params))
    return decks
