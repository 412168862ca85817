"""A defeated Siege (310.11b): "When the last defense counter is removed from this permanent, exile it, then
you may cast it transformed without paying its mana cost." Its ability waits while 704.5v leaves the Siege
on the battlefield; the card is exiled and cast from exile with its back face up (712.11a), a new object
(400.7) that is no battle; or it stays in exile. The pool's Sieges: Invasion of Dominaria // Serra
Faithkeeper, Invasion of Belenon // Belenon War Anthem, Invasion of Moag // Bloomwielder Dryads."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.choices import choices
from mtg_ledger.core.commands import CardRef, CastSpell, CastTransformed, DeclareAttackers, OrderTriggers
from mtg_ledger.core.decision import DecisionKind, pending_decision
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.state import Permanent
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, both_pass, events_of, last, obj, perm, refused, two_players, types_since
from tests.rules.mechanics_cards import start

LANDS = {"Invasion of Dominaria": ["Plains"] * 3, "Invasion of Belenon": ["Plains"] * 3, "Invasion of Moag": ["Forest", "Forest", "Plains", "Plains"]}


def showing(table: LocalTable, name: str) -> Permanent:
    """The permanent showing the face named ``name`` (712.8e: a back face's name, too)."""
    return ch.find_permanent(table.state, CardRef(name))


def siege_in_play(siege: str, alice: list[str], bob: dict[str, Any] | None = None) -> LocalTable:
    """Alice casts ``siege`` in her first main phase, with ``alice`` on her battlefield besides the lands it
    needs; it and its enters ability resolve."""
    table = start(
        two_players(
            alice={"battlefield": LANDS[siege] + alice, "hand": [siege], "library": ["Plains"] * 8},
            bob={"library": ["Forest"] * 8, **(bob or {})},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", siege))
    both_pass(table)  # the Siege resolves; its enters ability goes on the stack
    both_pass(table)  # the ability resolves
    return table


def defeated(siege: str, alice: list[str], bob: dict[str, Any] | None = None) -> LocalTable:
    """Alice's Hill Giant and Grizzly Bears (and ``alice``) attack her own Siege, protected by bob, and
    remove its last defense counter: the table waits in the combat damage step, its ability on the stack."""
    table = siege_in_play(siege, ["Hill Giant", "Grizzly Bears", *alice], bob)
    target = obj(table, siege)
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Hill Giant"), target), (CardRef("Grizzly Bears"), target))))
    advance_to(table, 1, "combat_damage")
    return table


def test_the_siege_s_ability_triggers_as_its_last_defense_counter_is_removed_and_it_stays_until_the_ability_leaves_the_stack_310_11b_704_5v():
    table = defeated("Invasion of Dominaria", [])
    siege = perm(table, "Invasion of Dominaria")
    assert ch.defense(siege) == 0  # 120.3h: 3 + 2 damage took its 5 defense counters
    ability = table.state.stack[-1]
    assert (ability.kind, ability.source, ability.card, ability.controller) == ("triggered", siege.object, "Invasion of Dominaria", "alice")
    assert events_of(table, "PermanentsPutIntoGraveyard") == []  # 704.5v: the source of an ability on the stack
    assert len(events_of(table, "AbilityTriggered")) == 2  # its enters ability, then this one: once


def test_the_defeated_siege_is_exiled_and_its_controller_chooses_whether_to_cast_it_transformed_310_11b():
    table = defeated("Invasion of Dominaria", [])
    siege = obj(table, "Invasion of Dominaria")
    both_pass(table)  # the ability resolves: "exile it, then you may cast it transformed"
    assert last(table, "PermanentsExiled")["permanents"] == [{"object": siege, "card": "Invasion of Dominaria", "owner": "alice"}]
    assert table.state.players["alice"].exile == ["Invasion of Dominaria"]
    decision = pending_decision(table.state)
    assert decision is not None and (decision.kind, decision.player, decision.rule_cited) == (DecisionKind.CAST_TRANSFORMED, "alice", "310.11b")
    assert list(legal_actions(table.state)) == [CastTransformed("alice", True), CastTransformed("alice", False)]
    assert choices(table.state).complete
    refused(table, CastTransformed("bob", True), "310.11b")  # alice's choice, not bob's


def test_cast_transformed_the_spell_is_the_back_face_cast_without_paying_its_mana_cost_712_11a():
    table = defeated("Invasion of Dominaria", [])
    both_pass(table)
    before = table.state.version
    table.handle(CastTransformed("alice", True))
    spell = table.state.stack[-1]
    assert (spell.kind, spell.card, spell.context) == ("spell", "Invasion of Dominaria", {"transformed": True})
    assert len(table.state.stack) == 1  # the defeat ability has left the stack, the spell it cast is there
    assert table.state.players["alice"].exile == []
    assert last(table, "SpellCastTransformed")["rule"] == "310.11b"
    assert "ManaAbilityActivated" not in types_since(table, before) and table.state.players["alice"].mana_pool == {}  # 118.9: no cost paid
    assert pending_decision(table.state).player == "alice"  # type: ignore[union-attr]  # 117.3b: the active player


def test_the_back_face_spell_resolves_into_a_new_permanent_with_its_back_face_up_that_is_no_battle_712_11a_400_7():
    table = defeated("Invasion of Dominaria", [])
    siege = obj(table, "Invasion of Dominaria")
    both_pass(table)
    table.handle(CastTransformed("alice", True))
    both_pass(table)
    angel = showing(table, "Serra Faithkeeper")
    assert angel.object != siege and angel.card == "Invasion of Dominaria" and angel.transformed
    assert (ch.is_creature(table.state, angel), ch.is_type(table.state, angel, "Battle")) == (True, False)
    assert (ch.power(table.state, angel), ch.toughness(table.state, angel)) == (4, 4)
    assert ch.has_keyword(table.state, angel, "flying") and ch.has_keyword(table.state, angel, "vigilance")
    assert (angel.counters, angel.protector) == ({}, None)


def test_serra_faithkeeper_attacks_with_vigilance_702_20():
    table = defeated("Invasion of Dominaria", [])
    both_pass(table)
    table.handle(CastTransformed("alice", True))
    both_pass(table)
    advance_to(table, 3, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Serra Faithkeeper"), "bob"),)))
    assert not showing(table, "Serra Faithkeeper").tapped  # 702.20b
    advance_to(table, 3, "end_of_combat")
    assert table.state.players["bob"].life == 16


def test_declining_to_cast_it_leaves_the_card_in_exile_310_11b():
    table = defeated("Invasion of Dominaria", [])
    both_pass(table)
    table.handle(CastTransformed("alice", False))
    assert last(table, "CastDeclined") == {**last(table, "CastDeclined"), "player": "alice", "card": "Invasion of Dominaria"}
    assert table.state.stack == [] and table.state.players["alice"].exile == ["Invasion of Dominaria"]
    assert [p.card for p in table.state.battlefield if p.controller == "alice" and not ch.is_type(table.state, p, "Land")] == ["Hill Giant", "Grizzly Bears"]


def test_a_game_with_a_siege_cast_transformed_replays_to_the_same_state():
    table = defeated("Invasion of Dominaria", [])
    both_pass(table)
    table.handle(CastTransformed("alice", True))
    both_pass(table)
    result = replay(table.events)
    assert result.ok and result.state is not None and result.state.state_hash() == table.state.state_hash()


def test_invasion_of_belenon_creates_a_white_and_blue_knight_token_with_vigilance_111_1():
    table = siege_in_play("Invasion of Belenon", [])
    knight = perm(table, "Knight (white and blue)")
    definition = ch.face(table.state, knight)
    assert knight.token and definition.colors == ("W", "U") and definition.subtypes == ("Knight",)
    assert (ch.power(table.state, knight), ch.toughness(table.state, knight), ch.has_keyword(table.state, knight, "vigilance")) == (2, 2, True)


def test_belenon_war_anthem_gives_the_creatures_its_controller_controls_plus_one_plus_one_613_4c():
    table = defeated("Invasion of Belenon", [], bob={"battlefield": ["Grizzly Bears"]})
    both_pass(table)
    table.handle(CastTransformed("alice", True))
    both_pass(table)
    anthem = showing(table, "Belenon War Anthem")
    assert ch.is_type(table.state, anthem, "Enchantment") and not ch.is_type(table.state, anthem, "Battle")
    giant, knight = perm(table, "Hill Giant"), perm(table, "Knight (white and blue)")
    assert (ch.power(table.state, giant), ch.toughness(table.state, giant)) == (4, 4)
    assert (ch.power(table.state, knight), ch.toughness(table.state, knight)) == (3, 3)
    theirs = [p for p in table.state.battlefield if p.controller == "bob" and p.card == "Grizzly Bears"][0]
    assert (ch.power(table.state, theirs), ch.toughness(table.state, theirs)) == (2, 2)


def test_invasion_of_moag_puts_a_plus_one_counter_on_each_creature_its_controller_controls_122_1():
    table = siege_in_play("Invasion of Moag", ["Hill Giant", "Grizzly Bears"], bob={"battlefield": ["Grizzly Bears"]})
    counters = {(p.controller, p.card): p.counters.get("+1/+1", 0) for p in table.state.battlefield if ch.is_creature(table.state, p)}
    assert counters == {("alice", "Hill Giant"): 1, ("alice", "Grizzly Bears"): 1, ("bob", "Grizzly Bears"): 0}
    assert perm(table, "Invasion of Moag").counters == {"defense": 5}  # a battle, no creature


def test_bloomwielder_dryads_puts_a_plus_one_counter_on_target_creature_you_control_at_your_end_step_603_2():
    table = defeated("Invasion of Moag", [])
    both_pass(table)
    table.handle(CastTransformed("alice", True))
    both_pass(table)
    dryads = showing(table, "Bloomwielder Dryads")
    assert dryads.transformed and ch.has_keyword(table.state, dryads, "ward")
    advance_to(table, 1, "end")  # the ability triggers; alice chooses its target among her creatures (603.3d)
    assert pending_decision(table.state).kind == DecisionKind.ORDER_TRIGGERS  # type: ignore[union-attr]
    table.handle(OrderTriggers("alice", (CardRef("Bloomwielder Dryads"),), ((dryads.object,),)))
    both_pass(table)
    assert showing(table, "Bloomwielder Dryads").counters == {"+1/+1": 1}


def test_bloomwielder_dryads_has_ward_and_counters_a_spell_whose_controller_cannot_pay_702_21a():
    table = defeated("Invasion of Moag", [], bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]})
    both_pass(table)
    table.handle(CastTransformed("alice", True))
    both_pass(table)
    dryads = showing(table, "Bloomwielder Dryads").object
    advance_to(table, 1, "end")
    table.handle(OrderTriggers("alice", (CardRef("Bloomwielder Dryads"),), ((dryads,),)))  # its end step ability
    advance_to(table, 2, "precombat_main")
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(dryads,)))
    advance_to(table, 2, "beginning_of_combat")
    assert last(table, "ObjectCountered")["card"] == "Lightning Bolt"
    assert showing(table, "Bloomwielder Dryads").damage == 0
    assert table.state.players["bob"].graveyard == ["Lightning Bolt"]
