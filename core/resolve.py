"""Resolving spells and abilities (608): follow the instructions in order, as the effect primitives say.

A resolution that needs its controller's choice (a discard) pauses (608.2d) and resumes from the
next instruction once the choice is made.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import teams
from mtg_ledger.core import events as ev
from mtg_ledger.core import effects as fx
from mtg_ledger.core.cards import card
from mtg_ledger.core.record import Table, draw, emit
from mtg_ledger.core.checks import target_still_legal
from mtg_ledger.core.state import EffectKind, GameState, StackObject
from mtg_ledger.core.triggers import ability as triggered_ability
from mtg_ledger.core.triggers import definition_named


def instructions(top: StackObject) -> tuple[tuple[fx.Effect, ...], str | None]:
    """The effects and target spec of a stack object: a spell's, or its ability's."""
    if top.kind == "spell":
        definition = card(top.card)
        return definition.effects, definition.target
    if top.kind == "triggered":
        trig = triggered_ability(top)
        return trig.effects, trig.target
    definition = definition_named(top.card)
    activated = definition.activated[top.ability - len(definition.mana_abilities)]
    return activated.effects, None


def resolve_top(table: Table) -> bool:
    """608.2: resolve the top object. False when it paused for a choice (608.2d)."""
    s = table.state
    top = s.stack[-1]
    effects, spec = instructions(top)
    legal = [t for t in top.targets if target_still_legal(s, spec, t, top.controller)]
    if top.targets and not legal:  # 608.2b
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
    effects, spec = instructions(top)
    legal = [t for t in top.targets if target_still_legal(s, spec, t, top.controller)]
    return run(table, top, effects, legal, paused["effect"] + 1)


def run(table: Table, top: StackObject, effects: tuple[fx.Effect, ...], targets: list[Any], start: int) -> bool:
    s = table.state
    for index in range(start, len(effects)):
        effect = effects[index]
        if isinstance(effect, fx.DiscardCards):
            hand = s.players[top.controller].hand
            if len(hand) > effect.count and len(set(hand)) > 1:
                emit(table, ev.ResolutionPaused, object=top.object, player=top.controller, choice="discard", count=effect.count, effect=index)
                return False
            if hand:  # no real choice: the whole hand, or identical cards
                emit(table, ev.CardsDiscarded, player=top.controller, cards=hand[: effect.count], max_hand_size=None, rule="608.2d")
            continue
        carry_out(table, top, effect, targets)
    finish(table, top)
    return True


def _source(top: StackObject) -> int:
    return top.source if top.source is not None else top.object


def carry_out(table: Table, top: StackObject, effect: fx.Effect, targets: list[Any]) -> None:
    s = table.state
    me = top.controller
    if isinstance(effect, fx.DealDamage):
        victims = [top.context["player"]] if effect.to == "that_player" else targets
        for target in victims:
            if not isinstance(target, str) or not s.players[target].lost:
                emit(table, ev.DamageDealt, source=_source(top), card=top.card, target=target, amount=effect.amount)
    elif isinstance(effect, fx.PumpUntilEndOfTurn):
        for target in targets:
            _effect(table, kind=EffectKind.PT.value, object=target, power=effect.power, toughness=effect.toughness, keywords=list(effect.keywords))
    elif isinstance(effect, fx.PumpYoursUntilEndOfTurn):  # 611.2c: the ones there now
        for perm in ch.on_battlefield(s):
            if perm.controller == me and effect.subtype in ch.face(perm).subtypes:
                _effect(table, kind=EffectKind.PT.value, object=perm.object, power=effect.power, toughness=effect.toughness)
    elif isinstance(effect, fx.DrawCards):
        for _ in range(effect.count):
            draw(table, me)
    elif isinstance(effect, fx.LoseLife):
        losers = [me] if effect.who == "you" else teams.opponents(s, me)
        for player in losers:
            emit(table, ev.LifeLost, player=player, amount=effect.amount, source=_source(top))
    elif isinstance(effect, fx.GainLife):
        emit(table, ev.LifeGained, player=me, amount=effect.amount, source=_source(top))
    elif isinstance(effect, fx.AddCounters):
        for target in targets:
            emit(table, ev.CountersAdded, object=target, kind=effect.kind, count=effect.count)
    elif isinstance(effect, fx.CreateToken):
        emit(table, ev.TokenCreated, player=me, token=effect.token, object=s.next_object)
    elif isinstance(effect, fx.UntapSelf):
        source = s.permanent(top.source) if top.source is not None else None
        if source is not None and not source.phased_out:
            emit(table, ev.PermanentsUntappedByEffect, permanents=[source.object], source=source.object)
    elif isinstance(effect, fx.UntapAttackers):
        attacked = [p.object for p in ch.on_battlefield(s) if p.object in s.attacked_this_turn and ch.is_creature(p)]
        if attacked:
            emit(table, ev.PermanentsUntappedByEffect, permanents=attacked, source=top.object)
    elif isinstance(effect, fx.AdditionalCombatAndMain):  # 500.8: right after this main phase
        emit(table, ev.ExtraPhaseAdded, phase="combat", source=top.object, position=0)
        emit(table, ev.ExtraPhaseAdded, phase="postcombat_main", source=top.object, position=1)
    elif isinstance(effect, fx.SkipNextCombat):
        for target in targets:
            _effect(table, kind=EffectKind.SKIP_COMBAT.value, object=0, player=target, until="end_of_turn")
    elif isinstance(effect, fx.NoMaximumHandSizeUntilYourNextTurn):
        _effect(table, kind=EffectKind.NO_MAX_HAND_SIZE.value, object=0, player=me, until="next_turn")
    elif isinstance(effect, fx.DestroyNonland):
        for target in targets:
            doomed = [p for p in ch.on_battlefield(s) if p.controller == target and not ch.face(p).is_type("Land")]
            if doomed:
                gone = [{"object": p.object, "card": p.card, "owner": p.owner} for p in doomed]
                emit(table, ev.PermanentsPutIntoGraveyard, permanents=gone, rule="701.8")
    else:  # pragma: no cover - every primitive is handled above
        raise AssertionError(f"no resolution for {effect!r}")


def _effect(table: Table, **fields: Any) -> None:
    effect = {
        "id": table.state.next_effect,
        "power": 0,
        "toughness": 0,
        "keywords": [],
        "until": "end_of_turn",
        "player": None,
        "source": table.state.stack[-1].object,
    }
    effect.update(fields)
    emit(table, ev.EffectCreated, effect=effect)


def finish(table: Table, top: StackObject) -> None:
    """608.2n / 608.3: the object leaves the stack; a permanent spell becomes a permanent."""
    s = table.state
    definition = card(top.card) if top.kind == "spell" else None
    permanent = s.next_object if definition is not None and definition.is_permanent_card else None
    emit(table, ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="resolved", permanent=permanent)
    if permanent is not None and definition is not None:
        entered(table, permanent, definition)


def entered(table: Table, obj: int, definition: Any) -> None:
    """What happens as a permanent enters: a Saga's first lore counter (714.3a); a daybound
    permanent enters transformed at night (702.145)."""
    s: GameState = table.state
    if "Saga" in definition.subtypes:
        emit(table, ev.LoreCounterAdded, saga=obj, count=1, total=1)
    if definition.daybound and s.day_night == "night":
        emit(table, ev.PermanentsTransformed, permanents=[obj], rule="702.145")
