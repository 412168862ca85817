"""Changes to the turn's phases (500.8 additional phases, 500.10 skipped phases), which main phase
is precombat (505.1a), and Sagas (714) on concrete boards."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell, DeclareAttackers
from mtg_ledger.core.decision import pending_decision
from tests.helpers import (
    advance_through,
    advance_to,
    attack,
    both_pass,
    events_of,
    last,
    pass_to_next,
    pass_until_empty_stack,
    perm,
    start,
    two_players,
    types_since,
)

ONE_COMBAT = ["beginning_of_combat", "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat"]


def steps_of_turn(table, turn: int) -> list[str]:
    return [e["step"] for e in events_of(table, "StepBegan") if e["turn"] == turn]


def mains(table, turn: int) -> list[str]:
    return [s for s in steps_of_turn(table, turn) if s.endswith("_main")]


def assault_board(**alice) -> object:
    """Alice's Grizzly Bears (1) and four Mountains; Relentless Assault in hand."""
    return start(two_players(alice={"battlefield": ["Grizzly Bears"] + ["Mountain"] * 4, "hand": ["Relentless Assault"], **alice}))


# --- 500.8: an additional combat phase and main phase ------------------------------------------


def test_relentless_assault_adds_a_combat_and_a_main_phase_after_the_main_phase_it_resolves_in_500_8():
    table = assault_board()
    attack(table, CardRef("Grizzly Bears"))
    advance_to(table, 1, "postcombat_main")
    assert perm(table, "Grizzly Bears").tapped
    table.handle(CastSpell("alice", "Relentless Assault"))
    spell = last(table, "SpellCast")["object"]
    v = table.state.version
    both_pass(table)

    assert types_since(table, v)[3:] == [
        "PermanentsUntappedByEffect",
        "ExtraPhaseAdded",
        "ExtraPhaseAdded",
        "ObjectResolved",
        "PriorityGiven",
    ]
    untapped = last(table, "PermanentsUntappedByEffect")
    assert (untapped["permanents"], untapped["source"]) == ([1], spell)
    added = events_of(table, "ExtraPhaseAdded")
    assert [(e["phase"], e["source"]) for e in added] == [("combat", spell), ("postcombat_main", spell)]
    assert not perm(table, "Grizzly Bears").tapped

    pass_to_next(table, "declare_attackers")  # the additional combat: the Bears attack again
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), None),)))
    advance_to(table, 2, "upkeep")

    assert steps_of_turn(table, 1) == [
        "untap", "upkeep", "draw", "precombat_main", *ONE_COMBAT, "postcombat_main", *ONE_COMBAT, "postcombat_main", "end", "cleanup",
    ]
    assert table.state.players["bob"].life == 16


def test_relentless_assault_in_the_first_main_phase_puts_its_combat_and_main_phase_before_the_regular_combat_500_8():
    table = assault_board()
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Relentless Assault"))
    both_pass(table)
    assert events_of(table, "PermanentsUntappedByEffect") == []  # nothing has attacked yet
    advance_to(table, 2, "upkeep")

    no_attack = ["beginning_of_combat", "declare_attackers", "end_of_combat"]
    assert steps_of_turn(table, 1)[3:] == [
        "precombat_main", *no_attack, "postcombat_main", *no_attack, "postcombat_main", "end", "cleanup",
    ]


def test_luminarch_aspirant_triggers_again_at_the_beginning_of_the_additional_combat_500_8_603_3():
    table = assault_board(battlefield=["Luminarch Aspirant"] + ["Mountain"] * 4)
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Relentless Assault"))
    both_pass(table)
    advance_to(table, 2, "upkeep")

    assert len(events_of(table, "CountersAdded")) == 2
    assert perm(table, "Luminarch Aspirant").counters == {"+1/+1": 2}


# --- 505.1a: only the first main phase is precombat -------------------------------------------


