"""Activated abilities whose costs go beyond mana, {T} and sacrifice (602.2b, 118.3): paying life (119.4),
with the pool's Greed ("{B}, Pay 2 life: Draw a card.") and Unspeakable Symbol ("Pay 3 life: Put a +1/+1
counter on target creature."); and discarding cards, chosen by the player as the cost is paid (601.2h), with
Burning-Fist Minotaur ("{1}{R}, Discard a card: This creature gets +2/+0 until end of turn.") and Zombie
Infestation ("Discard two cards: Create a 2/2 black Zombie creature token."). A discarded card is public;
the rest of the hand stays hidden (402.3)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, CardRef, Concede, Discard, PassPriority
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.errors import CannotPay, WrongTiming
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.redact import view
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import (
    advance_to, both_pass, events_of, last, pass_until_empty_stack, perm, refused, take_choices, three_players, two_players, types_since,
)
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


def _minotaur(hand: list[str]) -> object:
    table = start(two_players(alice={"battlefield": ["Burning-Fist Minotaur", "Mountain", "Mountain"], "hand": hand}, bob={"battlefield": ["Megrim"]}))
    advance_to(table, 1, "precombat_main")
    return table


def test_the_card_a_cost_discards_is_chosen_by_the_player_as_the_cost_is_paid_601_2h_602_2b():
    table = _minotaur(["Forest", "Island"])
    table.handle(ActivateAbility("alice", CardRef("Burning-Fist Minotaur")))

    paused = last(table, "ActivationPaused")
    assert (paused["player"], paused["choice"], paused["count"]) == ("alice", "discard", 1)
    assert [o.card for o in table.state.stack] == ["Burning-Fist Minotaur"]  # 602.2a: on the stack as its costs are paid
    asked = pending_decision(table.state)
    assert asked is not None and (asked.kind, asked.player, asked.count, asked.rule_cited) == ("discard", "alice", 1, "601.2h")
    refused(table, PassPriority("alice"), "601.2h", WrongTiming)  # nobody holds priority before the cost is paid
    refused(table, Discard("alice", ("Mountain",)), "601.2h")
    table.handle(Discard("alice", ("Island",)))

    discarded = last(table, "CardsDiscarded")
    assert (discarded["player"], discarded["cards"], discarded["rule"]) == ("alice", ["Island"], "601.2h")
    assert table.state.players["alice"].hand == ["Forest"] and table.state.players["alice"].graveyard == ["Island"]
    assert table.state.priority == "alice"  # 117.3c
    assert [e["card"] for e in events_of(table, "AbilityTriggered")] == ["Megrim"]  # a card discarded for a cost is discarded (701.9a)
    take_choices(table)
    pass_until_empty_stack(table)
    minotaur = perm(table, "Burning-Fist Minotaur")
    assert (ch.power(table.state, minotaur), ch.toughness(table.state, minotaur)) == (4, 1)
    assert table.state.players["alice"].life == 18  # Megrim
    assert replay(table.events).ok


def test_a_cost_with_no_real_choice_discards_without_asking_and_an_empty_hand_cannot_pay_118_3():
    table = _minotaur(["Island"])
    table.handle(ActivateAbility("alice", CardRef("Burning-Fist Minotaur")))
    assert events_of(table, "ActivationPaused") == []
    assert last(table, "CardsDiscarded")["cards"] == ["Island"] and table.state.players["alice"].hand == []

    take_choices(table)
    pass_until_empty_stack(table)
    refusal = refused(table, ActivateAbility("alice", CardRef("Burning-Fist Minotaur")), "118.3", CannotPay)
    assert refusal.message == "alice has 0 card(s) in hand, fewer than the 1 Burning-Fist Minotaur's ability discards"
    minotaur = perm(table, "Burning-Fist Minotaur").object
    assert [c for c in legal_actions(table.state) if isinstance(c, ActivateAbility) and c.source == minotaur] == []  # not offered either


def test_discarding_two_cards_as_a_cost_creates_the_token_and_shows_only_the_discarded_cards_402_3_601_2h():
    table = start(two_players(alice={"battlefield": ["Zombie Infestation"], "hand": ["Forest", "Island", "Mountain"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Zombie Infestation")))
    paused = last(table, "ActivationPaused")
    assert view(paused, "bob") == {k: v for k, v in paused.items() if k != "hash"}  # how many, not which
    assert view(table.state, "bob")["players"]["alice"]["hand"] == [None, None, None]
    table.handle(Discard("alice", ("Forest", "Mountain")))

    assert view(last(table, "CardsDiscarded"), "bob")["cards"] == ["Forest", "Mountain"]  # discarded: public
    seen = view(table.state, "bob")["players"]["alice"]
    assert seen["hand"] == [None] and seen["graveyard"] == ["Forest", "Mountain"]
    both_pass(table)
    assert [p.card for p in table.state.battlefield if p.controller == "alice"] == ["Zombie Infestation", "Zombie"]
    assert replay(table.events).ok


def test_the_player_leaving_while_choosing_a_cost_takes_the_ability_with_them_800_4a():
    table = start(three_players("free-for-all", alice={"battlefield": ["Zombie Infestation"], "hand": ["Forest", "Island", "Mountain"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Zombie Infestation")))
    table.handle(Concede("alice"))

    assert table.state.stack == [] and table.state.paused is None
    assert pending_decision(table.state).kind == "priority"
    assert replay(table.events).ok
