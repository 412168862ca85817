"""Card sketches to card files (replays/cards/sketch.py): a sketch of a card the engine interprets fully
becomes the card file the pool holds for it, and a card file that reads back as written; a sketch naming
an ability kind the engine lacks is left out, naming that kind."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mtg_ledger.replays.cards import live_pool, read_card
from mtg_ledger.replays.cards.sketch import Unsupported, convert
from mtg_ledger.replays.cards.writer import card_toml, file_name

def by_name(*sketches: str) -> dict[str, dict[str, Any]]:
    """Card sketches (JSON lines, as the card data gives them) by their names."""
    return {d["name"]: d for d in map(json.loads, sketches)}


# sketches of real cards as the card data gives them (Oracle text verified; "source" left out)
SKETCHES = by_name(
        '{"name": "Skinrender", "mana_cost": "{2}{B}{B}", "colors": ["B"], "color_identity": ["B"], "supertypes": [], "types": ["Creature"], "subtypes": ["Phyrexian", "Zombie"], "power": 3, "toughness": 3, "loyalty": null, "defense": null, "oracle": "When this creature enters, put three -1/-1 counters on target creature.", "keywords": [], "abilities": [{"kind": "triggered", "when": "enters", "effects": [{"do": "counters", "kind": "-1/-1", "n": 3, "target": "creature"}]}]}',
        '{"name": "Bonesplitter", "mana_cost": "{1}", "colors": [], "color_identity": [], "supertypes": [], "types": ["Artifact"], "subtypes": ["Equipment"], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "Equipped creature gets +2/+0.\\nEquip {1}", "keywords": [], "abilities": [{"kind": "static", "effect": "equipped_gets", "power": 2, "toughness": 0, "keywords": []}, {"kind": "keyword", "name": "equip", "cost": "{1}"}]}',
        '{"name": "Raise the Alarm", "mana_cost": "{1}{W}", "colors": ["W"], "color_identity": ["W"], "supertypes": [], "types": ["Instant"], "subtypes": [], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "Create two 1/1 white Soldier creature tokens.", "keywords": [], "abilities": [{"kind": "spell", "effects": [{"do": "token", "n": 2, "name": "Soldier", "power": 1, "toughness": 1, "colors": ["W"], "types": ["Creature"], "subtypes": ["Soldier"], "keywords": []}]}]}',
        '{"name": "Pacifism", "mana_cost": "{1}{W}", "colors": ["W"], "color_identity": ["W"], "supertypes": [], "types": ["Enchantment"], "subtypes": ["Aura"], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "Enchant creature\\nEnchanted creature can\'t attack or block.", "keywords": [], "abilities": [{"kind": "keyword", "name": "enchant", "what": "creature"}, {"kind": "static", "effect": "enchanted_cant_attack_or_block"}]}',
        '{"name": "Jace Beleren", "mana_cost": "{1}{U}{U}", "colors": ["U"], "color_identity": ["U"], "supertypes": ["Legendary"], "types": ["Planeswalker"], "subtypes": ["Jace"], "power": null, "toughness": null, "loyalty": 3, "defense": null, "oracle": "+2: Each player draws a card.\\n−1: Target player draws a card.\\n−10: Target player mills twenty cards.", "keywords": [], "abilities": [{"kind": "loyalty", "cost": 2, "effects": [{"do": "draw", "n": 1, "who": "each_player"}]}, {"kind": "loyalty", "cost": -1, "effects": [{"do": "draw", "n": 1, "who": "target_player"}]}, {"kind": "loyalty", "cost": -10, "effects": [{"do": "mill", "n": 20, "who": "target_player"}]}]}',
        '{"name": "Seeker of the Way", "mana_cost": "{1}{W}", "colors": ["W"], "color_identity": ["W"], "supertypes": [], "types": ["Creature"], "subtypes": ["Human", "Warrior"], "power": 2, "toughness": 2, "loyalty": null, "defense": null, "oracle": "Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)\\nWhenever you cast a noncreature spell, this creature gains lifelink until end of turn.", "keywords": ["prowess"], "abilities": [{"kind": "keyword", "name": "prowess"}, {"kind": "triggered", "when": "you_cast_noncreature", "effects": [{"do": "pump", "power": 0, "toughness": 0, "keywords": ["lifelink"], "target": "this"}]}]}',
        '{"name": "Thrashing Brontodon", "mana_cost": "{1}{G}{G}", "colors": ["G"], "color_identity": ["G"], "supertypes": [], "types": ["Creature"], "subtypes": ["Dinosaur"], "power": 3, "toughness": 4, "loyalty": null, "defense": null, "oracle": "{1}, Sacrifice this creature: Destroy target artifact or enchantment.", "keywords": [], "abilities": [{"kind": "activated", "cost": "{1}, Sacrifice this creature", "effects": [{"do": "destroy", "target": "artifact_or_enchantment"}], "sorcery_speed": false}]}',
        '{"name": "Goblin Guide", "mana_cost": "{R}", "colors": ["R"], "color_identity": ["R"], "supertypes": [], "types": ["Creature"], "subtypes": ["Goblin", "Scout"], "power": 2, "toughness": 2, "loyalty": null, "defense": null, "oracle": "Haste\\nWhenever this creature attacks, defending player reveals the top card of their library. If it\'s a land card, that player puts it into their hand.", "keywords": ["haste"], "abilities": [{"kind": "keyword", "name": "haste"}, {"kind": "triggered", "when": "attacks", "effects": [{"do": "reveal_top_land_to_hand", "who": "defending_player"}]}]}',
        '{"name": "Selesnya Guildgate", "mana_cost": null, "colors": [], "color_identity": ["W", "G"], "supertypes": [], "types": ["Land"], "subtypes": ["Gate"], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "This land enters tapped.\\n{T}: Add {G} or {W}.", "keywords": [], "abilities": [{"kind": "static", "effect": "enters_tapped"}, {"kind": "mana", "add": "G|W", "choice": true}]}',
        '{"name": "Invasion of Dominaria", "mana_cost": "{2}{W}", "colors": ["W"], "color_identity": ["W"], "supertypes": [], "types": ["Battle"], "subtypes": ["Siege"], "power": null, "toughness": null, "loyalty": null, "defense": 5, "oracle": "(As a Siege enters, choose an opponent to protect it. You and others can attack it. When it\'s defeated, exile it, then cast it transformed.)\\nWhen this Siege enters, you gain 4 life and draw a card.", "keywords": [], "abilities": [{"kind": "triggered", "when": "enters", "effects": [{"do": "gain_life", "n": 4}, {"do": "draw", "n": 1, "who": "you"}]}], "back": {"name": "Serra Faithkeeper", "mana_cost": null, "colors": ["W"], "color_identity": ["W"], "supertypes": [], "types": ["Creature"], "subtypes": ["Angel"], "power": 4, "toughness": 4, "loyalty": null, "defense": null, "oracle": "Flying, vigilance", "keywords": ["flying", "vigilance"], "abilities": [{"kind": "keyword", "name": "flying"}, {"kind": "keyword", "name": "vigilance"}], "source": "edg444/forge-complete:forge-gui/res/cardsfolder/i/invasion_of_dominaria_serra_faithkeeper.txt@a7666ada8ba84c1651520ebaeab712fa565964dd", "confidence": "verified"}}',
        '{"name": "Opt", "mana_cost": "{U}", "colors": ["U"], "color_identity": ["U"], "supertypes": [], "types": ["Instant"], "subtypes": [], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "Scry 1.\\nDraw a card.", "keywords": [], "abilities": [{"kind": "spell", "effects": [{"do": "scry", "n": 1}, {"do": "draw", "n": 1, "who": "you"}]}]}',
)
IN_POOL = ["Skinrender", "Bonesplitter", "Raise the Alarm", "Pacifism", "Jace Beleren", "Seeker of the Way", "Thrashing Brontodon", "Selesnya Guildgate", "Goblin Guide", "Invasion of Dominaria"]


@pytest.mark.parametrize("name", IN_POOL)
def test_a_sketch_the_engine_interprets_fully_becomes_the_card_file_the_pool_holds(name: str) -> None:
    card, tokens = convert(SKETCHES[name])
    pool = live_pool().definitions
    assert card == pool[name]
    assert card["oracle"] == SKETCHES[name]["oracle"]  # copied as it stands
    assert all(pool[t["name"]] == t for t in tokens)
    assert read_card(file_name(name), card_toml(card)) == card  # the file reads back as written


def test_a_spell_making_two_tokens_creates_the_token_twice_and_defines_it_once() -> None:
    card, tokens = convert(SKETCHES["Raise the Alarm"])
    assert card["spell"]["effects"] == [{"effect": "create_token", "token": "Soldier"}] * 2
    assert tokens == [{"name": "Soldier", "colors": ["W"], "token": True, "types": ["Creature"], "subtypes": ["Soldier"], "power": 1, "toughness": 1, "oracle": ""}]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Opt", "effect 'scry'"),
    ],
)
def test_a_sketch_with_an_ability_the_engine_lacks_is_left_out_naming_it(name: str, why: str) -> None:
    with pytest.raises(Unsupported) as e:
        convert(SKETCHES[name])
    assert e.value.why.startswith(why)
    assert name not in live_pool().definitions


def test_a_card_file_name_is_its_name_in_lower_case_words() -> None:
    assert file_name("Teferi's Imp") == "teferi_s_imp.toml"
    assert file_name("Isamaru, Hound of Konda") == "isamaru_hound_of_konda.toml"


# sketches of real cards whose costs and triggers the engine reads since discards, life and cast and combat
# damage triggers joined the vocabulary (Oracle text verified)
COSTS_AND_TRIGGERS = by_name(
        '{"name": "Greed", "mana_cost": "{3}{B}", "colors": ["B"], "color_identity": ["B"], "supertypes": [], "types": ["Enchantment"], "subtypes": [], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "{B}, Pay 2 life: Draw a card.", "keywords": [], "abilities": [{"kind": "activated", "cost": "{B}, Pay 2 life", "effects": [{"do": "draw", "n": 1, "who": "you"}], "sorcery_speed": false}]}',
        '{"name": "Zombie Infestation", "mana_cost": "{1}{B}", "colors": ["B"], "color_identity": ["B"], "supertypes": [], "types": ["Enchantment"], "subtypes": [], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "Discard two cards: Create a 2/2 black Zombie creature token.", "keywords": [], "abilities": [{"kind": "activated", "cost": "Discard two cards", "effects": [{"do": "token", "n": 1, "name": "Zombie", "power": 2, "toughness": 2, "colors": ["B"], "types": ["Creature"], "subtypes": ["Zombie"], "keywords": []}], "sorcery_speed": false}]}',
        '{"name": "Mind Rot", "mana_cost": "{2}{B}", "colors": ["B"], "color_identity": ["B"], "supertypes": [], "types": ["Sorcery"], "subtypes": [], "power": null, "toughness": null, "loyalty": null, "defense": null, "oracle": "Target player discards two cards.", "keywords": [], "abilities": [{"kind": "spell", "effects": [{"do": "discard", "n": 2, "who": "target_player"}]}]}',
        '{"name": "Beast Whisperer", "mana_cost": "{2}{G}{G}", "colors": ["G"], "color_identity": ["G"], "supertypes": [], "types": ["Creature"], "subtypes": ["Elf", "Druid"], "power": 2, "toughness": 3, "loyalty": null, "defense": null, "oracle": "Whenever you cast a creature spell, draw a card.", "keywords": [], "abilities": [{"kind": "triggered", "when": "you_cast_creature", "effects": [{"do": "draw", "n": 1, "who": "you"}]}]}',
        '{"name": "Stealer of Secrets", "mana_cost": "{2}{U}", "colors": ["U"], "color_identity": ["U"], "supertypes": [], "types": ["Creature"], "subtypes": ["Human", "Rogue"], "power": 2, "toughness": 2, "loyalty": null, "defense": null, "oracle": "Whenever this creature deals combat damage to a player, draw a card.", "keywords": [], "abilities": [{"kind": "triggered", "when": "deals_combat_damage_to_player", "effects": [{"do": "draw", "n": 1, "who": "you"}]}]}',
)


@pytest.mark.parametrize("name", sorted(COSTS_AND_TRIGGERS))
def test_a_sketch_paying_life_or_discarding_or_triggering_on_a_cast_or_combat_damage_becomes_its_pool_card_file(name: str) -> None:
    card, tokens = convert(COSTS_AND_TRIGGERS[name])
    pool = live_pool().definitions
    assert card == pool[name]
    assert all(pool[t["name"]] == t for t in tokens)
    assert read_card(file_name(name), card_toml(card)) == card
