"""The decks of the demo: the deck lists shipped with mtg-ledger (``replays/cards/decklists``, 40 cards each,
100.2a's limited minimum), or any two to four deck lists a user gives (docs/decks.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtg_ledger.replays.cards.decks import parse_deck, shipped_decks

DECKS: dict[str, list[str]] = {name: parse_deck(text).main for name, text in shipped_decks().items()}  # by file name
PLAYERS = ("alice", "bob", "carol", "dave")
DECK_ORDER = ("green-white", "red-blue", "white", "blue-black")


def demo_setup(seed: int, players: int = 2, decks: Sequence[list[str]] | None = None) -> dict[str, Any]:
    """A seeded game between the decks: two players, or a free-for-all of three or four (506.2, 802).
    ``decks``: the main decks to play, one a player (by default the shipped ones, in ``DECK_ORDER``).

    Libraries are shuffled and opening hands drawn (103.5); the starting player depends on the seed.
    """
    chosen = list(decks) if decks is not None else [DECKS[name] for name in DECK_ORDER[:players]]
    if not 2 <= len(chosen) <= len(PLAYERS):
        raise ValueError(f"the demo seats 2 to {len(PLAYERS)} players, not {len(chosen)}")
    names = PLAYERS[: len(chosen)]
    return {
        "format": "two-player" if len(chosen) == 2 else "free-for-all",
        "seed": seed,
        "shuffle": True,
        "starting_player": names[seed % len(chosen)],
        "players": [{"name": name, "library": list(deck)} for name, deck in zip(names, chosen, strict=True)],
    }
