"""First strike and double strike (510.4, 702.4, 702.7): two combat damage steps, who deals
damage in each, and creatures that gain first strike in between (Kindled Fury)."""

from __future__ import annotations

from mtg_ledger.core.commands import AssignDamage, CardRef, CastSpell
from mtg_ledger.core.decision import Decision, pending_decision
from tests.helpers import (
    advance_to,
    attack,
    block,
    both_pass,
    damage_steps,
    dealt,
    events_of,
    last,
    obj,
    perm,
    refused,
    start,
    two_players,
)

BEARS, LIONS, GIANT = CardRef("Grizzly Bears"), CardRef("Savannah Lions"), CardRef("Hill Giant")
KNIGHT, ACE = CardRef("Youthful Knight"), CardRef("Fencing Ace")


# --- 510.4, 702.7: first strike ---------------------------------------------------------------


def test_a_first_striker_in_combat_makes_two_combat_damage_steps_the_first_marked_first_strike_510_4():
    table = start(two_players(alice={"battlefield": ["Youthful Knight"]}, bob={"battlefield": ["Grizzly Bears"]}))
    knight, bears = obj(table, "Youthful Knight"), obj(table, "Grizzly Bears")
    attack(table, KNIGHT)
    block(table, (BEARS, KNIGHT))

    advance_to(table, 1, "combat_damage")
    assert damage_steps(table) == [True]
    first = last(table, "CombatDamageDealt")
    assert (first["first_strike"], first["first_strikers"], dealt(first)) == (True, [knight], [(knight, bears, 2)])
    assert table.state.priority == "alice"  # players get priority between the two steps

    advance_to(table, 1, "end_of_combat")
    assert damage_steps(table) == [True, False]
    assert [e["step"] for e in events_of(table, "StepEnded")][-2:] == ["combat_damage", "combat_damage"]


def test_a_creature_destroyed_in_the_first_combat_damage_step_deals_no_damage_in_the_second_510_4():
    table = start(two_players(alice={"battlefield": ["Youthful Knight"]}, bob={"battlefield": ["Grizzly Bears"]}))
    attack(table, KNIGHT)
    block(table, (BEARS, KNIGHT))
    advance_to(table, 1, "combat_damage")
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]  # 704.5g before anyone got priority

    advance_to(table, 1, "end_of_combat")

    second = last(table, "CombatDamageDealt")
    assert (second["first_strike"], dealt(second)) == (False, [])
    assert perm(table, "Youthful Knight").damage == 0


def test_a_blocking_first_striker_kills_its_attacker_before_it_deals_damage_510_4():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Youthful Knight"]}))
    knight, bears = obj(table, "Youthful Knight"), obj(table, "Grizzly Bears")
    attack(table, BEARS)
    block(table, (KNIGHT, BEARS))

    advance_to(table, 1, "end_of_combat")

    assert damage_steps(table) == [True, False]
    assert [dealt(e) for e in events_of(table, "CombatDamageDealt")] == [[(knight, bears, 2)], []]
    assert table.state.players["alice"].graveyard == ["Grizzly Bears"]
    assert perm(table, "Youthful Knight").damage == 0


def test_there_is_a_single_combat_damage_step_when_no_creature_in_combat_has_first_or_double_strike_510_4():
    # the Knight is on the battlefield, but not in combat
    table = start(two_players(alice={"battlefield": ["Grizzly Bears", "Youthful Knight"]}))
    attack(table, BEARS)

    advance_to(table, 1, "end_of_combat")

    assert damage_steps(table) == [False]
    assert [e["first_strike"] for e in events_of(table, "CombatDamageDealt")] == [False]
    assert dealt(last(table, "CombatDamageDealt")) == [(obj(table, "Grizzly Bears"), "bob", 2)]


