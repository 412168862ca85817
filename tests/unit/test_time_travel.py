"""Time travel: the state after any event, from snapshots, is the state folded from the log; the CLI
shows it (`state --at`, `events --around`, `step`); a branch starts from a decision point of a game,
remembers where it came from, and diverges from it with the first different decision."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from uuid import UUID

import pytest

from mtg_ledger.core.events import apply_event
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.state import GameState
from mtg_ledger.core.view import state_view
from mtg_ledger.replays.ledger.application import SNAPSHOT_INTERVAL_ENV, Ledger
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.text import line
from tests.log_tools import SEED, Event, first, run, state_after

pytestmark = pytest.mark.usefixtures("cli_env")
INTERVAL = 50


def sqlite(db: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}


def as_json(view: dict[str, object]) -> object:
    return json.loads(json.dumps(view, ensure_ascii=False))


def probe_versions(count: int, snapshots: list[int]) -> list[int]:
    """Every seventh version, each side of every snapshot, and the last."""
    around = {v + d for v in snapshots for d in (-1, 0, 1)}
    return sorted({*range(1, count + 1, 7), *around, count} & set(range(1, count + 1)))


@pytest.mark.parametrize("store", ["popo_env", "sqlite_env", pytest.param("postgres_env", marks=pytest.mark.postgres)])
def test_the_state_at_any_version_is_the_log_folded_to_that_version(store: str, request: pytest.FixtureRequest) -> None:
    ledger = Ledger(env={**request.getfixturevalue(store), SNAPSHOT_INTERVAL_ENV: str(INTERVAL)})
    try:
        game_id = play_demo(ledger, demo_setup(SEED))
        assert ledger.snapshots is not None
        snapshots = list(ledger.snapshots.get(game_id))
        events = list(ledger.event_maps(game_id))
        at = [s.originator_version for s in snapshots]
        wanted = set(probe_versions(len(events), at))
        folded, checked = GameState(), 0
        for e in events:
            apply_event(folded, e)
            if e["v"] in wanted:
                travelled = ledger.state(game_id, e["v"])
                assert travelled.state_hash() == folded.state_hash(), f"at version {e['v']}"
                assert state_view(travelled) == state_view(folded)
                checked += 1
    finally:
        ledger.close()
    # one snapshot right before the first turn to begin after each multiple of the interval (that
    # TurnBegan records the snapshot's state hash inside the chain: it vouches for the snapshot)
    expected, last = [], 0
    for e in events:
        if e["type"] == "TurnBegan" and (e["v"] - 1) // INTERVAL > last // INTERVAL:
            expected.append(last := e["v"] - 1)
    assert sorted(at) == expected and len(at) > 5
    assert checked == len(wanted) > 150


# --- the CLI over a stored game -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[Event]]:
    """The demo game of ``SEED``, played once into an SQLite store with a snapshot every 50 events."""
    db = tmp_path_factory.mktemp("played") / "s.sqlite"
    ledger = Ledger(env={**sqlite(db), SNAPSHOT_INTERVAL_ENV: str(INTERVAL)})
    try:
        game = play_demo(ledger, demo_setup(SEED))
        return db, str(game), list(ledger.event_maps(game))
    finally:
        ledger.close()


@pytest.fixture
def stored(
    played: tuple[Path, str, list[Event]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, str, list[Event]]:
    """A copy of the played store for one test, which may add games to it: (db, game id, its log)."""
    monkeypatch.setenv(SNAPSHOT_INTERVAL_ENV, str(INTERVAL))
    template, game, log = played
    db = tmp_path / "s.sqlite"
    with sqlite3.connect(template) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
    return db, game, log


def test_cli_state_at_a_version_is_the_folded_state(
    stored: tuple[Path, str, list[Event]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = stored
    for v in (1, 49, 50, 51, 333, 500, len(log)):
        code, out, err = run(capsys, "state", game, "--at", str(v), "--db", str(db))
        assert (code, err) == (0, "")
        assert json.loads(out) == as_json(state_view(state_after(log, v))), f"--at {v}"


def test_events_around_a_version_marks_that_version(
    stored: tuple[Path, str, list[Event]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = stored
    code, out, _ = run(capsys, "events", game, "--around", "120", "--format", "text", "--db", str(db))
    lines = out.splitlines()
    marked = [x for x in lines if x.startswith(">")]
    assert code == 0 and len(lines) == 11
    assert marked == [f">{line(log[119])}"]
    assert lines.index(marked[0]) == 5  # five events on each side
    code, out, _ = run(capsys, "events", game, "--around", "120", "--context", "2", "--db", str(db))
    assert [json.loads(x)["v"] for x in out.splitlines()] == [118, 119, 120, 121, 122]


def test_step_prints_one_block_per_event_with_priority_and_life_changes(
    stored: tuple[Path, str, list[Event]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = stored
    bolt = first(log, "DamageDealt", card="Lightning Bolt", target="alice")
    start, end = bolt["v"] - 4, bolt["v"] + 2
    life = state_after(log, bolt["v"] - 1).players["alice"].life
    code, out, _ = run(capsys, "step", game, "--from", str(start), "--to", str(end), "--db", str(db))
    lines = out.splitlines()
    status = [x for x in lines if "| priority " in x]
    assert code == 0 and len(status) == end - start + 1
    assert all(line(e) in lines for e in log[start - 1 : end])
    assert f"alice: life {life} -> {life - 3}" in out
    after_bolt = lines[lines.index(line(bolt)) + 1 :]
    assert after_bolt[1].strip() == f"alice: life {life} -> {life - 3}"


# --- branches ------------------------------------------------------------------------------------------


def _decision_point_before_a_land(log: list[Event]) -> int:
    """The version of the PriorityGiven right before the first land played: a player is being asked."""
    land = first(log, "LandPlayed")
    assert log[land["v"] - 2]["type"] == "PriorityGiven"
    return land["v"] - 1


def test_a_branch_starts_from_a_decision_point_and_remembers_where_it_came_from(
    stored: tuple[Path, str, list[Event]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = stored
    at = _decision_point_before_a_land(log)
    assert pending_decision(state_after(log, at)) is not None
    code, out, err = run(capsys, "branch", game, "--at", str(at), "--db", str(db))
    assert (code, err) == (0, "")
    branch = out.strip()
    ledger = Ledger(env=sqlite(db))
    try:
        assert list(ledger.event_maps(UUID(branch))) == log[:at]
        assert ledger.lineage(UUID(branch)) == {"branched_from": game, "at_version": at}
        assert ledger.lineage(UUID(game)) is None
    finally:
        ledger.close()

    code, out, _ = run(capsys, "diff", game, branch, "--db", str(db))
    assert code == 1 and out.startswith(f"the logs diverge at event {at + 1}")
    assert "(the log ends)" in out

    player = log[at - 1]["player"]
    code, out, err = run(capsys, "decide", branch, json.dumps({"player": player, "action": "pass"}), "--db", str(db))
    assert (code, err) == (0, "") and int(out.split(";")[0].removeprefix("version ")) > at
    code, out, _ = run(capsys, "diff", game, branch, "--db", str(db))
    a_line, b_line = (x.strip() for x in out.splitlines()[1:3])
    assert code == 1 and out.startswith(f"the logs diverge at event {at + 1}")
    assert a_line == f"A: {line(log[at])}" and "LandPlayed" == log[at]["type"]
    assert b_line.startswith("B: ") and "pass" in b_line

    assert run(capsys, "audit", branch, "--db", str(db))[0] == 0  # a different, still legal game
    code, out, _ = run(capsys, "events", game, "--from", str(at + 1), "--to", str(at + 1), "--db", str(db))
    assert json.loads(out) == log[at]  # the source game is untouched


@pytest.mark.parametrize("where", ["not a decision point", "0", "past the end"])
def test_branching_where_no_decision_is_asked_is_refused(
    where: str, stored: tuple[Path, str, list[Event]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = stored
    busy = first(log, "StepBegan", step="untap")["v"]  # the engine untaps and moves on: nobody is asked
    assert pending_decision(state_after(log, busy)) is None
    at = {"not a decision point": busy, "0": 0, "past the end": len(log) + 1}[where]
    ledger = Ledger(env=sqlite(db))
    try:
        before = ledger.game_ids()
        code, out, err = run(capsys, "branch", game, "--at", str(at), "--db", str(db))
        assert ledger.game_ids() == before
    finally:
        ledger.close()
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and f"--at {at}" in err


def test_diff_of_identical_logs_exits_0(
    stored: tuple[Path, str, list[Event]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = stored
    code, out, _ = run(capsys, "diff", game, game, "--db", str(db))
    assert (code, out.strip()) == (0, f"the logs are identical: {len(log)} events")
    path = tmp_path / "g.mtg"
    run(capsys, "export", game, "-o", str(path), "--db", str(db))
    code, _, _ = run(capsys, "diff", game, str(path), "--db", str(db))
    assert code == 0
    code, out, _ = run(capsys, "import", str(path), "--new-id", "--db", str(db))
    code, _, _ = run(capsys, "diff", str(path), out.strip(), "--db", str(db))
    assert code == 0
