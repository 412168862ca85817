"""Trust nothing stored: a copy of a stored game, tampered with in every way a person with the SQLite
file could, is never shown, exported or built on. Reading verbs end in one line naming the game, the
version and what is wrong (exit 1: it fails the chain; 3: a row cannot be read); audit and replay
report it as a finding (exit 1); a tampered snapshot is turned away and the events rebuild the truth."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.view import state_view
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.application import SNAPSHOT_INTERVAL_ENV, Ledger
from mtg_ledger.replays.audit import audit_game
from mtg_ledger.replays.ledger.play import play_demo
from tests.log_tools import Event, first, run, state_after
from tests.store_tools import (
    EVENTS,
    SNAPSHOTS,
    pack,
    copy_row,
    delete_event,
    delete_from,
    dump,
    edit_event,
    edit_snapshot,
    fields,
    row,
    set_row,
    snapshot_versions,
    swap_rows,
)

pytestmark = pytest.mark.usefixtures("cli_env")
SEED = 3
INTERVAL = 200
Store = tuple[Path, str, list[Event]]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A demo game stored once for the module, with a snapshot every 200 or so events."""
    db = tmp_path_factory.mktemp("pristine") / "store.sqlite"
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db), SNAPSHOT_INTERVAL_ENV: str(INTERVAL)})
    try:
        game = play_demo(ledger, demo_setup(SEED))
        events = list(ledger.event_maps(game))
    finally:
        ledger.close()
    return db, str(game), events


