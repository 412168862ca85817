"""Messages by id, in English and in French: ``say(message_id, params, lang)``. A room of its own, which
imports nothing of the others: the log file's checks, the audit and the service all say their findings here.

A finding, like a rules error, carries a message id and its params, never a sentence to be parsed.
The texts are catalogues, TOML files beside this module (tomllib reads them; no
dependency, and a translator edits a plain table of id = "template"), read once each, the first time
a message is said in that language. English is ``en.toml`` (the log checks and the replay)
together with core's ``ENGLISH`` (the rules' own messages, ids "rules.*", kept in core so that core
reads no file); ``fr.toml`` has the French of both, hole for hole.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from mtg_ledger.core.errors import ENGLISH, Phrase, render

LANGS = ("en", "fr")
__all__ = ["LANGS", "Phrase", "catalogue", "holes", "say"]


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Message id -> template in ``lang``."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGS)}")
    text = resources.files("mtg_ledger.replays.messages").joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    templates = {f"{section}.{name}": template for section, table in tomllib.loads(text).items() for name, template in table.items()}
    return {**ENGLISH, **templates} if lang == "en" else templates


def say(message_id: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message ``message_id`` in ``lang``, its holes filled with ``params`` (each ``Phrase`` said in turn)."""
    return render(catalogue(lang), message_id, params)


def holes(template: str) -> set[str]:
    """The names of a template's holes: "{player} has {n!r:>3}" -> {"player", "n"}."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
