"""The two built-in decks of the demo (40 cards each, 100.2a's limited minimum)."""

from __future__ import annotations


def _deck(*counts: tuple[int, str]) -> list[str]:
    cards: list[str] = []
    for n, name in counts:
        cards.extend([name] * n)
    return cards


DECKS: dict[str, list[str]] = {
    "green-white": _deck(
        (10, "Forest"), (7, "Plains"), (4, "Llanowar Elves"), (6, "Grizzly Bears"),
        (6, "Savannah Lions"), (5, "Giant Growth"), (2, "Spellbook"),
    ),
    "red-blue": _deck(
        (10, "Mountain"), (7, "Island"), (9, "Hill Giant"), (8, "Lightning Bolt"),
        (4, "Divination"), (2, "Spellbook"),
    ),
}


def demo_setup(seed: int, players: tuple[str, str] = ("alice", "bob")) -> dict[str, object]:
    """A seeded two-player game between the two decks; libraries are shuffled, hands drawn (103.5)."""
    return {
        "format": "two-player",
        "seed": seed,
        "shuffle": True,
        "starting_player": players[seed % 2],
        "players": [
            {"name": players[0], "library": DECKS["green-white"]},
            {"name": players[1], "library": DECKS["red-blue"]},
        ],
    }
