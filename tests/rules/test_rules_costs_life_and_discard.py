"""Activated abilities whose costs go beyond mana, {T} and sacrifice (602.2b, 118.3): paying life (119.4),
with the pool's Greed ("{B}, Pay 2 life: Draw a card.") and Unspeakable Symbol ("Pay 3 life: Put a +1/+1
counter on target creature.")."""

from __future__ import annotations

from mtg_ledger.core.commands import ActivateAbility, CardRef
from mtg_ledger.core.errors import CannotPay
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, both_pass, last, perm, refused, two_players, types_since
from tests.rules.mechanics_cards import start


def test_paying_life_as_a_cost_is_losing_it_as_the_ability_is_activated_119_4():
    table = start(two_players(alice={"battlefield": ["Greed", "Swamp"], "library": ["Island"] * 5}))
    advance_to(table, 1, "precombat_main")
    v = table.events[-1]["v"]
    table.handle(ActivateAbility("alice", CardRef("Greed")))

    assert types_since(table, v) == ["ManaAbilityActivated", "AbilityActivated", "LifeLost", "PriorityGiven"]
    lost = last(table, "LifeLost")
    assert (lost["player"], lost["amount"], lost["source"]) == ("alice", 2, perm(table, "Greed").object)
    assert table.state.players["alice"].life == 18 and [o.card for o in table.state.stack] == ["Greed"]  # paid before it resolves
    both_pass(table)
    assert table.state.players["alice"].hand == ["Island"]
    assert replay(table.events).ok


def test_a_player_cannot_pay_more_life_than_they_have_119_4():
    table = start(two_players(alice={"battlefield": ["Greed", "Swamp"], "life": 1}))
    advance_to(table, 1, "precombat_main")
    refusal = refused(table, ActivateAbility("alice", CardRef("Greed")), "119.4", CannotPay)
    assert refusal.message == "alice has 1 life, less than the 2 life Greed's ability costs"
    assert table.state.players["alice"].life == 1


def test_a_player_may_pay_all_of_their_life_and_then_loses_the_game_119_4_704_5a():
    table = start(two_players(alice={"battlefield": ["Greed", "Swamp"], "life": 2}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Greed")))

    assert table.state.players["alice"].life == 0 and table.state.players["alice"].lost
    assert table.state.ended


def test_a_life_cost_pays_for_a_targeted_ability_without_mana_602_2b():
    table = start(two_players(alice={"battlefield": ["Unspeakable Symbol", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Unspeakable Symbol"), targets=(CardRef("Grizzly Bears"),)))
    assert table.state.players["alice"].life == 17
    both_pass(table)

    assert perm(table, "Grizzly Bears").counters == {"+1/+1": 1}
    assert replay(table.events).ok
