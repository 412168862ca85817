"""Spells and abilities that make another player discard (701.9b: the discarding player chooses which
cards, unless the effect says otherwise), with the pool's Mind Rot ("Target player discards two cards.")
and Ravenous Rats ("When this creature enters, target opponent discards a card."); and what each player
sees of it: a discarded card is public (404.2), the rest of the hand stays hidden (402.3)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.commands import CastSpell, Concede, Discard, PassPriority
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.redact import view
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, both_pass, events_of, last, refused, three_players, two_players
from tests.rules.mechanics_cards import start


def _mind_rot(bob_hand: list[str]) -> object:
    table = start(two_players(alice={"battlefield": ["Swamp"] * 3, "hand": ["Mind Rot"]}, bob={"hand": bob_hand}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Mind Rot", targets=("bob",)))
    both_pass(table)
    return table


def test_target_player_discards_two_cards_of_their_own_choice_701_9b():
    table = _mind_rot(["Forest", "Island", "Mountain"])

    asked = pending_decision(table.state)
    assert asked is not None and (asked.kind, asked.player, asked.count, asked.rule_cited) == ("discard", "bob", 2, "608.2d")
    assert last(table, "ResolutionPaused")["player"] == "bob"
    refused(table, Discard("alice", ("Forest", "Island")), "608.2d")  # not the caster's choice
    table.handle(Discard("bob", ("Forest", "Mountain")))

    discarded = last(table, "CardsDiscarded")
    assert (discarded["player"], discarded["cards"]) == ("bob", ["Forest", "Mountain"])
    assert table.state.players["bob"].hand == ["Island"] and table.state.players["bob"].graveyard == ["Forest", "Mountain"]
    assert table.state.players["alice"].graveyard == ["Mind Rot"] and table.state.stack == []
    assert table.state.priority == "alice"  # 117.3b: after the resolution, the active player
    assert replay(table.events).ok


def test_a_player_with_no_real_choice_discards_without_being_asked_701_9b():
    table = _mind_rot(["Island", "Island", "Island"])  # identical cards: any two are the same

    assert events_of(table, "ResolutionPaused") == []
    assert table.state.players["bob"].hand == ["Island"] and table.state.players["bob"].graveyard == ["Island", "Island"]

    table = _mind_rot(["Island"])  # fewer cards than asked: all of them
    assert table.state.players["bob"].graveyard == ["Island"] and table.state.players["bob"].hand == []


def test_a_discarded_card_becomes_public_and_the_rest_of_the_hand_stays_hidden_402_3_404_2():
    table = _mind_rot(["Forest", "Island", "Mountain"])
    paused = last(table, "ResolutionPaused")
    assert view(paused, "alice") == {k: v for k, v in paused.items() if k != "hash"}  # how many, and who chooses: public
    table.handle(Discard("bob", ("Forest", "Mountain")))

    discarded = last(table, "CardsDiscarded")
    assert view(discarded, "alice")["cards"] == ["Forest", "Mountain"]
    seen = view(table.state, "alice")
    assert seen["players"]["bob"]["hand"] == [None]
    assert seen["players"]["bob"]["graveyard"] == ["Forest", "Mountain"]
    assert view(table.state, "bob")["players"]["bob"]["hand"] == ["Island"]


def test_when_this_creature_enters_target_opponent_discards_a_card_603_6a_701_9b():
    table = start(two_players(alice={"battlefield": ["Swamp"] * 2, "hand": ["Ravenous Rats"]}, bob={"hand": ["Forest", "Island"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Ravenous Rats"))
    both_pass(table)  # the Rats enter; the trigger targets bob, the only opponent
    assert last(table, "TriggeredAbilitiesStacked")["targets"] == {str(table.state.stack[-1].object): ["bob"]}
    both_pass(table)

    assert pending_decision(table.state).player == "bob"
    table.handle(Discard("bob", ("Island",)))
    assert table.state.players["bob"].hand == ["Forest"] and table.state.players["bob"].graveyard == ["Island"]
    assert replay(table.events).ok


def _mind_rot_waiting_for_bob() -> Any:
    """A free-for-all where alice's Mind Rot, resolving, waits for bob to choose the cards he discards."""
    table = start(
        three_players("free-for-all", alice={"battlefield": ["Swamp"] * 3, "hand": ["Mind Rot"]}, bob={"hand": ["Forest", "Island", "Mountain"]})
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Mind Rot", targets=("bob",)))
    for player in ("alice", "bob", "carol"):
        table.handle(PassPriority(player))
    assert pending_decision(table.state).player == "bob"
    return table


def test_the_discarding_player_leaving_the_game_lets_the_resolution_go_on_without_them_800_4a():
    table = _mind_rot_waiting_for_bob()

    table.handle(Concede("bob"))
    assert table.state.paused is None and table.state.stack == []
    assert last(table, "ObjectResolved")["card"] == "Mind Rot"
    assert pending_decision(table.state).player == "alice"
    assert replay(table.events).ok


def test_the_caster_leaving_while_another_player_chooses_takes_the_spell_and_the_choice_with_them_800_4a():
    table = _mind_rot_waiting_for_bob()

    table.handle(Concede("alice"))
    assert table.state.stack == [] and table.state.paused is None
    assert pending_decision(table.state).kind == "priority"
    assert table.state.players["bob"].hand == ["Forest", "Island", "Mountain"]  # nothing discarded
    assert replay(table.events).ok
