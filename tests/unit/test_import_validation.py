"""A log file is checked whole before anything of it is stored: its header against its events, every
event against the schema (types, required fields, no unknown keys), every decision re-adjudicated by
replay. A bad file is a finding for `audit` (exit 1) and a refusal for `import` (exit 2, one line),
which stores nothing: the whole import is one transaction. Forgers re-hash their logs, so do these."""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_ledger.core.hashing import chain
from mtg_ledger.replays.audit.validate import event_problem
from mtg_ledger.replays.stores import bulk as storage
from tests.log_tools import Event, demo_log, first, header_of, rehash, run, write_raw

pytestmark = pytest.mark.usefixtures("cli_env")


def stored_rows(db: Path) -> int:
    """Every row of every table of the store (0 when there is no store at all)."""
    if not db.exists():
        return 0
    with sqlite3.connect(db) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return sum(con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables)


def imported(tmp_path: Path, capsys: pytest.CaptureFixture[str], header: Event, events: list[Event]) -> tuple[int, str, str, int]:
    path = write_raw(tmp_path / "log.mtgl", header, events)
    db = tmp_path / "store.sqlite"
    code, out, err = run(capsys, "import", str(path), "--db", str(db))
    return code, out, err, stored_rows(db)


def audited(tmp_path: Path, capsys: pytest.CaptureFixture[str], header: Event, events: list[Event]) -> tuple[int, str, str]:
    path = write_raw(tmp_path / "log.mtgl", header, events)
    return run(capsys, "audit", str(path), "--db", str(tmp_path / "audit.sqlite"))


def assert_refused(result: tuple[int, str, str, int], *words: str) -> None:
    code, out, err, rows = result
    assert (code, out, rows) == (2, "", 0), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "refused, nothing imported" in err
    assert all(w in err for w in words), err


def _bolt(log: list[Event]) -> Event:
    return first(log, "DamageDealt", card="Lightning Bolt")


# --- the header -------------------------------------------------------------------------------------------


def _header_changes(log: list[Event]) -> dict[str, tuple[dict[str, Any], str]]:
    return {
        "a game that is not a game id": ({"game": "not-a-uuid"}, "is not a game id"),
        "an event count that is not a number": ({"events": "lots"}, "is not a number of events"),
        "one event fewer than it holds": ({"events": len(log) - 1}, "was appended"),
        "one event more than it holds": ({"events": len(log) + 1}, "truncated"),
        "another final hash": ({"hash": "ab" * 32}, "the last event's hash is not the one the header records"),
        "a final hash that is not hex": ({"hash": 12}, "is not a sha256 in hex"),
    }


HEADER_CASES = list(_header_changes([{}]))


