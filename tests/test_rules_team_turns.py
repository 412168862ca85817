"""Shared team turns (805) read whole, on concrete Archenemy boards (904): eve, the archenemy,
against the team of alice (its primary player) and bob. Wherever a rule speaks of "a player's
turn", the team's turn is each of its players' turn; these tests pin that down for bob, the
teammate who is not the primary player."""

from __future__ import annotations

from mtg_ledger.core.commands import ActivateAbility, CastSpell, DeclareAttackers, PassPriority
from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.rules import pending_decision
from tests.helpers import advance_to, archenemy, last, obj, perm, refused, start

PUNY = "Your Puny Minds Cannot Fathom"


def test_302_6_805_4_a_teammates_creatures_lose_summoning_sickness_as_the_teams_next_turn_begins() -> None:
    table = start(archenemy([PUNY] * 2, bob={"hand": ["Llanowar Elves", "Grizzly Bears"], "battlefield": ["Forest"] * 3}))
    advance_to(table, 2, "precombat_main")
    for spell in ("Llanowar Elves", "Grizzly Bears"):
        table.handle(CastSpell("bob", spell))
        table.handle(PassPriority("bob"))
        table.handle(PassPriority("eve"))
    elves, bears = obj(table, "Llanowar Elves"), obj(table, "Grizzly Bears")
    refused(table, ActivateAbility("bob", elves), "302.6")  # they came under bob's control this turn
    advance_to(table, 3, "upkeep")
    assert ch.sick(table.state, perm(table, "Grizzly Bears"))  # eve's turn is not bob's
    advance_to(table, 4, "upkeep")
    assert not ch.sick(table.state, perm(table, "Grizzly Bears"))  # the team's turn is bob's turn too
    table.handle(ActivateAbility("bob", elves))  # 605.3a: a {T} mana ability, now allowed
    assert last(table, "ManaAbilityActivated")["source"] == elves
    advance_to(table, 4, "declare_attackers")
    assert pending_decision(table.state).kind == "declare_attackers"  # the engine no longer declares "no attackers"
    table.handle(DeclareAttackers("bob", ((bears, None),)))
    assert last(table, "AttackersDeclared")["attackers"] == [{"object": bears, "card": "Grizzly Bears", "defender": "eve"}]


def test_805_7_any_player_of_the_active_team_may_send_the_teams_declaration_of_attackers() -> None:
    table = start(archenemy([PUNY], alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 2, "declare_attackers")
    assert pending_decision(table.state).player == "alice"  # the team's primary player is asked
    refused(table, DeclareAttackers("eve", ()), "508.1")  # not eve's to send
    table.handle(DeclareAttackers("bob", ((obj(table, "Grizzly Bears"), None), (obj(table, "Hill Giant"), None))))
    declared = last(table, "AttackersDeclared")
    assert declared["player"] == "bob"  # the event records who sent it
    assert [a["card"] for a in declared["attackers"]] == ["Grizzly Bears", "Hill Giant"]
