"""Combat with three players: the single-defender choice (507.1), attacking several opponents
in a free-for-all (506.2, 802), who declares blockers and when (509.1, 101.4)."""

from __future__ import annotations

import pytest

from mtg_ledger.core.commands import CardRef, CastSpell, ChooseDefender, Concede, DeclareAttackers, DeclareBlockers
from mtg_ledger.core.decision import Decision, pending_decision
from mtg_ledger.core.table import LocalTable
from tests.helpers import advance_to, both_pass, dealt, events_of, last, obj, perm, refused, start, three_players, types_since

BEARS, LIONS, GIANT = CardRef("Grizzly Bears"), CardRef("Savannah Lions"), CardRef("Hill Giant")


def blockers_asked(table: LocalTable) -> list[str]:
    """Answer every declare_blockers decision of this step with no blocks; who was asked, in order."""
    asked = []
    while (decision := pending_decision(table.state)) is not None and decision.kind == "declare_blockers":
        asked.append(decision.player)
        table.handle(DeclareBlockers(decision.player, ()))
    return asked


# --- 507.1: the single-defender format ------------------------------------------------------------


def single_defender() -> LocalTable:
    table = start(three_players("single-defender", alice={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "beginning_of_combat")
    return table


def test_the_active_player_chooses_the_defending_player_as_combat_begins_before_anyone_gets_priority_507_1():
    table = single_defender()

    assert pending_decision(table.state) == Decision("choose_defender", "alice")
    began = last(table, "StepBegan")
    assert began["step"] == "beginning_of_combat" and types_since(table, began["v"]) == []

    table.handle(ChooseDefender("alice", "carol"))

    assert types_since(table, began["v"]) == ["DefendingPlayerChosen", "PriorityGiven"]
    chosen = last(table, "DefendingPlayerChosen")
    assert (chosen["player"], chosen["chooser"]) == ("carol", "alice")
    assert table.state.priority == "alice"


@pytest.mark.parametrize("defender", ["alice", "dave"], ids=["oneself", "not-a-player"])
def test_only_an_opponent_can_be_chosen_as_the_defending_player_507_1(defender):
    table = single_defender()

    refused(table, ChooseDefender("alice", defender), "507.1")
    assert not events_of(table, "DefendingPlayerChosen")


def test_a_player_other_than_the_active_player_cannot_choose_the_defending_player_507_1():
    table = single_defender()

    refused(table, ChooseDefender("bob", "carol"), "507.1")


def test_a_creature_cannot_attack_an_opponent_who_is_not_the_chosen_defending_player_508_1b():
    table = single_defender()
    table.handle(ChooseDefender("alice", "carol"))
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((BEARS, "bob"),)), "508.1b")

    table.handle(DeclareAttackers("alice", ((BEARS, None),)))  # the chosen player is the only one it can attack
    assert last(table, "AttackersDeclared")["attackers"] == [
        {"object": obj(table, "Grizzly Bears"), "card": "Grizzly Bears", "defender": "carol"}
    ]
    advance_to(table, 1, "end_of_combat")
    assert table.state.players["carol"].life == 18 and table.state.players["bob"].life == 20


def test_with_one_opponent_left_the_defending_player_is_chosen_automatically_507_1():
    table = start(three_players("single-defender", alice={"battlefield": ["Grizzly Bears"]}))
    table.handle(Concede("carol"))

    advance_to(table, 1, "beginning_of_combat")

    began = last(table, "StepBegan")
    assert types_since(table, began["v"]) == ["DefendingPlayerChosen", "PriorityGiven"]
    chosen = last(table, "DefendingPlayerChosen")
    assert (chosen["player"], chosen["chooser"]) == ("bob", "alice")
    assert pending_decision(table.state) == Decision("priority", "alice")


# --- 506.2, 802.2-802.4: attacking several opponents in a free-for-all ----------------------------------


def everyone_with_bears_and_lions() -> LocalTable:
    both = {"battlefield": ["Grizzly Bears", "Savannah Lions"]}
    return start(three_players("free-for-all", alice=both, bob=both, carol=both))


