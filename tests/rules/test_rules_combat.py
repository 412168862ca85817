"""Combat (506-511) in a two-player game, rule by rule on concrete boards: who may attack,
blocking restrictions, dividing damage among blockers, trample, the end of combat."""

from __future__ import annotations

import pytest

from mtg_ledger.core.commands import ActivateAbility, AssignDamage, CardRef, CastSpell, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.decision import Decision, pending_decision
from mtg_ledger.core.table import LocalTable
from tests.helpers import (
    advance_to,
    attack,
    block,
    both_pass,
    dealt,
    events_of,
    last,
    obj,
    perm,
    refused,
    start,
    two_players,
    types_since,
)

BEARS, LIONS, GIANT, ELVES = CardRef("Grizzly Bears"), CardRef("Savannah Lions"), CardRef("Hill Giant"), CardRef("Llanowar Elves")
ANGEL, SPIDER, MAW = CardRef("Serra Angel"), CardRef("Giant Spider"), CardRef("Colossal Dreadmaw")


# --- 508.1a, 302.6: which creatures can attack -------------------------------------------------


def test_a_tapped_creature_cannot_attack_and_the_active_player_is_asked_again_508_1a():
    table = start(two_players(alice={"battlefield": ["Llanowar Elves", "Hill Giant"]}))
    advance_to(table, 1, "beginning_of_combat")
    table.handle(ActivateAbility("alice", ELVES))
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((ELVES, None), (GIANT, None))), "508.1a")

    table.handle(DeclareAttackers("alice", ((GIANT, None),)))
    assert [a["object"] for a in last(table, "AttackersDeclared")["attackers"]] == [obj(table, "Hill Giant")]


def test_a_creature_that_came_under_its_controllers_control_this_turn_cannot_attack_302_6():
    table = start(two_players(alice={"battlefield": ["Forest", "Forest", "Hill Giant"], "hand": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Grizzly Bears"))
    both_pass(table)
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((GIANT, None), (BEARS, None))), "302.6")

    table.handle(DeclareAttackers("alice", ((GIANT, None),)))
    assert perm(table, "Hill Giant").attacking == "bob" and perm(table, "Grizzly Bears").attacking is None


# --- 508.1f, 702.20: vigilance ---------------------------------------------------------------


def test_serra_angel_attacks_without_tapping_702_20b():
    table = start(two_players(alice={"battlefield": ["Serra Angel", "Grizzly Bears"]}))
    attack(table, ANGEL, BEARS)

    declared = last(table, "AttackersDeclared")
    assert [a["object"] for a in declared["attackers"]] == [obj(table, "Serra Angel"), obj(table, "Grizzly Bears")]
    assert declared["tapped"] == [obj(table, "Grizzly Bears")]
    angel = perm(table, "Serra Angel")
    assert angel.attacking == "bob" and not angel.tapped
    assert perm(table, "Grizzly Bears").tapped


# --- 509.1, 702.9b, 702.17b: flying and reach ----------------------------------------------------


def test_a_creature_without_flying_or_reach_cannot_block_serra_angel_702_9b():
    table = start(two_players(alice={"battlefield": ["Serra Angel"]}, bob={"battlefield": ["Grizzly Bears", "Giant Spider"]}))
    attack(table, ANGEL)
    advance_to(table, 1, "declare_blockers")

    refused(table, DeclareBlockers("bob", ((BEARS, ANGEL),)), "702.9b")
    assert not events_of(table, "BlockersDeclared")


def test_giant_spider_with_reach_can_block_serra_angel_702_17b():
    table = start(two_players(alice={"battlefield": ["Serra Angel"]}, bob={"battlefield": ["Grizzly Bears", "Giant Spider"]}))
    attack(table, ANGEL)
    block(table, (SPIDER, ANGEL))

    assert last(table, "BlockersDeclared")["blockers"] == [
        {"object": obj(table, "Giant Spider"), "card": "Giant Spider", "attacker": obj(table, "Serra Angel")}
    ]
    angel = perm(table, "Serra Angel")
    assert angel.blocked and angel.blocked_by == [obj(table, "Giant Spider")]


def test_several_creatures_can_block_one_attacker_509_1a():
    table = start(two_players(alice={"battlefield": ["Serra Angel"]}, bob={"battlefield": ["Giant Spider", "Giant Spider"]}))
    first, second = obj(table, "Giant Spider"), obj(table, "Giant Spider", 1)
    attack(table, ANGEL)
    block(table, (CardRef("Giant Spider", 1), ANGEL), (SPIDER, ANGEL))

    angel = perm(table, "Serra Angel")
    assert angel.blocked_by == [second, first]  # in the order they were declared
    assert perm(table, "Giant Spider").blocking == perm(table, "Giant Spider", 1).blocking == [angel.object]


# --- 510.1c-d: an attacker blocked by several creatures -----------------------------------------


def giant_blocked_by_two() -> LocalTable:
    table = start(two_players(alice={"battlefield": ["Hill Giant"]}, bob={"battlefield": ["Savannah Lions", "Grizzly Bears"]}))
    attack(table, GIANT)
    block(table, (LIONS, GIANT), (BEARS, GIANT))
    advance_to(table, 1, "combat_damage")
    return table


def test_the_game_waits_for_the_active_player_to_divide_the_damage_of_an_attacker_blocked_by_two_510_1c():
    table = giant_blocked_by_two()

    assert pending_decision(table.state) == Decision("assign_damage", "alice")
    assert types_since(table, last(table, "StepBegan")["v"]) == []  # no damage, no priority yet
    assert last(table, "StepBegan")["first_strike"] is False


def test_all_the_damage_may_go_to_the_second_blocker_510_1c():
    table = giant_blocked_by_two()
    giant, lions, bears = obj(table, "Hill Giant"), obj(table, "Savannah Lions"), obj(table, "Grizzly Bears")

    table.handle(AssignDamage("alice", ((GIANT, ((BEARS, 3),)),)))

    assert dealt(last(table, "CombatDamageDealt")) == [(giant, bears, 3), (lions, giant, 2), (bears, giant, 2)]
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]
    assert perm(table, "Savannah Lions").damage == 0
    assert table.state.players["alice"].graveyard == ["Hill Giant"]
    assert table.state.priority == "alice"


