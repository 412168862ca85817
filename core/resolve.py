"""Resolving spells and abilities (608): follow the instructions in order, each as its entry of the effect
table says (``core.effect_table``).

A resolution that needs its controller's choice (a discard; whether to cast a defeated Siege transformed,
310.11b) pauses (608.2d) and resumes from the next instruction once the choice is made. A Siege spell
whose controller has several opponents waits, as it enters, for the choice of its protector (310.11a).
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import events as ev
from mtg_ledger.core import effects as fx
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.effect_table import EFFECTS
from mtg_ledger.core.effects_players import discarders
from mtg_ledger.core.entering import entered
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.carddef import specs_of
from mtg_ledger.core.checks import spec_of_target, target_still_legal
from mtg_ledger.core.state import GameState, StackObject
from mtg_ledger.core.triggers import ability as triggered_ability
from mtg_ledger.core.triggers import definition_named


def spell_face(state: GameState, spell: StackObject) -> CardDef:
    """The characteristics of a spell on the stack: its card's, or, cast transformed, its back face's
    (712.8c, 712.11a)."""
    definition = state.cards.card(spell.card)
    if spell.context.get("transformed") and definition.back is not None:
        return definition.back
    return definition


def instructions(state: GameState, top: StackObject) -> tuple[tuple[fx.Effect, ...], tuple[str, ...]]:
    """The effects and target specs (one a target, 601.2c) of a stack object: a spell's, or its ability's."""
    if top.kind == "spell":
        definition = spell_face(state, top)
        return definition.effects, definition.spell_targets
    if top.kind == "triggered":
        trig = triggered_ability(state, top)
        return trig.effects, specs_of(trig.target)
    definition = definition_named(state, top.card)
    activated = definition.activated[top.ability - len(definition.mana_abilities)]
    return activated.effects, fx.ability_targets(activated)


def still_legal(state: GameState, top: StackObject, specs: tuple[str, ...]) -> list[Any]:
    """608.2b: the targets still legal, each checked against the spec it was chosen for, in order."""
    return [t for i, t in enumerate(top.targets) if target_still_legal(state, spec_of_target(specs, i), t, top.controller)]


def resolve_top(table: Table) -> bool:
    """608.2: resolve the top object. False when it paused for a choice (608.2d)."""
    s = table.state
    top = s.stack[-1]
    effects, specs = instructions(s, top)
    legal = still_legal(s, top, specs)
    if top.targets and not legal:  # 608.2b; 608.3b: an Aura spell whose target is illegal goes to the graveyard
        emit(table, ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="fizzled", permanent=None)
        return True
    return run(table, top, effects, legal, 0)


def resume(table: Table, chosen: list[str]) -> bool:
    """The paused object's controller chose; record it and go on from the next instruction."""
    s = table.state
    paused = s.paused
    assert paused is not None
    emit(table, ev.CardsDiscarded, player=paused["player"], cards=chosen, max_hand_size=None, rule="608.2d")
    return proceed(table, paused)


def proceed(table: Table, paused: dict[str, Any]) -> bool:
    """The paused object (``paused``: what ``state.paused`` was as the choice was asked) goes on from the
    instruction after the one that asked for the choice, recorded by then. It may no longer be the top
    object: a spell cast as it resolved is above it (608.2g, 310.11b)."""
    s = table.state
    top = next(o for o in s.stack if o.object == paused["object"])
    effects, specs = instructions(s, top)
    legal = still_legal(s, top, specs)
    return run(table, top, effects, legal, paused["effect"] + 1)


def go_on_without(table: Table, paused: dict[str, Any]) -> bool:
    """800.4a: the player a paused resolution waited for (``paused``, as it was) left the game, and the
    object, controlled by another player, is still on the stack: it goes on from the next instruction,
    without their choice. False when it paused again, for another player's choice (608.2d)."""
    return proceed(table, paused)


def run(table: Table, top: StackObject, effects: tuple[fx.Effect, ...], targets: list[Any], start: int) -> bool:
    """608.2c: the instructions in order, each by its entry of the effect table; a discard with a
    real choice pauses the resolution (608.2d)."""
    s = table.state
    for index in range(start, len(effects)):
        effect = effects[index]
        if isinstance(effect, (fx.DiscardCards, fx.PlayerDiscards)):  # 701.9b: the discarding player chooses
            for player in discarders(table, top, effect, targets):
                hand = s.players[player].hand
                if len(hand) > effect.count and len(set(hand)) > 1:
                    emit(table, ev.ResolutionPaused, object=top.object, player=player, choice="discard", count=effect.count, effect=index)
                    return False
        siege = s.permanent(top.source) if isinstance(effect, fx.ExileThenMayCastTransformed) and top.source is not None else None
        EFFECTS[type(effect)](table, top, effect, targets)
        if siege is not None and s.permanent(siege.object) is None:  # 310.11b: exiled; "then you may cast it transformed"
            emit(table, ev.ResolutionPaused, object=top.object, player=top.controller, choice="cast_transformed", count=0, effect=index)
            return False
    return finish(table, top, targets)


def finish(table: Table, top: StackObject, targets: list[Any]) -> bool:
    """608.2n / 608.3: the object leaves the stack; a permanent spell becomes a permanent (and enters
    as ``core.entering`` says: an Aura attached to its target, 303.4a). False when the permanent waits
    for its controller's choice as it enters (a Siege's protector, 310.11a)."""
    s = table.state
    definition = spell_face(s, top) if top.kind == "spell" else None
    permanent = s.next_object if definition is not None and definition.is_permanent_card else None
    emit(table, ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="resolved", permanent=permanent)
    if permanent is not None and definition is not None:
        return entered(table, permanent, definition, top.controller, targets)
    return True
