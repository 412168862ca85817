"""Triggered abilities (603) on concrete boards: when they go on the stack, in which order, with
which targets, and the choices their resolution asks for (608.2d)."""

from __future__ import annotations

import pytest

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell, Discard, OrderTriggers, PassPriority
from mtg_ledger.core.decision import pending_decision
from tests.helpers import (
    advance_through,
    advance_to,
    both_pass,
    events_of,
    last,
    pass_until_empty_stack,
    perm,
    refused,
    since,
    start,
    three_players,
    two_players,
    types_since,
)


def step_began(table, turn: int, step: str) -> dict:
    return next(e for e in events_of(table, "StepBegan") if e["turn"] == turn and e["step"] == step)


def resolved(table, after: int = 0) -> list[int]:
    """The objects that resolved after event ``after``, in order."""
    return [e["object"] for e in since(table, after) if e["type"] == "ObjectResolved"]


# --- 603.3: "at the beginning of <step>" ---------------------------------------------------


def test_phyrexian_arena_goes_on_the_stack_after_the_upkeep_begins_and_before_priority_603_3():
    table = start(two_players(alice={"battlefield": ["Phyrexian Arena"], "library": ["Island", "Forest"]}))

    upkeep = step_began(table, 1, "upkeep")
    assert types_since(table, upkeep["v"]) == ["AbilityTriggered", "TriggeredAbilitiesStacked", "PriorityGiven"]
    triggered = last(table, "AbilityTriggered")
    assert (triggered["player"], triggered["source"], triggered["card"]) == ("alice", 1, "Phyrexian Arena")
    assert last(table, "TriggeredAbilitiesStacked")["objects"] == [triggered["object"]]
    assert [(o.object, o.card, o.kind) for o in table.state.stack] == [(triggered["object"], "Phyrexian Arena", "triggered")]
    assert table.state.priority == "alice"

    v = table.state.version
    both_pass(table)

    drawn, lost = last(table, "CardDrawn"), last(table, "LifeLost")
    assert (drawn["player"], drawn["card"]) == ("alice", "Island")
    assert (lost["player"], lost["amount"], lost["source"]) == ("alice", 1, 1)
    assert types_since(table, v)[-4:] == ["CardDrawn", "LifeLost", "ObjectResolved", "PriorityGiven"]
    assert table.state.players["alice"].life == 19 and table.state.players["alice"].hand == ["Island"]
    assert table.state.stack == [] and table.state.step == "upkeep"


def test_phyrexian_arena_does_not_trigger_in_the_opponents_upkeep_603_3():
    table = start(two_players(bob={"battlefield": ["Phyrexian Arena"]}))
    advance_to(table, 1, "draw")

    assert events_of(table, "AbilityTriggered") == []
    advance_to(table, 2, "upkeep")
    assert [e["player"] for e in events_of(table, "AbilityTriggered")] == ["bob"]


def test_dogged_pursuit_triggers_at_its_controllers_end_step_only_603_3():
    table = start(two_players(alice={"battlefield": ["Dogged Pursuit"]}))
    advance_to(table, 1, "end")

    end = step_began(table, 1, "end")
    assert types_since(table, end["v"]) == ["AbilityTriggered", "TriggeredAbilitiesStacked", "PriorityGiven"]
    both_pass(table)
    lost, gained = last(table, "LifeLost"), last(table, "LifeGained")
    assert (lost["player"], lost["amount"], gained["player"], gained["amount"]) == ("bob", 1, "alice", 1)

    advance_to(table, 3, "upkeep")  # bob's end step (turn 2): nothing
    assert len(events_of(table, "AbilityTriggered")) == 1 and step_began(table, 2, "end")
    assert (table.state.players["alice"].life, table.state.players["bob"].life) == (21, 19)


def test_luminarch_aspirant_with_one_creature_targets_it_without_asking_603_3d():
    table = start(two_players(alice={"battlefield": ["Luminarch Aspirant"]}, bob={"battlefield": ["Luminarch Aspirant"]}))
    advance_to(table, 1, "beginning_of_combat")

    assert events_of(table, "TriggerOrderAsked") == []
    triggered = events_of(table, "AbilityTriggered")
    assert [(e["player"], e["source"]) for e in triggered] == [("alice", 1)]  # "on your turn": not bob's
    stacked = last(table, "TriggeredAbilitiesStacked")
    assert stacked["targets"] == {str(triggered[0]["object"]): [1]}

    both_pass(table)
    added = last(table, "CountersAdded")
    assert (added["object"], added["kind"], added["count"]) == (1, "+1/+1", 1)
    aspirant = perm(table, "Luminarch Aspirant")
    assert aspirant.counters == {"+1/+1": 1} and (ch.power(table.state, aspirant), ch.toughness(table.state, aspirant)) == (2, 2)


