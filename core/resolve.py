"""Resolving spells and abilities (608): follow the instructions in order, each as its entry of the effect
table says (``core.effect_table``).

A resolution that needs its controller's choice (a discard) pauses (608.2d) and resumes from the
next instruction once the choice is made.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import events as ev
from mtg_ledger.core import effects as fx
from mtg_ledger.core.effect_table import EFFECTS, discarders
from mtg_ledger.core.entering import entered
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.checks import target_still_legal
from mtg_ledger.core.state import GameState, StackObject
from mtg_ledger.core.triggers import ability as triggered_ability
from mtg_ledger.core.triggers import definition_named


def instructions(state: GameState, top: StackObject) -> tuple[tuple[fx.Effect, ...], str | None]:
    """The effects and target spec of a stack object: a spell's, or its ability's."""
    if top.kind == "spell":
        definition = state.cards.card(top.card)
        return definition.effects, definition.spell_target
    if top.kind == "triggered":
        trig = triggered_ability(state, top)
        return trig.effects, trig.target
    definition = definition_named(state, top.card)
    activated = definition.activated[top.ability - len(definition.mana_abilities)]
    return activated.effects, activated.target


def resolve_top(table: Table) -> bool:
    """608.2: resolve the top object. False when it paused for a choice (608.2d)."""
    s = table.state
    top = s.stack[-1]
    effects, spec = instructions(s, top)
    legal = [t for t in top.targets if target_still_legal(s, spec, t, top.controller)]
    if top.targets and not legal:  # 608.2b; 608.3b: an Aura spell whose target is illegal goes to the graveyard
        emit(table, ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="fizzled", permanent=None)
        return True
    return run(table, top, effects, legal, 0)


def resume(table: Table, chosen: list[str]) -> bool:
    """The paused object's controller chose; record it and go on from the next instruction."""
    s = table.state
    paused = s.paused
    assert paused is not None
    top = s.stack[-1]
    emit(table, ev.CardsDiscarded, player=paused["player"], cards=chosen, max_hand_size=None, rule="608.2d")
    effects, spec = instructions(s, top)
    legal = [t for t in top.targets if target_still_legal(s, spec, t, top.controller)]
    return run(table, top, effects, legal, paused["effect"] + 1)


def go_on_without(table: Table, paused: dict[str, Any]) -> bool:
    """800.4a: the player a paused resolution waited for (``paused``, as it was) left the game, and the
    object, controlled by another player, is still on the stack: it goes on from the next instruction,
    without their choice. False when it paused again, for another player's choice (608.2d)."""
    s = table.state
    top = s.stack[-1]
    effects, spec = instructions(s, top)
    legal = [t for t in top.targets if target_still_legal(s, spec, t, top.controller)]
    return run(table, top, effects, legal, paused["effect"] + 1)


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
        EFFECTS[type(effect)](table, top, effect, targets)
    finish(table, top, targets)
    return True


def finish(table: Table, top: StackObject, targets: list[Any]) -> None:
    """608.2n / 608.3: the object leaves the stack; a permanent spell becomes a permanent (and enters
    as ``core.entering`` says: an Aura attached to its target, 303.4a)."""
    s = table.state
    definition = s.cards.card(top.card) if top.kind == "spell" else None
    permanent = s.next_object if definition is not None and definition.is_permanent_card else None
    emit(table, ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="resolved", permanent=permanent)
    if permanent is not None and definition is not None:
        entered(table, permanent, definition, top.controller, targets)
