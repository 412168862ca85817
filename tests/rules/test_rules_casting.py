"""Casting spells (601), timing (117.1, 307.1, 505.6), lands (305), costs and targets, on concrete boards."""

from __future__ import annotations


from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, PassPriority, PlayLand
from mtg_ledger.core.errors import CannotPay, IllegalTarget, NotYourPriority, UnknownCard, WrongTiming
from mtg_ledger.core.view import state_view
from tests.helpers import advance_to, both_pass, events_of, last, perm, rejected, start, two_players, types_since


# --- timing -------------------------------------------------------------------------------


def test_creature_spell_cannot_be_cast_in_upkeep_505_6a():
    table = start(two_players(alice={"battlefield": ["Forest", "Forest"], "hand": ["Grizzly Bears"]}))
    assert table.state.step == "upkeep" and table.state.priority == "alice"

    error = rejected(table, CastSpell("alice", "Grizzly Bears"), WrongTiming)

    assert error.rule == "505.6a"
    assert table.state.players["alice"].hand == ["Grizzly Bears"]


def test_sorcery_cannot_be_cast_in_an_opponents_turn_307_1():
    table = start(two_players(bob={"battlefield": ["Island", "Island", "Island"], "hand": ["Divination"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(PassPriority("alice"))
    assert table.state.priority == "bob"

    error = rejected(table, CastSpell("bob", "Divination"), WrongTiming)

    assert error.rule == "307.1"


def test_creature_spell_cannot_be_cast_while_the_stack_is_not_empty_505_6a():
    table = start(
        two_players(
            alice={"battlefield": ["Forest", "Forest", "Forest", "Savannah Lions"], "hand": ["Giant Growth", "Grizzly Bears"]}
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Savannah Lions"),)))

    error = rejected(table, CastSpell("alice", "Grizzly Bears"), WrongTiming)

    assert error.rule == "505.6a"


def test_instant_can_be_cast_in_an_opponents_upkeep_117_1a():
    table = start(two_players(bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}))
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=("alice",)))

    cast = last(table, "SpellCast")
    assert (cast["player"], cast["card"], cast["targets"]) == ("bob", "Lightning Bolt", ["alice"])
    assert table.state.step == "upkeep" and table.state.active_player == "alice"
    assert [s.card for s in table.state.stack] == ["Lightning Bolt"]


# --- lands --------------------------------------------------------------------------------


def test_a_player_plays_only_one_land_per_turn_305_2():
    table = start(two_players(alice={"hand": ["Forest", "Mountain"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(PlayLand("alice", "Forest"))

    assert rejected(table, PlayLand("alice", "Mountain"), WrongTiming).rule == "305.2"
    advance_to(table, 1, "postcombat_main")
    assert rejected(table, PlayLand("alice", "Mountain"), WrongTiming).rule == "305.2"

    advance_to(table, 3, "precombat_main")
    table.handle(PlayLand("alice", "Mountain"))
    assert [e["card"] for e in events_of(table, "LandPlayed")] == ["Forest", "Mountain"]


def test_a_land_is_played_only_in_the_players_own_main_phase_505_6b():
    table = start(two_players(alice={"hand": ["Forest"]}, bob={"hand": ["Mountain"]}))
    assert rejected(table, PlayLand("alice", "Forest"), WrongTiming).rule == "505.6b"  # upkeep

    advance_to(table, 1, "precombat_main")
    table.handle(PassPriority("alice"))
    assert rejected(table, PlayLand("bob", "Mountain"), WrongTiming).rule == "505.6b"  # alice's turn


def test_a_land_is_played_only_while_the_stack_is_empty_505_6b():
    table = start(
        two_players(alice={"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Giant Growth", "Forest"]})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))

    assert rejected(table, PlayLand("alice", "Forest"), WrongTiming).rule == "505.6b"


def test_playing_a_land_does_not_use_the_stack_and_the_player_keeps_priority_305_1_116_2a():
    table = start(two_players(alice={"hand": ["Forest"]}))
    advance_to(table, 1, "precombat_main")
    before = len(table.events)
    table.handle(PlayLand("alice", "Forest"))

    assert types_since(table, before) == ["LandPlayed", "PriorityGiven"]
    assert table.events[-1]["player"] == "alice"
    assert table.state.stack == []
    assert perm(table, "Forest").controller == "alice"
    assert table.state.players["alice"].hand == []


# --- costs --------------------------------------------------------------------------------


def test_a_spell_cannot_be_cast_without_enough_mana_601_2h():
    table = start(two_players(alice={"battlefield": ["Forest"], "hand": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")

    error = rejected(table, CastSpell("alice", "Grizzly Bears"), CannotPay)

    assert error.rule == "601.2h"
    assert not perm(table, "Forest").tapped


def test_engine_pays_with_lands_deterministically_colored_first_then_in_battlefield_order_601_2g():
    setup = two_players(alice={"battlefield": ["Mountain", "Forest", "Forest"], "hand": ["Grizzly Bears"]})
    tables = [start(setup), start(setup)]
    for table in tables:
        advance_to(table, 1, "precombat_main")
        table.handle(CastSpell("alice", "Grizzly Bears"))

    table = tables[0]
    assert [(e["card"], e["mana"]) for e in events_of(table, "ManaAbilityActivated")] == [("Forest", "G"), ("Mountain", "R")]
    assert last(table, "SpellCast")["mana_spent"] == {"G": 1, "R": 1}
    assert [(p.card, p.tapped) for p in table.state.battlefield] == [("Mountain", True), ("Forest", True), ("Forest", False)]
    assert table.state.players["alice"].mana_pool == {}
    assert [e["hash"] for e in tables[0].events] == [e["hash"] for e in tables[1].events]


def test_explicit_payment_taps_exactly_the_named_permanents_601_2g():
    table = start(two_players(alice={"battlefield": ["Mountain", "Forest", "Forest"], "hand": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Grizzly Bears", pay=(CardRef("Forest", 1), CardRef("Forest", 0))))

    assert last(table, "SpellCast")["mana_spent"] == {"G": 2}
    assert [(p.card, p.tapped) for p in table.state.battlefield] == [("Mountain", False), ("Forest", True), ("Forest", True)]


def test_explicit_payment_that_does_not_cover_the_cost_is_rejected_601_2h():
    table = start(two_players(alice={"battlefield": ["Mountain", "Mountain", "Forest"], "hand": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")

    error = rejected(table, CastSpell("alice", "Grizzly Bears", pay=(CardRef("Mountain", 0), CardRef("Mountain", 1))), CannotPay)

    assert error.rule == "601.2h"  # {R}{R} cannot pay {1}{G}


def test_llanowar_elves_cannot_tap_for_mana_the_turn_it_arrives_but_can_next_turn_302_6():
    table = start(two_players(alice={"battlefield": ["Forest"], "hand": ["Llanowar Elves", "Giant Growth"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Llanowar Elves"))
    both_pass(table)
    assert perm(table, "Llanowar Elves").controller == "alice"

    assert rejected(table, ActivateAbility("alice", CardRef("Llanowar Elves")), CannotPay).rule == "302.6"
    error = rejected(table, CastSpell("alice", "Giant Growth", targets=(CardRef("Llanowar Elves"),)), CannotPay)
    assert error.rule == "601.2h"  # the Forest is tapped, and the Elves do not count as a source

    advance_to(table, 2, "upkeep")  # bob's turn: alice's most recent turn began before the Elves arrived
    table.handle(PassPriority("bob"))
    assert rejected(table, ActivateAbility("alice", CardRef("Llanowar Elves")), CannotPay).rule == "302.6"

    advance_to(table, 3, "upkeep")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Llanowar Elves"),), pay=(CardRef("Llanowar Elves"),)))
    tapped = last(table, "ManaAbilityActivated")
    assert (tapped["card"], tapped["mana"]) == ("Llanowar Elves", "G")
    assert not perm(table, "Forest").tapped


def test_a_creature_cannot_attack_the_turn_it_comes_under_its_controllers_control_302_6():
    table = start(
        two_players(alice={"battlefield": ["Forest", "Forest", "Savannah Lions"], "hand": ["Grizzly Bears"]})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Grizzly Bears"))
    both_pass(table)
    advance_to(table, 1, "declare_attackers")

    error = rejected(table, DeclareAttackers("alice", ((CardRef("Grizzly Bears"), "bob"),)))
    assert error.rule == "302.6"

    table.handle(DeclareAttackers("alice", ((CardRef("Savannah Lions"), "bob"),)))
    advance_to(table, 3, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Grizzly Bears"), "bob"),)))
    assert [a["card"] for a in last(table, "AttackersDeclared")["attackers"]] == ["Grizzly Bears"]


# --- targets ------------------------------------------------------------------------------


def bolt_board() -> dict:
    return two_players(
        alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
        bob={"battlefield": ["Grizzly Bears"]},
    )


def test_lightning_bolt_deals_3_damage_to_a_target_player_115_4():
    table = start(bolt_board())
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    both_pass(table)

    dealt = last(table, "DamageDealt")
    assert (dealt["card"], dealt["target"], dealt["amount"]) == ("Lightning Bolt", "bob", 3)
    assert table.state.players["bob"].life == 17
    assert table.state.players["alice"].graveyard == ["Lightning Bolt"]


def test_lightning_bolt_destroys_a_target_2_2_creature_115_4_704_5g():
    table = start(bolt_board())
    advance_to(table, 1, "precombat_main")
    bears = perm(table, "Grizzly Bears").object
    table.handle(CastSpell("alice", "Lightning Bolt", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table)

    assert last(table, "DamageDealt")["target"] == bears
    assert [p["object"] for p in last(table, "PermanentsPutIntoGraveyard")["permanents"]] == [bears]
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]
    assert table.state.players["bob"].life == 20


def test_giant_growth_cannot_target_a_player_115_1():
    table = start(two_players(alice={"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Giant Growth"]}))
    advance_to(table, 1, "precombat_main")

    error = rejected(table, CastSpell("alice", "Giant Growth", targets=("alice",)), IllegalTarget)

    assert error.rule == "115.1"


def test_an_unknown_card_name_is_rejected_as_unknown_card():
    table = start(bolt_board())
    advance_to(table, 1, "precombat_main")

    rejected(table, CastSpell("alice", "Black Lotus"), UnknownCard)


def test_a_card_not_in_hand_cannot_be_cast_601_2a():
    table = start(bolt_board())
    advance_to(table, 1, "precombat_main")

    assert rejected(table, CastSpell("alice", "Grizzly Bears")).rule == "601.2a"


def test_giant_growth_fizzles_when_its_target_dies_first_608_2b():
    table = start(
        two_players(
            alice={"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Giant Growth"]},
            bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Giant Growth", targets=(CardRef("Grizzly Bears"),)))
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table, "bob", "alice")  # Bolt resolves; the Bears die before anyone gets priority
    assert table.state.players["alice"].graveyard == ["Grizzly Bears"]
    both_pass(table)

    growth = last(table, "ObjectResolved")
    assert (growth["card"], growth["outcome"]) == ("Giant Growth", "fizzled")
    assert events_of(table, "EffectCreated") == []
    assert table.state.players["alice"].graveyard == ["Grizzly Bears", "Giant Growth"]
    assert table.state.stack == []


# --- effects ------------------------------------------------------------------------------


def test_divination_draws_the_top_two_cards_121_2():
    table = start(
        two_players(
            alice={"battlefield": ["Island", "Island", "Island"], "hand": ["Divination"], "library": ["Forest", "Mountain", "Plains"]}
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Divination"))
    both_pass(table)

    assert [(e["player"], e["card"]) for e in events_of(table, "CardDrawn")] == [("alice", "Forest"), ("alice", "Mountain")]
    assert table.state.players["alice"].hand == ["Forest", "Mountain"]
    assert table.state.players["alice"].library == ["Plains"]
    assert table.state.players["alice"].graveyard == ["Divination"]


def test_spellbook_gives_no_maximum_hand_size_so_nothing_is_discarded_in_cleanup_402_2():
    hand = ["Forest"] * 5 + ["Island"] * 5
    table = start(two_players(alice={"battlefield": ["Spellbook"], "hand": hand}))
    assert state_view(table.state)["players"]["alice"]["max_hand_size"] is None

    advance_to(table, 2, "upkeep")

    assert table.state.turn == 2
    assert events_of(table, "CardsDiscarded") == []
    assert table.state.players["alice"].hand == hand


# --- who may act --------------------------------------------------------------------------


def test_a_player_without_priority_cannot_cast_117_1():
    table = start(two_players(bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}))
    assert table.state.priority == "alice"

    error = rejected(table, CastSpell("bob", "Lightning Bolt", targets=("alice",)), NotYourPriority)

    assert error.rule == "117.1"


def test_a_player_without_priority_cannot_pass_117_3d():
    table = start(two_players())
    assert table.state.priority == "alice"

    error = rejected(table, PassPriority("bob"), NotYourPriority)

    assert error.rule == "117.3d"