def test_an_attacker_blocked_by_two_is_divided_in_the_combat_damage_step_where_it_deals_damage_510_4_510_1c():
    table = start(
        two_players(
            alice={"battlefield": ["Hill Giant", "Youthful Knight"]}, bob={"battlefield": ["Savannah Lions", "Grizzly Bears"]}
        )
    )
    giant, knight, bears = obj(table, "Hill Giant"), obj(table, "Youthful Knight"), obj(table, "Grizzly Bears")
    attack(table, GIANT, KNIGHT)
    block(table, (LIONS, GIANT), (BEARS, GIANT))

    advance_to(table, 1, "combat_damage")  # the first step: only the Knight deals damage, nothing to divide
    assert pending_decision(table.state) == Decision("priority", "alice")
    assert dealt(last(table, "CombatDamageDealt")) == [(knight, "bob", 2)]
    both_pass(table)

    assert (table.state.first_strike_step, pending_decision(table.state)) == (False, Decision("assign_damage", "alice"))
    refused(table, AssignDamage("alice", ((KNIGHT, (("bob", 2),)),)), "510.4")  # its damage was dealt
    table.handle(AssignDamage("alice", ((GIANT, ((BEARS, 3),)),)))
    assert [d for d in dealt(last(table, "CombatDamageDealt")) if d[0] == giant] == [(giant, bears, 3)]


# --- 702.4: double strike ---------------------------------------------------------------------


def test_an_unblocked_double_striker_deals_damage_in_both_combat_damage_steps_702_4b():
    table = start(two_players(alice={"battlefield": ["Fencing Ace"]}))
    ace = obj(table, "Fencing Ace")
    attack(table, ACE)

    advance_to(table, 1, "end_of_combat")

    damage = events_of(table, "CombatDamageDealt")
    assert [(e["first_strike"], dealt(e)) for e in damage] == [(True, [(ace, "bob", 1)]), (False, [(ace, "bob", 1)])]
    assert damage[0]["first_strikers"] == [ace]
    assert table.state.players["bob"].life == 18


# --- 702.7c, 510.4: gaining first strike mid-combat (Kindled Fury) ----------------------------------


def test_a_creature_that_gains_first_strike_after_first_strike_damage_still_deals_damage_in_the_second_step_702_7c():
    table = start(two_players(alice={"battlefield": ["Youthful Knight", "Grizzly Bears", "Mountain"], "hand": ["Kindled Fury"]}))
    knight, bears = obj(table, "Youthful Knight"), obj(table, "Grizzly Bears")
    attack(table, KNIGHT, BEARS)
    advance_to(table, 1, "combat_damage")
    assert dealt(last(table, "CombatDamageDealt")) == [(knight, "bob", 2)]

    table.handle(CastSpell("alice", "Kindled Fury", targets=(BEARS,)))  # with priority in the first step
    both_pass(table)
    assert last(table, "EffectCreated")["effect"]["keywords"] == ["first strike"]
    assert (table.state.step, table.state.first_strike_step) == ("combat_damage", True)

    advance_to(table, 1, "end_of_combat")

    second = last(table, "CombatDamageDealt")
    assert (second["first_strike"], dealt(second)) == (False, [(bears, "bob", 3)])  # the Knight doesn't strike again
    assert table.state.players["bob"].life == 15


def test_a_creature_with_first_strike_as_the_first_step_began_deals_no_damage_in_the_second_step_510_4():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears", "Mountain"], "hand": ["Kindled Fury"]}))
    bears = obj(table, "Grizzly Bears")
    attack(table, BEARS)
    advance_to(table, 1, "declare_blockers")
    table.handle(CastSpell("alice", "Kindled Fury", targets=(BEARS,)))
    both_pass(table)

    advance_to(table, 1, "end_of_combat")

    damage = events_of(table, "CombatDamageDealt")
    assert [(e["first_strike"], dealt(e)) for e in damage] == [(True, [(bears, "bob", 3)]), (False, [])]
    assert damage[0]["first_strikers"] == [bears]
    assert table.state.players["bob"].life == 17