def test_only_the_first_main_phase_is_precombat_so_a_saga_gets_one_lore_counter_505_1a_505_4():
    table = assault_board(battlefield=["History of Benalia"] + ["Mountain"] * 4)
    advance_through(table, 1, "precombat_main")
    pass_until_empty_stack(table)  # chapter I
    table.handle(CastSpell("alice", "Relentless Assault"))
    both_pass(table)
    advance_to(table, 2, "upkeep")

    assert mains(table, 1) == ["precombat_main", "postcombat_main", "postcombat_main"]
    assert [(e["count"], e["total"]) for e in events_of(table, "LoreCounterAdded")] == [(1, 1)]
    assert perm(table, "History of Benalia").counters == {"lore": 1}


def test_the_main_phase_after_a_skipped_combat_is_postcombat_505_1a():
    table = start(two_players(alice={"battlefield": ["History of Benalia", "Plains"], "hand": ["Moment of Silence"]}))
    advance_through(table, 1, "precombat_main")
    pass_until_empty_stack(table)
    table.handle(CastSpell("alice", "Moment of Silence", targets=("alice",)))
    both_pass(table)
    advance_to(table, 1, "postcombat_main")

    assert mains(table, 1) == ["precombat_main", "postcombat_main"]
    assert table.state.phase == "postcombat_main"
    assert len(events_of(table, "LoreCounterAdded")) == 1


# --- 500.10: skipping a combat phase -----------------------------------------------------------


def test_moment_of_silence_makes_its_target_skip_their_next_combat_phase_this_turn_500_10():
    table = start(two_players(alice={"battlefield": ["Plains", "Grizzly Bears"], "hand": ["Moment of Silence"]}))
    table.handle(CastSpell("alice", "Moment of Silence", targets=("alice",)))
    spell = last(table, "SpellCast")["object"]
    both_pass(table)
    effect = table.state.effects[0]
    assert (effect.kind, effect.player) == ("skip_combat", "alice")
    advance_to(table, 1, "postcombat_main")

    skipped = last(table, "PhaseSkipped")
    assert (skipped["phase"], skipped["player"], skipped["source"], skipped["effect"]) == ("combat", "alice", spell, effect.id)
    ended = [e for e in events_of(table, "StepEnded") if e["turn"] == 1][-1]
    assert ended["step"] == "precombat_main"
    assert types_since(table, ended["v"])[:2] == ["PhaseSkipped", "StepBegan"]
    assert "beginning_of_combat" not in steps_of_turn(table, 1)
    assert table.state.effects == []  # used up
    assert events_of(table, "AttackersDeclared") == []


def test_moment_of_silence_on_the_nonactive_player_has_no_effect_this_turn_500_10():
    table = start(
        two_players(alice={"battlefield": ["Plains", "Grizzly Bears"], "hand": ["Moment of Silence"]}, bob={"battlefield": ["Savannah Lions"]})
    )
    table.handle(CastSpell("alice", "Moment of Silence", targets=("bob",)))
    both_pass(table)
    effect = table.state.effects[0]
    attack(table, CardRef("Grizzly Bears"))
    advance_to(table, 2, "declare_attackers")

    assert events_of(table, "PhaseSkipped") == []
    assert "beginning_of_combat" in steps_of_turn(table, 1) and "beginning_of_combat" in steps_of_turn(table, 2)
    assert effect.id in [e for c in events_of(table, "CleanupPerformed") for e in c["effects_ended"]]
    assert table.state.players["bob"].life == 18
    assert pending_decision(table.state).kind == "declare_attackers"


def test_moment_of_silence_skips_only_the_next_of_two_combat_phases_500_10_500_8():
    table = assault_board(battlefield=["Grizzly Bears", "Plains"] + ["Mountain"] * 4, hand=["Relentless Assault", "Moment of Silence"])
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Moment of Silence", targets=("alice",)))
    both_pass(table)
    table.handle(CastSpell("alice", "Relentless Assault"))
    both_pass(table)
    pass_to_next(table, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), None),)))
    advance_to(table, 2, "upkeep")

    assert len(events_of(table, "PhaseSkipped")) == 1
    assert steps_of_turn(table, 1)[3:] == ["precombat_main", "postcombat_main", *ONE_COMBAT, "postcombat_main", "end", "cleanup"]
    assert table.state.players["bob"].life == 18


# --- 714: Sagas -------------------------------------------------------------------------------


