"""Card files written from definitions (docs/cards.md): the pool's layout, the printed facts, the Oracle
text, then ``[spell]`` and ``[[abilities]]`` with effects as inline tables."""

from __future__ import annotations

import json
import re
from typing import Any

Definition = dict[str, Any]



def file_name(name: str) -> str:
    """A card's file name in the pool: ``Teferi's Imp`` -> ``teferi_s_imp.toml``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") + ".toml"


def card_toml(definition: Definition) -> str:
    """The card file of a definition, in the pool's layout: the printed facts, the Oracle text, then
    ``[spell]``, ``[[abilities]]`` (effects as inline tables), then a back face's ``[back]`` the same way."""
    out = _tables(definition, "")
    if "back" in definition:
        out += ["", "[back]", *_tables(definition["back"], "back.")]
    return "\n".join(out) + "\n"


def _tables(definition: Definition, prefix: str) -> list[str]:
    out: list[str] = []
    tables = ("spell", "abilities", "back")
    for key, value in definition.items():
        if key not in tables:
            out.append(f"{key} = {_value(value, multiline=key == 'oracle')}")
    if "spell" in definition:
        out += ["", f"[{prefix}spell]", *(f"{k} = {_value(v)}" for k, v in definition["spell"].items())]
    for ability in definition.get("abilities", []):
        out += ["", f"[[{prefix}abilities]]", *(f"{k} = {_value(v)}" for k, v in ability.items())]
    return out


def _value(value: Any, multiline: bool = False) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if multiline and "\n" in value and '"""' not in value and "\\" not in value:
            return '"""\n' + value + '"""'
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")
