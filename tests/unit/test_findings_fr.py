"""`audit --lang fr` writes the whole finding in French: the sentence saying what is wrong, what the
rules allowed there and the rule's title, not only the title. Every message id has its English and its
French, hole for hole, and every id the code says is in both catalogues; a sentence still written in
English (the old path) has its French by pattern."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState
from mtg_ledger.core.errors import ENGLISH as RULES_ENGLISH, Phrase
from mtg_ledger.replays.messages import catalogue, holes, say
from mtg_ledger.replays.audit.french import french, known
from tests.log_tools import Event, demo_log, edited, first, header_of, rehash, run, write_raw

pytestmark = pytest.mark.usefixtures("cli_env")

ROOT = Path(__file__).parents[2]
ERRORS = {"RulesError", "IllegalAction", "NotYourPriority", "WrongTiming", "CannotPay", "IllegalTarget", "UnknownCard", "GameOver"}
RULE = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
ID = re.compile(r"^(rules|log|read|replay|snapshot|word|finding)\.\w+$")  # a message id
ENGLISH = re.compile(r"\b(the|is|not|cannot|only|must|has|was|its|and|but|where|event)\b")


def _sample(node: ast.expr) -> str | None:
    """An English message as the code would write it, each hole filled with a sample value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "Grizzly Bears" for v in node.values)
    return None


def messages_in_the_code() -> list[tuple[str, str]]:
    """(where, sample message) for every rules error raised in core/ and every finding written in replays/."""
    found = []
    sources = [*sorted((ROOT / "core").glob("*.py")), *(ROOT / "replays" / f for f in ("logfile/__init__.py", "audit/replay.py", "audit/__init__.py"))]
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            message: ast.expr | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2:
                if node.func.id in ERRORS:
                    message = node.args[1]
                elif node.func.id == "Finding" and len(node.args) >= 3:
                    message = node.args[2]
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant):
                if isinstance(node.elts[0].value, str) and RULE.match(node.elts[0].value):  # (rule, message), as block_restriction says
                    message = node.elts[1]
            elif isinstance(node, ast.IfExp):  # "the header" if ... else f"event {v}" (a finding's place)
                for branch in (node.body, node.orelse):
                    text = _sample(branch)
                    if text and (text.startswith("the ") or "the rules derive" in text):
                        found.append((f"{path.name}:{node.lineno}", text))
            text = _sample(message) if message is not None else None
            if text is not None and not ID.match(text):  # a message id is said from the catalogues
                found.append((f"{path.name}:{getattr(node, 'lineno', 0)}", text))
    return found


def test_every_sentence_still_written_in_english_has_its_french_by_pattern() -> None:
    messages = messages_in_the_code()
    assert messages, "every message has an id: remove replays.audit.french's patterns and this test"
    missing = [f"{where}: {text}" for where, text in messages if not known(text)]
    assert missing == []


def test_every_message_id_has_its_english_and_its_french_with_the_same_holes() -> None:
    english, french_ones = catalogue("en"), catalogue("fr")
    assert sorted(english) == sorted(french_ones)
    assert [i for i, template in english.items() if holes(template) != holes(french_ones[i])] == []
    assert not any(i.startswith("rules.") for i in catalogue("en").keys() - RULES_ENGLISH.keys()), "the rules' English is core's"


def ids_in_the_code() -> list[tuple[str, str]]:
    """(where, message id) for every string in core/ and replays/ shaped like a message id, and the
    prefix of every f-string that builds one (f"word.{zone}")."""
    found = []
    for path in [*sorted((ROOT / "core").rglob("*.py")), *sorted((ROOT / "replays").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ID.match(node.value):
                found.append((f"{path.name}:{node.lineno}", node.value))
    return found


def test_every_message_id_the_code_says_is_in_both_catalogues() -> None:
    used = ids_in_the_code()
    assert len(used) > 20
    assert [f"{where}: {i}" for where, i in used if i not in catalogue("en") or i not in catalogue("fr")] == []


def test_a_message_is_said_from_its_id_and_params_in_either_language() -> None:
    params = {"v": 12, "again": Phrase("word.duplicated")}
    assert say("log.event_again", params) == "event 12 appears again here: an event duplicated"
    assert say("log.event_again", params, "fr") == "l'événement 12 apparaît de nouveau ici : un événement dupliqué"
    with pytest.raises(ValueError):
        say("log.event_again", params, "de")


def test_a_message_without_a_translation_is_marked_rather_than_passed_off_as_french() -> None:
    assert french("a brand new sentence") == "a brand new sentence (en anglais)"
    assert french("alice has already played a land this turn (rule 305.2)") == "alice a déjà joué un terrain ce tour-ci (règle 305.2)"


def _report_lines(out: str) -> list[str]:
    """The report's sentences: without the recorded and derived events, which are data."""
    return [x for x in out.splitlines() if not x.strip().startswith(("enregistré", "produit"))]


def _forged_divination(log: list[Event]) -> list[Event]:
    """Divination (a sorcery) moved into a combat step, the whole chain re-hashed by the forger."""
    state = GameState()
    for e in log:
        if e["type"] == "PriorityPassed" and state.step == "declare_attackers" and "Divination" in state.players[e["player"]].hand:
            forged = {**first(log, "SpellCast", card="Divination"), "v": e["v"], "player": e["player"], "object": state.next_object,
                      "mana_spent": {}, "paid_with": []}
            return rehash([*log[: e["v"] - 1], forged, *log[e["v"]:]])
        apply_event(state, e)
    raise AssertionError("nobody holds Divination in a declare attackers step")


@pytest.mark.parametrize("case", ["altered", "illegal", "divergent"])
def test_the_french_report_writes_the_whole_finding_in_french(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    if case == "altered":
        events = edited(log, first(log, "CardDrawn", after=100)["v"], card="Serra Angel")
    elif case == "illegal":
        events = _forged_divination(log)
    else:
        events = rehash(edited(log, first(log, "DamageDealt", card="Lightning Bolt")["v"], amount=5))
    path = write_raw(tmp_path / "log.mtgl", header_of(events), events)
    code, out, _ = run(capsys, "audit", str(path), "--lang", "fr")
    assert code == 1 and "premier événement fautif" in out
    lines = _report_lines(out)
    assert not [x for x in lines[1:] if ENGLISH.search(x.split("—")[0])], out  # every sentence but the game id line
    assert "(en anglais)" not in out
    if case == "illegal":
        assert "Divination (rituel) peut être lancé seulement pendant une phase principale" in out
        assert "ce que les règles permettaient à ce moment :" in out and " : passer la priorité" in out
    code, out, _ = run(capsys, "audit", str(path), "--lang", "fr", "--json")
    finding = json.loads(out)["findings"][0]
    assert code == 1 and not ENGLISH.search(finding["message"]) and "(en anglais)" not in finding["message"]
