"""The same conformance tests on every store: in-memory (POPO), SQLite file, PostgreSQL (for real)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mtg_ledger.core.commands import CastSpell, PassPriority
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.errors import NotYourPriority
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.core.table import LocalTable
from mtg_ledger.core.view import state_view
from mtg_ledger.replays.ledger.application import GameNotFound, Ledger
from mtg_ledger.replays.ledger.play import play_demo

STORES = ("popo_env", "sqlite_env", "postgres_env")


@pytest.fixture(params=STORES)
def ledger(request: pytest.FixtureRequest) -> Iterator[Ledger]:
    app = Ledger(env=request.getfixturevalue(request.param))
    yield app
    app.close()


def test_a_whole_demo_game_is_stored_event_by_event_and_rebuilds_identically(ledger: Ledger) -> None:
    game_id = play_demo(ledger, demo_setup(3))
    live = ledger.state_now(game_id)
    assert live.ended and live.winner is not None
    rebuilt = Ledger.game(ledger, game_id)  # straight from the store, not the live copy
    assert rebuilt.state.state_hash() == live.state_hash()
    events = list(ledger.event_maps(game_id))
    assert [e["v"] for e in events] == list(range(1, len(events) + 1))
    previous = GENESIS_HASH
    for e in events:
        assert e["hash"] == chain(previous, e)
        previous = e["hash"]
    assert events[-1]["type"] == "GameEnded"


def test_the_store_holds_exactly_what_the_in_memory_engine_records(ledger: Ledger) -> None:
    game_id = play_demo(ledger, demo_setup(5))
    table = LocalTable.start(demo_setup(5))
    from mtg_ledger.replays.demo.policy import choose

    while (command := choose(table.state)) is not None:
        table.handle(command)
    assert list(ledger.event_maps(game_id)) == table.events


def test_state_after_any_version_is_the_state_rebuilt_to_that_event(ledger: Ledger) -> None:
    game_id = play_demo(ledger, demo_setup(2))
    events = list(ledger.event_maps(game_id))
    table = LocalTable.start(demo_setup(2))
    from mtg_ledger.replays.demo.policy import choose

    while (command := choose(table.state)) is not None:
        table.handle(command)
    for version in (1, 2, len(events) // 2, len(events)):
        state = ledger.state(game_id, version)
        assert state.version == version
        assert state.last_hash == events[version - 1]["hash"]
    assert state_view(ledger.state(game_id)) == state_view(table.state)


def test_an_illegal_decision_stores_nothing_117_3d(ledger: Ledger) -> None:
    game_id = ledger.start(demo_setup(1))
    before = list(ledger.event_maps(game_id))
    holder = ledger.state_now(game_id).priority
    other = next(p for p in ledger.state_now(game_id).turn_order if p != holder)
    with pytest.raises(NotYourPriority) as refused:
        ledger.decide(game_id, PassPriority(other))
    assert refused.value.rule == "117.3d"
    with pytest.raises(NotYourPriority):
        ledger.decide(game_id, CastSpell(other, "Lightning Bolt", targets=(holder,)))
    assert list(ledger.event_maps(game_id)) == before
    assert Ledger.game(ledger, game_id).version == len(before)


def test_an_unknown_game_is_reported_as_not_found(ledger: Ledger) -> None:
    from uuid import uuid4

    with pytest.raises(GameNotFound):
        ledger.game(uuid4())


def test_every_started_game_is_listed_in_start_order(ledger: Ledger) -> None:
    first = ledger.start(demo_setup(1))
    second = ledger.start(demo_setup(2))
    ids = ledger.game_ids()
    assert ids.index(first) < ids.index(second)
