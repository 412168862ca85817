"""The untap step (502) on concrete boards: phasing (502.1, 702.26), day and night (502.2, 726),
untapping and what keeps a permanent tapped (502.3), and haste against summoning sickness (302.6)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import events as ev
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, DeclareBlockers, PassPriority
from mtg_ledger.core.errors import CannotPay, IllegalTarget, WrongTiming
from tests.helpers import (
    advance_through,
    advance_to,
    attack,
    both_pass,
    events_of,
    last,
    perm,
    refused,
    since,
    start,
    two_players,
    types_since,
)


def step_began(table, turn: int, step: str) -> dict:
    return next(e for e in events_of(table, "StepBegan") if e["turn"] == turn and e["step"] == step)


def in_untap(table, turn: int) -> list[str]:
    """The types of the events of that turn's untap step, after its StepBegan."""
    began = step_began(table, turn, "untap")
    out = []
    for e in since(table, began["v"]):
        if e["type"] == "StepEnded":
            return out
        out.append(e["type"])
    raise AssertionError("the untap step did not end")


# --- 502.1, 702.26: phasing ---------------------------------------------------------------


def test_breezekeeper_phases_out_in_its_controllers_untap_step_and_in_again_in_their_next_502_1():
    table = start(two_players(bob={"battlefield": ["Breezekeeper"]}))
    advance_to(table, 4, "upkeep")

    phased = events_of(table, "PermanentsPhased")
    assert [(e["phased_in"], e["phased_out"]) for e in phased] == [([], [1]), ([1], [])]
    for turn, e in zip((2, 4), phased, strict=True):  # in bob's untap steps
        assert step_began(table, turn, "untap")["v"] < e["v"] < step_began(table, turn, "upkeep")["v"]
    assert in_untap(table, 3) == []  # alice's untap step: bob's permanents don't phase
    assert not perm(table, "Breezekeeper").phased_out


def test_a_phased_out_creature_cannot_be_the_target_of_lightning_bolt_702_26b():
    table = start(two_players(alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, bob={"battlefield": ["Breezekeeper"]}))
    advance_to(table, 3, "upkeep")
    assert perm(table, "Breezekeeper").phased_out

    refused(table, CastSpell("alice", "Lightning Bolt", targets=(CardRef("Breezekeeper"),)), "400.1", IllegalTarget)
    refused(table, CastSpell("alice", "Lightning Bolt", targets=(perm(table, "Breezekeeper").object,)), "400.1", IllegalTarget)
    assert table.state.players["alice"].hand == ["Lightning Bolt"] and not perm(table, "Mountain").tapped


def test_a_phased_out_creature_is_not_a_possible_blocker_702_26b():
    """Bob's only creature is phased out: he is not even asked to declare blockers."""
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Breezekeeper"]}))
    advance_to(table, 3, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), None),)))
    advance_to(table, 3, "end_of_combat")

    declared = [e for e in events_of(table, "BlockersDeclared") if e["v"] > step_began(table, 3, "declare_blockers")["v"]]
    assert [(e["player"], e["blockers"]) for e in declared] == [("bob", [])]
    assert table.state.players["bob"].life == 18


def test_blocking_with_a_phased_out_creature_is_refused_702_26b():
    table = start(two_players(alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Breezekeeper", "Savannah Lions"]}))
    advance_to(table, 3, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), None),)))
    advance_to(table, 3, "declare_blockers")

    refused(table, DeclareBlockers("bob", ((CardRef("Breezekeeper"), CardRef("Grizzly Bears")),)), "400.1")
    refused(table, DeclareBlockers("bob", ((perm(table, "Breezekeeper").object, CardRef("Grizzly Bears")),)), "400.1")


def test_a_phased_out_creature_with_lethal_damage_survives_and_cleanup_removes_its_damage_702_26b_514_2():
    """No card of the pool can damage a phased-out permanent, so the damage is recorded directly."""
    table = start(two_players(bob={"battlefield": ["Breezekeeper"]}))
    advance_to(table, 2, "upkeep")
    keeper = perm(table, "Breezekeeper")
    table.emit(ev.DamageDealt, {"source": keeper.object, "card": "Breezekeeper", "target": keeper.object, "amount": 4})
    assert perm(table, "Breezekeeper").damage == 4

    advance_to(table, 2, "end")  # state-based actions were checked at every priority since
    assert events_of(table, "PermanentsPutIntoGraveyard") == []
    advance_to(table, 3, "upkeep")
    assert last(table, "CleanupPerformed")["damage_removed"] == [keeper.object]
    assert perm(table, "Breezekeeper").damage == 0


