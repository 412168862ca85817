"""Real cards the rules tests of the schema-5 mechanics play with, as plain data in the card file format
(docs/cards.md), each with its Oracle text as it stands; and ``start``, which starts a game whose setup
names these definitions (``cards``), so that the game records and replays them.

A card the pool holds (``replays/cards/pool``) is read from there: the definitions below stand only
for the cards the pool does not hold.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.cards import live_pool
from tests import helpers

_WRITTEN_HERE: dict[str, dict[str, Any]] = {
    "Typhoid Rats": {"name": "Typhoid Rats", "mana_cost": "{B}", "types": ["Creature"], "subtypes": ["Rat"], "power": 1, "toughness": 1, "keywords": ["deathtouch"], "oracle": "Deathtouch"},
    "Wall of Wood": {"name": "Wall of Wood", "mana_cost": "{G}", "types": ["Creature"], "subtypes": ["Wall"], "power": 0, "toughness": 3, "keywords": ["defender"], "oracle": "Defender"},
    "Ambush Viper": {"name": "Ambush Viper", "mana_cost": "{1}{G}", "types": ["Creature"], "subtypes": ["Snake"], "power": 2, "toughness": 1, "keywords": ["deathtouch", "flash"], "oracle": "Flash\nDeathtouch"},
    "Gladecover Scout": {"name": "Gladecover Scout", "mana_cost": "{G}", "types": ["Creature"], "subtypes": ["Elf", "Scout"], "power": 1, "toughness": 1, "keywords": ["hexproof"], "oracle": "Hexproof (This creature can't be the target of spells or abilities your opponents control.)"},
    "Darksteel Myr": {"name": "Darksteel Myr", "mana_cost": "{3}", "types": ["Artifact", "Creature"], "subtypes": ["Myr"], "power": 0, "toughness": 1, "keywords": ["indestructible"], "oracle": "Indestructible"},
    "Vampire Nighthawk": {"name": "Vampire Nighthawk", "mana_cost": "{1}{B}{B}", "types": ["Creature"], "subtypes": ["Vampire", "Shaman"], "power": 2, "toughness": 3, "keywords": ["deathtouch", "flying", "lifelink"], "oracle": "Flying\nDeathtouch\nLifelink"},
    "Boggart Brute": {"name": "Boggart Brute", "mana_cost": "{2}{R}", "types": ["Creature"], "subtypes": ["Goblin", "Warrior"], "power": 3, "toughness": 2, "keywords": ["menace"], "oracle": "Menace"},
    "Monastery Swiftspear": {"name": "Monastery Swiftspear", "mana_cost": "{R}", "types": ["Creature"], "subtypes": ["Human", "Monk"], "power": 1, "toughness": 2, "keywords": ["haste", "prowess"], "oracle": "Haste\nProwess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)"},
    "Isamaru, Hound of Konda": {"name": "Isamaru, Hound of Konda", "mana_cost": "{W}", "supertypes": ["Legendary"], "types": ["Creature"], "subtypes": ["Dog"], "power": 2, "toughness": 2, "oracle": ""},
    "Instill Infection": {"name": "Instill Infection", "mana_cost": "{3}{B}", "types": ["Instant"], "oracle": "Put a -1/-1 counter on target creature.\nDraw a card.", "spell": {"target": "creature", "effects": [{"effect": "add_counters", "kind": "-1/-1"}, {"effect": "draw_cards", "count": 1}]}},
    "Jace Beleren": {"name": "Jace Beleren", "mana_cost": "{1}{U}{U}", "supertypes": ["Legendary"], "types": ["Planeswalker"], "subtypes": ["Jace"], "loyalty": 3, "oracle": "+2: Each player draws a card.\n−1: Target player draws a card.\n−10: Target player mills twenty cards.", "abilities": [{"ability": "activated", "cost": "", "effects": [{"effect": "each_player_draws", "count": 1}], "text": "+2: Each player draws a card.", "loyalty": 2}, {"ability": "activated", "cost": "", "effects": [{"effect": "target_player_draws", "count": 1}], "text": "−1: Target player draws a card.", "loyalty": -1, "target": "player"}, {"ability": "activated", "cost": "", "effects": [{"effect": "target_player_mills", "count": 20}], "text": "−10: Target player mills twenty cards.", "loyalty": -10, "target": "player"}]},
    "Invasion of Dominaria": {"name": "Invasion of Dominaria", "mana_cost": "{2}{W}", "types": ["Battle"], "subtypes": ["Siege"], "defense": 5, "oracle": "(As a Siege enters, choose an opponent to protect it. You and others can attack it. When it's defeated, exile it, then cast it transformed.)\nWhen this Siege enters, you gain 4 life and draw a card.", "abilities": [{"ability": "triggered", "event": "enters", "effects": [{"effect": "gain_life", "amount": 4}, {"effect": "draw_cards", "count": 1}]}]},
    "Holy Strength": {"name": "Holy Strength", "mana_cost": "{W}", "types": ["Enchantment"], "subtypes": ["Aura"], "enchant": "creature", "oracle": "Enchant creature\nEnchanted creature gets +1/+2.", "abilities": [{"ability": "attached_gets", "power": 1, "toughness": 2}]},
    "Bonesplitter": {"name": "Bonesplitter", "mana_cost": "{1}", "types": ["Artifact"], "subtypes": ["Equipment"], "oracle": "Equipped creature gets +2/+0.\nEquip {1}", "abilities": [{"ability": "attached_gets", "power": 2}, {"ability": "activated", "cost": "{1}", "effects": [{"effect": "attach"}], "timing": "sorcery", "text": "Equip {1}", "target": "creature_you_control"}]},
    "Glorious Anthem": {"name": "Glorious Anthem", "mana_cost": "{1}{W}{W}", "types": ["Enchantment"], "oracle": "Creatures you control get +1/+1.", "abilities": [{"ability": "creatures_you_control_get", "power": 1, "toughness": 1}]},
    "Waterfall Aerialist": {"name": "Waterfall Aerialist", "mana_cost": "{3}{U}", "types": ["Creature"], "subtypes": ["Djinn", "Wizard"], "power": 3, "toughness": 1, "keywords": ["flying", "ward"], "ward": "{2}", "oracle": "Flying\nWard {2} (Whenever this creature becomes the target of a spell or ability an opponent controls, counter it unless that player pays {2}.)"},
    "Murder": {"name": "Murder", "mana_cost": "{1}{B}{B}", "types": ["Instant"], "oracle": "Destroy target creature.", "spell": {"target": "creature", "effects": [{"effect": "destroy"}]}},
    "Unsummon": {"name": "Unsummon", "mana_cost": "{U}", "types": ["Instant"], "oracle": "Return target creature to its owner's hand.", "spell": {"target": "creature", "effects": [{"effect": "return_to_owners_hand"}]}},
    "Counterspell": {"name": "Counterspell", "mana_cost": "{U}{U}", "types": ["Instant"], "oracle": "Counter target spell.", "spell": {"target": "spell", "effects": [{"effect": "counter_target_spell"}]}},
    "Doomed Traveler": {"name": "Doomed Traveler", "mana_cost": "{W}", "types": ["Creature"], "subtypes": ["Human", "Soldier"], "power": 1, "toughness": 1, "oracle": "When Doomed Traveler dies, create a 1/1 white Spirit creature token with flying.", "abilities": [{"ability": "triggered", "event": "dies", "effects": [{"effect": "create_token", "token": "Spirit"}]}]},
    "Mogg Fanatic": {"name": "Mogg Fanatic", "mana_cost": "{R}", "types": ["Creature"], "subtypes": ["Goblin"], "power": 1, "toughness": 1, "oracle": "Sacrifice Mogg Fanatic: It deals 1 damage to any target.", "abilities": [{"ability": "activated", "cost": "", "effects": [{"effect": "deal_damage", "amount": 1}], "text": "Sacrifice Mogg Fanatic: It deals 1 damage to any target.", "target": "any", "sacrifice": True}]},
    "Swords to Plowshares": {"name": "Swords to Plowshares", "mana_cost": "{W}", "types": ["Instant"], "oracle": "Exile target creature. Its controller gains life equal to its power.", "spell": {"target": "creature", "effects": [{"effect": "exile", "controller_gains_its_power": True}]}},
    "Spirit": {"name": "Spirit", "colors": ["W"], "token": True, "types": ["Creature"], "subtypes": ["Spirit"], "power": 1, "toughness": 1, "keywords": ["flying"], "oracle": "Flying"},
}

# the pool's definitions first: a card of the pool is played as its file says
DEFINITIONS: dict[str, dict[str, Any]] = {**_WRITTEN_HERE, **live_pool().definitions}
MECHANICS: tuple[str, ...] = tuple(name for name, d in _WRITTEN_HERE.items() if not d.get("token"))


def with_cards(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup, played with these definitions and the pool's."""
    return {**setup, "cards": DEFINITIONS}


def start(setup: dict[str, Any]) -> LocalTable:
    """``tests.helpers.start`` with these cards."""
    return helpers.start(with_cards(setup))
