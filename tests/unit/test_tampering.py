"""A tampered log is caught at the event that was tampered with: by the hash chain when the forger
did not re-hash, by re-checking every decision against the rules (and every derived event against
what the rules derive) when the whole chain was re-hashed. Through ``audit`` and the CLI alike."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import chain
from mtg_ledger.core.state import GameState
from mtg_ledger.replays import logfile
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.messages import say
from tests.log_tools import Event, demo_game, demo_log, edited, first, header_of, rehash, run, write_raw

pytestmark = pytest.mark.usefixtures("cli_env")

COMBAT_STEPS = ("beginning_of_combat", "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat")
Tamper = Callable[[list[Event]], tuple[Event, list[Event], int]]


def first_bad(out: str) -> int | None:
    found = re.search(r"(?:first bad event|premier événement fautif)\s*: (\d+)", out)
    return int(found.group(1)) if found else None


def audited_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], header: Event, events: list[Event], *extra: str
) -> tuple[int, str, str]:
    path = write_raw(tmp_path / "tampered.mtg", header, events)
    return run(capsys, "audit", str(path), "--db", str(tmp_path / "s.sqlite"), *extra)


# --- without re-hashing: the chain breaks where the log was touched ---------------------------------


def _card_drawn_changed(log: list[Event]) -> tuple[Event, list[Event], int]:
    drawn = first(log, "CardDrawn", after=100)
    other = "Serra Angel" if drawn["card"] != "Serra Angel" else "Forest"
    return header_of(log), edited(log, drawn["v"], card=other), drawn["v"]


def _priority_passed_by_someone_else(log: list[Event]) -> tuple[Event, list[Event], int]:
    passed = first(log, "PriorityPassed", after=200)
    other = "alice" if passed["player"] == "bob" else "bob"
    return header_of(log), edited(log, passed["v"], player=other), passed["v"]


def _deleted(log: list[Event]) -> tuple[Event, list[Event], int]:
    return header_of(log), log[:499] + log[500:], 500


def _duplicated(log: list[Event]) -> tuple[Event, list[Event], int]:
    return header_of(log), log[:500] + [log[499]] + log[500:], 501  # the copy stands where event 501 should


def _swapped(log: list[Event]) -> tuple[Event, list[Event], int]:
    return header_of(log), log[:499] + [log[500], log[499]] + log[501:], 500


def _appended(log: list[Event]) -> tuple[Event, list[Event], int]:
    extra: Event = {"v": len(log) + 1, "type": "PriorityPassed", "player": "alice"}
    extra["hash"] = chain(log[-1]["hash"], extra)  # even a well-chained extra event is outside the header
    return header_of(log), [*log, extra], len(log) + 1


def _truncated(log: list[Event]) -> tuple[Event, list[Event], int]:
    return header_of(log), log[:-10], len(log) - 9


TAMPERINGS: dict[str, tuple[Tamper, str]] = {
    "an edited CardDrawn card": (_card_drawn_changed, "altered"),
    "an edited PriorityPassed player": (_priority_passed_by_someone_else, "altered"),
    "a deleted event": (_deleted, "missing"),
    "a duplicated event": (_duplicated, "duplicated"),
    "two swapped events": (_swapped, ""),
    "an event appended after the header's count": (_appended, "appended"),
    "a file truncated at an event boundary": (_truncated, "truncated"),
}


@pytest.mark.parametrize("case", TAMPERINGS, ids=list(TAMPERINGS))
def test_audit_names_the_tampered_event_as_an_integrity_finding(case: str) -> None:
    tamper, word = TAMPERINGS[case]
    header, events, version = tamper(demo_log())
    report = audit("g", events, header)
    assert not report.clean and report.first is not None
    assert (report.first.version, report.first.kind) == (version, "integrity")
    assert word in report.first.message


@pytest.mark.parametrize("case", TAMPERINGS, ids=list(TAMPERINGS))
def test_cli_audit_of_a_tampered_file_exits_1_naming_the_first_bad_event(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tamper, _ = TAMPERINGS[case]
    header, events, version = tamper(demo_log())
    code, out, err = audited_file(tmp_path, capsys, header, events)
    assert (code, err) == (1, "")
    assert f"first bad event: {version} (integrity)" in out


def test_two_swapped_events_are_called_out_of_order_not_missing() -> None:
    header, events, _ = _swapped(demo_log())
    report = audit("g", events, header)
    assert report.first is not None and "missing" not in report.first.message
    assert "order" in report.first.message


# --- unreadable files: exit 2, one line on stderr -------------------------------------------------------


def _cut_inside_event(tmp_path: Path, version: int) -> Path:
    log = demo_log()
    whole = write_raw(tmp_path / "whole.mtg", header_of(log), log).read_bytes()
    before = write_raw(tmp_path / "head.mtg", header_of(log), log[: version - 1]).stat().st_size
    cut = tmp_path / "cut.mtg"
    cut.write_bytes(whole[: before + 7])  # seven bytes into event ``version``'s msgpack map
    return cut


def test_a_file_that_is_not_a_log_is_unreadable_with_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.mtg"
    junk.write_bytes(b"\xc1 this is not msgpack")
    code, out, err = run(capsys, "audit", str(junk), "--db", str(tmp_path / "s.sqlite"))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and err.startswith("mtg-ledger:")


def test_a_file_cut_in_the_middle_of_an_event_is_unreadable_and_the_audit_says_where_it_was_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = _cut_inside_event(tmp_path, 500)
    with pytest.raises(logfile.UnreadableLog):
        logfile.read(cut)
    code, out, err = run(capsys, "audit", str(cut), "--db", str(tmp_path / "s.sqlite"))
    assert (code, err) == (1, "")
    assert f"of the log file {cut} cannot be read: the file was cut" in out


# --- a whole log re-hashed: caught by the rules ---------------------------------------------------------


def _combat_priority_with_card_in_hand(log: list[Event], card: str) -> tuple[int, str, int]:
    """The first PriorityPassed, in a combat step, by a player holding ``card``: (version, player, next object)."""
    state = GameState()
    for e in log:
        if e["type"] == "PriorityPassed" and state.step in COMBAT_STEPS and card in state.players[e["player"]].hand:
            return e["v"], e["player"], state.next_object
        apply_event(state, e)
    raise AssertionError(f"nobody passes priority in combat holding {card}")


def _paid_for(log: list[Event], cast: Event) -> list[Event]:
    """The mana abilities logged right before a cast, to pay for it (601.2g)."""
    i = cast["v"] - 1
    while log[i - 1]["type"] == "ManaAbilityActivated":
        i -= 1
    return log[i : cast["v"] - 1]


@pytest.mark.parametrize(
    ("card", "rule", "with_mana"),
    [("Divination", "307.1", False), ("Hill Giant", "505.6a", False), ("Hill Giant", "505.6a", True)],
    ids=["sorcery", "creature", "creature with its mana abilities"],
)
def test_a_sorcery_speed_spell_forged_into_combat_is_an_illegal_decision_at_that_event(
    card: str, rule: str, with_mana: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = demo_log()
    passed, player, obj = _combat_priority_with_card_in_hand(log, card)
    template = first(log, "SpellCast", card=card)  # a cast the game really logged, moved into combat
    mana = _paid_for(log, template) if with_mana else []
    forged = {**template, "player": player, "object": obj}
    if not with_mana:
        forged.update(mana_spent={}, paid_with=[])
    events = rehash([*log[: passed - 1], *mana, forged, *log[passed:]])
    version = passed + len(mana)  # the SpellCast, after the mana abilities activated for it
    assert events[version - 1]["type"] == "SpellCast" and (not with_mana or len(mana) == 4)
    header = header_of(events)
    assert logfile.integrity(events, header) == []  # the forger re-hashed the whole chain

    report = audit("g", events, header)
    assert report.first is not None
    assert (report.first.version, report.first.kind, report.first.rule) == (version, "legality", rule)
    assert report.first.recorded is not None and report.first.recorded["card"] == card
    assert {"player": player, "action": "pass"} in report.first.allowed  # what the rules allowed there, as a scenario action

    code, out, _ = audited_file(tmp_path, capsys, header, events)
    assert code == 1 and first_bad(out) == version
    assert rule in out and card in out
    assert f'{player}: pass priority — {{"player": "{player}", "action": "pass"}}' in out  # never a Python repr


def test_a_priority_pass_by_a_player_without_priority_rehashed_is_illegal_under_117_3d(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = demo_log()
    passed = first(log, "PriorityPassed", after=300)
    other = "alice" if passed["player"] == "bob" else "bob"
    events = rehash(edited(log, passed["v"], player=other))
    report = audit("g", events, header_of(events))
    assert report.first is not None
    assert (report.first.version, report.first.kind, report.first.rule) == (passed["v"], "legality", "117.3d")
    code, out, _ = audited_file(tmp_path, capsys, header_of(events), events)
    assert code == 1 and first_bad(out) == passed["v"] and "117.3d" in out


def test_a_derived_event_rewritten_and_rehashed_diverges_there_showing_both_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = demo_log()
    bolt = first(log, "DamageDealt", card="Lightning Bolt")
    assert bolt["amount"] == 3
    events = rehash(edited(log, bolt["v"], amount=5))
    report = audit("g", events, header_of(events))
    found = report.first
    assert found is not None and (found.version, found.kind) == (bolt["v"], "divergence")
    assert found.recorded is not None and found.derived is not None
    assert (found.recorded["amount"], found.derived["amount"]) == (5, 3)
    assert "amount" in found.message

    code, out, _ = audited_file(tmp_path, capsys, header_of(events), events)
    recorded = next(x for x in out.splitlines() if x.strip().startswith("recorded:"))
    derived = next(x for x in out.splitlines() if x.strip().startswith("derived:"))
    assert code == 1 and first_bad(out) == bolt["v"]
    assert "amount=5" in recorded and "amount=3" in derived


def test_the_french_report_names_the_first_bad_event_and_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    version, player, obj = _combat_priority_with_card_in_hand(log, "Divination")
    forged = {**first(log, "SpellCast", card="Divination"), "v": version, "player": player, "object": obj, "paid_with": []}
    events = rehash([*log[: version - 1], forged, *log[version:]])
    code, out, _ = audited_file(tmp_path, capsys, header_of(events), events, "--lang", "fr")
    assert code == 1
    assert f"premier événement fautif : {version} (décision illégale)" in out
    assert "règle" in out and "307.1" in out


# --- clean logs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "word"), [("en", "clean: "), ("fr", "conforme : ")])
def test_a_clean_game_audits_clean_from_the_store_and_from_its_file(
    lang: str, word: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite"
    game = demo_game(capsys, db)
    code, out, err = run(capsys, "audit", game, "--db", str(db), "--lang", lang)
    assert (code, err) == (0, "") and word in out and first_bad(out) is None
    path = tmp_path / "game.mtg"
    assert run(capsys, "export", game, "-o", str(path), "--db", str(db))[0] == 0
    code, out, err = run(capsys, "audit", str(path), "--db", str(db), "--lang", lang)
    assert (code, err) == (0, "") and word in out


def test_audit_json_parses_with_the_first_bad_event_and_the_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    events = rehash(edited(log, first(log, "DamageDealt", card="Lightning Bolt")["v"], amount=5))
    code, out, _ = audited_file(tmp_path, capsys, header_of(events), events, "--json")
    report = json.loads(out)
    bolt = first(log, "DamageDealt", card="Lightning Bolt")["v"]
    assert code == 1 and report["first"] == bolt and report["clean"] is False
    assert report["findings"][0]["version"] == bolt and report["findings"][0]["kind"] == "divergence"

    write_raw(tmp_path / "clean.mtg", header_of(log), log)
    code, out, _ = run(capsys, "audit", str(tmp_path / "clean.mtg"), "--db", str(tmp_path / "s.sqlite"), "--json", "--lang", "fr")
    report = json.loads(out)
    assert code == 0 and report["first"] is None and report["findings"] == [] and report["events"] == len(log)


def test_a_stacked_library_audits_clean_but_with_a_notice_for_the_judge() -> None:
    """701.20: shuffle results are recorded, so a replay survives a new generator; a result the seed
    does not give is not a breach of the rules, but the judge is told (the library may be stacked)."""
    from mtg_ledger.core.hashing import GENESIS_HASH, chain
    from mtg_ledger.core.table import LocalTable

    from mtg_ledger.replays.demo.decks import demo_setup

    setup = demo_setup(3)
    honest = LocalTable.start(setup)
    shuffled = next(e for e in honest.events if e["type"] == "LibraryShuffled")
    stacked = LocalTable.start(setup, {("library", shuffled["player"]): sorted(shuffled["order"])})
    events, previous = [], GENESIS_HASH
    for e in stacked.events:
        assert e["hash"] == chain(previous, e)
        previous = e["hash"]
        events.append(e)
    report = audit("g", events)
    assert report.clean
    assert report.notices and "order is not what seed 3 gives" in say(report.notices[0].id, report.notices[0].params)
    assert audit("g", honest.events).notices == []