@pytest.mark.parametrize("division", [((LIONS, 1), (BEARS, 1)), ((LIONS, 1), (BEARS, 3))], ids=["too-little", "too-much"])
def test_a_division_that_does_not_total_the_attackers_power_is_rejected_510_1(division):
    table = giant_blocked_by_two()

    refused(table, AssignDamage("alice", ((GIANT, division),)), "510.1")
    assert not events_of(table, "CombatDamageDealt")


def test_the_default_division_is_lethal_damage_to_each_blocker_in_declaration_order_510_1c():
    table = giant_blocked_by_two()
    giant, lions, bears = obj(table, "Hill Giant"), obj(table, "Savannah Lions"), obj(table, "Grizzly Bears")

    table.handle(AssignDamage("alice", ()))

    assert [d for d in dealt(last(table, "CombatDamageDealt")) if d[0] == giant] == [(giant, lions, 1), (giant, bears, 2)]
    assert table.state.players["bob"].graveyard == ["Savannah Lions", "Grizzly Bears"]


def test_only_the_active_player_divides_the_attackers_damage_510_1c():
    table = giant_blocked_by_two()

    refused(table, AssignDamage("bob", ()), "510.1")


def test_an_unblocked_attacker_named_in_the_division_deals_its_damage_to_the_player_it_attacks_510_1a():
    table = start(
        two_players(
            alice={"battlefield": ["Hill Giant", "Savannah Lions"]}, bob={"battlefield": ["Grizzly Bears", "Llanowar Elves"]}
        )
    )
    attack(table, GIANT, LIONS)
    block(table, (BEARS, GIANT), (ELVES, GIANT))
    advance_to(table, 1, "combat_damage")
    giant, lions, bears, elves = (
        obj(table, "Hill Giant"),
        obj(table, "Savannah Lions"),
        obj(table, "Grizzly Bears"),
        obj(table, "Llanowar Elves"),
    )

    table.handle(AssignDamage("alice", ((GIANT, ((BEARS, 2), (ELVES, 1))), (LIONS, (("bob", 2),)))))

    assert [d for d in dealt(last(table, "CombatDamageDealt")) if d[0] in (giant, lions)] == [
        (giant, bears, 2),
        (giant, elves, 1),
        (lions, "bob", 2),
    ]


def test_a_blocked_creature_without_trample_cannot_assign_damage_to_the_player_510_1c():
    table = giant_blocked_by_two()

    refused(table, AssignDamage("alice", ((GIANT, ((LIONS, 1), ("bob", 2))),)), "510.1c")


# --- 702.19: trample ---------------------------------------------------------------------------


def dreadmaw_blocked_by_bears(**alice) -> LocalTable:
    table = start(two_players(alice={"battlefield": ["Colossal Dreadmaw"], **alice}, bob={"battlefield": ["Grizzly Bears"]}))
    attack(table, MAW)
    block(table, (BEARS, MAW))
    return table


def test_a_trampler_by_default_assigns_lethal_damage_to_its_blocker_and_the_rest_to_the_player_702_19b():
    table = dreadmaw_blocked_by_bears()
    advance_to(table, 1, "combat_damage")
    assert pending_decision(table.state) == Decision("assign_damage", "alice")
    maw, bears = obj(table, "Colossal Dreadmaw"), obj(table, "Grizzly Bears")

    table.handle(AssignDamage("alice", ()))

    assert dealt(last(table, "CombatDamageDealt")) == [(maw, bears, 2), (maw, "bob", 4), (bears, maw, 2)]
    assert table.state.players["bob"].life == 16
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]


