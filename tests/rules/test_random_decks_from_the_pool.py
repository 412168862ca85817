"""Property: random decks drawn from the whole card pool (replays/cards/pool), played by random legal
decisions (mostly the demo's player's, so that spells are cast), never crash, never offer an illegal action, rebuild from their events to the same state, replay
from their recorded decisions to the same events (the audit's replay), and never show a player a card they
may not know (400.2, 401.2, 402.3).

Each player's spells are names no other player has, so a leak of an opponent's hand or library, or of a
player's own library, names a card that viewer has never been allowed to see. What a player may know: the
cards that have been public (the battlefield, the stack, triggers, graveyards, a card revealed to all) and
the cards that have been in their own hand.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.commands import Command
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.cards import live_pool, pin
from mtg_ledger.replays.demo.policy import choose
from tests.conftest import examples
from tests.helpers import assert_rebuilds_and_replays, play_at_random
from tests.rules.test_random_play_decks import acting_first
from tests.redaction import check_every_view

POOL = live_pool().definitions
BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
SPELLS = sorted(
    name for name, d in POOL.items()
    if not d.get("token") and not {"Land", "Scheme"} & set(d.get("types", ()))
)
NAMES = frozenset(POOL)
DECISIONS = 250
PER_PLAYER = 12  # different spells a player's deck holds, two of each, with 16 basic lands


def deck(spells: list[str]) -> list[str]:
    """Two of each spell, and 16 basic lands shared out among the spells' colours (Wastes-free: a colourless
    deck plays Plains)."""
    colours = [c for s in spells for c in POOL[s].get("colors", ())] or ["W"]
    lands = [BASICS[colours[i * len(colours) // 16]] for i in range(16)]
    return [s for s in spells for _ in range(2)] + lands


def setup(seed: int) -> dict[str, Any]:
    """Two players, each with spells drawn from the whole pool that the other has none of."""
    rng = random.Random(seed)
    drawn = rng.sample(SPELLS, 2 * PER_PLAYER)
    players = [{"name": name, "library": deck(drawn[i::2])} for i, name in enumerate(("alice", "bob"))]
    return pin({"seed": seed, "shuffle": True, "starting_player": "alice", "players": players})


def mostly_the_demo_s_player(state: GameState, legal: list[Command], choices: random.Random) -> Command:
    """Mostly the demo's player, which taps lands to cast what it holds; else as the shipped decks' test."""
    if choices.random() < 0.7:
        command = choose(state)
        assert command is not None
        return command
    return acting_first(state, legal, choices)


def play(seed: int, choice_seed: int) -> LocalTable:
    return play_at_random(LocalTable.start(setup(seed)), random.Random(choice_seed), DECISIONS, mostly_the_demo_s_player)


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_random_decks_from_the_whole_pool_play_rebuild_replay_and_show_no_hidden_card_400_2_401_2_402_3(
    seed: int, choice_seed: int
) -> None:
    table = play(seed, choice_seed)
    check_every_view(table.events, NAMES)
    assert_rebuilds_and_replays(table)


def test_a_permanent_s_keywords_found_at_once_are_those_has_keyword_finds_one_by_one_702() -> None:
    from mtg_ledger.core import characteristics as ch
    from mtg_ledger.core.view import KEYWORDS

    seen = 0
    for seed in range(1):
        table = play(seed, seed + 1)
        state = GameState()
        for e in table.events:
            apply_event(state, e)
            for perm in state.battlefield:
                assert {k for k in ch.keywords(state, perm) if k in KEYWORDS} == {k for k in KEYWORDS if ch.has_keyword(state, perm, k)}
                seen += bool(ch.keywords(state, perm))
    assert seen > 0
