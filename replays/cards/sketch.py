"""Card sketches turned into card files of the pool (docs/cards.md, "Adding cards from sketches").

A sketch is one card as a JSON object: its printed facts (``name``, ``mana_cost``, ``colors``,
``supertypes``, ``types``, ``subtypes``, ``power``, ``toughness``, ``loyalty``, ``defense``), its Oracle
text (``oracle``) and its abilities in a small descriptive form (``{"kind": "keyword", "name":
"flying"}``, ``{"kind": "spell", "effects": [{"do": "damage", "amount": 3, "target": "any"}]}``, ...).
``convert`` maps those abilities onto the engine's vocabulary (``core.vocabulary``) and gives the card's
definition, with the definitions of the tokens it creates; a sketch naming anything the engine does not
interpret exactly is ``Unsupported``, naming the ability kind it lacks, and stays out of the pool. The
Oracle text is copied as it stands, never edited.

    python -m mtg_ledger.replays.cards.sketch cards.jsonl --pool replays/cards/pool

writes a card file for each card the engine interprets fully that the pool lacks (and each token it
creates), and prints every card left out with the reason.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from mtg_ledger.core.vocabulary import KEYWORDS, compile_card
from mtg_ledger.replays.cards.sketch_effects import Unsupported, convert_effects
from mtg_ledger.replays.cards.writer import card_toml, file_name

Definition = dict[str, Any]


# sketch target -> the engine's target spec (core.targeting)
_STEPS = {"your_upkeep": "upkeep", "your_end_step": "end"}  # "at the beginning of your <step>"
_WHEN = {
    "enters": "enters",
    "dies": "dies",
    "you_cast_noncreature": "you_cast_noncreature",
    "attacks": "attacks",
    "blocks": "blocks",
    "becomes_blocked": "becomes_blocked",
    "you_cast_creature": "you_cast_creature",
    "you_cast_enchantment": "you_cast_enchantment",
    "deals_combat_damage_to_player": "deals_combat_damage_to_player",
}
_SACRIFICE = re.compile(r"^Sacrifice this (creature|artifact|enchantment|permanent)$")
_MANA = re.compile(r"^(\{([0-9]+|[WUBRG])\})+$")
_PAY_LIFE = re.compile(r"^Pay ([0-9]+) life$")
_DISCARD = re.compile(r"^Discard (a card|two cards|three cards)$")
_COUNT = {"a card": 1, "two cards": 2, "three cards": 3}


def convert(sketch: dict[str, Any]) -> tuple[Definition, list[Definition]]:
    """The card's definition and those of the tokens it creates, or ``Unsupported``. A back face is read
    for a Siege alone (310.11b: it is cast transformed once the Siege is defeated); a Siege needs it."""
    siege = "Battle" in sketch["types"] and "Siege" in (sketch.get("subtypes") or [])
    if sketch.get("back") is not None and not siege:
        raise Unsupported("back face (of a card other than a Siege)")
    if "Battle" in sketch["types"] and (not siege or sketch.get("back") is None):
        raise Unsupported("battle other than a Siege with its back face (310.11b)")
    tokens: list[Definition] = []
    card = _face(sketch, tokens, top=True)
    if sketch.get("back") is not None:
        card["back"] = _face(sketch["back"], tokens, top=False)
    compile_card(card)  # the vocabulary reads it (a defect of this module otherwise)
    return card, tokens


def _face(sketch: dict[str, Any], tokens: list[Definition], top: bool) -> Definition:
    """A face's definition: the card's, or (``top`` False) its back face's, which has no colour identity."""
    card: Definition = {"name": sketch["name"]}
    if sketch.get("mana_cost"):
        card["mana_cost"] = sketch["mana_cost"]
    for key in ("colors", "color_identity", "supertypes") if top else ("colors", "supertypes"):
        if sketch.get(key):
            card[key] = list(sketch[key])
    card["types"] = list(sketch["types"])
    if sketch.get("subtypes"):
        card["subtypes"] = list(sketch["subtypes"])
    for key in ("power", "toughness", "loyalty", "defense"):
        if sketch.get(key) is not None:
            card[key] = sketch[key]
    keywords: list[str] = []
    abilities: list[Definition] = []
    spell: Definition | None = None
    lines = sketch["oracle"].split("\n")
    for ability in sketch["abilities"]:
        kind = ability["kind"]
        if kind == "keyword":
            _keyword(ability, card, keywords, abilities)
        elif kind == "spell":
            target, effects = convert_effects(ability["effects"], tokens)
            spell = {"target": target, "effects": effects} if target else {"effects": effects}
        elif kind == "mana":
            if re.fullmatch(r"[WUBRGC](\|[WUBRGC])+", ability["add"]):  # "Add {G} or {W}." (106.1)
                abilities.append({"ability": "mana_choice", "choices": ability["add"].split("|")})
            elif ability.get("choice") or not re.fullmatch(r"[WUBRGC]", ability["add"]):
                raise Unsupported(f"mana ability adding {ability['add']!r} (a choice of colours)")
            else:
                abilities.append({"ability": "mana", "produces": ability["add"]})
        elif kind == "static":
            abilities.append(_static(ability))
        elif kind == "triggered":
            abilities.append(_triggered(ability, tokens))
        elif kind == "activated":
            abilities.append(_activated(ability, tokens, lines))
        elif kind == "loyalty":
            abilities.append(_loyalty(ability, tokens, lines))
        else:
            raise Unsupported(f"ability kind {kind!r}")
    if keywords:
        card["keywords"] = keywords
    card["oracle"] = sketch["oracle"]
    if spell is not None:
        card["spell"] = spell
    if abilities:
        card["abilities"] = abilities
    if card.get("mana_cost") and not _MANA.fullmatch(card["mana_cost"]):
        raise Unsupported(f"mana cost {card['mana_cost']} (hybrid, X or other symbols)")
    return card


