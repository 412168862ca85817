"""Starting a game (103): the GameStarted fields for a setup, shuffles and opening hands."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import events as ev
from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import Catalog, used_names
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.record import Table, draw, emit
from mtg_ledger.core.rng import SeededRandom, derive_seed
from mtg_ledger.core.versions import RULES_EDITION

OPENING_HAND = 7  # 103.5


ARCHENEMY_LIFE = 40  # 904.5


def started_fields(setup: dict[str, Any]) -> dict[str, Any]:
    """The GameStarted fields for a setup (scenario players, format, seed, ...): objects numbered.

    Archenemy (904): the player with a scheme deck is the archenemy, starts at 40 life (904.5) and
    takes the first turn (904.6); the others are one team sharing turns (904.2, 805).

    ``cards``: the definitions the game is played with, recorded in GameStarted (schema 5): those of
    the setup's ``cards`` (a pool's, or a recorded game's) that its players' cards and the tokens they
    create need; a setup without ``cards`` is played with the classic definitions (``core.cards``).
    """
    catalog = Catalog.of(setup["cards"]) if "cards" in setup else CLASSIC
    card = catalog.card
    fmt = setup.get("format", "two-player")
    archenemy = next((p["name"] for p in setup["players"] if p.get("schemes")), None) if fmt == "archenemy" else None
    next_obj = 1
    players = []
    for p in setup["players"]:
        battlefield = []
        for name in p.get("battlefield", []):
            card(name)
            battlefield.append({"object": next_obj, "card": name})
            next_obj += 1
        for name in [*p.get("library", []), *p.get("hand", []), *p.get("battlefield", [])]:
            if card(name).is_type("Scheme"):
                raise IllegalAction("312.1", "rules.card_is_scheme_it_belongs_in_scheme", card=name, player=p['name'])
        for name in p.get("schemes", []):
            if not card(name).is_type("Scheme"):
                raise IllegalAction("312.1", "rules.card_is_not_scheme_card_and_cannot", card=name)
        players.append(
            {
                "name": p["name"],
                "life": p.get("life", ARCHENEMY_LIFE if p["name"] == archenemy else 20),
                "schemes": list(p.get("schemes", [])) if p["name"] == archenemy else [],
                "library": list(p.get("library", [])),
                "hand": list(p.get("hand", [])),
                "opening_hand": "hand" not in p,
                "battlefield": battlefield,
            }
        )
    names = [p["name"] for p in players]
    starting = archenemy or setup.get("starting_player") or names[0]
    teams: list[list[str]] = []
    if archenemy is not None:
        i = names.index(archenemy)
        teams = [[archenemy], names[i + 1 :] + names[:i]]
    return {
        "players": players,
        "format": fmt,
        "seed": int(setup.get("seed", 0)),
        "starting_player": starting,
        "rules": RULES_EDITION,
        "shuffle": bool(setup.get("shuffle", False)),
        "teams": teams,
        "archenemy": archenemy,
        "cards": catalog.pinned(used_names(players)),
    }


Shuffles = dict[tuple[str, str], list[str]]  # ("library" | "schemes", player) -> the resulting order
_LABELS = {"library": "shuffle", "schemes": "schemes"}


def seeded_order(seed: int, zone: str, player: str, cards: list[str]) -> list[str]:
    """What the game's seed gives when ``player`` shuffles ``zone`` ("library" or "schemes")."""
    return SeededRandom(derive_seed(seed, _LABELS[zone], player)).shuffled(cards)


def shuffle_and_draw(table: Table, started: dict[str, Any], recorded: Shuffles | None = None) -> None:
    """Shuffles (recorded with their result), then opening hands (103.5).

    ``recorded`` replays shuffles from a log: their results are taken as recorded, so a replay
    never depends on the random generator staying the same.
    """
    seed = started["seed"]
    recorded = recorded or {}
    for p in started["players"]:
        if started["shuffle"]:
            key = ("library", p["name"])
            order = recorded.get(key) or seeded_order(seed, "library", p["name"], p["library"])
            emit(table, ev.LibraryShuffled, player=p["name"], order=order)
            if p["schemes"]:  # 904.4
                key = ("schemes", p["name"])
                schemes = recorded.get(key) or seeded_order(seed, "schemes", p["name"], p["schemes"])
                emit(table, ev.SchemeDeckShuffled, player=p["name"], order=schemes)
    for p in started["players"]:
        if p["opening_hand"]:
            for _ in range(OPENING_HAND):
                draw(table, p["name"])
