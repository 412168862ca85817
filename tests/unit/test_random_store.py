"""Properties through the real store: random decisions (legal or not) never break the game, a
refused one stores nothing, and rebuilding from SQLite gives exactly the live state."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_ledger.core.commands import (
    ActivateAbility,
    CardRef,
    CastSpell,
    Command,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    PassPriority,
    PlayLand,
)
from mtg_ledger.replays.demo.decks import DECKS
from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.legal import options
from mtg_ledger.replays.ledger.application import Ledger
from tests.conftest import examples

CARD_NAMES = sorted(set(DECKS["green-white"] + DECKS["red-blue"]))


def wild_command(state_players: list[str], choices: random.Random) -> Command:
    """Anything a confused player might send: wrong player, wrong time, missing cards, bad targets."""
    player = choices.choice([*state_players, "mallory"])
    name = choices.choice(CARD_NAMES)
    ref = choices.choice([CardRef(name), CardRef(name, 3), choices.randint(-1, 60)])
    return choices.choice(
        [
            PassPriority(player),
            PlayLand(player, name),
            CastSpell(player, name, targets=(choices.choice([*state_players, ref]),)),
            CastSpell(player, name),
            ActivateAbility(player, ref),
            DeclareAttackers(player, ((ref, None),)),
            DeclareBlockers(player, ((ref, ref),)),
            Discard(player, (name,)),
        ]
    )


@settings(max_examples=examples(6), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_decisions_only_ever_raise_rules_errors_and_the_store_rebuilds_the_live_state(tmp_path: Path, seed: int) -> None:
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / f"{seed}.sqlite")})
    choices = random.Random(seed)
    setup = {
        "seed": seed,
        "shuffle": True,
        "players": [
            {"name": "alice", "library": DECKS["green-white"][:20]},
            {"name": "bob", "library": DECKS["red-blue"][:20]},
        ],
    }
    game_id = ledger.start(setup)
    refused = 0
    for _ in range(600):
        state = ledger.state_now(game_id)
        if state.ended:
            break
        decision = pending_decision(state)
        assert decision is not None
        offered = [c for found in options(state, decision, anytime=False) for c in found.listed]  # legal or not
        command = choices.choice(offered) if choices.random() < 0.8 else wild_command(state.turn_order, choices)
        version = state.version
        try:
            ledger.decide(game_id, command)
        except RulesError:
            refused += 1
            assert not list(ledger.events.get(game_id, gt=version))  # nothing of it stored
    live = ledger.state_now(game_id)
    stored = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / f"{seed}.sqlite")})
    assert stored.game(game_id).state.state_hash() == live.state_hash()
    stored.close()
    ledger.close()
    assert refused > 0
    assert live.ended or live.version > 300, "the game went somewhere"
