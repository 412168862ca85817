"""Battles (310): a Siege's protector chosen as it enters (310.11a), defense counters (310.4b), attacked
by the players other than its protector (310.8), damage removing defense counters (120.3h), put into the
graveyard at no defense when no ability of it waits (704.5v). What a defeated Siege does (310.11b) is
tests/rules/test_rules_sieges.py's."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell, DeclareAttackers
from tests.helpers import advance_to, both_pass, events_of, last, obj, perm, refused, two_players
from tests.helpers import start as helpers_start
from tests.rules.mechanics_cards import DEFINITIONS, start

SIEGE = CardRef("Invasion of Dominaria")


def cast_siege(alice_battlefield: list[str], bob_battlefield: list[str] | None = None, cards: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    setup = two_players(
        alice={"battlefield": ["Plains"] * 3 + alice_battlefield, "hand": ["Invasion of Dominaria"], "library": ["Plains"] * 8},
        bob={"battlefield": bob_battlefield or []},
    )
    table = start(setup) if cards is None else helpers_start({**setup, "cards": cards})
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Invasion of Dominaria"))
    both_pass(table)  # the Siege resolves; its enters trigger goes on the stack
    both_pass(table)  # the trigger resolves
    return table


def test_a_siege_enters_with_an_opponent_as_its_protector_and_its_defense_in_defense_counters_310_11a():
    table = cast_siege([])
    siege = perm(table, "Invasion of Dominaria")
    assert (siege.controller, siege.protector, ch.defense(siege)) == ("alice", "bob", 5)
    assert last(table, "ProtectorChosen") == {**last(table, "ProtectorChosen"), "object": siege.object, "player": "bob"}
    assert table.state.players["alice"].life == 24  # "When this Siege enters, you gain 4 life and draw a card."


def test_a_battle_is_attacked_by_a_player_other_than_its_protector_and_damage_removes_defense_counters_310_8():
    table = cast_siege(["Hill Giant"])
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Hill Giant"), SIEGE),)))
    assert last(table, "AttackersDeclared")["attackers"][0]["defender"] == "bob"  # 506.2: its protector defends it
    advance_to(table, 1, "end_of_combat")
    assert ch.defense(perm(table, "Invasion of Dominaria")) == 2  # 120.3h
    assert table.state.players["bob"].life == 20


def test_its_protector_cannot_attack_a_battle_310_8():
    table = cast_siege([], ["Grizzly Bears"])
    advance_to(table, 2, "declare_attackers")
    refused(table, DeclareAttackers("bob", ((CardRef("Grizzly Bears"), SIEGE),)), "508.1b")


def test_a_battle_with_no_defense_counters_goes_to_the_graveyard_when_no_ability_of_it_waits_704_5v():
    """A Siege defined without its back face (as games recorded before the pool held one define it) has no
    defeat ability (310.11b): at no defense, nothing of it waits, and it goes to the graveyard."""
    front_only = {k: v for k, v in DEFINITIONS["Invasion of Dominaria"].items() if k != "back"}
    table = cast_siege(["Hill Giant", "Grizzly Bears"], cards={**DEFINITIONS, "Invasion of Dominaria": front_only})
    siege = obj(table, "Invasion of Dominaria")
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Hill Giant"), siege), (CardRef("Grizzly Bears"), siege))))
    advance_to(table, 1, "end_of_combat")
    assert table.state.players["alice"].graveyard == ["Invasion of Dominaria"]
    assert [e["rule"] for e in events_of(table, "PermanentsPutIntoGraveyard")] == ["704.5v"]
    assert events_of(table, "PermanentsExiled") == []