def test_luminarch_aspirant_with_two_creatures_asks_its_controller_for_the_target_603_3d():
    table = start(two_players(alice={"battlefield": ["Luminarch Aspirant", "Grizzly Bears"]}))
    advance_to(table, 1, "beginning_of_combat")

    asked = last(table, "TriggerOrderAsked")
    assert (asked["player"], asked["priority_to"]) == ("alice", "alice")
    assert pending_decision(table.state).kind == "order_triggers" and table.state.priority is None

    table.handle(OrderTriggers("alice", (CardRef("Luminarch Aspirant"),), ((CardRef("Grizzly Bears"),),)))
    trigger = last(table, "AbilityTriggered")["object"]
    assert last(table, "TriggeredAbilitiesStacked")["targets"] == {str(trigger): [2]}
    assert table.state.priority == "alice"
    both_pass(table)
    assert perm(table, "Grizzly Bears").counters == {"+1/+1": 1} and perm(table, "Luminarch Aspirant").counters == {}


def test_luminarch_aspirant_cannot_target_an_opponents_creature_115_1():
    table = start(two_players(alice={"battlefield": ["Luminarch Aspirant", "Grizzly Bears"]}, bob={"battlefield": ["Savannah Lions"]}))
    advance_to(table, 1, "beginning_of_combat")

    refused(table, OrderTriggers("alice", (CardRef("Luminarch Aspirant"),), ((CardRef("Savannah Lions"),),)), "115.1")
    refused(table, OrderTriggers("alice", (CardRef("Luminarch Aspirant"),), (("bob",),)), "115.1")
    assert table.state.pending_triggers and table.state.stack == []


def test_luminarch_aspirants_ability_does_nothing_when_its_target_left_before_it_resolved_608_2b():
    table = start(two_players(alice={"battlefield": ["Luminarch Aspirant"]}, bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "beginning_of_combat")
    trigger = table.state.stack[0].object
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(CardRef("Luminarch Aspirant"),)))
    pass_until_empty_stack(table)

    assert table.state.players["alice"].graveyard == ["Luminarch Aspirant"]
    outcome = last(table, "ObjectResolved")
    assert (outcome["object"], outcome["outcome"]) == (trigger, "fizzled")
    assert events_of(table, "CountersAdded") == []


# --- 603.3b: APNAP order, and a player's own order -------------------------------------------


def test_triggers_of_several_players_go_on_the_stack_in_apnap_order_from_the_active_player_603_3b():
    """Bob (active) discards in cleanup: alice's and carol's Megrims trigger at once. APNAP from bob
    is bob, carol, alice: carol's go on the stack first, so alice's (put on last) resolve first."""
    table = start(
        three_players(
            "free-for-all",
            alice={"battlefield": ["Megrim"]},
            bob={"hand": ["Forest"] * 8},
            carol={"battlefield": ["Megrim"]},
        )
    )
    advance_to(table, 2, "cleanup")
    table.handle(Discard("bob", ("Forest", "Forest")))  # 9 cards after the draw

    stacked = events_of(table, "TriggeredAbilitiesStacked")
    assert [e["player"] for e in stacked] == ["carol", "alice"]
    assert [o.controller for o in table.state.stack] == ["carol", "carol", "alice", "alice"]
    assert table.state.priority == "bob"

    v = table.state.version
    pass_until_empty_stack(table)
    sources = [e["source"] for e in since(table, v) if e["type"] == "DamageDealt"]
    assert sources == [1, 1, 2, 2]  # alice's Megrim (1) first, then carol's (2)
    assert table.state.players["bob"].life == 12


