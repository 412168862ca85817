"""Starting a game (103): the GameStarted fields for a setup, shuffles and opening hands."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.cards import card
from core.record import Table, draw, emit
from core.rng import SeededRandom, derive_seed

RULES_EDITION = "2025-11-14"
OPENING_HAND = 7  # 103.5


def started_fields(setup: dict[str, Any]) -> dict[str, Any]:
    """The GameStarted fields for a setup (scenario players, format, seed, ...): objects numbered."""
    next_obj = 1
    players = []
    for p in setup["players"]:
        battlefield = []
        for name in p.get("battlefield", []):
            card(name)
            battlefield.append({"object": next_obj, "card": name})
            next_obj += 1
        for name in [*p.get("library", []), *p.get("hand", [])]:
            card(name)
        players.append(
            {
                "name": p["name"],
                "life": p.get("life", 20),
                "library": list(p.get("library", [])),
                "hand": list(p.get("hand", [])),
                "opening_hand": "hand" not in p,
                "battlefield": battlefield,
            }
        )
    return {
        "players": players,
        "format": setup.get("format", "two-player"),
        "seed": int(setup.get("seed", 0)),
        "starting_player": setup.get("starting_player") or players[0]["name"],
        "rules": RULES_EDITION,
        "shuffle": bool(setup.get("shuffle", False)),
    }


def shuffle_and_draw(table: Table, started: dict[str, Any]) -> None:
    """Shuffles (recorded with their result), then opening hands (103.5)."""
    seed = started["seed"]
    for p in started["players"]:
        if started["shuffle"]:
            order = SeededRandom(derive_seed(seed, "shuffle", p["name"])).shuffled(p["library"])
            emit(table, ev.LibraryShuffled, player=p["name"], order=order)
    for p in started["players"]:
        if p["opening_hand"]:
            for _ in range(OPENING_HAND):
                draw(table, p["name"])
