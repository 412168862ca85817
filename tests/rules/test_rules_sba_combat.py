"""State-based actions (704), combat (506-511) and the end of the game (104), on concrete boards."""

from __future__ import annotations

import pytest

from mtg_ledger.core.commands import ActivateAbility, AssignDamage, CardRef, CastSpell, Concede, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.errors import GameOver
from mtg_ledger.core.decision import pending_decision
from tests.helpers import advance_to, both_pass, events_of, last, perm, rejected, start, two_players, types_since


def attack(table, *cards: CardRef) -> None:
    advance_to(table, table.state.turn, "declare_attackers")
    table.handle(DeclareAttackers(table.state.active_player, tuple((c, None) for c in cards)))


def block(table, *pairs: tuple[CardRef, CardRef]) -> None:
    advance_to(table, table.state.turn, "declare_blockers")
    table.handle(DeclareBlockers("bob", tuple(pairs)))


def damage_step(table) -> list[tuple[int, object, int]]:
    """Pass to the combat damage step (taking the default division of damage, 510.1c, if asked);
    the (source, target, amount) assignments dealt there."""
    advance_to(table, table.state.turn, "combat_damage")
    decision = pending_decision(table.state)
    if decision is not None and decision.kind == "assign_damage":
        table.handle(AssignDamage(decision.player, ()))
    return [(a["source"], a["target"], a["amount"]) for a in last(table, "CombatDamageDealt")["assignments"]]


BEARS, LIONS, GIANT, ELVES = CardRef("Grizzly Bears"), CardRef("Savannah Lions"), CardRef("Hill Giant"), CardRef("Llanowar Elves")

# --- 704: state-based actions ----------------------------------------------------------------


def test_a_player_at_0_life_loses_and_the_other_player_wins_704_5a():
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, bob={"life": 3}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    both_pass(table)

    lost = last(table, "PlayerLost")
    assert (lost["player"], lost["rule"]) == ("bob", "704.5a")
    assert last(table, "GameEnded")["winner"] == "alice"
    assert table.events[-1]["type"] == "GameEnded"
    assert table.state.ended and table.state.players["bob"].life == 0


def test_drawing_from_an_empty_library_loses_at_the_next_check_704_5b():
    table = start(two_players(bob={"library": []}))
    advance_to(table, 1, "end")
    assert not table.state.players["bob"].lost  # an empty library alone is no loss

    advance_to(table, 2, "draw")

    assert types_since(table, last(table, "StepBegan")["v"]) == ["EmptyLibraryDrawAttempted", "PlayerLost", "GameEnded"]
    assert (last(table, "PlayerLost")["player"], last(table, "PlayerLost")["rule"]) == ("bob", "704.5b")
    assert last(table, "GameEnded")["winner"] == "alice"


def test_a_player_who_draws_past_the_library_mid_spell_loses_only_after_it_resolves_704_3_704_5b():
    table = start(
        two_players(alice={"battlefield": ["Island"] * 3, "hand": ["Divination"], "library": ["Forest"]})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Divination"))
    both_pass(table)

    assert types_since(table, last(table, "PriorityPassed")["v"]) == [
        "CardDrawn",
        "EmptyLibraryDrawAttempted",
        "ObjectResolved",
        "PlayerLost",
        "GameEnded",
    ]
    assert last(table, "GameEnded")["winner"] == "bob"


def test_a_creature_with_lethal_damage_is_destroyed_before_anyone_gets_priority_704_5g_117_5():
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 1, "precombat_main")
    giant = perm(table, "Hill Giant").object
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(GIANT,)))
    both_pass(table)

    assert types_since(table, last(table, "PriorityPassed")["v"]) == ["DamageDealt", "ObjectResolved", "PermanentsPutIntoGraveyard", "PriorityGiven"]
    put = last(table, "PermanentsPutIntoGraveyard")
    assert put["rule"] == "704.5g" and [p["object"] for p in put["permanents"]] == [giant]
    assert table.state.players["bob"].graveyard == ["Hill Giant"]


# --- 508-511: combat ---------------------------------------------------------------------------


def test_attacking_creatures_become_tapped_and_the_active_player_then_gets_priority_508_1f_508_2():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")
    before = len(table.events)
    attack(table, BEARS)

    declared = last(table, "AttackersDeclared")
    bears = perm(table, "Grizzly Bears")
    assert declared["attackers"] == [{"object": bears.object, "card": "Grizzly Bears", "defender": "bob"}]
    assert declared["tapped"] == [bears.object]
    assert bears.tapped and bears.attacking == "bob"
    assert types_since(table, before) == ["AttackersDeclared", "PriorityGiven"]
    assert table.state.priority == "alice"


def test_an_unblocked_attacker_deals_its_damage_to_the_defending_player_510_1a():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Savannah Lions"]}))
    attack(table, BEARS)
    block(table)

    assert damage_step(table) == [(perm(table, "Grizzly Bears").object, "bob", 2)]
    assert table.state.players["bob"].life == 18


def test_a_blocked_creature_and_its_blocker_deal_damage_to_each_other_510_1():
    table = start(two_players(alice={"battlefield": ["Hill Giant"]}, bob={"battlefield": ["Grizzly Bears"]}))
    giant, bears = perm(table, "Hill Giant").object, perm(table, "Grizzly Bears").object
    attack(table, GIANT)
    block(table, (BEARS, GIANT))

    assert sorted(damage_step(table)) == sorted([(giant, bears, 3), (bears, giant, 2)])
    assert table.state.players["bob"].life == 20
    assert perm(table, "Hill Giant").damage == 2
    assert last(table, "PermanentsPutIntoGraveyard")["rule"] == "704.5g"
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]


