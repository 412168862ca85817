"""Stored names: what the store keeps names the log's schema, never a Python module, and the stores
written before the mtg_ledger namespace (module-path topics) keep loading, replaying and auditing clean.

tests/fixtures/schema1-store.sqlite was written by the code as it stood before the stored names
(``core.events:GameStarted``, ``core.table:Game``, ``eventsourcing.domain:Snapshot``,
``replays.app:Lineage.Branched``); schema1-store.json holds what that code read from it.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from uuid import UUID

import msgpack
import pytest
from eventsourcing.persistence import StoredEvent

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.topics import STORED, UnknownTopic
from mtg_ledger.core.view import state_view
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import shown_as_before

FIXTURES = Path(__file__).parents[1] / "fixtures"
EXPECTED: dict[str, dict] = json.loads((FIXTURES / "schema1-store.json").read_text())


@pytest.fixture
def old_store(tmp_path: Path) -> Ledger:
    path = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURES / "schema1-store.sqlite", path)
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
    yield ledger
    ledger.close()


def _subset(old: object, new: object) -> bool:
    """Everything the old code showed is shown the same today (later versions may show more).

    Not ``state_hash`` of the whole state: schema 2 records the outcome as a code (GameEnded), so a
    finished game's state hashes differently; the hashes the log records (TurnBegan) are proven by
    the replay below."""
    return shown_as_before(old, new, frozenset({"state_hash"}))


def test_a_store_written_before_the_stored_names_lists_the_same_games(old_store: Ledger) -> None:
    assert sorted(str(g) for g in old_store.game_ids()) == sorted(EXPECTED)


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_a_store_written_before_the_stored_names_rebuilds_replays_and_audits_each_game(old_store: Ledger, game: str) -> None:
    expected = EXPECTED[game]
    events = list(old_store.event_maps(UUID(game)))
    assert (len(events), events[-1]["hash"]) == (expected["events"], expected["final_hash"])
    assert _subset(expected["state"], state_view(old_store.state(UUID(game))))
    assert _subset(expected["state_at"], state_view(old_store.state(UUID(game), expected["at"])))
    assert old_store.lineage(UUID(game)) == expected["lineage"]
    recorded, versions = old_store.recorded_log(UUID(game))  # the chain holds over what was written
    assert replay(recorded, versions=versions).ok
    assert audit(game, recorded, versions=versions).clean


def test_a_store_written_before_the_stored_names_takes_new_decisions_on_a_branch(old_store: Ledger) -> None:
    """The old snapshot (eventsourcing.domain:Snapshot naming core.table:Game) is read at version 1,000."""
    demo = next(g for g, e in EXPECTED.items() if e["events"] > 1000)
    assert state_view(old_store.state(UUID(demo), 1000))["version"] == 1000


def _stored_map(state: bytes) -> dict[str, object]:
    """A row's stored map: schema 3 stores a game's event as 0x03, its 32-byte hash, then msgpack."""
    body = state[33:] if state[:1] == b"\x03" else state
    found: dict[str, object] = msgpack.unpackb(body, strict_map_key=False, ext_hook=lambda c, b: None)
    return found


def test_nothing_a_new_store_keeps_names_a_python_module(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path),
                         "MTG_LEDGER_SNAPSHOT_INTERVAL": "50"})
    try:
        game = play_demo(ledger, demo_setup(7, 2))
        ledger.branch(game, 48)
    finally:
        ledger.close()
    con = sqlite3.connect(path)
    topics = {t for (t,) in con.execute("SELECT name FROM topics")}
    inner = {msgpack.unpackb(s, strict_map_key=False, ext_hook=lambda c, b: None)["topic"]
             for (s,) in con.execute("SELECT state FROM snapshots")}
    started = {_stored_map(s)["originator_topic"]
               for (s,) in con.execute("SELECT e.state FROM events AS e JOIN topics AS t ON t.id = e.topic"
                                       " WHERE t.name IN ('GameStarted', 'Branched')")}
    con.close()
    assert {"GameStarted", "PriorityPassed", "GameEnded", "GameSnapshot", "Branched"} <= topics
    assert inner == {"Game"} and started == {"Game", "Lineage"}
    assert not [t for t in topics | inner | started if ":" in t or "." in t]


def test_a_stored_row_naming_an_unknown_type_is_refused_without_importing_it(old_store: Ledger) -> None:
    row = StoredEvent(originator_id=UUID(int=1), originator_version=1, topic="os:system", state=b"\x80")
    with pytest.raises(UnknownTopic, match="os:system"):
        old_store.mapper.to_domain_event(row)


def test_every_stored_name_is_unique_and_today_s_names_carry_no_module_path() -> None:
    today = {cls.TOPIC for cls in STORED.values()}  # type: ignore[attr-defined]
    assert not [t for t in today if ":" in t or "." in t]
