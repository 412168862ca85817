"""Two writers deciding in one game at once: the one whose events reach the store second stores nothing
and is told the game moved on (``VersionConflict``; the CLI exits 4, the HTTP service answers 409),
never "the store failed: IntegrityError". A writer that saved a game itself trusts its own copy only
while the store holds no more than it saved."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from mtg_ledger.core.commands import PassPriority
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core import engine
from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.ledger.application import Ledger, VersionConflict
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.cli import EXIT_CONFLICT
from mtg_ledger.replays.ledger.logs import configure_logging
from tests.log_tools import run

pytestmark = pytest.mark.usefixtures("cli_env")
EXAMPLE = examples.path("contract_example")
STORES = ["sqlite_env", pytest.param("postgres_env", marks=pytest.mark.postgres)]


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A store the CLI and the test's own ledgers share (through the library's variables); the
    ledgers log as the CLI does (warnings only, on stderr)."""
    env: dict[str, str] = request.getfixturevalue(request.param)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    configure_logging()
    yield env


def _game(env: dict[str, str]) -> UUID:
    """A game of the contract example, started and left where a player must decide."""
    ledger = Ledger(env=env)
    try:
        game = ledger.start(json.loads(EXAMPLE.read_text()) | {"actions": None})
        return game
    finally:
        ledger.close()


def _pass(state: Any) -> PassPriority:
    decision = pending_decision(state)
    assert decision is not None and decision.kind == "priority"
    return PassPriority(decision.player)


def _racing(other: Ledger, game: UUID, raced: list[int]) -> Any:
    """``apply_decision`` as it runs when ``other`` takes the same decision first, between this
    writer's read of the game and its save."""
    real = engine.apply_decision

    def another_writer_first(table: Any, command: Any, plan: Any) -> None:
        if not raced:
            raced.append(0)
            raced[0] = len(other.decide(game, command))
        real(table, command, plan)

    return another_writer_first


def _events(env: dict[str, str], game: UUID) -> list[dict[str, Any]]:
    ledger = Ledger(env=env, writes=False)
    try:
        return list(ledger.event_maps(game))
    finally:
        ledger.close()


def test_decide_that_loses_the_race_exits_4_in_one_line_and_stores_nothing(
    store: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(store)
    other = Ledger(env=store)
    raced: list[int] = []
    monkeypatch.setattr(engine, "apply_decision", _racing(other, game, raced))
    try:
        winner = _events(store, game)
        player = _pass(other.state_now(game)).player
        before = len(winner)
        code, out, err = run(capsys, "decide", str(game), json.dumps({"player": player, "action": "pass"}))
    finally:
        other.close()
    assert (code, out) == (EXIT_CONFLICT, "") and raced
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"game {game} moved on: another writer stored event {before + 1} first; nothing of this decision was stored" in err
    stored = _events(store, game)
    assert len(stored) == before + raced[0]  # the winner's events, and nothing of the loser's
    assert audit(str(game), stored).clean


def test_the_loser_of_a_race_is_told_and_its_next_decision_builds_on_the_game_as_it_moved_on(
    store: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(store)
    winner, loser = Ledger(env=store), Ledger(env=store)
    monkeypatch.setattr(engine, "apply_decision", _racing(winner, game, raced := []))
    try:
        version = len(_events(store, game)) + 1
        with pytest.raises(VersionConflict) as conflict:
            loser.decide(game, _pass(loser.state_now(game)))
        assert (conflict.value.game_id, conflict.value.version) == (game, version)
        count = len(loser.decide(game, _pass(winner.state_now(game))))  # read again, checked, built on
    finally:
        winner.close()
        loser.close()
    stored = _events(store, game)
    assert count > 0 and len(stored) == version - 1 + raced[0] + count
    assert audit(str(game), stored).clean


def test_writers_taking_the_same_decision_at_once_store_it_once_and_the_others_are_told(store: dict[str, str]) -> None:
    game = _game(store)
    ledgers = [Ledger(env=store) for _ in range(4)]
    for ledger in ledgers:
        ledger.state_now(game)  # each has read the game at the same version
    barrier = threading.Barrier(len(ledgers))
    outcomes: list[object] = [None] * len(ledgers)

    def decide(i: int) -> None:
        command = _pass(ledgers[i].state_now(game))
        barrier.wait()
        try:
            outcomes[i] = ledgers[i].decide(game, command)
        except VersionConflict as e:
            outcomes[i] = e
        except Exception as e:  # anything else is the defect this test is about
            outcomes[i] = e

    threads = [threading.Thread(target=decide, args=(i,)) for i in range(len(ledgers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for ledger in ledgers:
        ledger.close()
    won = [o for o in outcomes if isinstance(o, list)]  # the new events of the one decision stored
    told = [o for o in outcomes if isinstance(o, (VersionConflict, IllegalAction))]  # moved on; or read again: no longer legal
    assert len(won) == 1 and len(told) == len(ledgers) - 1, outcomes
    stored = _events(store, game)
    assert audit(str(game), stored).clean


def test_a_writer_trusts_its_own_copy_only_while_the_store_holds_no_more(store: dict[str, str]) -> None:
    game = _game(store)
    mine, theirs = Ledger(env=store), Ledger(env=store)
    try:
        mine.decide(game, _pass(mine.state_now(game)))
        theirs.decide(game, _pass(theirs.state_now(game)))  # the store moves on behind my back
        latest = theirs.state_now(game)
        mine.decide(game, _pass(latest))  # no conflict: my copy is reloaded, checked, and built on
    finally:
        mine.close()
        theirs.close()
    assert audit(str(game), _events(store, game)).clean
