"""The turn structure (500-514) and timing and priority (117), on concrete boards."""

from __future__ import annotations

import pytest

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, DeclareBlockers, Discard, PassPriority
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.decision import pending_decision
from tests.helpers import advance_to, events_of, last, perm, since, start, two_players, types_since

EMPTY_COMBAT_TURN = [
    ("beginning", "untap"),
    ("beginning", "upkeep"),
    ("beginning", "draw"),
    ("precombat_main", "precombat_main"),
    ("combat", "beginning_of_combat"),
    ("combat", "declare_attackers"),
    ("combat", "end_of_combat"),
    ("postcombat_main", "postcombat_main"),
    ("ending", "end"),
    ("ending", "cleanup"),
]


def steps_of_turn(table, turn: int) -> list[tuple[str, str]]:
    return [(e["phase"], e["step"]) for e in events_of(table, "StepBegan") if e["turn"] == turn]


def between(table, first: dict, then_type: str, then_step: str) -> list[dict]:
    """The events after ``first`` up to (not including) the next ``then_type`` of step ``then_step``."""
    out = []
    for e in since(table, first["v"]):
        if e["type"] == then_type and e.get("step") == then_step:
            return out
        out.append(e)
    raise AssertionError(f"no {then_type} {then_step} after event {first['v']}")


def step_began(table, turn: int, step: str) -> dict:
    return next(e for e in events_of(table, "StepBegan") if e["turn"] == turn and e["step"] == step)


# --- 500.1: phases and steps in order ----------------------------------------------------


def test_a_turn_walks_every_phase_and_step_in_order_500_1():
    table = start(two_players())
    advance_to(table, 2, "upkeep")

    assert steps_of_turn(table, 1) == EMPTY_COMBAT_TURN
    assert [e["step"] for e in events_of(table, "StepEnded") if e["turn"] == 1] == [s for _, s in EMPTY_COMBAT_TURN]
    began = last(table, "TurnBegan")
    assert (began["turn"], began["active_player"]) == (2, "bob")


def test_declare_blockers_and_combat_damage_steps_are_skipped_without_attackers_508_8():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ()))
    advance_to(table, 1, "postcombat_main")

    steps = [s for _, s in steps_of_turn(table, 1)]
    assert "declare_blockers" not in steps and "combat_damage" not in steps
    assert steps[steps.index("declare_attackers") + 1] == "end_of_combat"


def test_declare_blockers_and_combat_damage_steps_happen_when_a_creature_attacks_508_8():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), "bob"),)))
    advance_to(table, 1, "postcombat_main")

    assert [s for _, s in steps_of_turn(table, 1)][5:9] == [
        "declare_attackers",
        "declare_blockers",
        "combat_damage",
        "end_of_combat",
    ]
    assert table.state.players["bob"].life == 18


def test_declare_blockers_step_still_happens_when_the_only_attacker_is_removed_508_8():
    """508.8 asks whether creatures were *declared* as attackers, not whether any still attack."""
    table = start(
        two_players(
            alice={"battlefield": ["Grizzly Bears"]},
            bob={"battlefield": ["Mountain", "Savannah Lions"], "hand": ["Lightning Bolt"]},
        )
    )
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), "bob"),)))
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(CardRef("Grizzly Bears"),)))
    table.handle(PassPriority("bob"))
    table.handle(PassPriority("alice"))  # Bolt resolves, the Bears die: nothing attacks any more
    assert table.state.players["alice"].graveyard == ["Grizzly Bears"]
    advance_to(table, 1, "postcombat_main")

    steps = [s for _, s in steps_of_turn(table, 1)]
    assert steps[5:9] == ["declare_attackers", "declare_blockers", "combat_damage", "end_of_combat"]
    assert table.state.players["bob"].life == 20


# --- 502: untap step ---------------------------------------------------------------------


def test_nobody_receives_priority_in_the_untap_step_502_4():
    table = start(two_players())
    advance_to(table, 2, "upkeep")

    for turn in (1, 2):
        inside = between(table, step_began(table, turn, "untap"), "StepEnded", "untap")
        assert "PriorityGiven" not in [e["type"] for e in inside]


def test_active_player_untaps_their_permanents_and_the_other_player_does_not_502_3():
    table = start(two_players(alice={"battlefield": ["Forest"]}, bob={"battlefield": ["Forest"]}))
    table.handle(ActivateAbility("alice", CardRef("Forest", 0)))
    table.handle(PassPriority("alice"))
    table.handle(ActivateAbility("bob", CardRef("Forest", 1)))
    alice_forest, bob_forest = perm(table, "Forest", 0), perm(table, "Forest", 1)
    assert alice_forest.tapped and bob_forest.tapped

    advance_to(table, 2, "upkeep")

    untapped = last(table, "PermanentsUntapped")
    assert untapped["player"] == "bob" and untapped["permanents"] == [bob_forest.object]
    assert not perm(table, "Forest", 1).tapped
    assert perm(table, "Forest", 0).tapped


# --- 503: upkeep -------------------------------------------------------------------------