@pytest.fixture
def store(pristine: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A copy of the pristine store, to damage."""
    monkeypatch.setenv(SNAPSHOT_INTERVAL_ENV, str(INTERVAL))
    db = tmp_path / "copy.sqlite"
    shutil.copyfile(pristine[0], db)
    return db, pristine[1], pristine[2]


def as_json(value: object) -> object:
    return json.loads(json.dumps(value, ensure_ascii=False))


def one_clean_line(err: str) -> str:
    """stderr holds exactly one line of ours (warnings of the log aside) and no traceback."""
    assert "Traceback" not in err
    ours = [x for x in err.splitlines() if x.startswith("mtg-ledger:")]
    assert len(ours) == 1, err
    return ours[0]


def alice_life_plus(n: int) -> Callable[[dict[str, Any]], None]:
    def change(state: dict[str, Any]) -> None:
        state["players"]["alice"]["life"] += n

    return change


# --- 1. snapshots --------------------------------------------------------------------------------------

FORGERS = {
    "edits the state": {},
    "edits the state and re-hashes it": {"rehash": True},
    "edits a snapshot written before snapshots had hashes": {"drop_hash": True},
}


def test_the_store_takes_each_snapshot_right_before_a_turn_begins(store: Store) -> None:
    db, game, log = store
    versions = snapshot_versions(db, game)
    assert len(versions) == len(log) // INTERVAL
    assert all(log[v]["type"] == "TurnBegan" for v in versions)  # event v + 1 vouches for the state after v


@pytest.mark.parametrize("forger", FORGERS, ids=list(FORGERS))
def test_a_tampered_snapshot_is_never_believed_by_state_step_or_time_travel(
    forger: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = store
    at = snapshot_versions(db, game)[-1]
    edit_snapshot(db, game, at, alice_life_plus(13), **FORGERS[forger])
    for version in (at, at + 1, len(log)):
        code, out, err = run(capsys, "state", game, "--at", str(version), "--db", str(db))
        assert code == 0 and "Traceback" not in err
        assert json.loads(out) == as_json(state_view(state_after(log, version))), f"--at {version}"
    damage = first(log, "CombatDamageDealt", after=at)
    code, out, _ = run(capsys, "step", game, "--from", str(at + 1), "--to", str(damage["v"]), "--db", str(db))
    truth = state_after(log, damage["v"] - 1).players
    assert code == 0
    for name in ("alice", "bob"):
        if f"{name}: life" in out:
            assert f"{name}: life {truth[name].life} ->" in out


def test_a_first_row_altered_after_a_read_from_a_snapshot_is_caught_at_the_next(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    """A snapshot holds no card definitions: a read from one takes them from the checked GameStarted, which
    the process remembers by its bytes once checked. Altered since (a card made stronger), it is checked
    again and turned away: the read falls back to the first event, whose chain breaks there."""
    db, game, log = store
    at = snapshot_versions(db, game)[-1] + 1
    for _ in range(2):  # the second read takes the first row as remembered
        code, out, err = run(capsys, "state", game, "--at", str(at), "--db", str(db))
        assert (code, err) == (0, "")
        assert json.loads(out) == as_json(state_view(state_after(log, at)))
    cards = fields(db, game, 1)["cards"]
    edit_event(db, game, 1, cards={**cards, "Grizzly Bears": {**cards["Grizzly Bears"], "power": 9}})
    code, out, err = run(capsys, "state", game, "--at", str(at), "--db", str(db))
    assert code != 0 and out == ""
    assert f"game {UUID(game)}, event 1:" in one_clean_line(err)


@pytest.mark.parametrize("forger", FORGERS, ids=list(FORGERS))
def test_audit_and_replay_name_every_tampered_snapshot(forger: str, store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, log = store
    bad = snapshot_versions(db, game)[-2:]
    for at in bad:
        edit_snapshot(db, game, at, alice_life_plus(7), **FORGERS[forger])
    code, out, err = run(capsys, "audit", game, "--db", str(db))
    assert code == 1 and "Traceback" not in err
    assert f"bad stored snapshot: {bad[0]} (stored snapshot)" in out and f"bad stored snapshot: {bad[1]}:" in out
    if forger != "edits the state":  # its own hash no longer matching is said first otherwise
        assert "players.alice.life is" in out
    report = json.loads(run(capsys, "audit", game, "--db", str(db), "--json")[1])
    assert [f["version"] for f in report["findings"]] == bad and report["snapshots"] == len(log) // INTERVAL
    code, out, _ = run(capsys, "replay", game, "--db", str(db))
    assert code == 1 and out.startswith("replay identical") and all(f"snapshot at version {v}" in out for v in bad)


def test_a_clean_stored_game_audits_clean_with_its_snapshots(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, log = store
    code, out, err = run(capsys, "audit", game, "--db", str(db))
    assert (code, err) == (0, "")
    assert f"{len(log) // INTERVAL} stored snapshot(s) match the events" in out


def test_a_snapshot_of_garbage_bytes_is_passed_over_and_reported(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, log = store
    at = snapshot_versions(db, game)[-1]
    set_row(db, game, at, state=b"\x93\x01\x02", table=SNAPSHOTS)
    code, out, _ = run(capsys, "state", game, "--db", str(db))
    assert code == 0 and json.loads(out) == as_json(state_view(state_after(log, len(log))))
    code, out, _ = run(capsys, "audit", game, "--db", str(db))
    assert code == 1 and f"bad stored snapshot: {at}" in out and "cannot be read" in out


def _branch_in_play(db: Path, game: str, log: list[Event], capsys: pytest.CaptureFixture[str]) -> tuple[str, int]:
    """A branch of the game at its last decision point before the end: a game still in play."""
    at = max(e["v"] for e in log[:-20] if e["type"] == "PriorityGiven" and pending_decision(state_after(log, e["v"])) is not None)
    code, out, _ = run(capsys, "branch", game, "--at", str(at), "--db", str(db))
    assert code == 0
    return out.strip(), at


def test_decide_after_a_tampered_snapshot_stores_exactly_what_the_untouched_store_does(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = store
    branch, at = _branch_in_play(db, game, log, capsys)
    twin = tmp_path / "twin.sqlite"
    shutil.copyfile(db, twin)
    latest = snapshot_versions(db, branch)[-1]
    edit_snapshot(db, branch, latest, lambda s: [p.update(life=0) for p in s["players"].values()], rehash=True)  # both would lose
    player = log[at - 1]["player"]
    outcomes = []
    for path in (db, twin):
        code, out, err = run(capsys, "decide", branch, json.dumps({"player": player, "action": "pass"}), "--db", str(path))
        events = run(capsys, "events", branch, "--from", str(at + 1), "--db", str(path))[1]
        outcomes.append((code, out, events))
    assert outcomes[0] == outcomes[1] and outcomes[0][0] == 0
    assert "PlayerLost" not in outcomes[0][2]


def test_the_schema_1_stores_snapshots_taken_mid_turn_without_hashes_are_vouched_for_by_the_chain(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copyfile(Path(__file__).parents[1] / "fixtures" / "schema1-store.sqlite", db)
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}, writes=False)
    try:
        checked = [audit_game(ledger, game) for game in ledger.game_ids()]
    finally:
        ledger.close()
    assert all(report.clean for report in checked)
    assert sum(report.snapshots for report in checked) > 0


# --- 2 and 3. event rows -------------------------------------------------------------------------------


def _another_value(db: Path, game: str, v: int) -> None:
    """Re-encode row v with another value of one of its fields (valid msgpack, hash left as it was)."""
    stored = fields(db, game, v)
    key = next(k for k in stored if k not in ("hash", "timestamp"))
    value = stored[key]
    other = {str: lambda x: x + "x", int: lambda x: x + 1, bool: lambda x: not x, list: lambda x: [] if x else [1]}
    edit_event(db, game, v, **{key: other.get(type(value), lambda x: 0)(value)})


V = 500  # behind two snapshots
LATE = -20  # twenty events before the end: after the last snapshot
DAMAGE: dict[str, tuple[Callable[[Path, str, int], None], int]] = {
    "a value re-encoded": (lambda db, g, v: _another_value(db, g, v), 1),
    "garbage bytes": (lambda db, g, v: set_row(db, g, v, state=b"\xc1\xc1 not msgpack"), 3),
    "an unknown topic": (lambda db, g, v: set_row(db, g, v, topic="core.events:Bogus"), 3),
    "a snapshot's topic on an event row": (lambda db, g, v: set_row(db, g, v, topic="GameSnapshot"), 3),
    "a deleted row": (lambda db, g, v: delete_event(db, g, v), 1),
    "a duplicated row": (lambda db, g, v: copy_row(db, g, v - 1, v), 1),
    "two swapped rows": (lambda db, g, v: swap_rows(db, g, v, v + 1), 1),
}
READS = {  # every reading verb that reads the damaged row, and decide, which would build on it
    "state": ("state", [], True),
    "decide": ("decide", [json.dumps({"player": "alice", "action": "pass"})], True),
    "state --at": ("state", ["--at", "{after}"], False),
    "events": ("events", [], False),
    "step": ("step", ["--from", "{before}"], False),
    "export": ("export", ["-o", "{out}"], False),
    "branch": ("branch", ["--at", "{after}"], False),
}


WHERE = [  # the verbs that read the game as it is now start from the last snapshot: damage behind it is not theirs
    (verb, where) for verb in READS for where in ("behind a snapshot", "after the last snapshot") if where != "behind a snapshot" or not READS[verb][2]
]


CLASS_VERSIONS = {"1, which no row is written with": 1, "True": True, "0": 0, "3, above the engine's": 3, "none": None}


@pytest.mark.parametrize("written", CLASS_VERSIONS.values(), ids=list(CLASS_VERSIONS))
def test_a_stored_class_version_altered_outside_the_chain_is_caught_not_read_as_another_form(
    written: Any, store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The class version a row keeps is outside the chain hash; altered, the event would be upcast and
    exported in another form, so a row whose class version no row is written with, or whose fields its
    form never had (a GameStarted of version 1 holding card definitions), is a damaged row."""
    db, game, _ = store
    stored = fields(db, game, 1)
    assert stored["class_version"] == 2  # GameStarted, schema 5
    if written is None:
        del stored["class_version"]
    else:
        stored["class_version"] = written
    set_row(db, game, 1, state=pack(stored))
    code, _, err = run(capsys, "export", game, "-o", str(tmp_path / "out.mtgl"), "--db", str(db))
    assert code == 3 and f"game {UUID(game)}, event 1:" in one_clean_line(err)
    assert not (tmp_path / "out.mtgl").exists()
    code, out, _ = run(capsys, "audit", game, "--db", str(db))
    assert code == 1 and "event 1's stored row cannot be read" in out


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
@pytest.mark.parametrize(("verb", "where"), WHERE, ids=[f"{verb}, {where}" for verb, where in WHERE])
def test_a_verb_reading_a_damaged_row_ends_in_one_line_naming_game_and_version(
    damage: str, verb: str, where: str, store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, log = store
    v = V if where == "behind a snapshot" else len(log) + LATE
    name, args, _ = READS[verb]
    tamper, code_wanted = DAMAGE[damage]
    tamper(db, game, v)
    before = dump(db)
    out_file = tmp_path / "out.mtgl"
    args = [a.replace("{after}", str(v + 5)).replace("{before}", str(v - 3)).replace("{out}", str(out_file)) for a in args]
    code, out, err = run(capsys, name, game, *args, "--db", str(db))
    line = one_clean_line(err)
    assert code == code_wanted, err
    assert f"game {UUID(game)}, event {v}:" in line
    assert dump(db) == before  # nothing stored, nothing built on it
    assert not out_file.exists()
    shown = [json.loads(x) for x in out.splitlines()] if name == "events" else []
    assert shown == log[: len(shown)] and len(shown) < v  # only events checked before the damage, if any


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_the_state_now_stands_on_the_last_snapshot_the_chain_vouches_for_not_on_older_rows(
    damage: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reads check what they read since the last verified point: damage behind it is for export, audit
    and replay to find (above), and does not change what the game is now."""
    db, game, log = store
    DAMAGE[damage][0](db, game, V)
    code, out, err = run(capsys, "state", game, "--db", str(db))
    assert (code, err) == (0, "")
    assert json.loads(out) == as_json(state_view(state_after(log, len(log))))


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_reads_before_the_damage_from_a_verified_snapshot_still_work(damage: str, store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, log = store
    DAMAGE[damage][0](db, game, V)
    assert snapshot_versions(db, game)[1] < V - 1  # a snapshot vouched for before the damage
    code, out, err = run(capsys, "state", game, "--at", str(V - 1), "--db", str(db))
    assert (code, "Traceback" in err) == (0, False)
    assert json.loads(out) == as_json(state_view(state_after(log, V - 1)))


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_audit_and_replay_report_a_damaged_row_as_a_finding_at_its_version(
    damage: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, _ = store
    DAMAGE[damage][0](db, game, V)
    code, out, err = run(capsys, "audit", game, "--db", str(db))
    assert (code, err) == (1, "")
    assert f"first bad event: {V} (integrity)" in out
    code, out, err = run(capsys, "replay", game, "--db", str(db))
    assert (code, err) == (1, "")
    assert out.startswith(f"replay refused: event {V}:")


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_export_refuses_a_damaged_game_unless_a_forensic_copy_is_asked_for(
    damage: str, store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, game, _ = store
    DAMAGE[damage][0](db, game, V)
    copy = tmp_path / "forensic.mtgl"
    code, out, err = run(capsys, "export", game, "-o", str(copy), "--forensic", "--db", str(db))
    assert (code, out) == (1, "") and "forensic copy" in err and f"event {V}" in err
    code, out, _ = run(capsys, "audit", str(copy), "--db", str(db))
    assert code == 1 and f"first bad event: {V} (integrity)" in out


def test_a_forensic_copy_of_a_clean_game_is_the_export_itself(store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, game, _ = store
    assert run(capsys, "export", game, "-o", str(tmp_path / "a.mtgl"), "--db", str(db))[0] == 0
    assert run(capsys, "export", game, "-o", str(tmp_path / "b.mtgl"), "--forensic", "--db", str(db))[0] == 0
    assert (tmp_path / "a.mtgl").read_bytes() == (tmp_path / "b.mtgl").read_bytes()


# --- what an operator can do undetected: cut the tail ---------------------------------------------------


def test_cutting_the_tail_is_invisible_to_reads_and_found_by_audit_only_behind_a_snapshot(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    """The documented limit (README, "What the ledger guarantees"): a store's last events can be
    deleted without a trace in the chain. A snapshot beyond the cut gives it away."""
    db, game, log = store
    last_snapshot = snapshot_versions(db, game)[-1]
    delete_from(db, game, last_snapshot + 10)
    code, out, _ = run(capsys, "state", game, "--db", str(db))
    assert code == 0 and json.loads(out)["version"] == last_snapshot + 9
    assert run(capsys, "audit", game, "--db", str(db))[0] == 0  # nothing beyond the cut to tell
    delete_from(db, game, last_snapshot - 5)
    code, out, _ = run(capsys, "audit", game, "--db", str(db))
    assert code == 1 and f"bad stored snapshot: {last_snapshot}" in out and "lies beyond the last stored event" in out


# --- property: random damage to the rows is caught or harmless -------------------------------------------

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=4,
)
_TOPICS = st.sampled_from(["CardDrawn", "core.events:CardDrawn", "PriorityPassed", "GameStarted", "GameSnapshot", "Branched", "Game", ""]) | st.text(max_size=12)


@st.composite
def random_damage(draw: st.DrawFn, events: int, snapshots: list[int]) -> tuple[str, Callable[[Path, str], None]]:
    """One change a person with the database file could make to a stored game's rows (the tail left
    where it is: cutting it is the documented limit, tested above)."""
    v = draw(st.integers(1, events - 1))
    kind = draw(st.sampled_from(["flip", "cut", "edit", "drop key", "add key", "topic", "delete", "copy", "swap", "snapshot"]))

    def bytes_of(db: Path, game: str, table: str = EVENTS, at: int = v) -> bytes:
        return row(db, game, at, table)[1]

    if kind in ("flip", "cut"):
        position, bit = draw(st.integers(0, 10_000)), draw(st.integers(0, 7))

        def change(db: Path, game: str) -> None:
            data = bytearray(bytes_of(db, game))
            i = position % len(data)
            if kind == "flip":
                data[i] ^= 1 << bit
            else:
                del data[i:]
            set_row(db, game, v, state=bytes(data))

        return f"{kind} event {v} at byte {position}", change
    if kind in ("edit", "drop key", "add key"):
        value, name = draw(_VALUES), draw(st.text(min_size=1, max_size=5))
        pick = draw(st.integers(0, 20))

        def change(db: Path, game: str) -> None:
            stored = fields(db, game, v)
            keys = sorted(stored)
            key = keys[pick % len(keys)]
            if kind == "edit":
                stored[key] = value
            elif kind == "drop key":
                del stored[key]
            else:
                stored[name] = value
            set_row(db, game, v, state=pack(stored))

        return f"{kind} of event {v}", change
    if kind == "topic":
        topic = draw(_TOPICS)
        return f"topic {topic!r} on event {v}", lambda db, game: set_row(db, game, v, topic=topic)
    if kind == "delete":
        return f"delete event {v}", lambda db, game: delete_event(db, game, v)
    if kind in ("copy", "swap"):
        w = draw(st.integers(1, events))
        act = copy_row if kind == "copy" else swap_rows
        return f"{kind} events {v} and {w}", lambda db, game: act(db, game, v, w) if v != w else None
    s = snapshots[draw(st.integers(0, len(snapshots) - 1))]
    path_pick, rehash, value = draw(st.integers(0, 1000)), draw(st.booleans()), draw(_VALUES)

    def change(db: Path, game: str) -> None:
        def edit(state: dict[str, Any]) -> None:
            where: Any = state
            for _ in range(3):
                keys = sorted(where, key=str) if isinstance(where, dict) else list(range(len(where))) if isinstance(where, list) else []
                if not keys:
                    break
                key = keys[path_pick % len(keys)]
                if isinstance(where[key], (dict, list)) and where[key]:
                    where = where[key]
                else:
                    where[key] = value
                    return

        edit_snapshot(db, game, s, edit, rehash=rehash)

    return f"snapshot {s} edited (re-hashed: {rehash})", change


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_damage_to_a_stored_games_rows_is_caught_or_harmless(
    data: st.DataObject, pristine: Store, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    source, game, log = pristine
    what, damage = data.draw(random_damage(len(log), snapshot_versions(source, game)))
    tmp = tmp_path_factory.mktemp("damage")
    db = tmp / "store.sqlite"
    shutil.copyfile(source, db)
    damage(db, game)
    truth = as_json(state_view(state_after(log, len(log))))
    clean_file = logfile.write(tmp / "truth.mtgl", game, log) and (tmp / "truth.mtgl").read_bytes()
    code, out, err = run(capsys, "state", game, "--db", str(db))
    assert "Traceback" not in err and code in (0, 1, 3), what
    assert code != 0 or json.loads(out) == truth, what
    code, out, err = run(capsys, "export", game, "-o", str(tmp / "out.mtgl"), "--db", str(db))
    assert "Traceback" not in err and code in (0, 1, 3), what
    assert code != 0 or (tmp / "out.mtgl").read_bytes() == clean_file, what
    harmless = code == 0
    code, out, err = run(capsys, "audit", game, "--db", str(db))
    assert "Traceback" not in err and code in (0, 1), what
    assert code == 1 or harmless, what
