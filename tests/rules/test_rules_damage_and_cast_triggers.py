"""Triggered abilities the pool's cards brought with them, each on a concrete board: "whenever this
creature deals combat damage to a player" (510.2, 603.2), with Stealer of Secrets and Dimir Cutpurse."""

from __future__ import annotations

from mtg_ledger.core.commands import CardRef, Discard
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, attack, block, both_pass, events_of, last, two_players
from tests.rules.mechanics_cards import start


def test_a_creature_that_deals_combat_damage_to_a_player_triggers_and_its_controller_draws_510_2_603_2():
    table = start(two_players(alice={"battlefield": ["Stealer of Secrets"], "library": ["Island"] * 5}))
    attack(table, CardRef("Stealer of Secrets"))
    advance_to(table, 1, "combat_damage")

    triggered = last(table, "AbilityTriggered")
    assert (triggered["card"], triggered["player"], triggered["context"]) == ("Stealer of Secrets", "alice", {"player": "bob"})
    hand = len(table.state.players["alice"].hand)
    both_pass(table)
    assert len(table.state.players["alice"].hand) == hand + 1 and table.state.players["bob"].life == 18
    assert replay(table.events).ok


def test_a_blocked_creature_deals_no_damage_to_a_player_and_does_not_trigger_510_2():
    table = start(two_players(alice={"battlefield": ["Stealer of Secrets"]}, bob={"battlefield": ["Grizzly Bears"]}))
    attack(table, CardRef("Stealer of Secrets"))
    block(table, (CardRef("Grizzly Bears"), CardRef("Stealer of Secrets")))
    advance_to(table, 1, "end_of_combat")

    assert events_of(table, "CombatDamageDealt") and events_of(table, "AbilityTriggered") == []
    assert table.state.step == "end_of_combat" and table.state.players["bob"].life == 20


def test_that_player_is_the_player_dealt_damage_who_discards_then_you_draw_603_2_701_9b():
    table = start(two_players(alice={"battlefield": ["Dimir Cutpurse"], "library": ["Island"] * 5}, bob={"hand": ["Forest", "Mountain"]}))
    attack(table, CardRef("Dimir Cutpurse"))
    advance_to(table, 1, "combat_damage")
    hand = len(table.state.players["alice"].hand)
    both_pass(table)

    asked = pending_decision(table.state)
    assert asked is not None and (asked.kind, asked.player, asked.count) == ("discard", "bob", 1)
    table.handle(Discard("bob", ("Mountain",)))
    assert table.state.players["bob"].graveyard == ["Mountain"] and table.state.players["bob"].hand == ["Forest"]
    assert len(table.state.players["alice"].hand) == hand + 1  # and you draw a card, after the discard
    assert [e["type"] for e in table.events[-4:-1]] == ["CardsDiscarded", "CardDrawn", "ObjectResolved"]
    assert replay(table.events).ok