@pytest.mark.parametrize("turn, active", [(1, "alice"), (2, "bob")])
def test_active_player_receives_priority_first_in_upkeep_503_1_117_3a(turn, active):
    table = start(two_players())
    advance_to(table, turn, "upkeep")

    assert table.events[-1]["type"] == "PriorityGiven" and table.events[-1]["player"] == active
    assert table.state.priority == active
    assert table.events[-2]["type"] == "StepBegan" and table.events[-2]["step"] == "upkeep"


# --- 504: draw ---------------------------------------------------------------------------


def test_starting_player_skips_first_draw_in_two_player_game_103_8a():
    table = start(two_players(alice={"library": ["Island", "Forest"]}))
    advance_to(table, 1, "precombat_main")

    skipped = last(table, "DrawSkipped")
    assert (skipped["player"], skipped["rule"]) == ("alice", "103.8a")
    assert events_of(table, "CardDrawn") == []
    assert table.state.players["alice"].hand == []
    assert table.state.players["alice"].library == ["Island", "Forest"]


def test_active_player_draws_the_top_card_in_draw_step_504_1():
    table = start(two_players(bob={"library": ["Island", "Mountain", "Forest"]}))
    advance_to(table, 2, "draw")

    drawn = last(table, "CardDrawn")
    assert (drawn["player"], drawn["card"]) == ("bob", "Island")
    assert table.state.players["bob"].hand == ["Island"]
    assert table.state.players["bob"].library == ["Mountain", "Forest"]
    assert events_of(table, "DrawSkipped") == [last(table, "DrawSkipped")]  # only alice's turn 1
    # the draw is a turn-based action: it happens before anyone gets priority (504.1, 504.2)
    assert types_since(table, step_began(table, 2, "draw")["v"]) == ["CardDrawn", "PriorityGiven"]


# --- 514: cleanup ------------------------------------------------------------------------

NINE = ["Forest", "Island", "Mountain", "Plains", "Swamp", "Grizzly Bears", "Hill Giant", "Divination", "Lightning Bolt"]


def test_cleanup_waits_for_the_active_player_to_discard_down_to_seven_514_1():
    table = start(two_players(alice={"hand": list(NINE)}))
    advance_to(table, 1, "cleanup")

    decision = pending_decision(table.state)
    assert (decision.kind, decision.player, decision.count) == ("discard", "alice", 2)
    assert table.events[-1]["type"] == "StepBegan" and table.events[-1]["step"] == "cleanup"

    table.handle(Discard("alice", ("Hill Giant", "Divination")))

    discarded = last(table, "CardsDiscarded")
    assert discarded["player"] == "alice"
    assert discarded["cards"] == ["Hill Giant", "Divination"]
    assert discarded["max_hand_size"] == 7
    assert len(table.state.players["alice"].hand) == 7
    assert table.state.players["alice"].graveyard == ["Hill Giant", "Divination"]
    assert last(table, "TurnBegan")["turn"] == 2


@pytest.mark.parametrize("cards", [("Hill Giant",), ("Hill Giant", "Divination", "Forest")])
def test_discarding_other_than_down_to_seven_is_rejected_514_1(cards):
    table = start(two_players(alice={"hand": list(NINE)}))
    advance_to(table, 1, "cleanup")
    stored = len(table.events)

    with pytest.raises(IllegalAction) as exc:
        table.handle(Discard("alice", cards))

    assert exc.value.rule == "514.1"
    assert len(table.events) == stored
    assert len(table.state.players["alice"].hand) == 9


def test_damage_and_until_end_of_turn_effects_end_in_cleanup_not_at_end_step_514_2():
    table = start(
        two_players(
            alice={"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Giant Growth"]},
            bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))  # Growth resolves: a 5/5
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(CardRef("Grizzly Bears"),)))
    table.handle(PassPriority("bob"))
    table.handle(PassPriority("alice"))  # Bolt resolves: 3 damage on a 5/5

    advance_to(table, 1, "end")
    bears = perm(table, "Grizzly Bears")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears), bears.damage) == (5, 5, 3)

    advance_to(table, 2, "upkeep")
    bears = perm(table, "Grizzly Bears")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears), bears.damage) == (2, 2, 0)
    cleaned = last(table, "CleanupPerformed")
    assert cleaned["damage_removed"] == [bears.object]
    assert len(cleaned["effects_ended"]) == 1
    assert table.state.players["alice"].graveyard == ["Giant Growth"]


def test_nobody_receives_priority_in_cleanup_normally_514_3():
    table = start(two_players(alice={"hand": list(NINE)}))
    advance_to(table, 1, "cleanup")
    table.handle(Discard("alice", ("Forest", "Island")))
    advance_to(table, 2, "upkeep")

    inside = between(table, step_began(table, 1, "cleanup"), "StepEnded", "cleanup")
    assert [e["type"] for e in inside] == ["CardsDiscarded", "CleanupPerformed"]
    assert table.state.priority == "bob"


# --- 500.4: mana empties between steps -----------------------------------------------------


