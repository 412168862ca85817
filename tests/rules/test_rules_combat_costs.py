"""Attack costs (508.1d, 508.1g-h) with Ghostly Prison: the total cost of a declaration of
attackers, paid in full by mana abilities activated as part of it, or the whole declaration refused."""

from __future__ import annotations

from mtg_ledger.core.commands import CardRef, DeclareAttackers
from mtg_ledger.core.errors import CannotPay
from mtg_ledger.core.decision import Decision, pending_decision
from mtg_ledger.core.table import LocalTable
from tests.helpers import advance_to, events_of, last, obj, refused, start, three_players, two_players, types_since

BEARS, LIONS = CardRef("Grizzly Bears"), CardRef("Savannah Lions")


# --- two players: attacking the controller of Ghostly Prison ---------------------------------------


def prison_board(plains: int) -> dict:
    return two_players(
        alice={"battlefield": ["Grizzly Bears", "Savannah Lions", *["Plains"] * plains]}, bob={"battlefield": ["Ghostly Prison"]}
    )


def test_attacking_the_controller_of_ghostly_prison_with_two_creatures_costs_4_paid_by_tapping_lands_508_1g_508_1h():
    table = start(prison_board(4))
    advance_to(table, 1, "declare_attackers")
    before = table.events[-1]["v"]
    plains = [p.object for p in table.state.battlefield if p.card == "Plains"]

    table.handle(DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "bob"))))

    assert types_since(table, before) == ["ManaAbilityActivated"] * 4 + ["AttackersDeclared", "PriorityGiven"]
    assert [e["source"] for e in events_of(table, "ManaAbilityActivated")] == plains
    declared = last(table, "AttackersDeclared")
    assert declared["costs_paid"] == [
        {"source": obj(table, "Ghostly Prison"), "card": "Ghostly Prison", "player": "bob", "creatures": 2, "generic": 4}
    ]
    assert declared["mana_spent"] == {"W": 4}
    assert all(table.state.permanent(p).tapped for p in plains)
    assert table.state.players["alice"].mana_pool == {}


def test_an_attack_whose_cost_cannot_be_paid_is_rejected_as_a_whole_and_the_lands_stay_untapped_508_1h():
    table = start(prison_board(3))
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "bob"))), "508.1h", CannotPay)

    assert not events_of(table, "ManaAbilityActivated") and not events_of(table, "AttackersDeclared")
    assert not any(p.tapped for p in table.state.battlefield)
    assert table.state.players["alice"].mana_pool == {}  # nothing added, nothing spent
    assert pending_decision(table.state) == Decision("declare_attackers", "alice")

    table.handle(DeclareAttackers("alice", ((BEARS, "bob"),)))  # one creature: {2}, affordable
    assert last(table, "AttackersDeclared")["mana_spent"] == {"W": 2}
    assert [p.tapped for p in table.state.battlefield if p.card == "Plains"] == [True, True, False]


def test_the_lands_named_to_pay_an_attack_cost_are_the_ones_tapped_508_1h():
    table = start(prison_board(5))
    advance_to(table, 1, "declare_attackers")
    plains = [p.object for p in table.state.battlefield if p.card == "Plains"]
    named = tuple(CardRef("Plains", i) for i in (4, 3, 2, 1))

    table.handle(DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "bob")), pay=named))

    assert [e["source"] for e in events_of(table, "ManaAbilityActivated")] == [plains[4], plains[3], plains[2], plains[1]]
    assert [table.state.permanent(p).tapped for p in plains] == [False, True, True, True, True]


def test_naming_too_few_lands_to_pay_an_attack_cost_is_rejected_508_1h():
    table = start(prison_board(5))
    advance_to(table, 1, "declare_attackers")

    refused(
        table,
        DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "bob")), pay=(CardRef("Plains", 0), CardRef("Plains", 1))),
        "508.1h",
        CannotPay,
    )
    assert not any(p.tapped for p in table.state.battlefield)


# --- free-for-all: attack costs are per defending player ------------------------------------------


def prison_at_bob(plains: int = 4) -> LocalTable:
    table = start(
        three_players(
            "free-for-all",
            alice={"battlefield": ["Grizzly Bears", "Savannah Lions", *["Plains"] * plains]},
            bob={"battlefield": ["Ghostly Prison"]},
        )
    )
    advance_to(table, 1, "declare_attackers")
    return table


def test_attacking_an_opponent_who_has_no_ghostly_prison_costs_nothing_508_1g():
    table = prison_at_bob()

    table.handle(DeclareAttackers("alice", ((BEARS, "carol"), (LIONS, "carol"))))

    declared = last(table, "AttackersDeclared")
    assert (declared["costs_paid"], declared["mana_spent"]) == ([], {})
    assert not events_of(table, "ManaAbilityActivated")
    assert not any(p.tapped for p in table.state.battlefield if p.card == "Plains")


def test_only_the_creatures_attacking_the_controller_of_ghostly_prison_are_taxed_508_1g():
    table = prison_at_bob()

    table.handle(DeclareAttackers("alice", ((BEARS, "bob"), (LIONS, "carol"))))

    declared = last(table, "AttackersDeclared")
    assert declared["costs_paid"] == [
        {"source": obj(table, "Ghostly Prison"), "card": "Ghostly Prison", "player": "bob", "creatures": 1, "generic": 2}
    ]
    assert declared["mana_spent"] == {"W": 2}
    assert [p.tapped for p in table.state.battlefield if p.card == "Plains"] == [True, True, False, False]


def test_naming_lands_to_pay_when_the_attack_costs_nothing_is_rejected_508_1g():
    table = prison_at_bob()

    refused(table, DeclareAttackers("alice", ((BEARS, "carol"),), pay=(CardRef("Plains"),)), "508.1g")


def test_a_creature_tapped_by_attacking_cannot_tap_for_mana_to_pay_the_attack_cost_508_1f_508_1h():
    table = start(
        three_players(
            "free-for-all",
            alice={"battlefield": ["Llanowar Elves", "Grizzly Bears", "Plains", "Plains", "Plains"]},
            bob={"battlefield": ["Ghostly Prison"]},
        )
    )
    advance_to(table, 1, "declare_attackers")

    refused(table, DeclareAttackers("alice", ((CardRef("Llanowar Elves"), "bob"), (BEARS, "bob"))), "508.1h", CannotPay)

    table.handle(DeclareAttackers("alice", ((CardRef("Llanowar Elves"), "carol"), (BEARS, "bob"))))
    assert last(table, "AttackersDeclared")["mana_spent"] == {"W": 2}
