"""A game is played, replayed and audited with the card definitions its GameStarted records (schema 5),
never with the pool as it is today; a game of schema 4 or before, with the classic ones it was played with."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import used_names
from mtg_ledger.core.commands import CastSpell
from mtg_ledger.core.schema import SCHEMAS, upgrade
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays import cards as pool_files
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.cards import Pool, live_pool, pin
from mtg_ledger.replays.messages import say
from tests.helpers import advance_to, both_pass, last, two_players
from tests.log_tools import demo_log
from tests.rules.test_same_events_byte_for_byte import without_cards

Event = dict[str, Any]


def corrected_pool() -> Pool:
    """Today's pool with Lightning Bolt "corrected" to deal 4 damage: a later erratum, as far as the games know."""
    definitions = copy.deepcopy(live_pool().definitions)
    bolt = definitions["Lightning Bolt"]
    bolt["oracle"] = "Lightning Bolt deals 4 damage to any target."
    bolt["spell"]["effects"][0]["amount"] = 4
    return Pool(definitions, dict(live_pool().files))


def bolt_game(pool: Pool) -> LocalTable:
    """alice bolts bob on her first turn, the game recording ``pool``'s definitions."""
    table = LocalTable.start(pin(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}), pool))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    both_pass(table)
    return table


def test_a_new_game_records_the_definitions_of_its_cards_and_of_the_tokens_they_create() -> None:
    table = LocalTable.start(pin(two_players(alice={"library": ["Plains", "History of Benalia"]}, bob={"battlefield": ["Forest"]})))
    recorded = table.events[0]["cards"]
    assert list(recorded) == ["Plains", "History of Benalia", "Forest", "Knight"]
    assert recorded["History of Benalia"] == live_pool().definitions["History of Benalia"]
    assert recorded["Knight"]["token"] is True


def test_a_game_is_played_with_the_definitions_it_recorded() -> None:
    table = bolt_game(corrected_pool())
    assert last(table, "DamageDealt")["amount"] == 4 and table.state.players["bob"].life == 16


def test_a_game_recorded_with_a_card_since_corrected_replays_and_audits_clean_with_a_notice() -> None:
    table = bolt_game(live_pool())
    events = table.events
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pool_files, "live_pool", corrected_pool)
        result = replay(events)
        report = audit("g", events)
    assert result.ok and result.state is not None and result.state.players["bob"].life == 17
    assert result.state.state_hash() == table.state.state_hash()
    assert report.clean and [n.id for n in report.notices] == ["card.differs"]
    assert "Lightning Bolt" in say(report.notices[0].id, report.notices[0].params, "fr")


def test_a_game_recorded_with_definitions_the_pool_no_longer_has_replays_by_its_own() -> None:
    table = bolt_game(corrected_pool())
    result = replay(table.events)
    assert result.ok and result.state is not None and result.state.players["bob"].life == 16
    assert [n.params["name"] for n in audit("g", table.events).notices] == ["Lightning Bolt"]


def test_a_log_of_schema_4_replays_and_audits_clean_with_the_classic_definitions_it_was_played_with() -> None:
    """Fixture-independent: today's demo game in the form schema 4 wrote it (GameStarted without
    ``cards``, its own chain), read with the class versions of schema 4."""
    old = without_cards(demo_log())
    versions = SCHEMAS[4]
    assert "cards" not in old[0]
    started = upgrade(old[0], versions)
    assert started["cards"] == CLASSIC.pinned(used_names(started["players"]))
    assert set(started["cards"]) == {n for p in old[0]["players"] for n in p["library"]} | {"Knight"}  # History of Benalia makes Knights
    result = replay(old, versions=versions)
    assert result.ok and result.state is not None and result.state.last_hash == old[-1]["hash"]
    report = audit("g", old, versions=versions)
    assert report.clean and report.notices == []


def test_a_log_of_schema_4_still_replays_when_the_pool_is_corrected_since() -> None:
    old = without_cards(demo_log())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pool_files, "live_pool", corrected_pool)
        result = replay(old, versions=SCHEMAS[4])
        report = audit("g", old, versions=SCHEMAS[4])
    assert result.ok and result.state is not None and result.state.last_hash == old[-1]["hash"]
    assert report.clean and [n.params["name"] for n in report.notices] == ["Lightning Bolt"]