@pytest.mark.parametrize("case", HEADER_CASES)
def test_a_header_that_disagrees_with_its_events_is_an_audit_finding(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    change, words = _header_changes(log)[case]
    code, out, err = audited(tmp_path, capsys, {**header_of(log), **change}, log)
    assert (code, err) == (1, "") and words in out


@pytest.mark.parametrize("case", HEADER_CASES)
def test_import_refuses_a_header_that_disagrees_with_its_events_and_stores_nothing(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = demo_log()
    change, words = _header_changes(log)[case]
    assert_refused(imported(tmp_path, capsys, {**header_of(log), **change}, log), words)


# --- events of the wrong shape, re-hashed -----------------------------------------------------------------


def _amount_as_text(log: list[Event]) -> tuple[list[Event], int, str]:
    bolt = _bolt(log)
    log[bolt["v"] - 1]["amount"] = "3"
    return log, bolt["v"], "DamageDealt.amount must be a whole number"


def _nobody_playing(log: list[Event]) -> tuple[list[Event], int, str]:
    log[0]["players"] = []
    return log, 1, "at least two players"


def _unknown_key(log: list[Event]) -> tuple[list[Event], int, str]:
    log[100]["cheat"] = True
    return log, 101, "unknown key(s) 'cheat'"


def _missing_field(log: list[Event]) -> tuple[list[Event], int, str]:
    bolt = _bolt(log)
    del log[bolt["v"] - 1]["target"]
    return log, bolt["v"], "DamageDealt lacks target"


def _a_float_for_an_int(log: list[Event]) -> tuple[list[Event], int, str]:
    bolt = _bolt(log)
    log[bolt["v"] - 1]["amount"] = 3.0
    return log, bolt["v"], "must be a whole number, not 3.0"


def _a_player_without_a_library(log: list[Event]) -> tuple[list[Event], int, str]:
    del log[0]["players"][1]["library"]
    return log, 1, "GameStarted.players[1] lacks library"


SHAPES = {
    '"amount": "3"': _amount_as_text,
    "GameStarted with players: []": _nobody_playing,
    "an unknown key": _unknown_key,
    "a missing field": _missing_field,
    "3.0 for 3": _a_float_for_an_int,
    "a player without a library": _a_player_without_a_library,
}


@pytest.mark.parametrize("case", SHAPES)
def test_an_event_of_the_wrong_shape_rehashed_is_an_audit_finding_at_that_event(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events, version, words = SHAPES[case](demo_log())
    events = rehash(events)
    code, out, err = audited(tmp_path, capsys, header_of(events), events)
    assert (code, err) == (1, "")
    assert f"first bad event: {version} (integrity)" in out and words in out


@pytest.mark.parametrize("case", SHAPES)
def test_import_refuses_an_event_of_the_wrong_shape_rehashed_and_stores_nothing(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events, version, words = SHAPES[case](demo_log())
    events = rehash(events)
    assert_refused(imported(tmp_path, capsys, header_of(events), events), f"event {version}", words)


def test_import_refuses_an_illegal_decision_rehashed_and_stores_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    passed = first(log, "PriorityPassed", after=300)
    log[passed["v"] - 1]["player"] = "alice" if passed["player"] == "bob" else "bob"
    events = rehash(log)
    assert_refused(imported(tmp_path, capsys, header_of(events), events), f"event {passed['v']}", "117.3d")


def test_import_stores_nothing_when_the_store_fails_half_way(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The events and snapshots of an import are one transaction: a failure among the last rows
    leaves nothing of the first."""
    log = demo_log()
    monkeypatch.setenv("MTG_LEDGER_SNAPSHOT_INTERVAL", "100")
    monkeypatch.setattr(storage, "BATCH", 50)
    written = []
    real = storage._batches

    def failing(items: Any) -> Any:
        for batch in real(items):
            written.append(len(batch))
            if len(written) == 15:
                raise sqlite3.OperationalError("disk I/O error (simulated)")
            yield batch

    monkeypatch.setattr(storage, "_batches", failing)
    code, out, err, rows = imported(tmp_path, capsys, header_of(log), log)
    assert code == 3 and "Traceback" not in err and "the store failed" in err
    assert rows == 0 and len(written) == 15


def test_a_clean_log_imports_and_a_second_import_of_it_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    code, out, err, rows = imported(tmp_path, capsys, header_of(log), log)
    assert (code, err) == (0, "") and rows >= len(log)
    path = tmp_path / "log.mtgl"
    code, _, err = run(capsys, "import", str(path), "--db", str(tmp_path / "store.sqlite"))
    assert code == 2 and "already in this store" in err


# --- fuzzing: wrong types and shapes anywhere, re-hashed ---------------------------------------------------

_WRONG = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False) | st.text(max_size=8) | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3) | st.dictionaries(st.integers(-3, 3), inner, max_size=2),
    max_leaves=6,
)
_LOG = demo_log()


@st.composite
def forged_logs(draw: st.DrawFn) -> tuple[list[Event], int]:
    """The demo log with one event changed (a field given another value, a field removed, a key
    added, or a value inside a nested field replaced), then re-hashed."""
    log = copy.deepcopy(_LOG)
    i = draw(st.integers(0, len(log) - 1))
    event = log[i]
    keys = [k for k in event if k not in ("v", "type", "hash")]
    how = draw(st.sampled_from(["replace", "remove", "add", "nested"] if keys else ["add"]))
    if how == "add":
        event[draw(st.text(min_size=1, max_size=6).filter(lambda k: k not in event))] = draw(_WRONG)
    else:
        key = draw(st.sampled_from(keys))
        if how == "remove":
            del event[key]
        elif how == "replace" or not isinstance(event[key], (list, dict)) or not event[key]:
            value = draw(_WRONG)
            event[key] = value
        else:
            _replace_inside(draw, event[key])
    changed = rehash(log)
    return changed, i + 1


def _replace_inside(draw: st.DrawFn, value: Any) -> None:
    while True:
        if isinstance(value, dict) and value:
            key = draw(st.sampled_from(sorted(value, key=str)))
            if isinstance(value[key], (dict, list)) and value[key] and draw(st.booleans()):
                value = value[key]
                continue
            value[key] = draw(_WRONG)
            return
        if isinstance(value, list) and value:
            j = draw(st.integers(0, len(value) - 1))
            if isinstance(value[j], (dict, list)) and value[j] and draw(st.booleans()):
                value = value[j]
                continue
            value[j] = draw(_WRONG)
            return
        return


def _same_as_recorded(forged: list[Event]) -> bool:
    return all(a == b and chain("00" * 32, a) == chain("00" * 32, b) for a, b in zip(forged, _LOG, strict=True))


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(forged=forged_logs())
def test_import_of_a_rehashed_log_with_wrong_types_or_shapes_stores_it_only_if_audit_finds_it_clean(
    forged: tuple[list[Event], int], tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    events, _ = forged
    if _same_as_recorded(events):
        return  # the change happened to write what was there (or an equal value of the same type)
    tmp = tmp_path_factory.mktemp("fuzz")
    audit_code, audit_out, audit_err = audited(tmp, capsys, header_of(events), events)
    code, out, err, rows = imported(tmp, capsys, header_of(events), events)
    assert "Traceback" not in err and audit_err == ""
    if audit_code == 0:  # the change wrote another legal game (see the test below): it is stored
        assert code == 0 and rows >= len(events), err  # its events, and the snapshots taken on the way
        return
    assert audit_code == 1, audit_out
    assert (code, out, rows) == (2, "", 0), err


def test_a_rehashed_log_that_pays_from_the_pool_instead_is_another_legal_game_and_imports_601_2g(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cast's paid_with emptied after a mana ability activated right before it: the log now records the
    ability as activated on its own, at priority (605.3a), and the spell paid from the pool (601.2g-h).
    The rules derive exactly that, so the log is legal, audits clean and imports."""
    events = [dict(e) for e in _LOG]
    cast = events[944]  # the example hypothesis found: event 945 casts paying with the mana ability of object 26
    assert (cast["type"], cast["paid_with"], events[943]["type"]) == ("SpellCast", [26], "ManaAbilityActivated")
    cast["paid_with"] = []
    events = rehash(events)
    assert audited(tmp_path, capsys, header_of(events), events)[0] == 0
    code, _, err, rows = imported(tmp_path, capsys, header_of(events), events)
    assert code == 0 and rows >= len(events), err  # its events, and the snapshots taken on the way


def test_an_event_whose_hash_is_not_64_lowercase_hex_digits_is_named_unless_its_chain_was_checked() -> None:
    """The schema's form of ``hash``; the audit checks the chain first, and an event whose hash is the sha256 its
    chain gives (``chained``) has that form already, so it is not looked at again."""
    event = {"v": 2, "type": "PriorityPassed", "player": "alice", "hash": "AB" * 32}
    problem = event_problem(event)
    assert problem is not None and problem.id == "schema.hash_form"
    assert event_problem({**event, "hash": "ab" * 32}) is None
    assert event_problem(event, chained=True) is None
    assert event_problem({**event, "hash": 7}, chained=True) is not None  # not a string at all: named either way