def test_a_player_with_two_different_triggers_is_asked_to_order_them_bottom_first_603_3b():
    """Teferi's Imp phased out in the untap step (discard a card) and Phyrexian Arena (draw a card)
    wait together in the upkeep. Listed Imp then Arena, the Arena is on top: alice draws first, so
    the Imp makes her discard one of two identical Islands without asking."""
    table = start(two_players(alice={"battlefield": ["Teferi's Imp", "Phyrexian Arena"], "hand": ["Island"], "library": ["Island"]}))

    asked = last(table, "TriggerOrderAsked")
    assert (asked["player"], asked["priority_to"]) == ("alice", "alice")
    imp, arena = (e["object"] for e in events_of(table, "AbilityTriggered"))

    table.handle(OrderTriggers("alice", (CardRef("Teferi's Imp"), CardRef("Phyrexian Arena"))))
    assert last(table, "TriggeredAbilitiesStacked")["objects"] == [imp, arena]
    assert [o.object for o in table.state.stack] == [imp, arena]

    v = table.state.version
    pass_until_empty_stack(table)
    assert resolved(table, v) == [arena, imp]
    assert [e["type"] for e in since(table, v) if e["type"] in ("CardDrawn", "CardsDiscarded", "ResolutionPaused")] == [
        "CardDrawn",
        "CardsDiscarded",
    ]
    assert table.state.players["alice"].hand == ["Island"] and table.state.players["alice"].graveyard == ["Island"]


@pytest.mark.parametrize(
    "order",
    [
        (CardRef("Phyrexian Arena"),),
        (CardRef("Phyrexian Arena"), CardRef("Phyrexian Arena")),
        (CardRef("Teferi's Imp"), CardRef("Phyrexian Arena"), CardRef("Teferi's Imp")),
        (CardRef("Teferi's Imp"), CardRef("Megrim")),
        (),
    ],
    ids=["incomplete", "duplicated", "listed-twice-among-all", "not-a-waiting-trigger", "empty"],
)
def test_an_order_that_leaves_out_or_repeats_a_trigger_is_refused_603_3b(order):
    table = start(two_players(alice={"battlefield": ["Teferi's Imp", "Phyrexian Arena"], "hand": ["Island"]}))

    refused(table, OrderTriggers("alice", order), "603.3b")
    assert len(table.state.pending_triggers) == 2 and table.state.stack == []


def test_only_the_player_asked_may_order_triggers_and_nobody_may_pass_meanwhile_603_3b():
    table = start(two_players(alice={"battlefield": ["Teferi's Imp", "Phyrexian Arena"], "hand": ["Island"]}))

    refused(table, PassPriority("alice"), "603.3b")
    refused(table, OrderTriggers("bob", ()), "603.3b")


def test_identical_triggers_go_on_the_stack_without_asking_603_3b():
    table = start(two_players(alice={"battlefield": ["Phyrexian Arena", "Phyrexian Arena"], "library": ["Island", "Swamp"]}))

    assert events_of(table, "TriggerOrderAsked") == []
    first, second = (e["object"] for e in events_of(table, "AbilityTriggered"))
    assert last(table, "TriggeredAbilitiesStacked")["objects"] == [first, second]
    pass_until_empty_stack(table)
    assert table.state.players["alice"].life == 18 and table.state.players["alice"].hand == ["Island", "Swamp"]


def test_a_target_chosen_for_a_triggered_ability_without_targets_is_refused_115_1():
    table = start(two_players(alice={"battlefield": ["Teferi's Imp", "Phyrexian Arena"], "hand": ["Island"]}))

    refused(table, OrderTriggers("alice", (CardRef("Teferi's Imp"), CardRef("Phyrexian Arena")), (None, ("bob",))), "115.1")


# --- 502.4: triggers from the untap step wait for the upkeep -------------------------------


def test_abilities_that_trigger_in_the_untap_step_go_on_the_stack_in_the_upkeep_502_4():
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"], "hand": ["Island"]}))

    untap, upkeep = step_began(table, 1, "untap"), step_began(table, 1, "upkeep")
    assert types_since(table, untap["v"])[: upkeep["v"] - untap["v"]] == ["PermanentsPhased", "AbilityTriggered", "StepEnded", "StepBegan"]
    assert types_since(table, upkeep["v"]) == ["TriggeredAbilitiesStacked", "PriorityGiven"]
    assert table.state.stack[0].card == "Teferi's Imp" and table.state.priority == "alice"


def test_teferis_imp_draws_a_card_when_it_phases_in_in_the_next_untap_step_702_26():
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"], "hand": ["Island"], "library": ["Forest", "Swamp"]}))
    advance_through(table, 3, "upkeep")

    phased = events_of(table, "PermanentsPhased")
    assert [(e["phased_in"], e["phased_out"]) for e in phased] == [([], [1]), ([1], [])]
    triggered = last(table, "AbilityTriggered")
    assert (triggered["source"], triggered["ability"]) == (1, 1)  # "Whenever Teferi's Imp phases in"
    assert table.state.stack[0].card == "Teferi's Imp" and table.state.players["alice"].hand == []
    both_pass(table)  # in the upkeep, before the draw step's draw
    assert last(table, "CardDrawn")["card"] == "Forest" and table.state.players["alice"].hand == ["Forest"]


