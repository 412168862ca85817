"""Cards as plain data (docs/cards.md): the vocabulary a card's abilities are written in, and the
compiler from a card's definition (a map, as a card file or ``GameStarted.cards`` holds it) to the
``CardDef`` the rules read.

One table per kind of thing. ``EFFECT_KINDS``: what a spell or an ability does as it resolves, each a
primitive of ``core.effects`` carried out by its entry in ``core.effect_table``. ``ABILITY_KINDS``: a
card's abilities, mana (605), activated (602), triggered (603) and the static abilities of
``core.statics`` (604). A definition names an effect's kind by its key ``effect`` and an ability's by
``ability``. An entry is a kind's name and its class: the fields a definition gives are the class's own
dataclass fields, checked against their annotations (``int``, ``str``, ``bool``, an optional
one, a tuple of strings, or a tuple of effects). A new kind is one entry in one table.

Pure: a definition is handed in as data and compiled; nothing is read from disk here. A definition the
vocabulary cannot read raises ``CardDataError``, naming the path of the field at fault.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from mtg_ledger.core import effects as fx
from mtg_ledger.core import statics as st
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.card_values import CardDataError, Path, as_list, check_mana, one_of, strings, typed

EFFECT_KINDS: dict[str, type] = {
    "deal_damage": fx.DealDamage,
    "pump_until_end_of_turn": fx.PumpUntilEndOfTurn,
    "pump_yours_until_end_of_turn": fx.PumpYoursUntilEndOfTurn,  # 611.2c; 613.1f, 613.4c
    "draw_cards": fx.DrawCards,
    "lose_life": fx.LoseLife,
    "gain_life": fx.GainLife,
    "add_counters": fx.AddCounters,
    "create_token": fx.CreateToken,
    "discard_cards": fx.DiscardCards,
    "untap_self": fx.UntapSelf,
    "untap_attackers": fx.UntapAttackers,
    "additional_combat_and_main": fx.AdditionalCombatAndMain,
    "skip_next_combat": fx.SkipNextCombat,
    "no_maximum_hand_size_until_your_next_turn": fx.NoMaximumHandSizeUntilYourNextTurn,
    "destroy_nonland": fx.DestroyNonland,
    "pump_self_until_end_of_turn": fx.PumpSelfUntilEndOfTurn,  # 611.2 (prowess, 702.108a)
    "each_player_draws": fx.EachPlayerDraws,  # 121.2
    "target_player_draws": fx.TargetPlayerDraws,  # 121.2
    "target_player_mills": fx.TargetPlayerMills,  # 701.17
    "attach": fx.Attach,  # 701.3 (equip, 702.6a)
    "destroy": fx.Destroy,  # 701.8
    "counter_unless_pays": fx.CounterUnlessPays,  # 702.21a (ward)
    "return_to_owners_hand": fx.ReturnToOwnersHand,  # 400.7
    "counter_target_spell": fx.CounterTargetSpell,  # 701.6a
    "exile": fx.ExileTarget,  # 406.2
    "tap": fx.TapTarget,  # 701.26a
    "create_tokens": fx.CreateTokens,  # 111.1, 608.2h
    "draw_cards_equal_to_greatest_power": fx.DrawCardsEqualToGreatestPower,  # 121.2, 608.2h
    "fight": fx.Fight,  # 701.14a
    "reveal_top_land_to_hand": fx.RevealTopLandToHand,  # 701.20a, 508.5
    "untap": fx.UntapTarget,  # 701.26b
    "add_counters_each_yours": fx.AddCountersEachYours,  # 122.1, 611.2c
    "player_discards": fx.PlayerDiscards,  # 701.9b
}

ABILITY_KINDS: dict[str, type] = {
    "mana": fx.ManaAbility,  # 605.1a
    "mana_choice": fx.ManaChoiceAbility,  # 605.1a, 106.1: "Add {G} or {W}."
    "activated": fx.ActivatedAbility,  # 602
    "triggered": fx.TriggeredAbility,  # 603
    "attack_tax": st.AttackTax,  # 508.1d
    "no_maximum_hand_size": st.NoMaximumHandSize,  # 402.2
    "doesnt_untap": st.DoesntUntap,  # 502.3
    "grant_keyword": st.GrantKeyword,  # 604.1
    "attached_gets": st.AttachedGets,  # 303.4, 301.5 (613.1f, 613.4c)
    "creatures_you_control_get": st.CreaturesYouControlGet,  # 613.1f, 613.4c
    "cant_block": st.CantBlock,  # 509.1a
    "attached_cant_attack_or_block": st.AttachedCantAttackOrBlock,  # 508.1a, 509.1a
    "enters_tapped": st.EntersTapped,  # 614.1c
    "you_have_hexproof": st.YouHaveHexproof,  # 702.11c
    "opponents_cant_gain_life": st.OpponentsCantGainLife,  # 119.7
    "power_toughness_equal_to_life": st.PowerToughnessEqualToLife,  # 604.3, 613.4a
}

# The events a triggered ability waits for (``TriggeredAbility.event``; 603.2), each with its rule.
TRIGGER_EVENTS: dict[str, str] = {
    "beginning_of": "603.2",
    "you_cast_noncreature": "702.108a",
    "enters": "603.6a",
    "dies": "700.4",
    "becomes_target": "702.21a",
    "attacks": "508.1m",
    "blocks": "509.1i",
    "becomes_blocked": "509.1i",
    "phased_out": "702.26",
    "phased_in": "702.26",
    "opponent_discards": "603.2",
    "set_in_motion": "701.24",
    "chapter": "714.2",
    "opponent_draws": "121.2",
    "deals_combat_damage_to_player": "510.2",
    "you_cast_creature": "601.2i",
    "you_cast_enchantment": "601.2i",
}

# The keywords a card may list (its "keywords"), each with its rule. Daybound and nightbound are
# kept as the definition's flags (702.145); the others are the permanent's keyword abilities.
KEYWORDS: dict[str, str] = {
    "first strike": "702.7",
    "double strike": "702.4",
    "flying": "702.9",
    "haste": "702.10",
    "reach": "702.17",
    "trample": "702.19",
    "vigilance": "702.20",
    "phasing": "702.26",
    "deathtouch": "702.2",
    "defender": "702.3",
    "flash": "702.8",
    "hexproof": "702.11",
    "indestructible": "702.12",
    "lifelink": "702.15",
    "menace": "702.111",
    "prowess": "702.108",
    "ward": "702.21",
    "daybound": "702.145",
    "nightbound": "702.145",
}
FLAG_KEYWORDS = ("daybound", "nightbound")
_MANA = (fx.ManaAbility, fx.ManaChoiceAbility)
_NOT_STATIC = (*_MANA, fx.TriggeredAbility, fx.ActivatedAbility)
COLORS = ("W", "U", "B", "R", "G")  # 105.1

# A card's own fields: name -> (what it holds, required). "face" fields are a back face's too.
CARD_FIELDS: dict[str, tuple[str, bool]] = {
    "name": ("text", True),
    "mana_cost": ("mana", False),
    "colors": ("colors", False),
    "color_identity": ("colors", False),
    "supertypes": ("texts", False),
    "types": ("texts", True),
    "subtypes": ("texts", False),
    "power": ("int", False),
    "toughness": ("int", False),
    "loyalty": ("int", False),
    "defense": ("int", False),
    "oracle": ("text", True),
    "keywords": ("keywords", False),
    "ward": ("mana", False),
    "enchant": ("enchant", False),
    "token": ("bool", False),
    "spell": ("spell", False),
    "abilities": ("abilities", False),
    "back": ("face", False),
}
SPELL_FIELDS = ("target", "effects", "targets")  # 601.2c: what an instant or sorcery targets; 608.2: what it does
# What a spell or ability targets (115.1; ``core.targeting``): a spell's ``target``, an activated or
# triggered ability's ``target``; an Aura's ``enchant`` names a permanent one (303.4a).
TARGETS = (
    "any",
    "player",
    "opponent",
    "creature",
    "creature_you_control",
    "permanent",
    "nonland_permanent",
    "spell",
    "player_or_planeswalker",
    "artifact_or_enchantment",
    "enchantment",
    "creature_with_flying",
    "nonblack_creature",
    "creature_opponent_controls",
    "attacking_or_blocking_creature",
    "black_or_red_permanent",
    "artifact_creature_or_land",
    "creature_spell",
    "noncreature_spell",
    "creature_you_dont_control",
    "land",
)
ENCHANT = ("creature", "creature_you_control", "permanent", "nonland_permanent")
# The fields of a vocabulary class that take one of a few values: (class, field) -> the values.
FIELD_VALUES: dict[tuple[type, str], tuple[str, ...]] = {
    (fx.TriggeredAbility, "event"): tuple(TRIGGER_EVENTS),
    (fx.TriggeredAbility, "target"): TARGETS,
    (fx.TriggeredAbility, "whose"): ("your", "each"),
    (fx.ActivatedAbility, "target"): TARGETS,
    (fx.ActivatedAbility, "targets"): TARGETS,
    (fx.ActivatedAbility, "timing"): ("your_upkeep", "sorcery"),
    (fx.DealDamage, "to"): ("target", "that_player", "each_opponent"),
    (fx.LoseLife, "who"): ("you", "each_opponent", "target"),
    (fx.RevealTopLandToHand, "who"): ("defending_player",),
    (fx.PumpYoursUntilEndOfTurn, "keywords"): tuple(KEYWORDS),
    (fx.AddCountersEachYours, "keywords"): tuple(KEYWORDS),
    (fx.ManaAbility, "produces"): ("W", "U", "B", "R", "G", "C"),
    (fx.CreateTokens, "per"): ("life_total", "land_you_control"),
    (fx.ManaChoiceAbility, "choices"): ("W", "U", "B", "R", "G", "C"),  # a tuple's every item is one of them
    (fx.PlayerDiscards, "who"): ("target", "that_player"),
}

def compile_card(data: Mapping[str, Any]) -> CardDef:
    """The ``CardDef`` of a card's definition (docs/cards.md), or ``CardDataError``."""
    return _face(data, (), top=True)


