"""Each event store we support saves and loads through the msgpack transcoder."""

from __future__ import annotations

from uuid import UUID

import msgpack
import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import Transcoder

from mtg_ledger.replays.stores.transcoder import MsgpackTranscoder


class Tally(Aggregate):
    def __init__(self, name: str) -> None:
        self.name = name
        self.marks: list[int] = []

    @event("Marked")
    def mark(self, value: int) -> None:
        self.marks.append(value)


class TallyBook(Application[UUID]):
    is_snapshotting_enabled = True

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()


@pytest.mark.parametrize("store", ["popo_env", "sqlite_env", pytest.param("postgres_env", marks=pytest.mark.postgres)])
def test_store_saves_and_loads_an_aggregate_and_its_snapshot_as_msgpack(
    store: str, request: pytest.FixtureRequest
) -> None:
    env: dict[str, str] = request.getfixturevalue(store)
    app = TallyBook(env=env)
    try:
        tally = Tally("alice")
        tally.mark(3)
        tally.mark(5)
        app.save(tally)
        app.take_snapshot(tally.id)

        loaded = app.repository.get(tally.id)
        first_version = app.repository.get(tally.id, version=1)
        (stored,) = app.snapshots.recorder.select_events(tally.id) if app.snapshots else ()
        raw_snapshot = msgpack.unpackb(stored.state, strict_map_key=False)
    finally:
        app.close()

    assert (loaded.name, loaded.marks, loaded.version) == ("alice", [3, 5], 3)
    assert loaded.modified_on == tally.modified_on
    assert first_version.marks == []
    assert raw_snapshot["state"]["marks"] == [3, 5]
