"""Cards in a hand are named by card name alone: a hand is a list of names, and the events record the
name, so which of several copies is played or cast makes no difference. An ``index`` beside such a
card in a scenario is accepted, and changes nothing."""

from __future__ import annotations

import pytest

from mtg_ledger.core.commands import CastSpell, PlayLand
from mtg_ledger.replays.scenario import ScenarioError, parse_action

PLAYERS = ["alice", "bob"]


def test_an_index_beside_a_card_to_cast_or_play_from_hand_is_accepted_and_changes_nothing() -> None:
    bolt = {"action": "cast", "player": "alice", "card": "Lightning Bolt", "targets": ["bob"]}
    forest = {"action": "play_land", "player": "alice", "card": "Forest"}
    assert parse_action({**bolt, "index": 1}, PLAYERS) == parse_action(bolt, PLAYERS) == CastSpell("alice", "Lightning Bolt", targets=("bob",))
    assert parse_action({**forest, "index": 2}, PLAYERS) == parse_action(forest, PLAYERS) == PlayLand("alice", "Forest")


def test_an_index_that_is_not_a_number_is_still_refused() -> None:
    with pytest.raises(ScenarioError, match="index"):
        parse_action({"action": "play_land", "player": "alice", "card": "Forest", "index": "second"}, PLAYERS)
