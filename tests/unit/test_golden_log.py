"""The golden log: a game recorded with schema 1, committed once. Every later version of the engine
must keep importing it, replaying it identically and auditing it clean; a schema change that breaks
this needs an upcaster (replays.schema), not an edit of the file."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from mtg_ledger.core.events import UPCASTERS
from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.core.schema import class_versions, SchemaError, upgrade

GOLDEN = Path(__file__).parents[1] / "golden" / "schema1-free-for-all.mtgl"


def test_the_golden_log_keeps_its_header_and_hash_chain() -> None:
    header, events = logfile.read(GOLDEN)
    assert (header["format"], header["schema"]) == ("mtg-ledger", 1)
    assert header["events"] == len(events) > 1000
    assert logfile.integrity(events, header) == []
    assert events[-1]["type"] == "GameEnded"


def test_the_golden_log_keeps_importing_replaying_and_auditing_cleanly(tmp_path: Path) -> None:
    header, events = logfile.read(GOLDEN)
    current = [upgrade(e, header["event_versions"]) for e in events]
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "g.sqlite")})
    try:
        game = ledger.import_events(events, UUID(header["game"]), versions=header["event_versions"])  # as recorded
        stored = list(ledger.event_maps(game))  # checked against the chain, read in this engine's schema
        assert stored == current
        result = replay(stored)
        assert result.ok, result.findings[:1]
        assert result.state is not None and result.state.state_hash() == ledger.game(game).state.state_hash()
        assert audit(str(game), events, header).clean
    finally:
        ledger.close()


def test_an_event_version_newer_than_the_engine_is_refused_not_guessed() -> None:
    _, events = logfile.read(GOLDEN)
    with pytest.raises(SchemaError, match="newer than this engine"):
        upgrade(events[1], {events[1]["type"]: 99})


def test_an_older_event_version_is_upgraded_by_its_upcaster(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mechanism a later schema uses: here a stand-in upcaster from a pretend version 0."""
    _, events = logfile.read(GOLDEN)
    turn = next(e for e in events if e["type"] == "TurnBegan")
    old = {k: v for k, v in turn.items() if k != "state_hash"}
    monkeypatch.setitem(UPCASTERS, ("TurnBegan", 0), lambda e: {**e, "state_hash": turn["state_hash"]})
    assert upgrade(old, {"TurnBegan": 0}) == turn
    with pytest.raises(SchemaError, match="no upcaster"):
        upgrade(old, {"TurnBegan": -1})


def test_the_golden_log_imported_and_exported_keeps_every_event_and_hash_and_its_class_versions(tmp_path: Path) -> None:
    """An export is written in the current form (today's schema, compressed in blocks); what the golden log recorded,
    every event and every hash, and the class versions it was recorded in, survive import -> export
    -> import exactly, and the copy audits clean."""
    from mtg_ledger.replays.cli import main

    db, copy = str(tmp_path / "g.sqlite"), tmp_path / "copy.mtgl"
    assert main(["import", str(GOLDEN), "--db", db, "--json"]) == 0
    header, events = logfile.read(GOLDEN)
    assert main(["export", header["game"], "-o", str(copy), "--db", db]) == 0
    with logfile.open_log(copy) as written:
        assert written.blocks  # zstd frames, a block of events each
    again_header, again = logfile.read(copy)
    assert again == events
    assert again_header["schema"] == SCHEMA_VERSION
    recorded = again_header["event_versions"]  # as recorded, and the event types added since at their versions
    assert {k: recorded[k] for k in header["event_versions"]} == header["event_versions"]
    assert {k: v for k, v in recorded.items() if k not in header["event_versions"]} == {
        k: v for k, v in class_versions().items() if k not in header["event_versions"]
    }
    assert {k: again_header[k] for k in ("format", "rules", "game", "events", "hash")} == {k: header[k] for k in ("format", "rules", "game", "events", "hash")}
    assert audit(header["game"], again, again_header, versions=logfile.recorded_versions(again_header)).clean
    db2, twice = str(tmp_path / "g2.sqlite"), tmp_path / "twice.mtgl"
    assert main(["import", str(copy), "--db", db2, "--json"]) == 0
    assert main(["export", header["game"], "-o", str(twice), "--db", db2]) == 0
    assert twice.read_bytes() == copy.read_bytes()  # export -> import -> export: the same file, byte for byte