def _keyword(ability: Definition, card: Definition, keywords: list[str], abilities: list[Definition]) -> None:
    name = ability["name"]
    if name == "enchant":
        if ability.get("what") != "creature":
            raise Unsupported(f"enchant {ability.get('what')}")
        card["enchant"] = "creature"
    elif name == "equip":
        cost = ability["cost"]
        if not _MANA.fullmatch(cost):
            raise Unsupported(f"equip cost {cost!r}")
        equip = {"ability": "activated", "cost": cost, "effects": [{"effect": "attach"}], "timing": "sorcery"}
        abilities.append({**equip, "target": "creature_you_control", "text": f"Equip {cost}"})
    elif name == "ward":
        if not _MANA.fullmatch(ability.get("cost", "")):
            raise Unsupported(f"ward cost {ability.get('cost')!r}")
        keywords.append("ward")
        card["ward"] = ability["cost"]
    elif name in KEYWORDS and len(ability) == 2:
        keywords.append(name)
    else:
        raise Unsupported(f"keyword {name!r}")


def _static(ability: Definition) -> Definition:
    effect = ability["effect"]
    if effect in ("enchanted_gets", "equipped_gets"):
        return _gets({"ability": "attached_gets"}, ability)
    if effect == "anthem":
        other = {"creatures_you_control": False, "other_creatures_you_control": True}.get(ability.get("affects", ""))
        if other is None:
            raise Unsupported(f"anthem affecting {ability.get('affects')!r}")
        return _gets({"ability": "creatures_you_control_get", **({"other": True} if other else {})}, ability)
    if effect == "enters_tapped":
        return {"ability": "enters_tapped"}
    if effect == "cant_block":
        return {"ability": "cant_block"}
    if effect == "enchanted_cant_attack_or_block":
        return {"ability": "attached_cant_attack_or_block"}
    if effect == "attack_tax" and ability.get("per") == "attacking_creature" and _MANA.fullmatch(ability.get("cost", "")):
        amount = ability["cost"].strip("{}")
        if amount.isdigit():
            return {"ability": "attack_tax", "amount": int(amount)}
    raise Unsupported(f"static ability {effect!r}")


def _gets(out: Definition, ability: Definition) -> Definition:
    for key in ("power", "toughness"):
        if ability.get(key):
            out[key] = ability[key]
    for keyword in ability.get("keywords") or []:
        if keyword not in KEYWORDS:
            raise Unsupported(f"keyword {keyword!r} granted")
    if ability.get("keywords"):
        out["keywords"] = list(ability["keywords"])
    return out