def test_a_trampler_may_assign_more_than_lethal_damage_to_its_blocker_702_19b():
    table = dreadmaw_blocked_by_bears()
    advance_to(table, 1, "combat_damage")
    maw, bears = obj(table, "Colossal Dreadmaw"), obj(table, "Grizzly Bears")

    table.handle(AssignDamage("alice", ((MAW, ((BEARS, 5), ("bob", 1))),)))

    assert [d for d in dealt(last(table, "CombatDamageDealt")) if d[0] == maw] == [(maw, bears, 5), (maw, "bob", 1)]
    assert table.state.players["bob"].life == 19


@pytest.mark.parametrize("division", [(("bob", 6),), ((BEARS, 1), ("bob", 5))], ids=["all-to-player", "one-to-the-bears"])
def test_a_trampler_cannot_assign_damage_to_the_player_before_lethal_damage_to_its_blocker_702_19b(division):
    table = dreadmaw_blocked_by_bears()
    advance_to(table, 1, "combat_damage")

    refused(table, AssignDamage("alice", ((MAW, division),)), "702.19b")
    assert table.state.players["bob"].life == 20


def test_a_trampler_whose_blocker_was_removed_deals_all_its_damage_to_the_player_702_19e():
    table = dreadmaw_blocked_by_bears(battlefield=["Colossal Dreadmaw", "Mountain"], hand=["Lightning Bolt"])
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(BEARS,)))
    both_pass(table)
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]
    assert perm(table, "Colossal Dreadmaw").blocked  # it stays blocked (509.1h)

    advance_to(table, 1, "combat_damage")

    assert pending_decision(table.state) == Decision("priority", "alice")  # nothing left to divide
    assert dealt(last(table, "CombatDamageDealt")) == [(obj(table, "Colossal Dreadmaw"), "bob", 6)]
    assert table.state.players["bob"].life == 14


# --- 511.3: end of combat -----------------------------------------------------------------------


def test_after_the_end_of_combat_step_no_creature_is_attacking_or_blocking_511_3():
    table = start(two_players(alice={"battlefield": ["Hill Giant", "Savannah Lions"]}, bob={"battlefield": ["Giant Spider"]}))
    attack(table, GIANT, LIONS)
    block(table, (SPIDER, GIANT))
    advance_to(table, 1, "end_of_combat")
    assert perm(table, "Giant Spider").blocking == [obj(table, "Hill Giant")]

    advance_to(table, 1, "postcombat_main")

    removed = last(table, "RemovedFromCombat")
    assert table.events[removed["v"] - 2]["type"] == "StepEnded"  # as the end of combat step ends
    assert removed["permanents"] == [obj(table, "Hill Giant"), obj(table, "Savannah Lions"), obj(table, "Giant Spider")]
    for p in table.state.battlefield:
        assert (p.attacking, p.blocking, p.blocked, p.blocked_by) == (None, [], False, [])


# --- 506.4, 508.8: an attacker removed after it was declared ----------------------------------------


def test_an_attacker_removed_after_declaration_leaves_the_rest_of_the_attack_in_place_506_4():
    table = start(
        two_players(
            alice={"battlefield": ["Grizzly Bears", "Savannah Lions"]},
            bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
        )
    )
    lions = obj(table, "Savannah Lions")
    attack(table, BEARS, LIONS)
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(BEARS,)))
    both_pass(table, "bob", "alice")
    assert table.state.players["alice"].graveyard == ["Grizzly Bears"]

    advance_to(table, 1, "end_of_combat")

    steps = [e["step"] for e in events_of(table, "StepBegan")]
    assert steps[steps.index("declare_attackers") :] == [
        "declare_attackers",
        "declare_blockers",
        "combat_damage",
        "end_of_combat",
    ]
    assert last(table, "BlockersDeclared")["player"] == "bob"
    assert dealt(last(table, "CombatDamageDealt")) == [(lions, "bob", 2)]
    assert table.state.players["bob"].life == 18


def test_removing_the_only_attacker_still_leaves_the_declare_blockers_and_combat_damage_steps_508_8():
    table = start(
        two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]})
    )
    attack(table, BEARS)
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(BEARS,)))
    both_pass(table, "bob", "alice")

    advance_to(table, 1, "end_of_combat")

    steps = [e["step"] for e in events_of(table, "StepBegan")]
    assert steps[steps.index("declare_attackers") :] == [
        "declare_attackers",
        "declare_blockers",
        "combat_damage",
        "end_of_combat",
    ]
    assert dealt(last(table, "CombatDamageDealt")) == []
    assert table.state.players["bob"].life == 20
