"""Deck lists in the text form MTG Arena and MTGO export (docs/decks.md): one ``N Card Name`` a line,
optionally followed by `` (SET) NUMBER``; the lines ``Deck`` and ``Sideboard`` start those sections (a
sideboard is not played); blank lines are ignored. The shipped deck lists are package data (``decklists/``).

A line that is not a card line is a ``DeckError`` naming its line; the names are checked against a pool
all at once (``unknown_cards``): one error lists every unknown name with the nearest names the pool holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources

from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.rng import SeededRandom, derive_seed
from mtg_ledger.replays.cards import PACKAGE, Pool, live_pool

_LINE = re.compile(r"^(?P<count>\d+)x?\s+(?P<name>.+?)(?:\s+\((?P<set>[A-Za-z0-9_-]+)\)(?:\s+(?P<number>\S+))?)?$")
SECTIONS = {"deck": "main", "sideboard": "sideboard"}
MAX_COPIES = 250  # far above any format's deck size: a typo, not a deck


class DeckError(ValueError):
    """A deck list that cannot be read: ``line`` (from 1) and ``why``, a message (section ``deck``)."""

    def __init__(self, line: int, why: Phrase) -> None:
        self.line, self.why = line, why
        super().__init__(f"line {line}: {why.id} {dict(why.params)}")


@dataclass(frozen=True)
class Deck:
    """A deck list: the main deck and the sideboard, each card repeated as many times as listed, in order."""

    main: list[str] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)

    def names(self) -> list[str]:
        """Every card name the list gives, once each, in order (the sideboard's too)."""
        return list(dict.fromkeys([*self.main, *self.sideboard]))


def parse_deck(text: str) -> Deck:
    """A deck list's cards (docs/decks.md), or DeckError naming the first line that is not one."""
    deck = Deck()
    section = "main"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.casefold() in SECTIONS:
            section = SECTIONS[line.casefold()]
            continue
        found = _LINE.match(line)
        if found is None:
            raise DeckError(number, Phrase("deck.bad_line", {"text": line[:80]}))
        count = int(found.group("count"))
        if not 1 <= count <= MAX_COPIES:
            raise DeckError(number, Phrase("deck.bad_count", {"count": count, "most": MAX_COPIES}))
        (deck.main if section == "main" else deck.sideboard).extend([found.group("name")] * count)
    return deck


def unknown_cards(names: Iterable[str], pool: Pool | None = None) -> Phrase | None:
    """One message naming every card the pool lacks (each once) with the nearest names it holds; None if it has them all."""
    missing = (pool or live_pool()).unknown(names)
    if not missing:
        return None
    listed = "; ".join(f"{name!r} ({', '.join(near) if near else '-'})" for name, near in missing.items())
    return Phrase("deck.unknown_cards", {"count": len(missing), "cards": listed})


def shuffled(deck: list[str], seed: int, player: str) -> list[str]:
    """The deck as the game's seed shuffles it for ``player`` before the game starts (103.3): the
    library GameStarted records, top card first. Its own label of the seed, apart from the shuffles
    the game records."""
    return SeededRandom(derive_seed(seed, "deck", player)).shuffled(list(deck))


def shipped_decks() -> dict[str, str]:
    """The deck lists shipped with mtg-ledger, by name (the file name without ``.txt``)."""
    folder = resources.files(PACKAGE).joinpath("decklists")
    return {entry.name.removesuffix(".txt"): entry.read_text(encoding="utf-8") for entry in sorted(folder.iterdir(), key=lambda e: e.name) if entry.name.endswith(".txt")}


__all__ = ["Deck", "DeckError", "parse_deck", "shipped_decks", "shuffled", "unknown_cards"]