def history_board(**alice) -> object:
    """Alice casts History of Benalia in her turn 1 precombat main phase."""
    table = start(
        two_players(
            alice={"battlefield": ["Plains"] * 3, "hand": ["History of Benalia"], "library": ["Plains"] * 5, **alice},
            bob={"battlefield": ["Youthful Knight"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "History of Benalia"))
    return table


def test_history_of_benalia_enters_with_a_lore_counter_and_chapter_i_creates_a_knight_714_3a_714_2b():
    table = history_board()
    v = table.state.version
    both_pass(table)

    saga = last(table, "ObjectResolved")["permanent"]
    assert types_since(table, v)[3:] == ["ObjectResolved", "LoreCounterAdded", "AbilityTriggered", "TriggeredAbilitiesStacked", "PriorityGiven"]
    lore = last(table, "LoreCounterAdded")
    assert (lore["saga"], lore["count"], lore["total"]) == (saga, 1, 1)
    assert last(table, "AbilityTriggered")["context"] == {"chapter": 1}

    both_pass(table)
    token = last(table, "TokenCreated")
    assert (token["player"], token["token"]) == ("alice", "Knight")
    knight = table.state.permanent(token["object"])
    assert knight.token and (ch.power(table.state, knight), ch.toughness(table.state, knight)) == (2, 2)
    assert ch.has_keyword(table.state, knight, "vigilance") and ch.face(table.state, knight).colors == ("W",)


def test_history_of_benalia_gets_a_lore_counter_in_the_next_precombat_main_phase_and_chapter_ii_creates_a_knight_505_4():
    table = history_board()
    advance_through(table, 3, "precombat_main")

    main = [e for e in events_of(table, "StepBegan") if (e["turn"], e["step"]) == (3, "precombat_main")][0]
    assert types_since(table, main["v"]) == ["LoreCounterAdded", "AbilityTriggered", "TriggeredAbilitiesStacked", "PriorityGiven"]
    assert (last(table, "LoreCounterAdded")["total"], last(table, "AbilityTriggered")["context"]) == (2, {"chapter": 2})
    both_pass(table)
    assert [p.card for p in table.state.battlefield if p.token] == ["Knight", "Knight"]


def test_after_chapter_iii_leaves_the_stack_history_of_benalia_is_sacrificed_714_4():
    table = history_board()
    advance_through(table, 5, "precombat_main")
    saga = perm(table, "History of Benalia")
    assert saga.counters == {"lore": 3} and [o.card for o in table.state.stack] == ["History of Benalia"]
    v = table.state.version
    both_pass(table)

    assert types_since(table, v)[3:] == ["EffectCreated", "EffectCreated", "ObjectResolved", "PermanentsPutIntoGraveyard", "PriorityGiven"]
    gone = last(table, "PermanentsPutIntoGraveyard")
    assert (gone["permanents"], gone["rule"]) == ([{"object": saga.object, "card": "History of Benalia", "owner": "alice"}], "714.4")
    assert table.state.players["alice"].graveyard == ["History of Benalia"]
    knights = [p for p in table.state.battlefield if p.token]
    assert [(ch.power(table.state, k), ch.toughness(table.state, k)) for k in knights] == [(4, 3), (4, 3)]
    bobs = perm(table, "Youthful Knight")  # "Knights you control": not bob's
    assert (ch.power(table.state, bobs), ch.toughness(table.state, bobs)) == (2, 1)


def test_chapter_iii_pumps_a_nontoken_knight_its_controller_controls_too_714_2():
    table = history_board(battlefield=["Plains"] * 3 + ["Youthful Knight"])
    advance_through(table, 5, "precombat_main")
    both_pass(table)

    mine, bobs = (next(p for p in table.state.battlefield if p.card == "Youthful Knight" and p.controller == c) for c in ("alice", "bob"))
    assert (ch.power(table.state, mine), ch.toughness(table.state, mine)) == (4, 2)
    assert (ch.power(table.state, bobs), ch.toughness(table.state, bobs)) == (2, 1)
    assert sorted(e["effect"]["object"] for e in events_of(table, "EffectCreated")) == sorted(
        p.object for p in table.state.battlefield if p.controller == "alice" and "Knight" in ch.face(table.state, p).subtypes
    )
