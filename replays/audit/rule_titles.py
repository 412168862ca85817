"""The title of every Comprehensive Rules number the engine cites, in English and in French.

An audit report names "the rule number with its title": ``describe("508.1a", "fr")`` gives
"508.1a — Étape de déclaration des attaquants : quelles créatures peuvent attaquer".

The titles are data, in ``rule_titles.toml`` beside this module, read once, the first time a title
is asked for. A numbered section (``"508"``) has its official title. A subrule has its section's
title followed by a short summary of what that subrule says, one a judge can read aloud. Numbers
follow the edition the engine plays by (core.versions.RULES_EDITION, 2025-11-14); the French follows
the vocabulary of the official French rules (phase principale d'avant combat, action obligatoire du
tour, mettre à exécution, blessures, marqueur, ...).

A number the table doesn't know falls back to its nearest parent (``"508.1z"`` -> ``"508.1"`` ->
``"508"``), and finally to "". tests/unit/test_rule_titles.py checks that every rule number written as a
string in core/ and replays/ has an entry of its own.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources

LANGS = ("en", "fr")
_SUBRULE = re.compile(r"^(\d{3}\.\d+)[a-z]$")
_RULE = re.compile(r"^(\d{3})\.\d+$")


@cache
def titles() -> dict[str, tuple[str, str]]:
    """Rule number -> (English title, French title), sections and subrules alike."""
    data = tomllib.loads(resources.files("mtg_ledger.replays.audit").joinpath("rule_titles.toml").read_text(encoding="utf-8"))
    sections: dict[str, tuple[str, str]] = {rule: (t["en"], t["fr"]) for rule, t in data["sections"].items()}
    out = dict(sections)
    for rule, summary in data["summaries"].items():
        sec_en, sec_fr = sections[rule.split(".", 1)[0]]
        out[rule] = (f"{sec_en}: {summary['en']}", f"{sec_fr} : {summary['fr']}")
    return out


def parent(rule: str) -> str | None:
    """The rule one level up: "508.1a" -> "508.1" -> "508" -> None."""
    for pattern in (_SUBRULE, _RULE):
        m = pattern.match(rule)
        if m:
            return m.group(1)
    return None


def title(rule: str, lang: str = "en") -> str:
    """The title of ``rule`` in ``lang`` ("en" or "fr"); for a number the table doesn't have, that of
    its nearest parent; "" when none is known."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGS)}")
    index = LANGS.index(lang)
    known = titles()
    current: str | None = rule.strip().rstrip(".")
    while current is not None:
        if current in known:
            return known[current][index]
        current = parent(current)
    return ""


def describe(rule: str, lang: str = "en") -> str:
    """The rule number with its title, as an audit report prints it: "508.1a — Declare Attackers
    Step: which creatures can attack"; the number alone when no title is known."""
    text = title(rule, lang)
    number = rule.strip().rstrip(".")
    return f"{number} — {text}" if text else number
