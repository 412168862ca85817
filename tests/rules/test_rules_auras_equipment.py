"""Auras (303.4) and Equipment (301.5, 702.6): an Aura cast with a target enters attached to it, Equip
is activated as a sorcery, their static abilities apply to what they are attached to (613), and
704.5m-n; anthems (613.4c)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell
from mtg_ledger.core.errors import IllegalTarget, WrongTiming
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.view import state_view
from tests.helpers import advance_to, both_pass, events_of, last, obj, perm, refused, two_players
from tests.rules.mechanics_cards import start

BEARS, LIONS = CardRef("Grizzly Bears"), CardRef("Savannah Lions")


def pt(table, name: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    p = perm(table, name)
    return ch.power(table.state, p), ch.toughness(table.state, p)


def test_an_aura_spell_targets_what_it_can_enchant_and_enters_attached_to_it_303_4a():
    table = start(two_players(alice={"battlefield": ["Plains", "Grizzly Bears"], "hand": ["Holy Strength"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, CastSpell("alice", "Holy Strength"), "601.2c", IllegalTarget)  # an Aura spell needs its target
    assert CastSpell("alice", "Holy Strength", targets=(obj(table, "Grizzly Bears"),)) in list(legal_actions(table.state))
    table.handle(CastSpell("alice", "Holy Strength", targets=(BEARS,)))
    both_pass(table)
    assert perm(table, "Holy Strength").attached_to == obj(table, "Grizzly Bears")
    assert pt(table, "Grizzly Bears") == (3, 4)  # "Enchanted creature gets +1/+2."


def test_an_aura_attached_to_nothing_goes_to_its_owners_graveyard_704_5m():
    table = start(
        two_players(
            alice={"battlefield": ["Plains", "Mountain", "Savannah Lions"], "hand": ["Holy Strength", "Lightning Bolt"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Holy Strength", targets=(LIONS,)))
    both_pass(table)
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(LIONS,)))  # 3 damage to a 3/3
    both_pass(table)
    assert [(e["rule"], [p["card"] for p in e["permanents"]]) for e in events_of(table, "PermanentsPutIntoGraveyard")] == [
        ("704.5g", ["Savannah Lions"]),
        ("704.5m", ["Holy Strength"]),
    ]


def test_equip_attaches_the_equipment_to_target_creature_you_control_as_a_sorcery_702_6a():
    table = start(two_players(alice={"battlefield": ["Forest", "Bonesplitter", "Grizzly Bears"]}, bob={"battlefield": ["Savannah Lions"]}))
    splitter = CardRef("Bonesplitter")
    advance_to(table, 1, "upkeep")
    refused(table, ActivateAbility("alice", splitter, 0, targets=(BEARS,)), "602.5d", WrongTiming)
    advance_to(table, 1, "precombat_main")
    refused(table, ActivateAbility("alice", splitter, 0, targets=(LIONS,)), "115.1", IllegalTarget)  # not a creature alice controls
    equips = [a for a in legal_actions(table.state) if isinstance(a, ActivateAbility) and a.source == obj(table, "Bonesplitter")]
    assert equips == [ActivateAbility("alice", obj(table, "Bonesplitter"), 0, (obj(table, "Grizzly Bears"),))]
    table.handle(ActivateAbility("alice", splitter, 0, targets=(BEARS,)))
    both_pass(table)
    assert last(table, "Attached") == {**last(table, "Attached"), "object": obj(table, "Bonesplitter"), "to": obj(table, "Grizzly Bears"), "rule": "702.6a"}
    assert pt(table, "Grizzly Bears") == (4, 2)  # "Equipped creature gets +2/+0."


def test_an_equipment_whose_creature_left_becomes_unattached_and_stays_on_the_battlefield_704_5n():
    table = start(two_players(alice={"battlefield": ["Forest", "Mountain", "Bonesplitter", "Grizzly Bears"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Bonesplitter"), 0, targets=(BEARS,)))
    both_pass(table)
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(BEARS,)))
    both_pass(table)
    assert perm(table, "Bonesplitter").attached_to is None
    assert (last(table, "Attached")["to"], last(table, "Attached")["rule"]) == (None, "704.5n")


def test_an_anthem_pumps_the_creatures_its_controller_controls_and_no_others_613_4c():
    table = start(two_players(alice={"battlefield": ["Glorious Anthem", "Grizzly Bears"]}, bob={"battlefield": ["Savannah Lions"]}))
    assert pt(table, "Grizzly Bears") == (3, 3)
    assert pt(table, "Savannah Lions") == (2, 1)


def test_the_state_view_shows_what_an_aura_is_attached_to_303_4a():
    table = start(two_players(alice={"battlefield": ["Plains", "Grizzly Bears"], "hand": ["Holy Strength"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Holy Strength", targets=(BEARS,)))
    both_pass(table)
    shown = {p["card"]: p for p in state_view(table.state)["battlefield"]}
    assert shown["Holy Strength"]["attached_to"] == obj(table, "Grizzly Bears")
    assert "attached_to" not in shown["Grizzly Bears"] and shown["Grizzly Bears"]["toughness"] == 4
