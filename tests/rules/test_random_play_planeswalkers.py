"""Property: random legal play with the pool's planeswalkers on the battlefield (their loyalty abilities,
hexproof for a player, "can't gain life", "whenever an opponent draws", "up to one target", tokens
counted as they resolve) never offers an illegal action, never crashes, rebuilds to the same state from
its events and replays to the same events; and the demo's policy plays such a game without failing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, Command
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.demo import policy
from tests.conftest import examples
from tests.helpers import assert_rebuilds_and_replays, play_at_random
from tests.rules.mechanics_cards import with_cards

WALKERS = ["Teyo, the Shieldmage", "Tibalt, Rakish Instigator", "Ob Nixilis, the Hate-Twisted", "Ajani, Caller of the Pride", "Garruk, Primal Hunter"]
LIBRARY = ["Plains", "Mountain", "Swamp", "Forest"] * 5 + ["Lightning Helix", "Lightning Bolt", "Grizzly Bears", "Child of Night", "Jace Beleren"] * 2


def _setup(seed: int) -> dict[str, object]:
    start = ["Plains", "Mountain", "Swamp", "Forest", "Grizzly Bears", *WALKERS]
    players = [{"name": name, "library": LIBRARY, "battlefield": start} for name in ("alice", "bob")]
    return with_cards({"seed": seed, "shuffle": True, "starting_player": "alice", "players": players})


def _loyalty_first(state: GameState, legal: list[Command], choices: random.Random) -> Command:
    """A planeswalker's loyalty ability more often than not (606.3), else any legal answer."""
    walkers = {p.object for p in state.battlefield if ch.face(state, p).is_type("Planeswalker")}
    loyalty = [c for c in legal if isinstance(c, ActivateAbility) and c.source in walkers]
    return choices.choice(loyalty) if loyalty and choices.random() < 0.6 else choices.choice(legal)


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_with_the_planeswalkers_rebuilds_and_replays_to_the_same_game(seed: int, choice_seed: int) -> None:
    table = play_at_random(LocalTable.start(_setup(seed)), random.Random(choice_seed), 400, _loyalty_first)
    assert_rebuilds_and_replays(table)


def test_the_demo_policy_plays_a_game_with_the_planeswalkers_on_the_battlefield():
    table = LocalTable.start(_setup(7))
    for _ in range(2_000):
        command = policy.choose(table.state)
        if command is None or table.state.ended:
            break
        table.handle(command)
    assert table.state.ended or table.state.turn > 4
    assert sum(e["type"] == "LoyaltyCostPaid" for e in table.events) > 2  # the policy uses their loyalty abilities (606)
    assert replay(table.events).ok