def test_mana_pools_empty_at_the_end_of_each_step_500_4():
    table = start(two_players(alice={"battlefield": ["Forest"]}))
    table.handle(ActivateAbility("alice", CardRef("Forest")))
    assert table.state.players["alice"].mana_pool == {"G": 1}

    advance_to(table, 1, "draw")

    emptied = last(table, "ManaPoolEmptied")
    assert (emptied["player"], emptied["mana"]) == ("alice", {"G": 1})
    assert table.events[emptied["v"] - 2]["type"] == "StepEnded"  # as the upkeep ends
    assert table.events[emptied["v"] - 2]["step"] == "upkeep"
    assert table.state.players["alice"].mana_pool == {}


# --- 117: priority and the stack -------------------------------------------------------------


def bolt_and_growth_board() -> dict:
    return two_players(
        alice={"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Giant Growth"]},
        bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
    )


def test_passing_priority_gives_it_to_the_next_player_117_3d():
    table = start(two_players())
    advance_to(table, 1, "precombat_main")
    before = len(table.events)
    table.handle(PassPriority("alice"))

    assert types_since(table, before) == ["PriorityPassed", "PriorityGiven"]
    assert last(table, "PriorityGiven")["player"] == "bob"
    assert table.state.step == "precombat_main"


def test_caster_receives_priority_again_after_casting_117_3c():
    table = start(bolt_and_growth_board())
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))

    cast = last(table, "SpellCast")
    after = table.events[cast["v"]]  # the event right after SpellCast (versions start at 1)
    assert (after["type"], after["player"]) == ("PriorityGiven", "alice")
    assert table.state.priority == "alice"


def test_step_ends_only_when_all_players_pass_in_succession_with_empty_stack_117_4():
    table = start(two_players(bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=("alice",)))
    table.handle(PassPriority("bob"))
    table.handle(PassPriority("alice"))  # both passed, but the stack was not empty: Bolt resolves

    assert table.state.step == "precombat_main"
    assert "StepEnded" not in types_since(table, last(table, "SpellCast")["v"])
    assert table.state.players["alice"].life == 17

    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))

    assert last(table, "StepEnded")["step"] == "precombat_main"
    assert table.state.step == "beginning_of_combat"


def test_activating_a_mana_ability_breaks_the_succession_of_passes_117_4_117_3c():
    table = start(two_players(bob={"battlefield": ["Forest"]}))
    table.handle(PassPriority("alice"))
    table.handle(ActivateAbility("bob", CardRef("Forest")))  # an action: bob keeps priority (117.3c)
    table.handle(PassPriority("bob"))

    assert table.state.step == "upkeep"
    assert table.state.priority == "alice"


def test_active_player_receives_priority_after_a_spell_resolves_117_3b():
    table = start(bolt_and_growth_board())
    advance_to(table, 1, "precombat_main")
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=("alice",)))
    table.handle(PassPriority("bob"))
    table.handle(PassPriority("alice"))  # alice passed last; the next player after her would be bob

    resolved = last(table, "ObjectResolved")
    assert table.events[-1]["v"] > resolved["v"]
    assert (table.events[-1]["type"], table.events[-1]["player"]) == ("PriorityGiven", "alice")


def test_spells_resolve_last_in_first_out_405_5_608_1():
    table = start(bolt_and_growth_board())
    advance_to(table, 1, "precombat_main")
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(CardRef("Grizzly Bears"),)))
    table.handle(PassPriority("bob"))
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))
    assert [s.card for s in table.state.stack] == ["Lightning Bolt", "Giant Growth"]

    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))  # the top object, Giant Growth, resolves; Bolt waits
    assert [e["card"] for e in events_of(table, "ObjectResolved")] == ["Giant Growth"]
    assert [s.card for s in table.state.stack] == ["Lightning Bolt"]

    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))
    assert [e["card"] for e in events_of(table, "ObjectResolved")] == ["Giant Growth", "Lightning Bolt"]
    bears = perm(table, "Grizzly Bears")
    assert (ch.toughness(table.state, bears), bears.damage) == (5, 3)  # it survives the Bolt


def test_passing_with_a_spell_on_the_stack_resolves_it_instead_of_ending_the_step_405_608():
    table = start(bolt_and_growth_board())
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))
    before = table.events[-1]["v"]
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))

    assert types_since(table, before) == [
        "PriorityPassed",
        "PriorityGiven",
        "PriorityPassed",
        "EffectCreated",
        "ObjectResolved",
        "PriorityGiven",
    ]
    assert table.state.stack == [] and table.state.step == "precombat_main"


def test_blockers_are_declared_by_the_defending_player_before_anyone_gets_priority_509_1_509_2():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Savannah Lions"]}))
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), None),)))
    advance_to(table, 1, "declare_blockers")

    assert pending_decision(table.state).player == "bob"
    assert table.state.priority is None
    table.handle(DeclareBlockers("bob", ()))
    assert (table.events[-1]["type"], table.events[-1]["player"]) == ("PriorityGiven", "alice")