def kind_fields(cls: type) -> dict[str, tuple[Any, bool]]:
    """A vocabulary class's fields: name -> (annotation, required)."""
    hints = typing.get_type_hints(cls)
    return {
        f.name: (hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    }


def _face(data: Any, path: Path, top: bool) -> CardDef:
    if not isinstance(data, Mapping):
        raise CardDataError(path, "card.not_a_table")
    for key in data:
        if key not in CARD_FIELDS or (not top and key in ("back", "token", "color_identity")):
            raise CardDataError((*path, key), "card.unknown_field", field=key, known=", ".join(CARD_FIELDS))
    for key, (_, required) in CARD_FIELDS.items():
        if required and key not in data:
            raise CardDataError((*path, key), "card.missing_field", field=key)
    values = {key: _card_field(kind, data[key], (*path, key)) for key, (kind, _) in CARD_FIELDS.items() if key in data}
    keywords: tuple[str, ...] = values.get("keywords", ())
    if ("ward" in keywords) != ("ward" in values):  # 702.21a: "Ward {N}" names its cost
        missing = "ward" if "ward" in keywords else "keywords"
        raise CardDataError((*path, missing), "card.missing_field", field=missing)
    spell: dict[str, Any] = values.get("spell", {})
    abilities: tuple[Any, ...] = values.get("abilities", ())
    return CardDef(
        name=values["name"],
        types=values["types"],
        oracle=values["oracle"],
        cost=values.get("mana_cost", ""),
        subtypes=values.get("subtypes", ()),
        supertypes=values.get("supertypes", ()),
        power=values.get("power"),
        toughness=values.get("toughness"),
        target=spell.get("target"),
        targets=spell.get("targets", ()),
        effects=spell.get("effects", ()),
        mana_abilities=tuple(a for a in abilities if isinstance(a, _MANA)),
        keywords=frozenset(k for k in keywords if k not in FLAG_KEYWORDS),
        triggers=tuple(a for a in abilities if isinstance(a, fx.TriggeredAbility)),
        activated=tuple(a for a in abilities if isinstance(a, fx.ActivatedAbility)),
        daybound="daybound" in keywords,
        nightbound="nightbound" in keywords,
        back=values.get("back"),
        colors=values.get("colors", ()),
        color_identity=values.get("color_identity", ()),
        statics=tuple(a for a in abilities if not isinstance(a, _NOT_STATIC)),  # every other kind is static (604)
        loyalty=values.get("loyalty"),
        defense=values.get("defense"),
        enchant=values.get("enchant"),
        ward=values.get("ward"),
    )


def _card_field(kind: str, value: Any, path: Path) -> Any:
    if kind == "text":
        return typed(str, value, path)
    if kind == "int":
        return typed(int, value, path)
    if kind == "bool":
        return typed(bool, value, path)
    if kind == "mana":
        text = typed(str, value, path)
        check_mana(text, path)
        return text
    if kind in ("texts", "colors", "keywords"):
        items = strings(value, path)
        allowed = {"colors": COLORS, "keywords": tuple(KEYWORDS)}.get(kind)
        for i, item in enumerate(items):
            if allowed is not None and item not in allowed:
                raise CardDataError((*path, i), "card.not_one_of", value=item, allowed=", ".join(allowed))
        return items
    if kind == "enchant":
        return one_of(typed(str, value, path), ENCHANT, path)
    if kind == "spell":
        return _spell(value, path)
    if kind == "abilities":
        return tuple(_kind(ABILITY_KINDS, "ability", item, (*path, i)) for i, item in enumerate(as_list(value, path)))
    return _face(value, path, top=False)


def _spell(value: Any, path: Path) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise CardDataError(path, "card.not_a_table")
    if "target" in value and "targets" in value:
        raise CardDataError((*path, "targets"), "card.unknown_field", field="targets", known="target, effects (target or targets, not both)")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key not in SPELL_FIELDS:
            raise CardDataError((*path, key), "card.unknown_field", field=key, known=", ".join(SPELL_FIELDS))
        if key == "target":
            out[key] = one_of(typed(str, item, (*path, key)), TARGETS, (*path, key))
        elif key == "targets":  # 601.2c: several, one spec a target, in the order the text names them
            out[key] = tuple(one_of(t, TARGETS, (*path, key, i)) for i, t in enumerate(strings(item, (*path, key))))
        else:
            out[key] = _effects(item, (*path, key))
    return out


def _effects(value: Any, path: Path) -> tuple[Any, ...]:
    return tuple(_kind(EFFECT_KINDS, "effect", item, (*path, i)) for i, item in enumerate(as_list(value, path)))


def _kind(table: dict[str, type], tag: str, data: Any, path: Path) -> Any:
    """One entry of ``table`` built from ``{tag: its name, ...its fields}`` (``tag``: "effect" or "ability")."""
    if not isinstance(data, Mapping):
        raise CardDataError(path, "card.not_a_table")
    name = data.get(tag)
    if name is None:
        raise CardDataError((*path, tag), "card.missing_field", field=tag)
    if name not in table:
        raise CardDataError((*path, tag), "card.unknown_kind", kind=name, known=", ".join(table))
    cls = table[name]
    fields = kind_fields(cls)
    values: dict[str, Any] = {}
    for key, item in data.items():
        if key == tag:
            continue
        if key not in fields:
            raise CardDataError((*path, key), "card.unknown_field", field=key, known=", ".join([tag, *fields]))
        values[key] = _annotated(fields[key][0], item, (*path, key))
        allowed = FIELD_VALUES.get((cls, key))
        if allowed is not None and isinstance(values[key], tuple):
            for i, item in enumerate(values[key]):
                one_of(item, allowed, (*path, key, i))
        elif allowed is not None:
            one_of(values[key], allowed, (*path, key))
    for key, (_, required) in fields.items():
        if required and key not in values:
            raise CardDataError((*path, key), "card.missing_field", field=key)
    return cls(**values)


def _annotated(hint: Any, value: Any, path: Path) -> Any:
    """A field's value checked against its annotation."""
    if hint in (int, str, bool):
        return typed(hint, value, path)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return _annotated(inner, value, path)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        if args[0] is str:
            return strings(value, path)
        if args[0] == fx.Effect:
            return _effects(value, path)
    raise TypeError(f"the vocabulary cannot read a field annotated {hint!r}")  # a defect of a table entry


def tokens_created(definition: CardDef) -> tuple[str, ...]:
    """The tokens a card's effects create (111.1), by name, in the order they are written."""
    found: list[str] = []
    faces = [definition] if definition.back is None else [definition, definition.back]
    for face in faces:
        abilities: list[fx.TriggeredAbility | fx.ActivatedAbility] = [*face.triggers, *face.activated]
        every = [*face.effects, *(e for a in abilities for e in a.effects)]
        found.extend(e.token for e in every if isinstance(e, fx.CreateToken) and e.token not in found)
    return tuple(found)
