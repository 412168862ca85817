"""Abilities that trigger as a creature dies (700.4, 603.10a: they look back in time) and sacrifice as
part of an activated ability's cost (602.2b, 701.21)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, CardRef
from mtg_ledger.core.legal import legal_actions
from tests.helpers import advance_to, attack, block, both_pass, events_of, last, obj, perm, two_players
from tests.rules.mechanics_cards import start



def test_a_creature_that_dies_in_combat_triggers_its_dies_ability_700_4():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Doomed Traveler"]}))
    attack(table, CardRef("Grizzly Bears"))
    block(table, (CardRef("Doomed Traveler"), CardRef("Grizzly Bears")))
    advance_to(table, 1, "end_of_combat")
    triggered = last(table, "AbilityTriggered")
    assert (triggered["card"], triggered["player"], triggered["source"]) == ("Doomed Traveler", "bob", None)
    spirit = perm(table, "Spirit")
    assert (spirit.controller, spirit.token, ch.has_keyword(table.state, spirit, "flying")) == ("bob", True, True)


def test_sacrificing_a_creature_to_pay_an_abilitys_cost_puts_it_into_the_graveyard_as_it_is_activated_701_21():
    table = start(two_players(alice={"battlefield": ["Mogg Fanatic"]}))
    advance_to(table, 1, "upkeep")
    fanatic = obj(table, "Mogg Fanatic")
    assert ActivateAbility("alice", fanatic, 0, ("bob",)) in list(legal_actions(table.state))
    table.handle(ActivateAbility("alice", CardRef("Mogg Fanatic"), 0, targets=("bob",)))
    assert table.state.players["alice"].graveyard == ["Mogg Fanatic"]  # paid before it resolves
    assert [e["rule"] for e in events_of(table, "PermanentsPutIntoGraveyard")] == ["701.21"]
    both_pass(table)
    assert table.state.players["bob"].life == 19  # "It deals 1 damage": the ability resolves without its source


def test_a_sacrificed_creature_with_a_dies_ability_triggers_it_700_4():
    table = start(two_players(alice={"battlefield": ["Mogg Fanatic", "Doomed Traveler"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Mogg Fanatic"), 0, targets=(CardRef("Doomed Traveler"),)))
    both_pass(table)
    assert "Doomed Traveler" in table.state.players["alice"].graveyard
    both_pass(table)  # the Traveler's trigger
    assert perm(table, "Spirit").controller == "alice"