# --- Megrim: "Whenever an opponent discards a card" ------------------------------------------


def test_megrim_deals_2_damage_for_each_card_an_opponent_discards_603_2():
    table = start(two_players(alice={"hand": ["Forest"] * 9}, bob={"battlefield": ["Megrim"]}))
    advance_to(table, 1, "cleanup")
    table.handle(Discard("alice", ("Forest", "Forest")))

    triggered = events_of(table, "AbilityTriggered")
    assert [(e["player"], e["source"], e["context"]) for e in triggered] == [("bob", 1, {"player": "alice"})] * 2
    assert events_of(table, "TriggerOrderAsked") == []  # identical: no order to choose
    pass_until_empty_stack(table)
    assert [(e["target"], e["amount"]) for e in events_of(table, "DamageDealt")] == [("alice", 2), ("alice", 2)]
    assert table.state.players["alice"].life == 16


def test_megrim_does_not_trigger_on_its_controllers_own_discards_603_2():
    table = start(two_players(alice={"hand": ["Forest"] * 9, "battlefield": ["Megrim"]}))
    advance_to(table, 1, "cleanup")
    table.handle(Discard("alice", ("Forest", "Forest")))

    assert events_of(table, "AbilityTriggered") == []
    assert table.state.turn == 2 and table.state.players["alice"].life == 20


# --- 608.2d: a choice made while the ability resolves -----------------------------------------


def test_teferis_imp_asks_its_controller_which_card_to_discard_from_a_hand_of_different_cards_608_2d():
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"], "hand": ["Island", "Lightning Bolt"]}))
    trigger = last(table, "AbilityTriggered")["object"]
    both_pass(table)

    paused = last(table, "ResolutionPaused")
    assert (paused["object"], paused["player"], paused["choice"], paused["count"]) == (trigger, "alice", "discard", 1)
    decision = pending_decision(table.state)
    assert (decision.kind, decision.player, decision.count) == ("discard", "alice", 1)
    assert table.state.priority is None and [o.object for o in table.state.stack] == [trigger]

    v = table.state.version
    table.handle(Discard("alice", ("Lightning Bolt",)))
    assert types_since(table, v) == ["CardsDiscarded", "ObjectResolved", "PriorityGiven"]
    discarded = last(table, "CardsDiscarded")
    assert (discarded["player"], discarded["cards"], discarded["rule"]) == ("alice", ["Lightning Bolt"], "608.2d")
    assert table.state.players["alice"].hand == ["Island"] and table.state.players["alice"].graveyard == ["Lightning Bolt"]


@pytest.mark.parametrize("hand", [["Island"], ["Island", "Island"]], ids=["one-card", "identical-cards"])
def test_teferis_imp_discards_without_asking_when_there_is_no_real_choice_608_2d(hand):
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"], "hand": hand}))
    both_pass(table)

    assert events_of(table, "ResolutionPaused") == []
    discarded = last(table, "CardsDiscarded")
    assert (discarded["cards"], discarded["rule"]) == (["Island"], "608.2d")
    assert table.state.players["alice"].hand == hand[1:] and table.state.priority == "alice"


def test_teferis_imp_with_an_empty_hand_discards_nothing_608_2d():
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"]}))
    both_pass(table)

    assert events_of(table, "ResolutionPaused") == [] and events_of(table, "CardsDiscarded") == []
    assert last(table, "ObjectResolved")["card"] == "Teferi's Imp"


@pytest.mark.parametrize("cards", [("Forest",), ("Island", "Lightning Bolt"), ()], ids=["not-in-hand", "two", "none"])
def test_a_discard_that_does_not_match_the_resolving_ability_is_refused_608_2d(cards):
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"], "hand": ["Island", "Lightning Bolt"]}))
    both_pass(table)

    refused(table, Discard("alice", cards), "608.2d")


@pytest.mark.parametrize("command", [PassPriority("alice"), Discard("bob", ())], ids=["pass", "other-player"])
def test_while_a_resolving_ability_waits_for_a_discard_other_decisions_are_refused_citing_608_2d(command):
    table = start(two_players(alice={"battlefield": ["Teferi's Imp"], "hand": ["Island", "Lightning Bolt"]}))
    both_pass(table)

    refused(table, command, "608.2d")