def test_a_phased_out_permanent_keeps_its_counters_and_stays_tapped_until_it_phases_in_and_untaps_702_26():
    table = start(two_players(alice={"battlefield": ["Breezekeeper", "Luminarch Aspirant"]}))
    advance_to(table, 1, "beginning_of_combat")  # Breezekeeper phased out: the Aspirant is the only target
    assert last(table, "TriggeredAbilitiesStacked")["targets"] == {str(last(table, "AbilityTriggered")["object"]): [2]}

    advance_through(table, 3, "beginning_of_combat")  # phased in: the counter goes on Breezekeeper (first target)
    both_pass(table)
    assert perm(table, "Breezekeeper").counters == {"+1/+1": 1}
    attack(table, CardRef("Breezekeeper"))
    advance_to(table, 4, "upkeep")
    assert table.state.players["bob"].life == 15 and perm(table, "Breezekeeper").tapped

    advance_through(table, 5, "upkeep")
    keeper = perm(table, "Breezekeeper")
    assert keeper.phased_out and keeper.tapped and keeper.counters == {"+1/+1": 1}

    advance_through(table, 7, "upkeep")
    assert in_untap(table, 5) == ["PermanentsPhased"]  # phased out tapped, and not untapped (502.1 before 502.3)
    assert in_untap(table, 7) == ["PermanentsPhased", "PermanentsUntapped"]  # phases in, then untaps
    assert last(table, "PermanentsPhased")["phased_in"] == [keeper.object]
    assert keeper.object in last(table, "PermanentsUntapped")["permanents"]
    keeper = perm(table, "Breezekeeper")
    assert not keeper.phased_out and not keeper.tapped and keeper.counters == {"+1/+1": 1}
    assert (ch.power(table.state, keeper), ch.toughness(table.state, keeper)) == (5, 5)


# --- 502.2, 726: day and night --------------------------------------------------------------


def test_a_daybound_permanent_on_the_battlefield_makes_it_day_726_2():
    table = start(two_players(alice={"battlefield": ["Village Watch"]}))

    changed = last(table, "DayNightChanged")
    assert (changed["to"], changed["rule"], changed["transformed"]) == ("day", "726.2", [])
    assert types_since(table, changed["v"]) == ["PriorityGiven"]
    assert table.state.day_night == "day"


def test_it_becomes_night_when_the_previous_active_player_cast_no_spells_and_village_watch_transforms_502_2_726_3a():
    table = start(two_players(alice={"battlefield": ["Village Watch", "Forest"]}))
    table.handle(ActivateAbility("alice", CardRef("Forest")))  # something for bob's untap step to leave alone
    advance_to(table, 2, "upkeep")

    changed = last(table, "DayNightChanged")
    assert (changed["to"], changed["rule"], changed["transformed"]) == ("night", "502.2", [1])
    assert step_began(table, 2, "untap")["v"] < changed["v"] < step_began(table, 2, "upkeep")["v"]
    watch = perm(table, "Village Watch")
    assert watch.transformed and ch.name(table.state, watch) == "Village Reavers"
    assert (ch.power(table.state, watch), ch.toughness(table.state, watch)) == (5, 5)


def test_a_spell_cast_by_the_active_player_keeps_it_day_726_3a():
    table = start(two_players(alice={"battlefield": ["Village Watch", "Mountain"], "hand": ["Lightning Bolt"]}))
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    both_pass(table)
    advance_to(table, 2, "upkeep")

    assert [e["to"] for e in events_of(table, "DayNightChanged")] == ["day"]
    assert not perm(table, "Village Watch").transformed


def test_a_village_watch_entering_while_it_is_night_enters_as_village_reavers_with_haste_702_145():
    table = start(two_players(alice={"battlefield": ["Village Watch"] + ["Mountain"] * 5, "hand": ["Village Watch"]}))
    advance_to(table, 3, "precombat_main")
    assert table.state.day_night == "night"
    table.handle(CastSpell("alice", "Village Watch"))
    both_pass(table)

    entered = last(table, "ObjectResolved")["permanent"]
    transformed = last(table, "PermanentsTransformed")
    assert (transformed["permanents"], transformed["rule"]) == ([entered], "702.145")
    reavers = table.state.permanent(entered)
    assert ch.name(table.state, reavers) == "Village Reavers" and (ch.power(table.state, reavers), ch.toughness(table.state, reavers)) == (5, 5)
    assert ch.has_keyword(table.state, reavers, "haste") and not ch.sick(table.state, reavers)

    advance_to(table, 3, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((entered, None),)))
    assert last(table, "AttackersDeclared")["attackers"][0]["object"] == entered


def test_two_spells_in_a_turn_make_it_day_again_and_village_reavers_transforms_back_726_3b():
    table = start(
        two_players(alice={"battlefield": ["Village Watch", "Mountain", "Mountain"], "library": ["Forest"] * 5, "hand": ["Lightning Bolt"] * 2})
    )
    advance_to(table, 3, "upkeep")
    assert table.state.day_night == "night" and perm(table, "Village Watch").transformed
    for _ in range(2):
        table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
        both_pass(table)
    advance_to(table, 4, "upkeep")

    changed = last(table, "DayNightChanged")
    assert (changed["to"], changed["rule"], changed["transformed"]) == ("day", "502.2", [1])
    watch = perm(table, "Village Watch")
    assert not watch.transformed and ch.name(table.state, watch) == "Village Watch"
    assert (ch.power(table.state, watch), ch.toughness(table.state, watch)) == (4, 3)


