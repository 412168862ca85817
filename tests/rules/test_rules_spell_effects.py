"""Spell effects real cards use: destroy (701.8, not an indestructible permanent, 702.12b), return to
its owner's hand (400.7), counter target spell (701.6a)."""

from __future__ import annotations

from mtg_ledger.core.commands import CardRef, CastSpell, PassPriority
from mtg_ledger.core.errors import IllegalTarget
from mtg_ledger.core.legal import legal_actions
from tests.helpers import advance_to, both_pass, events_of, refused, two_players
from tests.rules.mechanics_cards import start

SWAMPS = ["Swamp"] * 3


def test_destroy_puts_target_creature_into_its_owners_graveyard_701_8():
    table = start(two_players(alice={"battlefield": SWAMPS, "hand": ["Murder"]}, bob={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Murder", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]
    assert [e["rule"] for e in events_of(table, "PermanentsPutIntoGraveyard")] == ["701.8"]


def test_an_indestructible_creature_is_not_destroyed_by_a_destroy_effect_702_12b():
    table = start(two_players(alice={"battlefield": SWAMPS, "hand": ["Murder"]}, bob={"battlefield": ["Darksteel Myr"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Murder", targets=(CardRef("Darksteel Myr"),)))
    both_pass(table)
    assert table.state.players["bob"].graveyard == [] and table.state.players["alice"].graveyard == ["Murder"]


def test_a_returned_creature_goes_to_its_owners_hand_and_its_aura_to_the_graveyard_400_7():
    table = start(
        two_players(
            alice={"battlefield": ["Plains", "Grizzly Bears"], "hand": ["Holy Strength"]},
            bob={"battlefield": ["Island"], "hand": ["Unsummon"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Holy Strength", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Unsummon", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table, "bob", "alice")
    assert "Grizzly Bears" in table.state.players["alice"].hand
    assert table.state.players["alice"].graveyard == ["Holy Strength"]  # 704.5m: attached to nothing
    assert [e["rule"] for e in events_of(table, "PermanentsPutIntoGraveyard")] == ["704.5m"]


def test_counter_target_spell_removes_the_spell_from_the_stack_to_its_owners_graveyard_701_6a():
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, bob={"battlefield": ["Island", "Island"], "hand": ["Counterspell"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    table.handle(PassPriority("alice"))
    bolt = table.state.stack[-1].object
    assert CastSpell("bob", "Counterspell", targets=(bolt,)) in list(legal_actions(table.state))
    refused(table, CastSpell("bob", "Counterspell", targets=("alice",)), "115.1", IllegalTarget)
    table.handle(CastSpell("bob", "Counterspell", targets=(CardRef("Lightning Bolt"),)))
    both_pass(table, "bob", "alice")
    assert [(e["card"], e["rule"]) for e in events_of(table, "ObjectCountered")] == [("Lightning Bolt", "701.6a")]
    assert table.state.stack == [] and table.state.players["bob"].life == 20
    assert table.state.players["alice"].graveyard == ["Lightning Bolt"] and table.state.players["bob"].graveyard == ["Counterspell"]


def test_exile_moves_target_creature_to_its_owners_exile_and_its_controller_gains_its_last_known_power_406_2():
    table = start(two_players(alice={"battlefield": ["Plains"], "hand": ["Swords to Plowshares"]}, bob={"battlefield": ["Hill Giant", "Forest"], "hand": ["Giant Growth"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Swords to Plowshares", targets=(CardRef("Hill Giant"),)))
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Giant Growth", targets=(CardRef("Hill Giant"),)))  # in response: 6/6
    both_pass(table, "bob", "alice")
    both_pass(table)
    assert table.state.players["bob"].exile == ["Hill Giant"] and table.state.players["bob"].graveyard == ["Giant Growth"]
    assert table.state.players["bob"].life == 26  # 608.2h: its power as it last existed, 6
    assert [e["type"] for e in events_of(table, "PermanentsExiled")] == ["PermanentsExiled"]
