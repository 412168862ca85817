"""Triggered abilities the pool's cards brought with them, each on a concrete board: "whenever this
creature deals combat damage to a player" (510.2, 603.2), with Stealer of Secrets and Dimir Cutpurse; and
"whenever you cast a creature / an enchantment spell" (601.2i), with Beast Whisperer, Enchantress's Presence
and Satyr Enchanter."""

from __future__ import annotations

from mtg_ledger.core.commands import CardRef, CastSpell, Discard
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, attack, block, both_pass, events_of, last, perm, take_choices, two_players
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


def test_casting_a_creature_spell_triggers_before_the_spell_resolves_and_a_noncreature_one_does_not_601_2i():
    table = start(
        two_players(alice={"battlefield": ["Beast Whisperer", *["Forest"] * 3], "hand": ["Grizzly Bears", "Giant Growth"], "library": ["Island"] * 5})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Beast Whisperer"),)))
    assert events_of(table, "AbilityTriggered") == []
    both_pass(table)
    table.handle(CastSpell("alice", "Grizzly Bears"))

    assert last(table, "AbilityTriggered")["card"] == "Beast Whisperer"
    assert [o.card for o in table.state.stack] == ["Grizzly Bears", "Beast Whisperer"]  # above the spell
    both_pass(table)  # the trigger resolves first: alice draws with the Bears still on the stack
    assert table.state.players["alice"].hand == ["Island"] and [o.card for o in table.state.stack] == ["Grizzly Bears"]
    assert replay(table.events).ok


def test_an_opponents_creature_spell_does_not_trigger_whenever_you_cast_601_2i():
    table = start(two_players(alice={"battlefield": ["Beast Whisperer"]}, bob={"battlefield": ["Forest"] * 2, "hand": ["Grizzly Bears"]}))
    advance_to(table, 2, "precombat_main")
    table.handle(CastSpell("bob", "Grizzly Bears"))
    assert events_of(table, "AbilityTriggered") == []


def test_casting_an_enchantment_spell_draws_a_card_for_each_enchantress_and_a_creature_spell_none_601_2i():
    table = start(
        two_players(
            alice={"battlefield": ["Enchantress's Presence", "Satyr Enchanter", *["Plains"] * 4], "hand": ["Pacifism", "Savannah Lions"], "library": ["Island"] * 5},
            bob={"battlefield": ["Grizzly Bears"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Savannah Lions"))
    assert events_of(table, "AbilityTriggered") == []
    both_pass(table)
    table.handle(CastSpell("alice", "Pacifism", targets=(CardRef("Grizzly Bears"),)))

    assert [e["card"] for e in events_of(table, "AbilityTriggered")] == ["Enchantress's Presence", "Satyr Enchanter"]
    while table.state.stack:
        take_choices(table)
        both_pass(table)
    assert table.state.players["alice"].hand == ["Island", "Island"]
    assert perm(table, "Pacifism").attached_to == perm(table, "Grizzly Bears").object
    assert replay(table.events).ok
