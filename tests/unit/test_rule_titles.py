"""Rule titles (replays.audit.rule_titles, read from rule_titles.toml): every rule number the engine
writes as a string has its title in English and in French, and an unknown subrule falls back to its parent."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mtg_ledger.replays.audit.rule_titles import describe, parent, title, titles

ROOT = Path(__file__).resolve().parents[2]
WHOLE = re.compile(r"\d{3}(\.\d+[a-z]?)?")  # a string that is a rule number: "508", "508.1", "508.1a"
# a rule number inside a message, "(rule 904.2)", but not a part of "127.0.0.1" or "1.508.1"
INSIDE = re.compile(r"(?<![\w.])[1-9]\d{2}\.\d+[a-z]?(?!\w|\.\d)")


def _documentation(tree: ast.AST) -> set[int]:
    """The string statements (docstrings and the like): they are comments, not what users see."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def cited_rules() -> dict[str, list[str]]:
    """Rule number -> where it is written, for every string literal in core/ and replays/ (f-strings'
    constant parts included) that is a rule number or cites one, and every message template of the
    audit's catalogues that cites one."""
    found: dict[str, list[str]] = {}
    for folder in ("core", "replays"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "rule_titles.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = _documentation(tree)
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
                    continue
                text = node.value
                numbers = [text] if WHOLE.fullmatch(text) else INSIDE.findall(text)
                for number in numbers:
                    found.setdefault(number, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    for path in sorted((ROOT / "replays" / "messages").glob("*.toml")):  # the messages' catalogues
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.startswith("#"):
                for number in INSIDE.findall(line.partition("=")[2]):
                    found.setdefault(number, []).append(f"{path.relative_to(ROOT)}:{lineno}")
    return found


def test_the_scan_finds_the_rules_the_engine_cites():
    cited = cited_rules()
    for rule in ("117.3d", "508.1a", "704.5g", "103.8a", "508", "904.2"):
        assert rule in cited, rule


def test_every_rule_the_engine_cites_has_an_english_and_a_french_title():
    missing = {rule: where for rule, where in cited_rules().items() if rule not in titles()}
    assert not missing, f"rules cited without an entry in replays/audit/rule_titles.toml: {missing}"
    for rule in cited_rules():
        en, fr = titles()[rule]
        assert en.strip() and fr.strip(), rule


def test_every_entry_is_a_rule_number_with_both_titles_and_its_section():
    for rule, (en, fr) in titles().items():
        assert WHOLE.fullmatch(rule), rule
        assert en.strip() and fr.strip(), rule
        assert rule.split(".")[0] in titles(), f"{rule} has no section title"


def test_a_subrule_title_begins_with_its_section_title():
    for rule in titles():
        if "." in rule:
            section = rule.split(".")[0]
            assert title(rule).startswith(f"{title(section)}: "), rule
            assert title(rule, "fr").startswith(f"{title(section, 'fr')} : "), rule


def test_passing_priority_117_3d_in_both_languages():
    assert title("117.3d") == "Timing and Priority: a player who passes gives priority to the next player"
    assert title("117.3d", "fr") == "Timing et priorité : un joueur qui passe donne la priorité au joueur suivant"


def test_which_creatures_can_attack_508_1a_in_both_languages():
    assert describe("508.1a") == "508.1a — Declare Attackers Step: which creatures can attack"
    assert describe("508.1a", "fr") == "508.1a — Étape de déclaration des attaquants : quelles créatures peuvent attaquer"


def test_another_cleanup_step_514_3a_in_both_languages():
    assert title("514.3a").startswith("Cleanup Step: ")
    assert "another cleanup step" in title("514.3a")
    assert title("514.3a", "fr").startswith("Étape de nettoyage : ")
    assert "nouvelle étape de nettoyage" in title("514.3a", "fr")


def test_section_titles_in_both_languages():
    assert titles()["117"] == ("Timing and Priority", "Timing et priorité")
    assert titles()["508"] == ("Declare Attackers Step", "Étape de déclaration des attaquants")
    assert titles()["704"] == ("State-Based Actions", "Actions basées sur un état")
    assert titles()["601"] == ("Casting Spells", "Lancer des sorts")
    assert titles()["805"] == ("Shared Team Turns Option", "Option des tours de jeu partagés")
    assert titles()["904"] == ("Archenemy", "Archenemy")


def test_an_unknown_subrule_falls_back_to_its_parent_then_its_section():
    assert parent("508.1z") == "508.1" and parent("508.1") == "508" and parent("508") is None
    assert "508.1z" not in titles()
    assert title("508.1z") == title("508.1") == titles()["508.1"][0]
    assert title("508.1z", "fr") == titles()["508.1"][1]
    assert "508.77" not in titles() and title("508.77") == "Declare Attackers Step"
    assert title("702.145q", "fr") == title("702.145", "fr")
    assert describe("508.1z").startswith("508.1z — Declare Attackers Step: ")


def test_a_number_outside_every_known_section_has_no_title():
    assert title("999.9z") == "" and title("999") == "" and title("not a rule") == ""
    assert describe("999.9z") == "999.9z"


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError):
        title("117.3d", "de")
