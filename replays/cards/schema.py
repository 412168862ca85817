"""The JSON Schema of a card definition (docs/cards.md), derived from the vocabulary's tables
(``core.vocabulary``): a kind added to a table is in the schema with its fields. It is published as
``card.schema.json`` beside the pool (tests/unit/test_card_data.py keeps the file equal to this and
checks every card file against it). The schema says the shape; the vocabulary says the rest (a mana
cost's symbols, a name defined once).
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any

from mtg_ledger.core import effects as fx
from mtg_ledger.core.vocabulary import (
    ABILITY_KINDS,
    CARD_FIELDS,
    COLORS,
    EFFECT_KINDS,
    ENCHANT,
    FIELD_VALUES,
    KEYWORDS,
    SPELL_FIELDS,
    TARGETS,
    kind_fields,
)

SCHEMA_ID = "https://mtg-ledger.example/schemas/card.schema.json"
_BACK_LEFT_OUT = ("back", "token", "color_identity")  # a back face has none of these (712)


def card_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one card file."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "mtg-ledger card definition",
        "description": "One card of the pool, as its TOML file holds it and GameStarted.cards records it (docs/cards.md).",
        **_face(top=True),
        "$defs": {
            "face": _face(top=False),
            "effect": {"oneOf": [_kind("effect", name, cls) for name, cls in EFFECT_KINDS.items()]},
            "ability": {"oneOf": [_kind("ability", name, cls) for name, cls in ABILITY_KINDS.items()]},
        },
    }


def _face(top: bool) -> dict[str, Any]:
    properties = {key: _card_field(kind) for key, (kind, _) in CARD_FIELDS.items() if top or key not in _BACK_LEFT_OUT}
    required = [key for key, (_, needed) in CARD_FIELDS.items() if needed]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _card_field(kind: str) -> dict[str, Any]:
    strings = {"type": "array", "items": {"type": "string"}}
    shapes: dict[str, dict[str, Any]] = {
        "text": {"type": "string"},
        "int": {"type": "integer"},
        "bool": {"type": "boolean"},
        "mana": {"type": "string", "pattern": r"^(\{([0-9]+|[WUBRG])\})*$"},
        "texts": strings,
        "colors": {"type": "array", "items": {"enum": list(COLORS)}},
        "keywords": {"type": "array", "items": {"enum": list(KEYWORDS)}},
        "enchant": {"enum": list(ENCHANT)},
        "spell": {
            "type": "object",
            "properties": {
                SPELL_FIELDS[0]: {"enum": list(TARGETS)},
                SPELL_FIELDS[1]: {"type": "array", "items": {"$ref": "#/$defs/effect"}},
                SPELL_FIELDS[2]: {"type": "array", "items": {"enum": list(TARGETS)}, "minItems": 2},
            },
            "additionalProperties": False,
        },
        "abilities": {"type": "array", "items": {"$ref": "#/$defs/ability"}},
        "face": {"$ref": "#/$defs/face"},
    }
    return shapes[kind]


def _kind(tag: str, name: str, cls: type) -> dict[str, Any]:
    fields = kind_fields(cls)
    return {
        "title": name,
        "description": (cls.__doc__ or "").strip().splitlines()[0],
        "type": "object",
        "properties": {tag: {"const": name}, **{f: _field(cls, f, hint) for f, (hint, _) in fields.items()}},
        "required": [tag, *(f for f, (_, required) in fields.items() if required)],
        "additionalProperties": False,
    }


def _field(cls: type, name: str, hint: Any) -> dict[str, Any]:
    allowed = FIELD_VALUES.get((cls, name))
    if allowed is None:
        return _annotated(hint)
    if typing.get_origin(hint) is tuple or typing.get_origin(_optional(hint)) is tuple:  # each item one of them
        return {"type": "array", "items": {"enum": list(allowed)}}
    return {"enum": list(allowed)}


def _optional(hint: Any) -> Any:
    """``X | None`` -> ``X``; any other hint as it is."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return inner
    return hint


def _annotated(hint: Any) -> dict[str, Any]:
    simple = {int: "integer", str: "string", bool: "boolean"}
    if hint in simple:
        return {"type": simple[hint]}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return _annotated(inner)
    if origin is tuple and args[0] is str:
        return {"type": "array", "items": {"type": "string"}}
    if origin is tuple and args[0] == fx.Effect:
        return {"type": "array", "items": {"$ref": "#/$defs/effect"}}
    raise TypeError(f"no JSON Schema for a field annotated {hint!r}")


def schema_text() -> str:
    """The published file's text."""
    return json.dumps(card_schema(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # regenerate the published file: python -m mtg_ledger.replays.cards.schema > replays/cards/card.schema.json
    print(schema_text(), end="")
