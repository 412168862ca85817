"""The built-in decks of the demo (40 cards each, 100.2a's limited minimum)."""

from __future__ import annotations

from typing import Any


def _deck(*counts: tuple[int, str]) -> list[str]:
    cards: list[str] = []
    for n, name in counts:
        cards.extend([name] * n)
    return cards


DECKS: dict[str, list[str]] = {
    "green-white": _deck(
        (9, "Forest"), (8, "Plains"), (4, "Llanowar Elves"), (3, "Grizzly Bears"), (2, "Savannah Lions"),
        (2, "Luminarch Aspirant"), (2, "Youthful Knight"), (2, "Giant Spider"), (2, "Colossal Dreadmaw"),
        (1, "Serra Angel"), (1, "History of Benalia"), (3, "Giant Growth"), (1, "Spellbook"),
    ),
    "red-blue": _deck(
        (10, "Mountain"), (7, "Island"), (6, "Hill Giant"), (2, "Village Watch"), (6, "Lightning Bolt"),
        (3, "Kindled Fury"), (1, "Relentless Assault"), (3, "Divination"), (2, "Spellbook"),
    ),
    "white": _deck(
        (17, "Plains"), (5, "Savannah Lions"), (5, "Youthful Knight"), (4, "Fencing Ace"), (4, "Serra Angel"),
        (3, "Ghostly Prison"), (2, "Moment of Silence"),
    ),
    "blue-black": _deck(
        (10, "Swamp"), (9, "Island"), (4, "Teferi's Imp"), (5, "Breezekeeper"), (2, "Phyrexian Arena"),
        (2, "Megrim"), (2, "Dogged Pursuit"), (4, "Divination"), (1, "Colossus of Sardia"), (1, "Spellbook"),
    ),
}
PLAYERS = ("alice", "bob", "carol", "dave")
DECK_ORDER = ("green-white", "red-blue", "white", "blue-black")


def demo_setup(seed: int, players: int = 2) -> dict[str, Any]:
    """A seeded game between the decks: two players, or a free-for-all of three or four (506.2, 802).

    Libraries are shuffled and opening hands drawn (103.5); the starting player depends on the seed.
    """
    if not 2 <= players <= len(PLAYERS):
        raise ValueError(f"the demo seats 2 to {len(PLAYERS)} players, not {players}")
    names = PLAYERS[:players]
    return {
        "format": "two-player" if players == 2 else "free-for-all",
        "seed": seed,
        "shuffle": True,
        "starting_player": names[seed % players],
        "players": [{"name": name, "library": DECKS[deck]} for name, deck in zip(names, DECK_ORDER[:players], strict=True)],
    }