def test_spells_cast_in_another_players_turn_do_not_count_for_day_and_night_726_3b():
    table = start(two_players(alice={"battlefield": ["Village Watch", "Mountain", "Mountain"], "hand": ["Lightning Bolt"] * 2}))
    advance_to(table, 4, "upkeep")  # bob's turn, at night
    assert table.state.day_night == "night"
    for _ in range(2):  # alice casts two spells in bob's turn; bob casts none
        table.handle(PassPriority("bob"))
        table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
        both_pass(table, "alice", "bob")
    assert table.state.players["bob"].life == 14
    advance_to(table, 5, "upkeep")

    assert [e["to"] for e in events_of(table, "DayNightChanged")] == ["day", "night"]
    assert table.state.day_night == "night"


# --- 502.3: what doesn't untap ---------------------------------------------------------------

COLOSSUS = {"battlefield": ["Colossus of Sardia"] + ["Forest"] * 9}


def tapped_colossus(alice: dict | None = None) -> object:
    """Colossus of Sardia attacked in alice's turn 1; the game is at alice's turn 3 upkeep."""
    table = start(two_players(alice=alice or COLOSSUS))
    attack(table, CardRef("Colossus of Sardia"))
    table.handle(ActivateAbility("alice", CardRef("Forest")))  # a Forest that will untap
    advance_to(table, 3, "upkeep")
    return table


def test_colossus_of_sardia_does_not_untap_during_its_controllers_untap_step_502_3():
    table = tapped_colossus()

    untapped = last(table, "PermanentsUntapped")
    assert (untapped["player"], untapped["permanents"]) == ("alice", [2])
    assert perm(table, "Colossus of Sardia").tapped and table.state.players["bob"].life == 11


def test_colossus_of_sardia_untaps_itself_for_9_during_its_controllers_upkeep_602_5b():
    table = tapped_colossus()
    v = table.state.version
    table.handle(ActivateAbility("alice", CardRef("Colossus of Sardia"), 0))

    activated = last(table, "AbilityActivated")
    assert (activated["player"], activated["source"], activated["card"], activated["ability"]) == ("alice", 1, "Colossus of Sardia", 0)
    assert activated["mana_spent"] == {"G": 9}
    assert types_since(table, v)[-2:] == ["AbilityActivated", "PriorityGiven"]
    assert [(o.object, o.kind) for o in table.state.stack] == [(activated["object"], "activated")]
    assert perm(table, "Colossus of Sardia").tapped

    both_pass(table)
    untapped = last(table, "PermanentsUntappedByEffect")
    assert (untapped["permanents"], untapped["source"]) == ([1], 1)
    assert not perm(table, "Colossus of Sardia").tapped and table.state.stack == []


def test_colossus_of_sardias_ability_is_refused_outside_its_controllers_upkeep_602_5b():
    table = tapped_colossus()
    advance_to(table, 3, "draw")
    refused(table, ActivateAbility("alice", CardRef("Colossus of Sardia"), 0), "602.5b", WrongTiming)

    advance_to(table, 4, "upkeep")  # bob's upkeep: alice gets priority after bob passes
    table.handle(PassPriority("bob"))
    refused(table, ActivateAbility("alice", CardRef("Colossus of Sardia"), 0), "602.5b", WrongTiming)


def test_colossus_of_sardias_ability_is_refused_without_9_mana_602_2b():
    table = tapped_colossus({"battlefield": ["Colossus of Sardia"] + ["Forest"] * 8})

    refused(table, ActivateAbility("alice", CardRef("Colossus of Sardia"), 0), "602.2b", CannotPay)
    assert not any(p.tapped for p in table.state.battlefield if p.card == "Forest")


# --- 302.6, 702.10: haste -------------------------------------------------------------------


def test_village_watch_with_haste_can_attack_the_turn_it_enters_and_grizzly_bears_cannot_302_6_702_10():
    table = start(two_players(alice={"battlefield": ["Mountain"] * 5 + ["Forest"] * 2, "hand": ["Village Watch", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    for name in ("Village Watch", "Grizzly Bears"):
        table.handle(CastSpell("alice", name))
        both_pass(table)
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((CardRef("Village Watch"), None), (CardRef("Grizzly Bears"), None))), "302.6")
    table.handle(DeclareAttackers("alice", ((CardRef("Village Watch"), None),)))
    advance_to(table, 1, "end_of_combat")
    assert table.state.players["bob"].life == 16
