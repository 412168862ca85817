"""Property: two random shipped decks (replays/cards/decklists), shuffled with a random seed and played
by random legal decisions for a bounded number of decisions, never crash, never offer an illegal action,
rebuild from their events to the same state and replay from their recorded decisions to the same events
(the audit's replay)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.commands import Command, PassPriority
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.cards import pin
from mtg_ledger.replays.cards.decks import parse_deck, shipped_decks
from tests.conftest import examples
from tests.helpers import assert_rebuilds_and_replays, play_at_random

DECKS = sorted(shipped_decks())
DECISIONS = 300


def _setup(seed: int, first: str, second: str) -> dict[str, object]:
    decks = shipped_decks()
    players = [{"name": name, "library": parse_deck(decks[deck]).main} for name, deck in (("alice", first), ("bob", second))]
    return pin({"seed": seed, "shuffle": True, "starting_player": "alice", "players": players})


def acting_first(state: GameState, legal: list[Command], choices: random.Random) -> Command:
    """An answer other than a pass more often than not, else any legal answer."""
    acting = [c for c in legal if not isinstance(c, PassPriority)]
    return choices.choice(acting) if acting and choices.random() < 0.6 else choices.choice(legal)


@settings(max_examples=examples(10), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    choice_seed=st.integers(0, 2**32 - 1),
    first=st.sampled_from(DECKS),
    second=st.sampled_from(DECKS),
)
def test_random_legal_play_between_two_shipped_decks_rebuilds_and_replays_to_the_same_game(seed: int, choice_seed: int, first: str, second: str) -> None:
    table = play_at_random(LocalTable.start(_setup(seed, first, second)), random.Random(choice_seed), DECISIONS, acting_first)
    assert table.state.turn > 1 or table.state.ended
    assert_rebuilds_and_replays(table)
