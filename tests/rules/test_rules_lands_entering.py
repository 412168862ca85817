"""A land played from hand enters the battlefield as any permanent does (305.1): tapped if it says so
(614.1c), and its "when this land enters" abilities trigger (603.6a)."""

from __future__ import annotations

from mtg_ledger.core.commands import PlayLand
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, both_pass, events_of, perm, two_players
from tests.rules.mechanics_cards import start


def test_a_land_that_enters_tapped_enters_tapped_when_it_is_played_614_1c_305_1() -> None:
    table = start(two_players(alice={"hand": ["Kabira Crossroads", "Plains"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(PlayLand("alice", "Kabira Crossroads"))
    crossroads = perm(table, "Kabira Crossroads")
    assert crossroads.tapped
    assert [(e["permanents"], e["rule"]) for e in events_of(table, "PermanentsTapped")] == [([crossroads.object], "614.1c")]


def test_a_lands_enters_trigger_triggers_when_the_land_is_played_603_6a() -> None:
    table = start(two_players(alice={"hand": ["Kabira Crossroads"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(PlayLand("alice", "Kabira Crossroads"))
    assert [(e["card"], e["source"]) for e in events_of(table, "AbilityTriggered")] == [("Kabira Crossroads", perm(table, "Kabira Crossroads").object)]
    both_pass(table)
    assert table.state.players["alice"].life == 22
    assert replay(table.events).ok
