"""Property: two random shipped decks (replays/cards/decklists), shuffled with a random seed and played
by random legal decisions for a bounded number of decisions, never crash, never offer an illegal action,
rebuild from their events to the same state and replay from their recorded decisions to the same events
(the audit's replay)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.commands import Concede, PassPriority
from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.cards import pin
from mtg_ledger.replays.cards.decks import parse_deck, shipped_decks
from tests.conftest import examples

DECKS = sorted(shipped_decks())
DECISIONS = 300


def _setup(seed: int, first: str, second: str) -> dict[str, object]:
    decks = shipped_decks()
    players = [{"name": name, "library": parse_deck(decks[deck]).main} for name, deck in (("alice", first), ("bob", second))]
    return pin({"seed": seed, "shuffle": True, "starting_player": "alice", "players": players})


@settings(max_examples=examples(10), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    choice_seed=st.integers(0, 2**32 - 1),
    first=st.sampled_from(DECKS),
    second=st.sampled_from(DECKS),
)
def test_random_legal_play_between_two_shipped_decks_rebuilds_and_replays_to_the_same_game(seed: int, choice_seed: int, first: str, second: str) -> None:
    choices = random.Random(choice_seed)
    table = LocalTable.start(_setup(seed, first, second))
    for _ in range(DECISIONS):
        if table.state.ended:
            break
        legal = [c for c in legal_actions(table.state) if not isinstance(c, Concede)]
        assert legal, "a pending decision always has at least one legal answer"
        acting = [c for c in legal if not isinstance(c, PassPriority)]
        command = choices.choice(acting) if acting and choices.random() < 0.6 else choices.choice(legal)
        try:
            table.handle(command)
        except RulesError as e:  # pragma: no cover - legal_actions said it was legal
            raise AssertionError(f"legal_actions offered an illegal {command}: {e}") from e
    state = GameState()
    for e in table.events:
        apply_event(state, e)
    assert state.state_hash() == table.state.state_hash()
    assert table.state.turn > 1 or table.state.ended
    result = replay(table.events)
    assert result.ok, [f.message for f in result.findings][:3]
