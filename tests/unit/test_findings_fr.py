"""`audit --lang fr` writes the whole finding in French: the sentence saying what is wrong, what the
rules allowed there and the rule's title, not only the title. Every message id has its English and its
French, hole for hole, every id the code says is in both catalogues, and every rules error names its
message id (its holes may be phrases, said in turn), never an English sentence."""

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
from tests.log_tools import Event, demo_log, edited, first, header_of, rehash, run, write_raw

pytestmark = pytest.mark.usefixtures("cli_env")

ROOT = Path(__file__).parents[2]
ERRORS = {"RulesError", "IllegalAction", "NotYourPriority", "WrongTiming", "CannotPay", "IllegalTarget", "UnknownCard", "GameOver"}
RULE = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
ID = re.compile(r"^(rules|log|read|replay|snapshot|word|finding|schema|store|report)\.\w+$")  # a message id
ENGLISH = re.compile(r"\b(the|is|not|cannot|only|must|has|was|its|and|but|where|event)\b")


def test_every_message_id_has_its_english_and_its_french_with_the_same_holes() -> None:
    english, french_ones = catalogue("en"), catalogue("fr")
    assert sorted(english) == sorted(french_ones)
    assert [i for i, template in english.items() if holes(template) != holes(french_ones[i])] == []
    assert not any(i.startswith("rules.") for i in catalogue("en").keys() - RULES_ENGLISH.keys()), "the rules' English is core's"


def test_every_rules_error_raised_in_core_names_a_message_id_not_a_sentence() -> None:
    raised = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS and len(node.args) >= 2:
                code = node.args[1]
                said_as = code.value if isinstance(code, ast.Constant) else ast.unparse(code)
                raised.append((f"{path.name}:{node.lineno}", said_as, isinstance(code, ast.Constant) and isinstance(code.value, str) and bool(ID.match(code.value))))
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant):
                if isinstance(node.elts[0].value, str) and RULE.match(node.elts[0].value) and isinstance(node.elts[1], ast.JoinedStr):
                    raised.append((f"{path.name}:{node.lineno}", ast.unparse(node.elts[1]), False))  # (rule, sentence), as block_restriction said
    assert len(raised) > 40
    assert [f"{where}: {text}" for where, text, by_id in raised if not by_id and text != "phrase.id"] == []


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


def test_every_finding_and_refusal_is_made_from_a_message_id_not_a_sentence() -> None:
    """A finding is ``Finding.of(version, kind, message_id, params)``; the errors a finding or a refusal is
    made from (a log that cannot be read, damaged rows, a snapshot turned away, a schema the engine cannot
    read) carry a message too: none of them is handed an English sentence built in code."""
    made = []
    carriers = {"Finding", "UnreadableLog", "UnreadableRow", "BrokenChain", "StoreDamage", "BadSnapshot", "SchemaError"}
    for path in sorted((ROOT / "replays").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in carriers and any(isinstance(a, (ast.JoinedStr, ast.Constant)) and isinstance(getattr(a, "value", ""), str) for a in node.args):
                    made.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert made == []


def test_a_refused_decision_is_said_in_french_with_its_rule_and_its_phrases() -> None:
    params = {"message": Phrase("rules.player_has_already_played_land_this_turn", {"player": "alice"}), "rule": "305.2"}
    assert say("finding.with_rule", params, "fr") == "alice a déjà joué un terrain ce tour-ci (règle 305.2)"
    what = Phrase("rules.what_card_kind_can_be_cast", {"card": "Divination", "kind": Phrase("rules.kind_sorcery")})
    step = Phrase("rules.step_declare_attackers")
    assert say("rules.what_only_in_main_phase", {"what": what, "step": step}) == (
        "Divination (sorcery) can be cast only in a main phase, not in the declare attackers step"
    )
    assert say("rules.what_only_in_main_phase", {"what": what, "step": step}, "fr") == (
        "Divination (rituel) peut être lancé seulement pendant une phase principale, pas pendant l'étape de déclaration des attaquants"
    )


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


@pytest.mark.parametrize("case", ["altered", "illegal", "divergent", "nonconforming"])
def test_the_french_report_writes_the_whole_finding_in_french(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = demo_log()
    if case == "altered":
        events = edited(log, first(log, "CardDrawn", after=100)["v"], card="Serra Angel")
    elif case == "illegal":
        events = _forged_divination(log)
    elif case == "divergent":
        events = rehash(edited(log, first(log, "DamageDealt", card="Lightning Bolt")["v"], amount=5))
    else:  # a field of the wrong type (the schema's check), the chain re-hashed
        events = rehash(edited(log, first(log, "DamageDealt", card="Lightning Bolt")["v"], amount="five"))
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
