"""Counters on creatures (122, 613.4c): +1/+1 and -1/-1 counters, 704.5q; and the legend rule (704.5j)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell
from tests.helpers import advance_to, both_pass, events_of, perm, two_players
from tests.rules.mechanics_cards import start

SWAMPS = ["Swamp"] * 4


def test_a_minus_one_minus_one_counter_lowers_power_and_toughness_and_a_one_one_creature_dies_704_5f():
    table = start(two_players(alice={"battlefield": SWAMPS, "hand": ["Instill Infection"]}, bob={"battlefield": ["Savannah Lions", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Instill Infection", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)
    bears = perm(table, "Grizzly Bears")
    assert bears.counters == {"-1/-1": 1}
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears)) == (1, 1)


def test_plus_one_and_minus_one_counters_on_one_creature_are_removed_in_pairs_704_5q():
    table = start(two_players(alice={"battlefield": [*SWAMPS, "Luminarch Aspirant"], "hand": ["Instill Infection"]}))
    advance_to(table, 1, "beginning_of_combat")
    both_pass(table)  # the Aspirant's trigger: a +1/+1 counter on itself, its only creature
    aspirant = perm(table, "Luminarch Aspirant")
    assert aspirant.counters == {"+1/+1": 1}
    table.handle(CastSpell("alice", "Instill Infection", targets=(aspirant.object,)))
    both_pass(table)
    removed = [(e["kind"], e["count"], e["rule"]) for e in events_of(table, "CountersRemoved")]
    assert removed == [("+1/+1", 1, "704.5q"), ("-1/-1", 1, "704.5q")]
    assert {k: n for k, n in aspirant.counters.items() if n} == {}
    assert (ch.power(table.state, aspirant), ch.toughness(table.state, aspirant)) == (1, 1)


def test_a_player_who_controls_two_legendary_permanents_with_the_same_name_keeps_one_704_5j():
    table = start(two_players(alice={"battlefield": ["Plains", "Isamaru, Hound of Konda"], "hand": ["Isamaru, Hound of Konda"]}))
    first = perm(table, "Isamaru, Hound of Konda").object
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Isamaru, Hound of Konda"))
    both_pass(table)
    assert [p.object for p in table.state.battlefield if p.card == "Isamaru, Hound of Konda"] != [first]
    assert len([p for p in table.state.battlefield if p.card == "Isamaru, Hound of Konda"]) == 1
    assert table.state.players["alice"].graveyard == ["Isamaru, Hound of Konda"]
    assert [e["rule"] for e in events_of(table, "PermanentsPutIntoGraveyard")] == ["704.5j"]


def test_the_legend_rule_leaves_alone_legendary_permanents_of_one_name_controlled_by_different_players_704_5j():
    table = start(two_players(alice={"battlefield": ["Isamaru, Hound of Konda"]}, bob={"battlefield": ["Isamaru, Hound of Konda"]}))
    advance_to(table, 1, "precombat_main")
    assert len([p for p in table.state.battlefield if p.card == "Isamaru, Hound of Konda"]) == 2
