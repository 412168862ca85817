"""``GET /cards?q=`` and ``GET /cards/{name}`` through a real server: the objects of ``mtg-ledger cards
--json``, read without a token; an unknown name is 404 with the nearest names (docs/cards.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from mtg_ledger.replays.cards import card_json, live_pool
from tests.service_server import server


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("cards") / "cards.sqlite"
    with server({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}) as base:
        yield base


def test_get_cards_lists_the_pool_as_the_cli_does_without_a_token(url: str) -> None:
    r = httpx.get(f"{url}/cards")
    assert r.status_code == 200
    assert r.json() == [card_json(live_pool().definitions[n]) for n in live_pool().names()]


def test_get_cards_with_q_puts_the_exact_name_first_then_the_names_containing_it(url: str) -> None:
    assert [c["name"] for c in httpx.get(f"{url}/cards", params={"q": "holy strength"}).json()] == ["Holy Strength", "Unholy Strength"]
    assert httpx.get(f"{url}/cards", params={"q": "zzz"}).json() == []


def test_get_a_card_by_name_keeps_mana_cost_null_for_a_land_and_leaves_out_what_it_lacks(url: str) -> None:
    forest = httpx.get(f"{url}/cards/forest").json()
    assert forest["name"] == "Forest" and forest["mana_cost"] is None and "power" not in forest and "back" not in forest
    watch = httpx.get(f"{url}/cards/Village Watch").json()
    assert (watch["power"], watch["toughness"], watch["back"]["name"]) == (4, 3, "Village Reavers")


def test_an_unknown_card_is_404_with_the_nearest_names(url: str) -> None:
    r = httpx.get(f"{url}/cards/Lightening Bolt")
    assert r.status_code == 404 and r.json()["nearest"][0] == "Lightning Bolt" and "Lightening Bolt" in r.json()["error"]


def test_the_openapi_description_names_the_card_routes_and_their_models(url: str) -> None:
    spec = httpx.get(f"{url}/openapi.json").json()
    assert {"/cards", "/cards/{name}"} <= set(spec["paths"]) and "CardOut" in spec["components"]["schemas"]


def test_post_games_takes_a_player_s_deck_list_and_names_every_unknown_card_in_one_422(url: str) -> None:
    from tests.service_server import new_game

    game, tokens = new_game(url, {"seed": 2, "players": [{"name": "alice", "deck": "Deck\n30 Forest\n10 Grizzly Bears\nSideboard\n2 Giant Growth"},
                                                         {"name": "bob", "deck": "40 Mountain"}]})
    state = httpx.get(f"{url}/games/{game}/state", headers={"Authorization": f"Bearer {tokens['judge']}"}).json()
    assert len(state["players"]["alice"]["hand"]) == 7  # 103.5: no hand given, seven drawn
    bad = {"players": [{"name": "alice", "deck": "4 Grizly Bears"}, {"name": "bob", "deck": "1 Lightening Bolt\n1 Grizly Bears"}]}
    r = httpx.post(f"{url}/games", json=bad)
    assert r.status_code == 422 and "2 unknown card(s)" in r.json()["error"]
    assert "'Grizly Bears' (Grizzly Bears" in r.json()["error"] and "'Lightening Bolt' (Lightning Bolt" in r.json()["error"]
