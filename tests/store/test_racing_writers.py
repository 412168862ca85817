"""Racing writers at the store (Ledger.decide with the version read): when two processes read the same version and both
write, the store's unique version decides. Each process here is a Ledger of its own on one store; the
loser's read is made stale on purpose (as when it reads just before the winner commits)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from pydantic import TypeAdapter

from mtg_ledger.core.commands import PassPriority
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.table import Game
from mtg_ledger.replays.ledger.access import answered
from mtg_ledger.replays.ledger.application import Ledger, VersionConflict
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.service import games as games_module
from mtg_ledger.replays.service.games import Games
from mtg_ledger.replays.receipts.decisions import canonical_body, decision_message, key_message
from mtg_ledger.replays.receipts.signing import b64, raw_public
from mtg_ledger.replays.service.errors import Unauthorized
from mtg_ledger.replays.service.models import Action, NewGame

SETUP = {"starting_player": "alice", "players": [{"name": "alice", "library": ["Forest"] * 5, "hand": []}, {"name": "bob", "library": ["Mountain"] * 5, "hand": []}]}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def two_processes(request: pytest.FixtureRequest, sqlite_env: dict[str, str]) -> Any:
    env = sqlite_env if request.param == "sqlite" else request.getfixturevalue("postgres_env")
    first, second = Ledger(env=env), Ledger(env=env)
    yield first, second
    first.close()
    second.close()


def stale(ledger: Ledger, game_id: UUID) -> Game:
    """What this process read before the other one stored its decision."""
    game = ledger.current(game_id)
    ledger.current = lambda _id, _stored=None: game  # type: ignore[method-assign]
    return game


def test_the_second_of_two_writers_of_one_version_gets_a_conflict_and_the_log_never_forks(two_processes: tuple[Ledger, Ledger]) -> None:
    a, b = two_processes
    game_id = a.start(SETUP, UUID(int=7))
    read = stale(b, game_id)
    a.decide(game_id, PassPriority("alice"), expected_version=read.version)
    with pytest.raises(VersionConflict):
        b.decide(game_id, PassPriority("alice"), expected_version=read.version)
    del b.current  # the process reads again
    log = list(b.event_maps(game_id))
    assert [e["v"] for e in log] == list(range(1, len(log) + 1)) and [e["type"] for e in log].count("PriorityPassed") == 1
    new = b.decide(game_id, PassPriority("bob"), expected_version=len(log))  # it goes on from what is stored
    assert new and new[0]["v"] == len(log) + 1 and b.state_now(game_id).version > len(log)


def test_a_retry_racing_its_first_attempt_in_another_process_gets_the_first_answer_and_stores_once(
    two_processes: tuple[Ledger, Ledger], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_processes
    created = Games(a).create(NewGame.model_validate(SETUP))
    game_id = UUID(created["game"])
    stale(b, game_id)
    action = TypeAdapter(Action).validate_python({"action": "pass"})
    first = Games(a).act(game_id, "alice", action, "key-1")
    looked = []

    def read_before_the_first_attempt_committed(*args: Any) -> Any:
        looked.append(args)
        # A process that reads before it decides (PostgreSQL) read before the first attempt committed; one that
        # decides on its copy with nothing read first (SQLite's compact tables) reads only once its save has failed.
        return None if len(looked) == 1 and not b.decides_unread else answered(*args)

    monkeypatch.setattr(games_module, "answered", read_before_the_first_attempt_committed)
    again = Games(b).act(game_id, "alice", action, "key-1")  # lost the race at the store, then found the record
    assert len(looked) == (1 if b.decides_unread else 2)
    assert again == first
    del b.current
    assert [e["type"] for e in b.event_maps(game_id)].count("PriorityPassed") == 1


def test_a_player_who_registered_a_key_in_another_process_must_sign_even_where_this_one_holds_the_game(
    two_processes: tuple[Ledger, Ledger],
) -> None:
    """On SQLite's compact tables a process decides on the game as it holds it, reading nothing first: the
    save itself stands only if the player has still no key, so a key registered through another process
    meanwhile is never missed (401, nothing stored), and from then on the decision must be signed."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    a, b = two_processes
    here, there = Games(a), Games(b)
    game_id = UUID(here.create(NewGame.model_validate(SETUP))["game"])
    here.act(game_id, "alice", TypeAdapter(Action).validate_python({"action": "pass"}), None)  # ``a`` holds the game as it saved it
    version = a.state_now(game_id).version
    who = pending_decision(a.state_now(game_id)).player
    key = Ed25519PrivateKey.generate()
    public = b64(raw_public(key.public_key()))
    there.register_key(game_id, who, public, version, b64(key.sign(key_message(str(game_id), who, public, version))))
    body = {"action": "pass", "expected_version": version}
    action = TypeAdapter(Action).validate_python(body)
    with pytest.raises(Unauthorized):
        here.act(game_id, who, action, None)
    assert b.last_version(game_id) == version
    signature = b64(key.sign(decision_message(str(game_id), version, canonical_body(body))))
    answer = here.act(game_id, who, action, None, (json.dumps(body).encode(), signature))
    assert answer["version"] > version and b.last_version(game_id) == answer["version"]


def test_a_process_keeps_at_most_the_configured_number_of_games_in_memory(tmp_path: Path) -> None:
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "live.sqlite"),
                         "MTG_LEDGER_LIVE_GAMES": "2"})
    try:
        games = [ledger.start(demo_setup(seed)) for seed in (1, 2, 3)]
        assert list(ledger._live) == games[1:]  # the least recently used went first
        ledger.decide(games[0], PassPriority(pending_decision(ledger.state_now(games[0])).player))  # read again, checked
        assert list(ledger._live) == [games[2], games[0]]
    finally:
        ledger.close()
