"""Property: random legal play never crashes, and the stored log rebuilds exactly the same state."""

from __future__ import annotations

import operator
import random
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.commands import ActivateAbility, Concede, PassPriority
from mtg_ledger.replays.demo.decks import DECKS
from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.state import GameState
from mtg_ledger.core import tapped as tapped_module
from mtg_ledger.core.tapped import tapped
from mtg_ledger.core.walks import RunWalks
from mtg_ledger.core.table import LocalTable
from tests.conftest import examples


TABLES = (
    ("two-player", (("alice", "green-white"), ("bob", "red-blue"))),
    ("two-player", (("alice", "blue-black"), ("bob", "red-blue"))),
    ("free-for-all", (("alice", "green-white"), ("bob", "red-blue"), ("carol", "white"))),
    ("single-defender", (("alice", "blue-black"), ("bob", "green-white"), ("carol", "white"))),
    ("archenemy", (("alice", "green-white"), ("bob", "red-blue"), ("eve", "white"))),
)
SCHEMES = ["Your Puny Minds Cannot Fathom", "Behold the Power of Destruction"] * 2


def _setup(seed: int) -> dict[str, object]:
    """Two players, or three in a free-for-all or single-defender game, with every card in play."""
    fmt, players = TABLES[seed % len(TABLES)]
    return {
        "format": fmt,
        "seed": seed,
        "shuffle": True,
        "starting_player": players[seed % len(players)][0],
        "players": [
            {"name": name, "library": DECKS[deck], **({"schemes": SCHEMES} if name == "eve" else {})} for name, deck in players
        ],
    }


def play_randomly(seed: int, choices: random.Random, decisions: int) -> LocalTable:
    table = LocalTable.start(_setup(seed))
    for _ in range(decisions):
        if table.state.ended:
            break
        legal = list(legal_actions(table.state, allow_concede=choices.random() < 0.002))
        assert legal, "a pending decision always has at least one legal answer"
        # Acting (lands, spells, attacks) is likelier than floating mana, so games go somewhere.
        acting = [c for c in legal if not isinstance(c, (PassPriority, ActivateAbility, Concede))]
        if acting and choices.random() < 0.6:
            command = choices.choice(acting)
        else:
            command = choices.choice(legal)
        try:
            table.handle(command)
        except RulesError as e:  # pragma: no cover - legal_actions said it was legal
            raise AssertionError(f"legal_actions offered an illegal {command}: {e}") from e
    return table


def rebuild(events: list[dict[str, object]]) -> GameState:
    state = GameState()
    for e in events:
        apply_event(state, e)
    return state


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_never_crashes_and_rebuilds_to_the_same_state(seed: int, choice_seed: int) -> None:
    table = play_randomly(seed, random.Random(choice_seed), 1500)
    assert rebuild(table.events).state_hash() == table.state.state_hash()
    previous = GENESIS_HASH
    for version, e in enumerate(table.events, start=1):
        assert e["v"] == version  # versions start at 1, no gaps
        assert e["hash"] == chain(previous, e)
        previous = e["hash"]


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_and_same_decisions_give_the_same_log(seed: int) -> None:
    first = play_randomly(seed, random.Random(seed), 200)
    second = play_randomly(seed, random.Random(seed), 200)
    assert first.events == second.events


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_damage_combat_and_phasing_are_only_ever_where_the_turn_steps_look(seed: int, choice_seed: int) -> None:
    """120.3e, 508.1a, 509.1a: damage is marked on creatures, and only creatures attack, block or are blocked;
    every creature is among the permanents ``characteristics.watched`` gives, which the cleanup (514.2) and the
    end of combat (511.3) look through. 702.26a: only a permanent with phasing phases out, so the untap step
    (502.1) looks for permanents to phase in only in a game of such cards. After every event of random play,
    no other permanent holds damage, a combat flag or is phased out. 502.3: the untap step's tapped permanents,
    found from the last look at the same list (``core.tapped``, here in runs of 4), are those a look at every
    one finds; in place, a battlefield list only ever grows at its end, as those looks, ``watched``, the state
    hash's runs and a snapshot's delta rely on."""
    with patch.object(tapped_module, "_RUNS", RunWalks(4)):  # runs of 4: the boards of random play hold several
        table = play_randomly(seed, random.Random(choice_seed), 1000)
        _check_each_event(table)


def _check_each_event(table: LocalTable) -> None:
    state = GameState()
    for e in table.events:
        before, held = state.battlefield, list(state.battlefield)
        apply_event(state, e)
        if state.battlefield is before:
            assert before[: len(held)] == held and all(map(operator.is_, before, held)), f"after event {e['v']} ({e['type']})"
        assert tapped(state) == [p for p in state.battlefield if p.tapped], f"after event {e['v']} ({e['type']})"
        watched = {id(p) for p in ch.watched(state)}
        marked = [p for p in state.battlefield if p.damage or p.attacking or p.blocking or p.blocked or p.blocked_by]
        assert all(id(p) in watched for p in marked), f"after event {e['v']} ({e['type']})"
        assert all(p.card in state.cards.phasing for p in state.battlefield if p.phased_out), f"after event {e['v']} ({e['type']})"
