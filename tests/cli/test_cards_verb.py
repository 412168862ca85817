"""``mtg-ledger cards [QUERY] [--json]``: the pool searched by name, one card's text and abilities (docs/cards.md)."""

from __future__ import annotations

import json

import pytest

from mtg_ledger.replays.cards import live_pool
from tests.log_tools import run


def test_cards_lists_the_whole_pool_by_name_one_card_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards")
    assert code == 0 and err == ""
    assert [line.split("  ")[0] for line in out.splitlines()] == live_pool().names()
    assert "Knight" not in live_pool().names()  # a token is no card of the pool


def test_cards_with_a_query_shows_the_card_named_so_with_its_oracle_text_and_abilities(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "lightning bolt")
    assert code == 0
    assert out.splitlines()[:3] == ["Lightning Bolt  {R}", "Instant", "Lightning Bolt deals 3 damage to any target."]
    assert "deal_damage amount=3" in out


def test_cards_puts_the_exact_name_first_then_the_names_containing_the_query(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "holy strength", "--json")
    assert code == 0
    assert [c["name"] for c in json.loads(out)] == ["Holy Strength", "Unholy Strength"]
    code, out, _ = run(capsys, "cards", "giant", "--json")
    names = [c["name"] for c in json.loads(out)]
    assert names == sorted(names) and {"Giant Growth", "Giant Spider", "Hill Giant"} <= set(names)
    assert all("giant" in n.casefold() for n in names)
    code, out, _ = run(capsys, "cards", "Knight", "--json")
    assert "Knight" not in [c["name"] for c in json.loads(out)]  # a token is not a card of the pool


def test_cards_json_objects_carry_the_printed_facts_and_null_mana_cost_for_a_land(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "cards", "--json")
    found = {c["name"]: c for c in json.loads(out)}
    forest, bears, watch = found["Forest"], found["Grizzly Bears"], found["Village Watch"]
    assert (forest["mana_cost"], forest["supertypes"], forest["types"], forest["subtypes"]) == (None, ["Basic"], ["Land"], ["Forest"])
    assert "power" not in forest and "loyalty" not in forest
    assert (bears["mana_cost"], bears["power"], bears["toughness"], bears["oracle"], bears["keywords"]) == ("{1}{G}", 2, 2, "", [])
    assert watch["keywords"] == ["haste", "daybound"] and watch["back"]["name"] == "Village Reavers"
    assert found["Ghostly Prison"]["abilities"] == [{"ability": "attack_tax", "amount": 2}]


def test_cards_matching_nothing_exits_1_naming_the_nearest_cards_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "Grizly Bear")
    assert (code, out) == (1, "")
    assert "Grizzly Bears" in err and len(err.splitlines()) == 1