@pytest.mark.parametrize("order", [("Savannah Lions", "Grizzly Bears"), ("Grizzly Bears", "Savannah Lions")])
def test_an_attacker_blocked_by_two_creatures_assigns_lethal_damage_to_the_first_before_the_next_510_1c(order):
    table = start(two_players(alice={"battlefield": ["Hill Giant"]}, bob={"battlefield": ["Savannah Lions", "Grizzly Bears"]}))
    giant = perm(table, "Hill Giant").object
    first, second = perm(table, order[0]).object, perm(table, order[1]).object
    lethal_to_first = {"Savannah Lions": 1, "Grizzly Bears": 2}[order[0]]
    attack(table, GIANT)
    block(table, (CardRef(order[0]), GIANT), (CardRef(order[1]), GIANT))

    dealt = damage_step(table)

    assert [d for d in dealt if d[0] == giant] == [(giant, first, lethal_to_first), (giant, second, 3 - lethal_to_first)]
    assert table.state.players["bob"].graveyard == sorted(order, key=["Savannah Lions", "Grizzly Bears"].index)
    assert table.state.players["alice"].graveyard == ["Hill Giant"]  # 4 damage from the two blockers


def test_a_blocked_attacker_whose_blocker_was_removed_deals_no_damage_510_1c_506_4():
    table = start(
        two_players(
            alice={"battlefield": ["Grizzly Bears", "Mountain"], "hand": ["Lightning Bolt"]},
            bob={"battlefield": ["Savannah Lions"]},
        )
    )
    attack(table, BEARS)
    block(table, (LIONS, BEARS))
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(LIONS,)))
    both_pass(table)  # the Lions die; the Bears remain blocked
    assert perm(table, "Grizzly Bears").blocked

    assert damage_step(table) == []
    assert table.state.players["bob"].life == 20


def test_creatures_are_removed_from_combat_as_the_end_of_combat_step_ends_511_3():
    table = start(two_players(alice={"battlefield": ["Hill Giant"]}, bob={"battlefield": ["Savannah Lions", "Grizzly Bears"]}))
    attack(table, GIANT)
    block(table, (BEARS, GIANT))
    advance_to(table, 1, "end_of_combat")
    assert perm(table, "Hill Giant").attacking == "bob"

    advance_to(table, 1, "postcombat_main")

    removed = last(table, "RemovedFromCombat")
    ended = table.events[removed["v"] - 2]  # the event just before it (versions start at 1)
    assert (ended["type"], ended["step"]) == ("StepEnded", "end_of_combat")
    assert removed["permanents"] == [perm(table, "Hill Giant").object]  # the Bears died in combat
    giant = perm(table, "Hill Giant")
    assert (giant.attacking, giant.blocked, giant.blocked_by) == (None, False, [])


# --- illegal declarations -------------------------------------------------------------------


def test_a_tapped_creature_cannot_be_declared_as_an_attacker_508_1a():
    table = start(two_players(alice={"battlefield": ["Llanowar Elves", "Grizzly Bears"]}))
    advance_to(table, 1, "beginning_of_combat")
    table.handle(ActivateAbility("alice", ELVES))
    advance_to(table, 1, "declare_attackers")

    error = rejected(table, DeclareAttackers("alice", ((ELVES, "bob"), (BEARS, "bob"))))

    assert error.rule == "508.1a"


def test_a_creature_blocks_only_a_creature_attacking_its_controller_509_1a():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears", "Savannah Lions"]}, bob={"battlefield": ["Hill Giant"]}))
    attack(table, BEARS)
    advance_to(table, 1, "declare_blockers")

    error = rejected(table, DeclareBlockers("bob", ((GIANT, LIONS),)))

    assert error.rule == "509.1a"


def test_a_tapped_creature_cannot_block_509_1a():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Llanowar Elves", "Hill Giant"]}))
    advance_to(table, 1, "beginning_of_combat")
    table.handle(PassPriority("alice"))
    table.handle(ActivateAbility("bob", ELVES))
    attack(table, BEARS)
    advance_to(table, 1, "declare_blockers")

    error = rejected(table, DeclareBlockers("bob", ((ELVES, BEARS),)))

    assert error.rule == "509.1a"
    table.handle(DeclareBlockers("bob", ((GIANT, BEARS),)))  # an untapped one may


# --- 104: the end of the game -----------------------------------------------------------------


def test_a_player_who_concedes_loses_and_the_other_wins_a_two_player_game_104_3a():
    table = start(two_players())
    assert table.state.priority == "alice"
    table.handle(Concede("bob"))  # at any time, even without priority

    lost = last(table, "PlayerLost")
    assert (lost["player"], lost["rule"]) == ("bob", "104.3a")
    assert last(table, "GameEnded")["winner"] == "alice"
    assert table.state.ended and table.state.priority is None


@pytest.mark.parametrize(
    "command",
    [PassPriority("alice"), Concede("alice"), CastSpell("alice", "Lightning Bolt", targets=("bob",))],
    ids=["pass", "concede", "cast"],
)
def test_no_decision_can_be_taken_after_the_game_ended_104(command):
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}))
    table.handle(Concede("bob"))
    assert events_of(table, "GameEnded")

    error = rejected(table, command, GameOver)

    assert error.rule.startswith("104")
