"""Evergreen keywords on concrete boards: deathtouch (702.2, 704.5h), defender (702.3), flash (702.8),
hexproof (702.11), indestructible (702.12), lifelink (702.15), menace (702.111), prowess (702.108)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.errors import IllegalTarget
from mtg_ledger.core.legal import legal_actions
from tests.helpers import advance_to, attack, block, both_pass, events_of, obj, perm, refused, two_players
from tests.rules.mechanics_cards import start



def graveyard_rules(table) -> list[tuple[list[str], str]]:  # type: ignore[no-untyped-def]
    return [([p["card"] for p in e["permanents"]], e["rule"]) for e in events_of(table, "PermanentsPutIntoGraveyard")]


def test_a_creature_dealt_damage_by_a_deathtouch_blocker_is_destroyed_704_5h():
    table = start(two_players(alice={"battlefield": ["Hill Giant"]}, bob={"battlefield": ["Typhoid Rats"]}))
    attack(table, CardRef("Hill Giant"))
    block(table, (CardRef("Typhoid Rats"), CardRef("Hill Giant")))
    advance_to(table, 1, "end_of_combat")
    assert (["Hill Giant"], "704.5h") in graveyard_rules(table)  # 1 damage, but from a source with deathtouch
    assert (["Typhoid Rats"], "704.5g") in graveyard_rules(table)


def test_a_blocker_dealt_damage_by_a_deathtouch_attacker_is_destroyed_whatever_its_toughness_704_5h():
    table = start(two_players(alice={"battlefield": ["Vampire Nighthawk"]}, bob={"battlefield": ["Giant Spider"]}))
    nighthawk, spider = obj(table, "Vampire Nighthawk"), obj(table, "Giant Spider")
    attack(table, nighthawk)
    block(table, (spider, nighthawk))
    advance_to(table, 1, "end_of_combat")
    assert (["Giant Spider"], "704.5h") in graveyard_rules(table)  # 2 damage to a 2/4
    assert table.state.players["bob"].graveyard == ["Giant Spider"]


def test_a_creature_with_defender_cannot_attack_702_3b():
    table = start(two_players(alice={"battlefield": ["Wall of Wood", "Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")
    refused(table, DeclareAttackers("alice", ((CardRef("Wall of Wood"), None),)), "702.3b")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), None),)))


def test_a_creature_with_defender_can_still_block_702_3b():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Wall of Wood"]}))
    attack(table, CardRef("Grizzly Bears"))
    block(table, (CardRef("Wall of Wood"), CardRef("Grizzly Bears")))
    assert perm(table, "Grizzly Bears").blocked


def test_a_creature_spell_with_flash_can_be_cast_in_the_opponents_turn_702_8a():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Forest", "Forest"], "hand": ["Ambush Viper", "Grizzly Bears"]}))
    attack(table, CardRef("Grizzly Bears"))
    table.handle(PassPriority("alice"))
    refused(table, CastSpell("bob", "Grizzly Bears"), "505.6a")  # no flash: sorcery speed
    assert CastSpell("bob", "Ambush Viper") in list(legal_actions(table.state))
    table.handle(CastSpell("bob", "Ambush Viper"))
    both_pass(table, "bob", "alice")  # priority returns to bob after he cast (117.3c)
    assert perm(table, "Ambush Viper").controller == "bob"


def test_a_spell_an_opponent_controls_cannot_target_a_creature_with_hexproof_702_11b():
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, bob={"battlefield": ["Gladecover Scout"]}))
    advance_to(table, 1, "precombat_main")
    refusal = refused(table, CastSpell("alice", "Lightning Bolt", targets=(CardRef("Gladecover Scout"),)), "702.11b", IllegalTarget)
    assert "hexproof" in str(refusal)
    listed = list(legal_actions(table.state))
    assert CastSpell("alice", "Lightning Bolt", targets=("bob",)) in listed
    assert CastSpell("alice", "Lightning Bolt", targets=(obj(table, "Gladecover Scout"),)) not in listed


def test_its_controller_can_target_their_own_creature_with_hexproof_702_11b():
    table = start(two_players(bob={"battlefield": ["Gladecover Scout", "Forest"], "hand": ["Giant Growth"]}))
    advance_to(table, 1, "upkeep")
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Giant Growth", targets=(CardRef("Gladecover Scout"),)))
    both_pass(table, "bob", "alice")
    assert ch.power(table.state, perm(table, "Gladecover Scout")) == 4


def test_an_indestructible_creature_is_not_destroyed_by_lethal_damage_702_12b():
    table = start(two_players(alice={"battlefield": ["Hill Giant"]}, bob={"battlefield": ["Darksteel Myr"]}))
    attack(table, CardRef("Hill Giant"))
    block(table, (CardRef("Darksteel Myr"), CardRef("Hill Giant")))
    advance_to(table, 1, "end_of_combat")
    assert perm(table, "Darksteel Myr").damage == 3
    assert table.state.players["bob"].graveyard == []


def test_combat_damage_from_a_creature_with_lifelink_makes_its_controller_gain_that_much_life_702_15b():
    table = start(two_players(alice={"battlefield": ["Vampire Nighthawk"]}))
    attack(table, CardRef("Vampire Nighthawk"))
    advance_to(table, 1, "end_of_combat")
    assert (table.state.players["alice"].life, table.state.players["bob"].life) == (22, 18)
    gained = events_of(table, "LifeGained")
    assert [(e["player"], e["amount"], e["source"]) for e in gained] == [("alice", 2, obj(table, "Vampire Nighthawk"))]


def test_a_creature_with_menace_cannot_be_blocked_by_just_one_creature_702_111b():
    table = start(two_players(alice={"battlefield": ["Boggart Brute"]}, bob={"battlefield": ["Grizzly Bears", "Savannah Lions"]}))
    attack(table, CardRef("Boggart Brute"))
    advance_to(table, 1, "declare_blockers")
    refused(table, DeclareBlockers("bob", ((CardRef("Grizzly Bears"), CardRef("Boggart Brute")),)), "702.111b")
    table.handle(DeclareBlockers("bob", ((CardRef("Grizzly Bears"), CardRef("Boggart Brute")), (CardRef("Savannah Lions"), CardRef("Boggart Brute")))))
    assert perm(table, "Boggart Brute").blocked_by == [obj(table, "Grizzly Bears"), obj(table, "Savannah Lions")]


def test_prowess_gives_plus_one_plus_one_until_end_of_turn_when_its_controller_casts_a_noncreature_spell_702_108a():
    table = start(two_players(alice={"battlefield": ["Monastery Swiftspear", "Mountain"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    swiftspear = perm(table, "Monastery Swiftspear")
    assert [t["card"] for t in events_of(table, "AbilityTriggered")] == ["Monastery Swiftspear"]
    both_pass(table)  # the prowess trigger resolves first
    assert (ch.power(table.state, swiftspear), ch.toughness(table.state, swiftspear)) == (2, 3)
    both_pass(table)
    assert table.state.players["bob"].life == 17
    advance_to(table, 2, "upkeep")
    assert ch.power(table.state, swiftspear) == 1  # 514.2


def test_ward_counters_an_opponents_spell_that_targets_it_unless_its_controller_pays_702_21a():
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, bob={"battlefield": ["Waterfall Aerialist"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(CardRef("Waterfall Aerialist"),)))
    assert [t["card"] for t in events_of(table, "AbilityTriggered")] == ["Waterfall Aerialist"]
    both_pass(table)  # the ward trigger resolves: alice has no mana left to pay {2}
    countered = events_of(table, "ObjectCountered")
    assert [(e["card"], e["rule"]) for e in countered] == [("Lightning Bolt", "702.21a")]
    assert table.state.stack == [] and table.state.players["alice"].graveyard == ["Lightning Bolt"]
    assert perm(table, "Waterfall Aerialist").damage == 0


def test_ward_is_paid_from_the_spells_controllers_mana_when_they_can_and_the_spell_resolves_702_21a():
    table = start(
        two_players(alice={"battlefield": ["Mountain", "Mountain", "Mountain"], "hand": ["Lightning Bolt"]}, bob={"battlefield": ["Waterfall Aerialist"]})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(CardRef("Waterfall Aerialist"),)))
    both_pass(table)
    spent = events_of(table, "ManaSpent")
    assert [(e["player"], e["mana"], e["rule"]) for e in spent] == [("alice", {"R": 2}, "702.21a")]
    both_pass(table)
    assert table.state.players["bob"].graveyard == ["Waterfall Aerialist"]


def test_ward_does_not_trigger_for_its_controllers_own_spells_702_21a():
    table = start(two_players(bob={"battlefield": ["Waterfall Aerialist", "Forest"], "hand": ["Giant Growth"]}))
    advance_to(table, 1, "upkeep")
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Giant Growth", targets=(CardRef("Waterfall Aerialist"),)))
    assert events_of(table, "AbilityTriggered") == []
