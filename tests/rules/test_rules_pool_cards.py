"""Rules the cards of the pool brought with them, each pinned on a concrete board with the pool's own
card files: static abilities that forbid attacking or blocking (508.1a, 509.1a), target specs beyond
creature and player (115.1), damage to each opponent, life lost by a target player, and a "whenever you
cast a noncreature spell" trigger that grants a keyword."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.errors import CannotPay, IllegalTarget
from tests.helpers import advance_to, attack, both_pass, events_of, last, obj, perm, refused, take_choices, two_players
from tests.rules.mechanics_cards import start


def test_an_enchanted_creature_that_cant_attack_or_block_is_refused_as_attacker_and_as_blocker_508_1a_509_1a():
    table = start(
        two_players(alice={"battlefield": ["Plains", "Plains", "Hill Giant"], "hand": ["Pacifism"]}, bob={"battlefield": ["Grizzly Bears", "Savannah Lions"]})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Pacifism", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    assert perm(table, "Pacifism").attached_to == perm(table, "Grizzly Bears").object
    attack(table, CardRef("Hill Giant"))
    advance_to(table, 1, "declare_blockers")
    refused(table, DeclareBlockers("bob", ((CardRef("Grizzly Bears"), CardRef("Hill Giant")),)), "509.1a")
    advance_to(table, 2, "declare_attackers")
    refused(table, DeclareAttackers("bob", ((CardRef("Grizzly Bears"), None),)), "508.1a")


def test_a_creature_that_cant_block_is_refused_as_a_blocker_but_attacks_509_1a():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Hulking Goblin", "Savannah Lions"]}))
    attack(table, CardRef("Grizzly Bears"))
    advance_to(table, 1, "declare_blockers")
    refused(table, DeclareBlockers("bob", ((CardRef("Hulking Goblin"), CardRef("Grizzly Bears")),)), "509.1a")
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((CardRef("Hulking Goblin"), None),)))
    assert perm(table, "Hulking Goblin").attacking == "alice"


def test_a_spell_aimed_at_a_player_or_planeswalker_hits_a_planeswalker_and_not_a_creature_115_1():
    table = start(two_players(alice={"battlefield": ["Mountain"] * 5, "hand": ["Lava Axe"]}, bob={"battlefield": ["Jace Beleren", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, CastSpell("alice", "Lava Axe", targets=(CardRef("Grizzly Bears"),)), "115.1", IllegalTarget)
    table.handle(CastSpell("alice", "Lava Axe", targets=(CardRef("Jace Beleren"),)))
    both_pass(table)
    assert [[p["card"] for p in e["permanents"]] for e in events_of(table, "PermanentsPutIntoGraveyard")] == [["Jace Beleren"]]  # 704.5i


def test_destroy_target_nonblack_creature_cannot_target_a_black_one_115_1_701_8():
    table = start(two_players(alice={"battlefield": ["Swamp", "Swamp"], "hand": ["Doom Blade"]}, bob={"battlefield": ["Typhoid Rats", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, CastSpell("alice", "Doom Blade", targets=(CardRef("Typhoid Rats"),)), "115.1", IllegalTarget)
    table.handle(CastSpell("alice", "Doom Blade", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]


def test_destroy_target_artifact_or_enchantment_takes_an_equipment_not_a_creature_115_1():
    table = start(two_players(alice={"battlefield": ["Forest", "Forest"], "hand": ["Naturalize"]}, bob={"battlefield": ["Bonesplitter", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, CastSpell("alice", "Naturalize", targets=(CardRef("Grizzly Bears"),)), "115.1", IllegalTarget)
    table.handle(CastSpell("alice", "Naturalize", targets=(CardRef("Bonesplitter"),)))
    both_pass(table)
    assert table.state.players["bob"].graveyard == ["Bonesplitter"]


def test_target_player_draws_two_cards_and_loses_two_life_119_3_121_2():
    table = start(two_players(alice={"battlefield": ["Swamp", "Swamp"], "hand": ["Sign in Blood"]}))
    advance_to(table, 1, "precombat_main")
    hand = len(table.state.players["bob"].hand)
    table.handle(CastSpell("alice", "Sign in Blood", targets=("bob",)))
    both_pass(table)
    assert (len(table.state.players["bob"].hand), table.state.players["bob"].life) == (hand + 2, 18)
    assert table.state.players["alice"].life == 20


def test_a_trigger_that_deals_damage_to_each_opponent_when_its_controller_casts_a_noncreature_spell_120_3():
    table = start(two_players(alice={"battlefield": ["Firebrand Archer", "Mountain"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    both_pass(table)  # the trigger resolves first
    assert table.state.players["bob"].life == 19
    both_pass(table)
    assert (table.state.players["bob"].life, table.state.players["alice"].life) == (16, 20)


def test_a_noncreature_spell_gives_prowess_and_lifelink_until_end_of_turn_702_108a_702_15b():
    table = start(two_players(alice={"battlefield": ["Seeker of the Way", "Mountain"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    seeker = perm(table, "Seeker of the Way")
    assert [t["card"] for t in events_of(table, "AbilityTriggered")] == ["Seeker of the Way"] * 2  # its trigger, then prowess
    take_choices(table)  # alice puts both on the stack, in the order they triggered
    both_pass(table)
    both_pass(table)
    both_pass(table)
    assert (ch.power(table.state, seeker), ch.toughness(table.state, seeker)) == (3, 3)
    assert ch.has_keyword(table.state, seeker, "lifelink")
    advance_to(table, 2, "upkeep")
    assert not ch.has_keyword(table.state, seeker, "lifelink")  # 514.2


def test_an_ability_with_the_tap_symbol_in_its_cost_taps_its_source_and_waits_for_it_to_untap_107_5_602_2b():
    table = start(two_players(alice={"battlefield": ["Prodigal Pyromancer"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Prodigal Pyromancer"), 0, targets=("bob",)))
    assert perm(table, "Prodigal Pyromancer").tapped
    assert last(table, "PermanentsTapped") == {**last(table, "PermanentsTapped"), "permanents": [obj(table, "Prodigal Pyromancer")], "rule": "107.5"}
    both_pass(table)
    assert table.state.players["bob"].life == 19
    refused(table, ActivateAbility("alice", CardRef("Prodigal Pyromancer"), 0, targets=("bob",)), "602.2b", CannotPay)


def test_a_creature_cannot_pay_a_tap_symbol_cost_the_turn_it_arrives_302_6():
    table = start(two_players(alice={"battlefield": ["Mountain", "Mountain", "Mountain"], "hand": ["Prodigal Pyromancer"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Prodigal Pyromancer"))
    both_pass(table)
    refused(table, ActivateAbility("alice", CardRef("Prodigal Pyromancer"), 0, targets=("bob",)), "302.6", CannotPay)


def test_a_tap_symbol_cost_is_not_paid_by_tapping_the_same_permanent_for_mana_107_5():
    table = start(two_players(alice={"battlefield": ["Mind Stone"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, ActivateAbility("alice", CardRef("Mind Stone"), 1), "602.2b", CannotPay)  # {1} only Mind Stone could pay


def test_tap_target_creature_taps_it_701_26a():
    table = start(two_players(alice={"battlefield": ["Plains", "Master Decoy"]}, bob={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Master Decoy"), 0, targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    assert perm(table, "Grizzly Bears").tapped and perm(table, "Master Decoy").tapped


def test_a_creature_that_enters_tapped_is_tapped_as_it_arrives_614_1c():
    table = start(two_players(alice={"battlefield": ["Swamp", "Swamp", "Swamp"], "hand": ["Carrion Crow"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Carrion Crow"))
    both_pass(table)
    assert perm(table, "Carrion Crow").tapped
    assert last(table, "PermanentsTapped")["rule"] == "614.1c"


def test_a_creature_that_attacks_triggers_its_attack_ability_once_attackers_are_declared_508_1m():
    table = start(two_players(alice={"battlefield": ["Hollow Dogs"]}))
    attack(table, CardRef("Hollow Dogs"))
    assert [t["card"] for t in events_of(table, "AbilityTriggered")] == ["Hollow Dogs"]
    both_pass(table)
    dogs = perm(table, "Hollow Dogs")
    assert (ch.power(table.state, dogs), ch.toughness(table.state, dogs)) == (5, 3)


def test_a_blocker_triggers_its_block_ability_and_an_attacker_its_becomes_blocked_ability_once_509_1i():
    table = start(two_players(alice={"battlefield": ["Dwarven Berserker"]}, bob={"battlefield": ["Pride Guardian", "Wall of Wood"]}))
    attack(table, CardRef("Dwarven Berserker"))
    advance_to(table, 1, "declare_blockers")
    table.handle(DeclareBlockers("bob", ((CardRef("Pride Guardian"), CardRef("Dwarven Berserker")), (CardRef("Wall of Wood"), CardRef("Dwarven Berserker")))))
    assert sorted(t["card"] for t in events_of(table, "AbilityTriggered")) == ["Dwarven Berserker", "Pride Guardian"]  # once each
    take_choices(table)
    both_pass(table)
    both_pass(table)
    berserker = perm(table, "Dwarven Berserker")
    assert (ch.power(table.state, berserker), ch.has_keyword(table.state, berserker, "trample")) == (1 + 3, True)
    assert table.state.players["bob"].life == 23


def test_counter_target_creature_spell_takes_a_creature_spell_and_refuses_another_115_1_701_6a():
    table = start(
        two_players(
            alice={"battlefield": ["Forest", "Forest", "Mountain"], "hand": ["Grizzly Bears", "Lightning Bolt"]},
            bob={"battlefield": ["Island", "Island", "Island", "Island"], "hand": ["Essence Scatter", "Negate"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Grizzly Bears"))
    table.handle(PassPriority("alice"))
    refused(table, CastSpell("bob", "Negate", targets=(CardRef("Grizzly Bears"),)), "115.1", IllegalTarget)
    table.handle(CastSpell("bob", "Essence Scatter", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table, "bob", "alice")
    assert [(e["card"], e["rule"]) for e in events_of(table, "ObjectCountered")] == [("Grizzly Bears", "701.6a")]
    assert table.state.players["alice"].graveyard == ["Grizzly Bears"]