def test_creatures_may_attack_different_opponents_in_the_same_combat_506_2_802_2():
    table = start(three_players("free-for-all", alice={"battlefield": ["Grizzly Bears", "Savannah Lions"]}))
    advance_to(table, 1, "beginning_of_combat")
    assert pending_decision(table.state) == Decision("priority", "alice")  # no defending player is chosen
    advance_to(table, 1, "declare_attackers")

    table.handle(DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "carol"))))

    bears, lions = obj(table, "Grizzly Bears"), obj(table, "Savannah Lions")
    assert [(a["object"], a["defender"]) for a in last(table, "AttackersDeclared")["attackers"]] == [
        (bears, "bob"),
        (lions, "carol"),
    ]
    assert not events_of(table, "DefendingPlayerChosen")
    advance_to(table, 1, "end_of_combat")
    assert dealt(last(table, "CombatDamageDealt")) == [(bears, "bob", 2), (lions, "carol", 2)]
    assert (table.state.players["bob"].life, table.state.players["carol"].life) == (18, 18)


def test_an_attacker_must_be_told_which_opponent_it_attacks_when_there_are_several_508_1b():
    table = start(three_players("free-for-all", alice={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((BEARS, None),)), "508.1b")


def test_a_creature_cannot_attack_its_own_controller_508_1b():
    table = start(three_players("free-for-all", alice={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((BEARS, "alice"),)), "508.1b")


@pytest.mark.parametrize(
    ("turn", "attacker", "defenders"),
    [
        (1, "alice", ("bob", "carol")),
        (2, "bob", ("carol", "alice")),
        (3, "carol", ("alice", "bob")),
    ],
    ids=["alice-attacks", "bob-attacks", "carol-attacks"],
)
def test_each_attacked_player_declares_blockers_in_apnap_order_509_1_101_4(turn, attacker, defenders):
    table = everyone_with_bears_and_lions()
    advance_to(table, turn, "declare_attackers")
    seat = ["alice", "bob", "carol"].index(attacker)  # each player's Bears and Lions, in seating order
    table.handle(
        DeclareAttackers(
            attacker, ((CardRef("Grizzly Bears", seat), defenders[0]), (CardRef("Savannah Lions", seat), defenders[1]))
        )
    )
    advance_to(table, turn, "declare_blockers")

    assert blockers_asked(table) == list(defenders)
    assert [e["player"] for e in events_of(table, "BlockersDeclared")] == list(defenders)


def test_a_player_who_is_not_attacked_is_not_asked_to_declare_blockers_509_1():
    table = everyone_with_bears_and_lions()
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((BEARS, "bob"),)))
    advance_to(table, 1, "declare_blockers")

    assert blockers_asked(table) == ["bob"]
    assert [e["player"] for e in events_of(table, "BlockersDeclared")] == ["bob"]
    assert pending_decision(table.state) == Decision("priority", "alice")


def test_a_creature_can_block_only_a_creature_attacking_its_controller_802_4():
    table = start(
        three_players(
            "free-for-all", alice={"battlefield": ["Grizzly Bears", "Savannah Lions"]}, carol={"battlefield": ["Hill Giant"]}
        )
    )
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "carol"))))
    advance_to(table, 1, "declare_blockers")
    assert pending_decision(table.state) == Decision("declare_blockers", "carol")  # bob has no creature to block with

    refused(table, DeclareBlockers("carol", ((GIANT, BEARS),)), "802.4")

    table.handle(DeclareBlockers("carol", ((GIANT, LIONS),)))
    assert perm(table, "Savannah Lions").blocked_by == [obj(table, "Hill Giant")]
    assert not perm(table, "Grizzly Bears").blocked


# --- 510.4 across combats ---------------------------------------------------------------------------


def test_a_creature_that_had_first_strike_in_an_earlier_combat_deals_damage_in_a_later_one_510_4():
    table = start(
        three_players(
            "free-for-all", alice={"battlefield": ["Grizzly Bears", "Mountain"], "hand": ["Kindled Fury"]}, carol={"life": 2}
        )
    )
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((BEARS, "carol"),)))
    advance_to(table, 1, "declare_blockers")
    table.handle(CastSpell("alice", "Kindled Fury", targets=(BEARS,)))
    both_pass(table)
    advance_to(table, 1, "postcombat_main")  # 3 first-strike damage: carol leaves the game mid-combat
    assert table.state.players["carol"].lost

    advance_to(table, 3, "declare_attackers")  # alice's next turn, Kindled Fury long gone
    table.handle(DeclareAttackers("alice", ((BEARS, "bob"),)))
    advance_to(table, 3, "end_of_combat")

    assert dealt(last(table, "CombatDamageDealt")) == [(obj(table, "Grizzly Bears"), "bob", 2)]
    assert table.state.players["bob"].life == 18
