"""Shared team turns (805) read whole, on concrete Archenemy boards (904): eve, the archenemy,
against the team of alice (its primary player) and bob. Wherever a rule speaks of "a player's
turn", the team's turn is each of its players' turn; these tests pin that down for bob, the
teammate who is not the primary player."""

from __future__ import annotations

from mtg_ledger.core.commands import DeclareAttackers
from mtg_ledger.core.rules import pending_decision
from tests.helpers import advance_to, archenemy, last, obj, refused, start

PUNY = "Your Puny Minds Cannot Fathom"


def test_805_7_any_player_of_the_active_team_may_send_the_teams_declaration_of_attackers() -> None:
    table = start(archenemy([PUNY], alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 2, "declare_attackers")
    assert pending_decision(table.state).player == "alice"  # the team's primary player is asked
    refused(table, DeclareAttackers("eve", ()), "508.1")  # not eve's to send
    table.handle(DeclareAttackers("bob", ((obj(table, "Grizzly Bears"), None), (obj(table, "Hill Giant"), None))))
    declared = last(table, "AttackersDeclared")
    assert declared["player"] == "bob"  # the event records who sent it
    assert [a["card"] for a in declared["attackers"]] == ["Grizzly Bears", "Hill Giant"]
