"""The cleanup step (514) with triggered abilities: priority in cleanup and a second cleanup step
(514.3a), and "until end of turn" effects that end in cleanup rather than in the end step (514.2)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell, Discard, PassPriority
from tests.helpers import (
    advance_through,
    advance_to,
    both_pass,
    events_of,
    last,
    pass_until_empty_stack,
    perm,
    start,
    two_players,
    types_since,
)

EIGHT = ["Forest", "Island", "Mountain", "Plains", "Swamp", "Hill Giant", "Divination", "Lightning Bolt"]


def cleanups(table, turn: int) -> list[dict]:
    return [e for e in events_of(table, "StepBegan") if e["turn"] == turn and e["step"] == "cleanup"]


def discard_into_megrim(hand: list[str] | None = None, **alice) -> object:
    """Alice holds eight cards in her turn 1 cleanup, with bob's Megrim on the battlefield."""
    table = start(two_players(alice={"hand": hand or list(EIGHT), **alice}, bob={"battlefield": ["Megrim"]}))
    advance_to(table, 1, "cleanup")
    return table


# --- 514.3a: priority in cleanup, then another cleanup --------------------------------------


def test_a_cleanup_discard_that_triggers_megrim_gives_players_priority_in_that_cleanup_514_3a():
    table = discard_into_megrim()
    v = table.state.version
    table.handle(Discard("alice", ("Hill Giant",)))

    assert types_since(table, v) == [
        "CardsDiscarded",
        "AbilityTriggered",
        "CleanupPerformed",
        "TriggeredAbilitiesStacked",
        "PriorityGiven",
    ]
    assert (table.state.step, table.state.priority) == ("cleanup", "alice")
    assert [(o.card, o.controller) for o in table.state.stack] == [("Megrim", "bob")]

    both_pass(table)
    dealt = last(table, "DamageDealt")
    assert (dealt["source"], dealt["target"], dealt["amount"]) == (1, "alice", 2)
    assert (table.state.step, table.state.priority, table.state.players["alice"].life) == ("cleanup", "alice", 18)


def test_after_priority_in_cleanup_and_all_players_passing_a_second_cleanup_step_follows_514_3a():
    table = discard_into_megrim()
    table.handle(Discard("alice", ("Hill Giant",)))
    pass_until_empty_stack(table)
    v = table.state.version
    both_pass(table)  # the stack is empty: the step ends

    assert types_since(table, v) == [
        "PriorityPassed",
        "PriorityGiven",
        "PriorityPassed",
        "StepEnded",
        "StepBegan",
        "CleanupPerformed",
        "StepEnded",
        "TurnBegan",
        "StepBegan",
        "StepEnded",
        "StepBegan",
        "PriorityGiven",
    ]
    assert len(cleanups(table, 1)) == 2
    assert (table.state.turn, table.state.step, table.state.priority) == (2, "upkeep", "bob")


def test_without_triggers_or_state_based_actions_nobody_receives_priority_in_cleanup_514_3():
    """Alice's own Megrim does not trigger on her discard: one cleanup step, no priority in it."""
    table = start(two_players(alice={"hand": list(EIGHT), "battlefield": ["Megrim"]}))
    advance_to(table, 1, "cleanup")
    v = table.state.version
    table.handle(Discard("alice", ("Hill Giant",)))

    assert types_since(table, v)[:3] == ["CardsDiscarded", "CleanupPerformed", "StepEnded"]
    assert len(cleanups(table, 1)) == 1
    assert table.state.turn == 2


def test_a_spell_cast_during_priority_in_cleanup_has_its_until_end_of_turn_effect_end_in_the_second_cleanup_514_3a():
    table = discard_into_megrim(
        hand=["Forest", "Island", "Mountain", "Plains", "Swamp", "Hill Giant", "Divination", "Giant Growth"],
        battlefield=["Forest", "Grizzly Bears"],
    )
    table.handle(Discard("alice", ("Hill Giant",)))
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)  # Giant Growth resolves above the Megrim trigger
    bears = perm(table, "Grizzly Bears")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears)) == (5, 5)
    growth = table.state.effects[0].id
    first = last(table, "CleanupPerformed")
    assert growth not in first["effects_ended"]

    pass_until_empty_stack(table)
    both_pass(table)

    assert len(cleanups(table, 1)) == 2
    assert last(table, "CleanupPerformed")["effects_ended"] == [growth]
    bears = perm(table, "Grizzly Bears")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears)) == (2, 2)


def test_megrim_damage_dealt_in_cleanup_can_make_a_player_lose_before_the_next_turn_704_5a():
    table = discard_into_megrim(life=2)
    table.handle(Discard("alice", ("Hill Giant",)))
    both_pass(table)

    lost = last(table, "PlayerLost")
    assert (lost["player"], lost["rule"]) == ("alice", "704.5a")
    assert last(table, "GameEnded")["winner"] == "bob"
    assert table.state.ended and table.state.turn == 1 and table.state.step == "cleanup"


# --- 514.2: "until end of turn" ends in cleanup --------------------------------------------


def test_giant_growth_lasts_through_the_end_step_and_ends_in_cleanup_514_2():
    table = start(two_players(alice={"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Giant Growth"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    growth = table.state.effects[0].id

    advance_to(table, 1, "end")
    bears = perm(table, "Grizzly Bears")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears)) == (5, 5)  # still, in the end step
    v = table.state.version
    both_pass(table)

    assert types_since(table, v)[3:6] == ["StepEnded", "StepBegan", "CleanupPerformed"]
    assert last(table, "CleanupPerformed")["effects_ended"] == [growth]
    assert events_of(table, "EffectsEnded") == []
    bears = perm(table, "Grizzly Bears")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears)) == (2, 2)


def test_the_bonus_of_history_of_benalias_chapter_iii_lasts_through_the_end_step_and_ends_in_cleanup_514_2():
    table = start(two_players(alice={"battlefield": ["Plains"] * 3, "hand": ["History of Benalia"], "library": ["Plains"] * 5}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "History of Benalia"))
    advance_through(table, 5, "precombat_main")
    pass_until_empty_stack(table)  # chapter III: Knights get +2/+1 until end of turn

    advance_to(table, 5, "end")
    knights = [p for p in table.state.battlefield if p.card == "Knight"]
    assert [(ch.power(table.state, k), ch.toughness(table.state, k)) for k in knights] == [(4, 3), (4, 3)]
    pumps = [e.id for e in table.state.effects]
    assert len(pumps) == 2

    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))
    assert last(table, "CleanupPerformed")["effects_ended"] == pumps
    knights = [p for p in table.state.battlefield if p.card == "Knight"]
    assert [(ch.power(table.state, k), ch.toughness(table.state, k)) for k in knights] == [(2, 2), (2, 2)]