def _triggered(ability: Definition, tokens: list[Definition]) -> Definition:
    when = ability["when"]
    if ability.get("condition"):
        raise Unsupported(f"trigger condition {ability['condition']!r}")
    out: Definition = {"ability": "triggered"}
    if when in _STEPS:
        out.update(event="beginning_of", step=_STEPS[when])
    elif when in _WHEN:
        out["event"] = _WHEN[when]
    else:
        raise Unsupported(f"trigger {when!r}")
    target, effects = convert_effects(ability["effects"], tokens)
    out["effects"] = effects
    if target:
        out["target"] = target
    return out


def _activated(ability: Definition, tokens: list[Definition], lines: list[str]) -> Definition:
    cost, sacrifice, tap, life, discard = "", False, False, 0, 0
    for part in ability["cost"].split(", "):
        paid, discarded = _PAY_LIFE.fullmatch(part), _DISCARD.fullmatch(part)
        if part == "{T}" and not tap:
            tap = True
        elif _MANA.fullmatch(part) and not cost:
            cost = part
        elif _SACRIFICE.fullmatch(part) and not sacrifice:
            sacrifice = True
        elif paid and not life:
            life = int(paid.group(1))
        elif discarded and not discard:
            discard = _COUNT[discarded.group(1)]
        else:
            raise Unsupported(f"activation cost {part!r}")
    target, effects = convert_effects(ability["effects"], tokens)
    out: Definition = {"ability": "activated", "cost": cost, "effects": effects}
    if ability.get("sorcery_speed"):
        out["timing"] = "sorcery"
    if target:
        out["target"] = target
    if sacrifice:
        out["sacrifice"] = True
    if tap:
        out["tap"] = True
    if life:
        out["life"] = life
    if discard:
        out["discard"] = discard
    out["text"] = _line(lines, f"{ability['cost']}:")
    return out


def _loyalty(ability: Definition, tokens: list[Definition], lines: list[str]) -> Definition:
    cost = ability["cost"]
    target, effects = convert_effects(ability["effects"], tokens)
    out: Definition = {"ability": "activated", "cost": "", "loyalty": cost, "effects": effects}
    if target:
        out["target"] = target
    out["text"] = _line(lines, f"+{cost}:" if cost > 0 else f"\u2212{-cost}:" if cost < 0 else "0:")
    return out


def _line(lines: list[str], start: str) -> str:
    """The Oracle line of an activated ability: the one starting with its cost."""
    found = [line for line in lines if line.startswith(start)]
    if len(found) != 1:
        raise Unsupported(f"activated ability {start!r} not found once in the Oracle text")
    return found[0]


# --- the command ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mtg_ledger.replays.cards.sketch", description=__doc__.splitlines()[0])
    parser.add_argument("sketches", type=Path, help="a JSON Lines file of card sketches")
    parser.add_argument("--pool", type=Path, required=True, help="the pool's folder of card files")
    parser.add_argument("--dry-run", action="store_true", help="write nothing; say what would be written")
    args = parser.parse_args(argv)
    from mtg_ledger.replays.cards import read_card

    existing: dict[str, Definition] = {}
    for path in sorted(args.pool.glob("*.toml")):
        data = read_card(path.name, path.read_text(encoding="utf-8"))
        existing[data["name"]] = data
    written: list[str] = []
    for line in args.sketches.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        sketch = json.loads(line)
        try:
            card, tokens = convert(sketch)
            for token in tokens:
                known = existing.get(token["name"])
                if known is not None and known != token:
                    raise Unsupported(f"a token named {token['name']!r} that the pool defines otherwise")
        except Unsupported as e:
            print(f"left out\t{sketch['name']}\t{e.why}")
            continue
        for definition in [card, *tokens]:
            if definition["name"] in existing:
                continue
            existing[definition["name"]] = definition
            written.append(definition["name"])
            if not args.dry_run:
                (args.pool / file_name(definition["name"])).write_text(card_toml(definition), encoding="utf-8")
    for name in written:
        print(f"added\t{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
