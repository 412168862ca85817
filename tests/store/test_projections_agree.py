"""The read models agree with the state the aggregate rebuilds: after every event, on every store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.events import apply_event
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.projections.runner import catch_up, make_view
from mtg_ledger.projections.folds import fold, new_view
from mtg_ledger.projections.views import hand_size_rows, phase_step_row, stack_rows
from mtg_ledger.replays.ledger.application import Ledger


def expected(state: GameState) -> dict[str, Any]:
    return {
        "phase_step": (state.turn, state.phase, state.step, state.active_player, state.priority, state.version),
        "stack": [(s.object, s.card, s.controller) for s in state.stack],
        "hands": {
            name: (len(p.hand), ch.max_hand_size(state, name), ch.cards_to_discard(state, name))
            for name, p in state.players.items()
            if not p.lost
        },
    }


def observed(phase_step: dict[str, Any] | None, stack: list[dict[str, Any]], hands: list[dict[str, Any]], lost: set[str]) -> dict[str, Any]:
    assert phase_step is not None
    return {
        "phase_step": tuple(phase_step[k] for k in ("turn", "phase", "step", "active_player", "priority", "version")),
        "stack": [(r["object"], r["card"], r["controller"]) for r in stack],
        "hands": {
            r["player"]: (r["hand_size"], r["max_hand_size"], r["cards_to_discard"]) for r in hands if r["player"] not in lost
        },
    }


def demo_game(seed: int) -> LocalTable:
    table = LocalTable.start(demo_setup(seed))
    while (command := choose(table.state)) is not None:
        table.handle(command)
    return table


def random_game(seed: int) -> LocalTable:
    import random

    from tests.rules.test_random_play import play_randomly

    return play_randomly(seed, random.Random(seed), 1500)


@pytest.mark.parametrize(("play", "seed"), [(demo_game, 1), (demo_game, 4), (random_game, 1), (random_game, 3)])
def test_the_pure_projector_agrees_with_the_aggregate_after_every_event_version(play: Any, seed: int) -> None:
    table = play(seed)
    rebuilt = LocalTable()
    view = new_view("g")
    for e in table.events:
        apply_event(rebuilt.state, e)
        fold(view, e)
        lost = {n for n, p in rebuilt.state.players.items() if p.lost}
        assert observed(phase_step_row(view), stack_rows(view), hand_size_rows(view), lost) == expected(rebuilt.state), e


@pytest.fixture(params=("popo_env", "sqlite_env", "postgres_env"))
def ledger(request: pytest.FixtureRequest) -> Iterator[Ledger]:
    app = Ledger(env=request.getfixturevalue(request.param))
    yield app
    app.close()


def test_stored_views_catch_up_on_demand_and_agree_after_every_decision(ledger: Ledger) -> None:
    view = make_view(ledger)
    game_id = ledger.start(demo_setup(6))
    decisions = 0
    while True:
        catch_up(ledger, view)
        state = ledger.state_now(game_id)
        lost = {n for n, p in state.players.items() if p.lost}
        got = observed(view.phase_step(game_id), view.stack(game_id), view.hand_sizes(game_id), lost)
        assert got == expected(state), f"after decision {decisions}"
        command = choose(state)
        if command is None:
            break
        ledger.decide(game_id, command)
        decisions += 1
    assert catch_up(ledger, view) == 0  # idempotent: nothing new
    discards = [e for e in ledger.event_maps(game_id) if e["type"] == "CardsDiscarded"]
    cleanups = view.cleanups(game_id)
    assert len(cleanups) == sum(1 for e in ledger.event_maps(game_id) if e["type"] == "StepBegan" and e["step"] == "cleanup")
    assert sum(c["required"] for c in cleanups) == sum(len(e["cards"]) for e in discards)
    assert [c["discarded"] for c in cleanups if c["discarded"]] == [e["cards"] for e in discards]
