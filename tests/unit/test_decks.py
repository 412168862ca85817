"""Deck lists in the text form Arena and MTGO export (docs/decks.md), and a scenario player's ``deck``:
shuffled with the seed before the game (103.3), seven cards drawn without a ``hand`` (103.5)."""

from __future__ import annotations

import pytest

from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.cards import live_pool, pin
from mtg_ledger.replays.cards.decks import DeckError, parse_deck, shipped_decks, shuffled, unknown_cards
from mtg_ledger.replays.messages import say
from mtg_ledger.replays.scenario import ScenarioError, parse

LIST = """Deck
4 Llanowar Elves (XYZ) 12
2 Giant Growth

16 Forest
Sideboard
3 Giant Spider (XYZ)
"""


def test_a_deck_list_gives_each_card_as_many_times_as_listed_in_order_set_and_number_aside() -> None:
    deck = parse_deck(LIST)
    assert deck.main == ["Llanowar Elves"] * 4 + ["Giant Growth"] * 2 + ["Forest"] * 16
    assert deck.sideboard == ["Giant Spider"] * 3
    assert deck.names() == ["Llanowar Elves", "Giant Growth", "Forest", "Giant Spider"]


def test_a_list_without_headers_is_all_main_deck_and_blank_lines_change_nothing() -> None:
    assert parse_deck("\n2 Forest\n\n\n1 Hill Giant\n").main == ["Forest", "Forest", "Hill Giant"]


@pytest.mark.parametrize(("text", "line", "code"), [
    ("4 Forest\nFour Forests\n", 2, "deck.bad_line"),
    ("Deck\n\n0 Forest\n", 3, "deck.bad_count"),
    ("Forest\n", 1, "deck.bad_line"),
])
def test_a_line_that_is_no_card_line_is_an_error_naming_it(text: str, line: int, code: str) -> None:
    with pytest.raises(DeckError) as caught:
        parse_deck(text)
    assert (caught.value.line, caught.value.why.id) == (line, code)


def test_every_unknown_card_is_named_once_in_one_message_with_the_nearest_names_108_1() -> None:
    phrase = unknown_cards(["Forest", "Grizly Bears", "Lightening Bolt", "Grizly Bears"])
    assert phrase is not None and phrase.params["count"] == 2
    said = say(phrase.id, phrase.params)
    assert "'Grizly Bears' (Grizzly Bears" in said and "'Lightening Bolt' (Lightning Bolt" in said  # the nearest first
    assert "Forest" not in said and "108.1" in say(phrase.id, phrase.params, "fr")
    assert unknown_cards(["Forest", "Serra Angel"]) is None


@pytest.mark.parametrize("name", sorted(shipped_decks()))
def test_every_shipped_deck_is_a_playable_list_of_cards_the_pool_holds_100_2a(name: str) -> None:
    deck = parse_deck(shipped_decks()[name])
    assert len(deck.main) >= 40 and unknown_cards(deck.names()) is None
    assert all(not live_pool().definitions[n].get("token") for n in deck.names())


def scenario(seed: int = 5, **alice: object) -> dict[str, object]:
    return {"seed": seed, "players": [{"name": "alice", **alice}, {"name": "bob", "library": ["Forest"] * 10}]}


def test_a_player_s_deck_is_shuffled_with_the_seed_and_its_sideboard_left_out_103_3() -> None:
    setup = parse(scenario(deck=LIST)).setup
    library = setup["players"][0]["library"]
    assert library == shuffled(parse_deck(LIST).main, 5, "alice") and sorted(library) == sorted(parse_deck(LIST).main)
    assert library != parse_deck(LIST).main and "Giant Spider" not in library
    assert parse(scenario(seed=6, deck=LIST)).setup["players"][0]["library"] != library


def test_without_a_hand_a_player_with_a_deck_draws_seven_cards_103_5() -> None:
    table = LocalTable.start(pin(parse(scenario(deck=LIST)).setup))
    alice = table.state.players["alice"]
    assert (len(alice.hand), len(alice.library)) == (7, 15)


def test_a_deck_s_unknown_cards_are_one_scenario_error_listing_them_all() -> None:
    bad = {"players": [{"name": "alice", "deck": "4 Grizly Bears\n2 Forest"}, {"name": "bob", "deck": "1 Serra Angle"}]}
    with pytest.raises(ScenarioError) as caught:
        parse(bad)
    assert "2 unknown card(s)" in str(caught.value) and "Serra Angel" in str(caught.value) and "Grizzly Bears" in str(caught.value)


def test_a_player_gives_a_library_or_a_deck_not_both() -> None:
    with pytest.raises(ScenarioError, match="not both"):
        parse(scenario(deck=LIST, library=["Forest"]))
