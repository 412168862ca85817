"""Property: random legal play with the cards of the schema-5 mechanics (keywords, counters, planeswalkers,
battles, Auras, Equipment, ward, countering, dies triggers, sacrifice) never offers an illegal action,
never crashes, rebuilds to the same state from its events, and replays from its recorded decisions to the
same events (the audit's replay), and that the read models' fold follows the state (stack, hands, permanents)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, PassPriority
from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.projections.folds import fold, new_view
from mtg_ledger.replays.audit.replay import replay
from tests.conftest import examples
from tests.rules.mechanics_cards import MECHANICS, with_cards

LANDS = ["Plains", "Island", "Swamp", "Mountain", "Forest"] * 4
SPELLS = [*MECHANICS, "Lightning Bolt", "Giant Growth", "Grizzly Bears", "Luminarch Aspirant"]
START = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Jace Beleren", "Bonesplitter", "Grizzly Bears"]


def _setup(seed: int) -> dict[str, object]:
    return with_cards(
        {
            "seed": seed,
            "shuffle": True,
            "starting_player": "alice",
            "players": [{"name": name, "library": LANDS + SPELLS, "battlefield": START} for name in ("alice", "bob")],
        }
    )


def play_randomly(seed: int, choices: random.Random, decisions: int) -> LocalTable:
    table = LocalTable.start(_setup(seed))
    for _ in range(decisions):
        if table.state.ended:
            break
        legal = list(legal_actions(table.state))
        assert legal, "a pending decision always has at least one legal answer"
        lands = _lands(table)
        acting = [c for c in legal if not isinstance(c, PassPriority) and not (isinstance(c, ActivateAbility) and c.source in lands)]
        command = choices.choice(acting) if acting and choices.random() < 0.7 else choices.choice(legal)
        try:
            table.handle(command)
        except RulesError as e:  # pragma: no cover - legal_actions said it was legal
            raise AssertionError(f"legal_actions offered an illegal {command}: {e}") from e
    return table


def _lands(table: LocalTable) -> set[int]:
    """Lands on the battlefield: tapping one for mana on its own is legal but rarely worth choosing."""
    return {p.object for p in table.state.battlefield if ch.face(table.state, p).is_type("Land")}


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_with_the_new_mechanics_rebuilds_and_replays_to_the_same_game(seed: int, choice_seed: int) -> None:
    table = play_randomly(seed, random.Random(choice_seed), 600)
    state, view = GameState(), new_view("game")
    for e in table.events:
        apply_event(state, e)
        fold(view, e)
        assert view.stack == [{"object": s.object, "card": s.card, "controller": s.controller} for s in state.stack], e
        assert view.hands == {name: len(p.hand) for name, p in state.players.items()}, e
        assert view.permanents == [{"object": p.object, "card": p.card, "controller": p.controller} for p in state.battlefield], e
    assert state.state_hash() == table.state.state_hash()
    result = replay(table.events)
    assert result.ok, [f.message for f in result.findings][:3]
