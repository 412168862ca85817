"""Cards as data (docs/cards.md): the pool's files against the published JSON Schema and the vocabulary,
a bad file as one error naming its file, line and field, and the classic definitions frozen."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from mtg_ledger.core import effect_table
from mtg_ledger.core.classic_cards import DEFINITIONS
from mtg_ledger.core.vocabulary import ABILITY_KINDS, EFFECT_KINDS, FLAG_KEYWORDS, CardDataError, compile_card, kind_fields
from mtg_ledger.replays.cards import CardFileError, live_pool, read_card, read_pool
from mtg_ledger.replays.cards.schema import card_schema, schema_text
from mtg_ledger.replays.messages import say

# sha256 of the classic definitions as canonical JSON: the games of schema 4 were played with exactly these
CLASSIC_DIGEST = "918bd69c6f147e416256c52e31a2eb550e18bd3376e19206a641c90481019266"


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def test_the_classic_definitions_are_frozen() -> None:
    assert hashlib.sha256(canonical(DEFINITIONS).encode()).hexdigest() == CLASSIC_DIGEST


def test_the_published_json_schema_is_the_one_the_vocabulary_derives() -> None:
    published = resources.files("mtg_ledger.replays.cards").joinpath("card.schema.json").read_text(encoding="utf-8")
    assert published == schema_text()
    jsonschema.Draft202012Validator.check_schema(card_schema())


@pytest.mark.parametrize("name", sorted(live_pool().definitions))
def test_every_card_file_of_the_pool_is_valid_against_the_json_schema(name: str) -> None:
    errors = [e.message for e in jsonschema.Draft202012Validator(card_schema()).iter_errors(live_pool().definitions[name])]
    assert errors == []


@pytest.mark.parametrize("name", sorted(live_pool().definitions))
def test_every_card_compiles_to_a_definition_that_says_what_its_file_says(name: str) -> None:
    """Round trip: the printed facts of the data are the CardDef's, every ability lands in its place."""
    data = live_pool().definitions[name]
    card = compile_card(data)
    assert (card.name, card.oracle, card.cost) == (data["name"], data["oracle"], data.get("mana_cost", ""))
    assert (card.types, card.subtypes, card.supertypes) == (tuple(data["types"]), tuple(data.get("subtypes", ())), tuple(data.get("supertypes", ())))
    assert (card.power, card.toughness, card.loyalty, card.defense) == tuple(data.get(k) for k in ("power", "toughness", "loyalty", "defense"))
    assert (card.colors, card.color_identity) == (tuple(data.get("colors", ())), tuple(data.get("color_identity", ())))
    keywords = data.get("keywords", [])
    assert card.keywords == {k for k in keywords if k not in FLAG_KEYWORDS}
    assert (card.daybound, card.nightbound) == ("daybound" in keywords, "nightbound" in keywords)
    compiled = [*card.mana_abilities, *card.statics, *card.triggers, *card.activated]
    written = [ABILITY_KINDS[a["ability"]] for a in data.get("abilities", [])]
    assert sorted(type(a).__name__ for a in compiled) == sorted(cls.__name__ for cls in written)
    assert [type(e) for e in card.effects] == [EFFECT_KINDS[e["effect"]] for e in data.get("spell", {}).get("effects", [])]
    assert (card.back is None) == ("back" not in data)


def test_the_pool_today_plays_the_cards_of_schema_4_as_they_were() -> None:
    """Until a card is corrected, the pool's files say what the frozen classic definitions say."""
    assert {n: d for n, d in live_pool().definitions.items() if n in DEFINITIONS} == DEFINITIONS


def test_every_effect_kind_is_carried_out_by_an_entry_of_the_effect_table() -> None:
    assert [cls for cls in EFFECT_KINDS.values() if cls not in effect_table.EFFECTS] == []


def test_no_vocabulary_class_has_a_field_named_as_the_key_that_names_its_kind() -> None:
    assert [c for c in EFFECT_KINDS.values() if "effect" in kind_fields(c)] == []
    assert [c for c in ABILITY_KINDS.values() if "ability" in kind_fields(c)] == []
    assert all(dataclasses.is_dataclass(c) for c in [*EFFECT_KINDS.values(), *ABILITY_KINDS.values()])


GOOD = """name = "Test Shock"
mana_cost = "{R}"
colors = ["R"]
types = ["Instant"]
oracle = "Test Shock deals 2 damage to any target."

[spell]
target = "any"
effects = [{ effect = "deal_damage", amount = 2 }]

[[abilities]]
ability = "triggered"
event = "beginning_of"
step = "upkeep"
effects = [{ effect = "draw_cards", count = 1 }]
"""

BAD: dict[str, tuple[str, int, str, str]] = {  # case: (changed text, line, field, message id)
    "a wrong type": (GOOD.replace("amount = 2", 'amount = "2"'), 9, "spell.effects[0].amount", "card.wrong_type"),
    "an unknown effect": (GOOD.replace('"draw_cards"', '"draw_cardz"'), 15, "abilities[0].effects[0].effect", "card.unknown_kind"),
    "an unknown field of an ability": (GOOD.replace('step = "upkeep"', 'stepp = "upkeep"'), 14, "abilities[0].stepp", "card.unknown_field"),
    "a missing name": (GOOD.replace('name = "Test Shock"\n', ""), 1, "name", "card.missing_field"),
    "a bad mana cost": (GOOD.replace('"{R}"', '"{R"'), 2, "mana_cost", "card.bad_mana_cost"),
    "an unknown colour": (GOOD.replace('["R"]', '["Red"]'), 3, "colors[0]", "card.not_one_of"),
    "an unknown target": (GOOD.replace('target = "any"', 'target = "anything"'), 8, "spell.target", "card.not_one_of"),
    "a missing ability field": (GOOD.replace('event = "beginning_of"\n', ""), 11, "abilities[0].event", "card.missing_field"),
    "not TOML": (GOOD.replace("types = [", "types = [[", 1), 5, "", "card.not_toml"),
}


def test_a_good_card_file_reads_as_written() -> None:
    assert compile_card(read_card("test_shock.toml", GOOD)).effects[0].amount == 2


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_card_file_is_one_error_naming_its_file_its_line_and_its_field(case: str) -> None:
    text, line, field, code = BAD[case]
    with pytest.raises(CardFileError) as caught:
        read_card("pool/test_shock.toml", text)
    e = caught.value
    assert (e.file, e.line, e.field, e.why.id) == ("pool/test_shock.toml", line, field, code)
    for lang in ("en", "fr"):
        said = say(e.phrase.id, e.phrase.params, lang)
        assert said.startswith(f"pool/test_shock.toml:{line}") and (field in said)


def test_a_name_defined_twice_in_the_pool_is_an_error_naming_the_second_file() -> None:
    with pytest.raises(CardFileError) as caught:
        read_pool({"a.toml": GOOD, "b.toml": GOOD})
    assert (caught.value.file, caught.value.line, caught.value.why.id) == ("b.toml", 1, "card.duplicate_name")


def test_the_vocabulary_names_the_path_of_a_field_at_fault() -> None:
    with pytest.raises(CardDataError) as caught:
        compile_card({"name": "X", "types": ["Creature"], "oracle": "", "back": {"name": "Y", "types": [], "oracle": "", "power": "1"}})
    assert caught.value.path == ("back", "power")
