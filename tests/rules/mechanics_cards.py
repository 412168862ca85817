"""Real cards the rules tests of the schema-5 mechanics play with, as plain data in the card file format
(docs/cards.md), each with its Oracle text as it stands; and ``start``, which starts a game whose setup
names these definitions (``cards``), so that the game records and replays them.

A card the pool holds (``replays/cards/pool``) is read from there (``FROM_POOL``): the definitions below
stand only for the cards the pool does not hold.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.cards import live_pool
from tests import helpers

# the cards of the tests the pool holds: read from their files
FROM_POOL: tuple[str, ...] = (
    "Typhoid Rats", "Ambush Viper", "Gladecover Scout", "Darksteel Myr", "Vampire Nighthawk", "Boggart Brute", "Monastery Swiftspear",
    "Isamaru, Hound of Konda", "Jace Beleren", "Holy Strength", "Bonesplitter", "Glorious Anthem", "Murder", "Unsummon", "Counterspell",
    "Mogg Fanatic", "Invasion of Dominaria",
)
# the others, as plain data
_WRITTEN_HERE: dict[str, dict[str, Any]] = {
    "Wall of Wood": {"name": "Wall of Wood", "mana_cost": "{G}", "types": ["Creature"], "subtypes": ["Wall"], "power": 0, "toughness": 3, "keywords": ["defender"], "oracle": "Defender"},
    "Instill Infection": {"name": "Instill Infection", "mana_cost": "{3}{B}", "types": ["Instant"], "oracle": "Put a -1/-1 counter on target creature.\nDraw a card.", "spell": {"target": "creature", "effects": [{"effect": "add_counters", "kind": "-1/-1"}, {"effect": "draw_cards", "count": 1}]}},
    "Waterfall Aerialist": {"name": "Waterfall Aerialist", "mana_cost": "{3}{U}", "types": ["Creature"], "subtypes": ["Djinn", "Wizard"], "power": 3, "toughness": 1, "keywords": ["flying", "ward"], "ward": "{2}", "oracle": "Flying\nWard {2} (Whenever this creature becomes the target of a spell or ability an opponent controls, counter it unless that player pays {2}.)"},
    "Doomed Traveler": {"name": "Doomed Traveler", "mana_cost": "{W}", "types": ["Creature"], "subtypes": ["Human", "Soldier"], "power": 1, "toughness": 1, "oracle": "When Doomed Traveler dies, create a 1/1 white Spirit creature token with flying.", "abilities": [{"ability": "triggered", "event": "dies", "effects": [{"effect": "create_token", "token": "Spirit"}]}]},
    "Swords to Plowshares": {"name": "Swords to Plowshares", "mana_cost": "{W}", "types": ["Instant"], "oracle": "Exile target creature. Its controller gains life equal to its power.", "spell": {"target": "creature", "effects": [{"effect": "exile", "controller_gains_its_power": True}]}},
    "Kabira Crossroads": {"name": "Kabira Crossroads", "types": ["Land"], "color_identity": ["W"], "oracle": "This land enters tapped.\nWhen this land enters, you gain 2 life.\n{T}: Add {W}.", "abilities": [{"ability": "enters_tapped"}, {"ability": "triggered", "event": "enters", "effects": [{"effect": "gain_life", "amount": 2}]}, {"ability": "mana", "produces": "W"}]},
    "Spirit": {"name": "Spirit", "colors": ["W"], "token": True, "types": ["Creature"], "subtypes": ["Spirit"], "power": 1, "toughness": 1, "keywords": ["flying"], "oracle": "Flying"},
}

# the pool's definitions first: a card of the pool is played as its file says
DEFINITIONS: dict[str, dict[str, Any]] = {**_WRITTEN_HERE, **live_pool().definitions}
MECHANICS: tuple[str, ...] = (*FROM_POOL, *(name for name, d in _WRITTEN_HERE.items() if not d.get("token")))


def with_cards(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup, played with these definitions and the pool's."""
    return {**setup, "cards": DEFINITIONS}


def start(setup: dict[str, Any]) -> LocalTable:
    """``tests.helpers.start`` with these cards."""
    return helpers.start(with_cards(setup))
