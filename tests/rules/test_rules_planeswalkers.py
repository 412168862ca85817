"""Planeswalkers (306, 606): loyalty counters as it enters, loyalty abilities activated as a sorcery
once each turn and numbered as CONTRACT 7 says, attacks on planeswalkers (506.3, 508.1b), combat damage
removing loyalty (120.3c), 704.5i, and removal from combat at the end of combat (511.3)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.errors import CannotPay, WrongTiming
from mtg_ledger.core.legal import legal_actions
from tests.helpers import advance_to, both_pass, events_of, last, obj, perm, refused, three_players, two_players
from tests.rules.mechanics_cards import start

JACE = CardRef("Jace Beleren")


def test_a_planeswalker_enters_with_its_printed_loyalty_in_loyalty_counters_306_5b():
    table = start(two_players(alice={"battlefield": ["Island", "Island", "Island"], "hand": ["Jace Beleren"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Jace Beleren"))
    both_pass(table)
    jace = perm(table, "Jace Beleren")
    assert ch.loyalty(jace) == 3
    assert last(table, "CountersAdded") == {**last(table, "CountersAdded"), "object": jace.object, "kind": "loyalty", "count": 3}


def test_a_planeswalker_on_the_battlefield_as_the_game_starts_has_its_loyalty_306_5b():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}))
    assert ch.loyalty(perm(table, "Jace Beleren")) == 3


def test_a_plus_loyalty_ability_puts_loyalty_counters_on_as_its_cost_and_resolves_606_4():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"], "library": ["Island"] * 5}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", JACE, 0))  # +2, its first activated ability (CONTRACT 7)
    assert ch.loyalty(perm(table, "Jace Beleren")) == 5  # paid as it is activated
    hands = (len(table.state.players["alice"].hand), len(table.state.players["bob"].hand))
    both_pass(table)
    assert (len(table.state.players["alice"].hand), len(table.state.players["bob"].hand)) == (hands[0] + 1, hands[1] + 1)


def test_a_minus_loyalty_ability_removes_loyalty_counters_and_targets_a_player_606_4():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}))
    advance_to(table, 1, "precombat_main")
    bob_hand = len(table.state.players["bob"].hand)
    table.handle(ActivateAbility("alice", JACE, 1, targets=("bob",)))
    assert ch.loyalty(perm(table, "Jace Beleren")) == 2
    assert last(table, "AbilityActivated")["targets"] == ["bob"]
    both_pass(table)
    assert len(table.state.players["bob"].hand) == bob_hand + 1


def test_only_one_loyalty_ability_of_a_permanent_is_activated_each_turn_606_3():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", JACE, 0))
    both_pass(table)
    refused(table, ActivateAbility("alice", JACE, 1, targets=("bob",)), "606.3", WrongTiming)
    assert not [a for a in legal_actions(table.state) if isinstance(a, ActivateAbility)]


def test_a_loyalty_ability_is_activated_only_as_a_sorcery_606_3():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}))
    advance_to(table, 1, "upkeep")
    refused(table, ActivateAbility("alice", JACE, 0), "606.3", WrongTiming)
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", JACE, 1, targets=("alice",)))
    refused(table, ActivateAbility("bob", JACE, 0), "117.1")  # not bob's to activate, nor his priority


def test_a_loyalty_ability_cannot_remove_more_loyalty_counters_than_the_planeswalker_has_606_6():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, ActivateAbility("alice", JACE, 2, targets=("bob",)), "606.6", CannotPay)


def test_the_legal_actions_list_each_loyalty_ability_with_each_of_its_targets_606():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}))
    advance_to(table, 1, "precombat_main")
    jace = obj(table, "Jace Beleren")
    listed = [a for a in legal_actions(table.state) if isinstance(a, ActivateAbility)]
    assert listed == [
        ActivateAbility("alice", jace, 0),
        ActivateAbility("alice", jace, 1, ("alice",)),
        ActivateAbility("alice", jace, 1, ("bob",)),
    ]


def test_a_creature_may_attack_a_planeswalker_its_opponent_controls_and_its_damage_removes_loyalty_120_3c():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}, bob={"battlefield": ["Grizzly Bears"]}))
    jace, bears = obj(table, "Jace Beleren"), obj(table, "Grizzly Bears")
    advance_to(table, 2, "declare_attackers")
    assert DeclareAttackers("bob", ((bears, jace),)) in list(legal_actions(table.state))
    table.handle(DeclareAttackers("bob", ((bears, jace),)))
    attacked = last(table, "AttackersDeclared")["attackers"]
    assert attacked == [{"object": bears, "card": "Grizzly Bears", "defender": "alice", "attacked": jace}]  # 506.2: alice defends
    advance_to(table, 2, "end_of_combat")
    assert ch.loyalty(perm(table, "Jace Beleren")) == 1
    assert table.state.players["alice"].life == 20


def test_a_planeswalker_with_no_loyalty_counters_goes_to_its_owners_graveyard_704_5i():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((CardRef("Hill Giant"), JACE),)))
    advance_to(table, 2, "end_of_combat")
    assert table.state.players["alice"].graveyard == ["Jace Beleren"]
    assert [e["rule"] for e in events_of(table, "PermanentsPutIntoGraveyard")] == ["704.5i"]


def test_a_creature_cannot_attack_a_planeswalker_its_own_team_controls_508_1b():
    table = start(two_players(alice={"battlefield": ["Jace Beleren", "Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")
    refused(table, DeclareAttackers("alice", ((CardRef("Grizzly Bears"), JACE),)), "508.1b")


def test_the_attacked_planeswalkers_controller_blocks_the_creatures_attacking_it_506_2():
    table = start(two_players(alice={"battlefield": ["Jace Beleren", "Savannah Lions"]}, bob={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((CardRef("Grizzly Bears"), JACE),)))
    advance_to(table, 2, "declare_blockers")
    table.handle(DeclareBlockers("alice", ((CardRef("Savannah Lions"), CardRef("Grizzly Bears")),)))
    advance_to(table, 2, "end_of_combat")
    assert ch.loyalty(perm(table, "Jace Beleren")) == 3


def test_at_end_of_combat_creatures_attacking_a_planeswalker_are_removed_from_combat_511_3():
    table = start(two_players(alice={"battlefield": ["Jace Beleren", "Darksteel Myr"]}, bob={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((CardRef("Grizzly Bears"), JACE),)))
    advance_to(table, 2, "end_of_combat")
    bears = perm(table, "Grizzly Bears")
    assert (bears.attacking, bears.attacking_object) == ("alice", obj(table, "Jace Beleren"))
    table.handle(PassPriority("bob"))
    table.handle(PassPriority("alice"))
    assert (bears.attacking, bears.attacking_object, bears.blocked) == (None, None, False)
    assert last(table, "RemovedFromCombat")["permanents"] == [bears.object]


def test_an_ultimate_loyalty_ability_mills_its_target_player_once_enough_loyalty_is_there_701_17():
    library = ["Island"] * 40  # and Spellbook: no discards to seven on the way
    table = start(two_players(alice={"battlefield": ["Jace Beleren", "Spellbook"], "library": library}, bob={"battlefield": ["Spellbook"], "library": library}))
    for turn in (1, 3, 5, 7):  # +2 each of alice's turns: 3, 5, 7, 9, 11
        advance_to(table, turn, "precombat_main")
        table.handle(ActivateAbility("alice", JACE, 0))
        both_pass(table)
    advance_to(table, 9, "precombat_main")
    assert ch.loyalty(perm(table, "Jace Beleren")) == 11
    left = len(table.state.players["bob"].library)
    table.handle(ActivateAbility("alice", JACE, 2, targets=("bob",)))
    both_pass(table)
    assert len(table.state.players["bob"].library) == left - 20
    assert table.state.players["bob"].graveyard == ["Island"] * 20
    assert ch.loyalty(perm(table, "Jace Beleren")) == 1


def test_any_target_includes_a_planeswalker_and_its_attacker_then_attacks_nothing_506_4c():
    table = start(two_players(alice={"battlefield": ["Jace Beleren"]}, bob={"battlefield": ["Grizzly Bears", "Mountain"], "hand": ["Lightning Bolt"]}))
    jace = obj(table, "Jace Beleren")
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((CardRef("Grizzly Bears"), jace),)))
    assert CastSpell("bob", "Lightning Bolt", targets=(jace,)) in list(legal_actions(table.state))  # 115.4
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(jace,)))
    both_pass(table, "bob", "alice")
    assert table.state.players["alice"].graveyard == ["Jace Beleren"]  # 120.3c, 704.5i
    advance_to(table, 2, "end_of_combat")
    assert [a for e in events_of(table, "CombatDamageDealt") for a in e["assignments"]] == []  # it attacks nothing now
    assert table.state.players["alice"].life == 20


def test_a_trampler_blocked_while_attacking_a_planeswalker_assigns_the_rest_to_the_planeswalker_702_19c():
    table = start(two_players(alice={"battlefield": ["Jace Beleren", "Grizzly Bears"]}, bob={"battlefield": ["Colossal Dreadmaw"]}))
    jace, bears, dreadmaw = obj(table, "Jace Beleren"), obj(table, "Grizzly Bears"), obj(table, "Colossal Dreadmaw")
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((dreadmaw, jace),)))
    advance_to(table, 2, "declare_blockers")
    table.handle(DeclareBlockers("alice", ((bears, dreadmaw),)))
    advance_to(table, 2, "end_of_combat")
    damage = [(a["target"], a["amount"]) for e in events_of(table, "CombatDamageDealt") for a in e["assignments"] if a["source"] == dreadmaw]
    assert damage == [(bears, 2), (jace, 4)]
    assert sorted(table.state.players["alice"].graveyard) == ["Grizzly Bears", "Jace Beleren"]  # 704.5g, 704.5i


def test_in_a_free_for_all_a_creature_may_attack_any_opponents_planeswalker_506_2():
    table = start(three_players("free-for-all", alice={"battlefield": ["Grizzly Bears"]}, carol={"battlefield": ["Jace Beleren"]}))
    advance_to(table, 1, "declare_attackers")
    jace = obj(table, "Jace Beleren")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), jace),)))
    assert last(table, "AttackersDeclared")["attackers"][0]["defender"] == "carol"
    assert table.state.defending_players == ["carol"]
