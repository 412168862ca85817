"""``mtg-ledger cards``: the card pool, searched by name (docs/cards.md, docs/reference/cli.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mtg_ledger.replays.cards import card_json, live_pool
from mtg_ledger.replays.cli.verbs import emit
from mtg_ledger.replays.messages import say


def cmd_cards(store: Any, args: argparse.Namespace) -> int:
    """Every card, or those whose name contains QUERY (the one named QUERY first); one card's whole text.
    Exit 1 when no card matches (the nearest names on stderr), as grep does."""
    pool = live_pool()
    found = pool.search(args.query)
    if not found:
        near = pool.nearest(args.query)
        print(say("card.none_match", {"query": args.query, "nearest": ", ".join(near) or "-"}), file=sys.stderr)
        return 1
    if args.json:
        emit([card_json(pool.definitions[name]) for name in found])
        return 0
    exact = bool(args.query) and found[0].casefold() == args.query.casefold()
    if exact or len(found) == 1:
        print("\n".join(card_text(pool.definitions[found[0]])))
    else:
        for name in found:
            d = pool.definitions[name]
            print(f"{name:<34} {d.get('mana_cost', ''):<12} {type_line(d)}")
    return 0


def type_line(definition: dict[str, Any]) -> str:
    """205.1: supertypes and card types, then a dash and the subtypes."""
    left = " ".join([*definition.get("supertypes", []), *definition["types"]])
    subtypes = definition.get("subtypes", [])
    return f"{left} \u2014 {' '.join(subtypes)}" if subtypes else left


def card_text(definition: dict[str, Any]) -> list[str]:
    """A card as a player reads it, then its abilities as the engine reads them."""
    lines = [f"{definition['name']}  {definition.get('mana_cost', '')}".rstrip(), type_line(definition)]
    if definition.get("oracle"):
        lines.extend(definition["oracle"].splitlines())
    if "power" in definition:
        lines.append(f"{definition['power']}/{definition['toughness']}")
    for printed in ("loyalty", "defense"):
        if printed in definition:
            lines.append(f"{printed} {definition[printed]}")
    parsed = _parsed(definition)
    if parsed:
        lines.extend(["", *parsed])
    if "back" in definition:
        lines.extend(["", "//", *card_text(definition["back"])])
    return lines


def _parsed(definition: dict[str, Any]) -> list[str]:
    out = [f"keyword {k}" for k in definition.get("keywords", [])]
    spell = definition.get("spell")
    if spell is not None:
        aims = (f" target={spell['target']}" if "target" in spell else "") + (f" targets={','.join(spell['targets'])}" if "targets" in spell else "")
        out.append("spell" + aims)
        out.extend(f"  {_fields(e, 'effect')}" for e in spell.get("effects", []))
    for ability in definition.get("abilities", []):
        effects = ability.get("effects", [])
        out.append(_fields({k: v for k, v in ability.items() if k != "effects"}, "ability"))
        out.extend(f"  {_fields(e, 'effect')}" for e in effects)
    return out


def _fields(entry: dict[str, Any], tag: str) -> str:
    rest = " ".join(f"{k}={v!r}" if isinstance(v, str) and " " in v else f"{k}={v}" for k, v in entry.items() if k != tag)
    return f"{entry[tag]} {rest}".rstrip()


__all__ = ["card_text", "cmd_cards", "type_line"]
