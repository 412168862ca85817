"""How a card sketch's effects become the engine's (``replays.cards.sketch``): each ``{"do": ...}`` effect to its
vocabulary kind (``core.vocabulary``), the targets it names, and the tokens it creates; ``Unsupported`` names
what the engine does not interpret.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtg_ledger.core.vocabulary import KEYWORDS

Definition = dict[str, Any]


class Unsupported(ValueError):
    """A sketch the engine cannot interpret fully: ``why`` names the missing ability kind."""

    def __init__(self, why: str) -> None:
        self.why = why
        super().__init__(why)


_TARGETS = {
    "any": "any",
    "creature": "creature",
    "creature_you_control": "creature_you_control",
    "spell": "spell",
    "nonland_permanent": "nonland_permanent",
    "target_player": "player",
    "target_opponent": "opponent",
    "player_or_planeswalker": "player_or_planeswalker",
    "artifact_or_enchantment": "artifact_or_enchantment",
    "enchantment": "enchantment",
    "creature_with_flying": "creature_with_flying",
    "nonblack_creature": "nonblack_creature",
    "creature_opponent_controls": "creature_opponent_controls",
    "attacking_or_blocking_creature": "attacking_or_blocking_creature",
    "black_or_red_permanent": "black_or_red_permanent",
    "artifact_creature_or_land": "artifact_creature_or_land",
    "creature_spell": "creature_spell",
    "noncreature_spell": "noncreature_spell",
}


def convert_effects(sketches: Iterable[Definition], tokens: list[Definition]) -> tuple[str | None, list[Definition]]:
    """The effects, and the one target spec they share (115.1: one target, or none)."""
    targets: list[str] = []
    out: list[Definition] = []
    for e in sketches:
        effect, target = _effect(e, tokens)
        out.extend(effect)
        if target is not None:
            targets.append(target)
    if len(set(targets)) > 1:
        raise Unsupported(f"effects with different targets ({', '.join(dict.fromkeys(targets))})")
    return (targets[0] if targets else None), out


def _spec(e: Definition, key: str = "target") -> str:
    sketch = e.get(key)
    if sketch not in _TARGETS:
        raise Unsupported(f"{e['do']} {key} {sketch!r}")
    return _TARGETS[sketch]


def _effect(e: Definition, tokens: list[Definition]) -> tuple[list[Definition], str | None]:
    do = e["do"]
    for key in ("n", "amount"):
        if key in e and type(e[key]) is not int:
            raise Unsupported(f"{do} {key} {e[key]!r} (a number counted as it resolves)")
    if e.get("optional") or e.get("up_to") or (e.get("n", 1) != 1 and do in ("exile", "untap", "destroy", "bounce")):
        raise Unsupported(f"{do} with optional, up to or several targets")
    if do == "damage":
        if e.get("target") == "each_opponent":
            return [{"effect": "deal_damage", "amount": e["amount"], "to": "each_opponent"}], None
        return [{"effect": "deal_damage", "amount": e["amount"]}], _spec(e)
    if do == "draw":
        who = e.get("who", "you")
        if who == "you":
            return [{"effect": "draw_cards", "count": e["n"]}], None
        if who == "each_player":
            return [{"effect": "each_player_draws", "count": e["n"]}], None
        if who == "target_player":
            return [{"effect": "target_player_draws", "count": e["n"]}], "player"
        raise Unsupported(f"draw by {who!r}")
    if do == "mill" and e.get("who") in ("target_player", "target_opponent"):
        return [{"effect": "target_player_mills", "count": e["n"]}], _spec(e, "who")
    if do == "gain_life" and e.get("who", "you") == "you":
        return [{"effect": "gain_life", "amount": e["n"]}], None
    if do == "lose_life" and e.get("who") in ("you", "each_opponent"):
        return [{"effect": "lose_life", "amount": e["n"], **({"who": "each_opponent"} if e["who"] == "each_opponent" else {})}], None
    if do == "lose_life" and e.get("who") in ("target_player", "target_opponent"):
        return [{"effect": "lose_life", "amount": e["n"], "who": "target"}], _spec(e, "who")
    if do == "discard" and e.get("who") == "you":
        return [{"effect": "discard_cards", "count": e["n"]}], None
    if do == "discard" and e.get("who") in ("target_player", "target_opponent"):
        return [{"effect": "player_discards", "count": e["n"]}], _spec(e, "who")
    if do == "pump":
        keywords = list(e.get("keywords") or [])
        if any(k not in KEYWORDS for k in keywords):
            raise Unsupported(f"pump granting {keywords}")
        if e.get("target") == "this":
            pump_self = {"effect": "pump_self_until_end_of_turn", "power": e["power"], "toughness": e["toughness"]}
            return [{**pump_self, **({"keywords": keywords} if keywords else {})}], None
        pump = {"effect": "pump_until_end_of_turn", "power": e["power"], "toughness": e["toughness"]}
        return [{**pump, **({"keywords": keywords} if keywords else {})}], _spec(e)
    if do == "counters" and e.get("target") in ("creature", "creature_you_control"):
        return [{"effect": "add_counters", "kind": e["kind"], **({"count": e["n"]} if e.get("n", 1) != 1 else {})}], _spec(e)
    if do == "destroy":
        return [{"effect": "destroy"}], _spec(e)
    if do == "bounce":
        return [{"effect": "return_to_owners_hand"}], _spec(e)
    if do == "exile":
        return [{"effect": "exile"}], _spec(e)
    if do == "tap":
        return [{"effect": "tap"}], _spec(e)
    if do == "counter" and e.get("target") in ("spell", "creature_spell", "noncreature_spell"):
        return [{"effect": "counter_target_spell"}], _spec(e)
    if do == "reveal_top_land_to_hand" and e.get("who") == "defending_player":
        return [{"effect": "reveal_top_land_to_hand"}], None
    if do == "token":
        token = token_definition(e)
        tokens.append(token)
        return [{"effect": "create_token", "token": token["name"]}] * e["n"], None
    raise Unsupported(f"effect {do!r}" + (f" on {e['target']!r}" if "target" in e else "") + (f" by {e['who']!r}" if "who" in e else ""))


def token_definition(e: Definition) -> Definition:
    """111.4: a token's definition: its name, colours, types, subtypes, power and toughness, keywords."""
    if e.get("pt_equals"):
        raise Unsupported(f"token whose power and toughness equal {e['pt_equals']}")
    keywords = list(e.get("keywords") or [])
    if any(k not in KEYWORDS for k in keywords):
        raise Unsupported(f"token with {keywords}")
    token: Definition = {"name": e["name"], "colors": list(e.get("colors") or []), "token": True, "types": list(e["types"])}
    if e.get("subtypes"):
        token["subtypes"] = list(e["subtypes"])
    for key in ("power", "toughness"):
        if e.get(key) is not None:
            token[key] = e[key]
    if keywords:
        token["keywords"] = keywords
    token["oracle"] = ", ".join(keywords).capitalize()  # a keyword's text as a token's rules text has it
    return token
