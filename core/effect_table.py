"""The effect table: how each effect primitive (``core.effects``) is carried out as its spell or ability
resolves (608.2c), one entry per primitive type, as the command table has one per command type.

A resolver takes the table, the resolving stack object, the effect and the targets still legal
(608.2b), and records what happens through ``emit``. ``DiscardCards`` is in the table too, for the
case without a choice; a discard that asks for one pauses the resolution first (608.2d, ``core.resolve``).
``core.resolve.run`` dispatches on ``EFFECTS``; tests/rules/test_effect_table.py fails while a primitive of
``effects.Effect`` has no entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import effects as fx
from mtg_ledger.core.turn import Phase
from mtg_ledger.core import events as ev
from mtg_ledger.core import teams
from mtg_ledger.core.errors import CannotPay, Phrase
from mtg_ledger.core.mana import parse_cost
from mtg_ledger.core.payment import plan_payment
from mtg_ledger.core.record import Table, draw, emit
from mtg_ledger.core.state import EffectKind, StackObject

Resolver = Callable[[Table, StackObject, Any, list[Any]], None]  # (table, resolving object, effect, legal targets)


def _source(top: StackObject) -> int:
    return top.source if top.source is not None else top.object


def _continuous(table: Table, **fields: Any) -> None:
    """611: a continuous effect from the resolving object, until end of turn unless ``fields`` say otherwise."""
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


def deal_damage(table: Table, top: StackObject, effect: fx.DealDamage, targets: list[Any]) -> None:
    """120.3: to the targets, to each opponent, or, for a trigger, to "that player"; a player who left is dealt none (800.4a).
    702.15b: damage from a source with lifelink also makes its controller gain that much life."""
    if effect.to == "each_opponent":
        victims: list[Any] = teams.opponents(table.state, top.controller)
    else:
        victims = [top.context["player"]] if effect.to == "that_player" else targets
    for target in victims:
        if not isinstance(target, str) or not table.state.players[target].lost:
            emit(table, ev.DamageDealt, source=_source(top), card=top.card, target=target, amount=effect.amount)
            source = table.state.permanent(_source(top))
            if source is not None and effect.amount > 0 and ch.has_keyword(table.state, source, "lifelink"):
                emit(table, ev.LifeGained, player=source.controller, amount=effect.amount, source=source.object)


def pump_self(table: Table, top: StackObject, effect: fx.PumpSelfUntilEndOfTurn, targets: list[Any]) -> None:
    """611.2: the ability's source, if it is still on the battlefield (prowess, 702.108a)."""
    source = table.state.permanent(_source(top))
    if source is not None and not source.phased_out:
        pt = {"power": effect.power, "toughness": effect.toughness, "keywords": list(effect.keywords)}
        _continuous(table, kind=EffectKind.PT.value, object=source.object, **pt)


def each_player_draws(table: Table, top: StackObject, effect: fx.EachPlayerDraws, targets: list[Any]) -> None:
    """121.2, in APNAP order (101.4)."""
    for player in teams.apnap(table.state):
        for _ in range(effect.count):
            draw(table, player)


def target_player_draws(table: Table, top: StackObject, effect: fx.TargetPlayerDraws, targets: list[Any]) -> None:
    """121.2."""
    for player in targets:
        for _ in range(effect.count):
            draw(table, player)


def target_player_mills(table: Table, top: StackObject, effect: fx.TargetPlayerMills, targets: list[Any]) -> None:
    """701.17: as many as the library holds."""
    for player in targets:
        milled = table.state.players[player].library[: effect.count]
        if milled:
            emit(table, ev.CardsMilled, player=player, cards=list(milled))


def attach(table: Table, top: StackObject, effect: fx.Attach, targets: list[Any]) -> None:
    """702.6a, 701.3: the Equipment becomes attached to the target creature, if both are still there."""
    source = table.state.permanent(_source(top))
    if source is not None and not source.phased_out and source.controller == top.controller:
        for target in targets:
            if target != source.object:
                emit(table, ev.Attached, object=source.object, to=target, rule="702.6a")


def destroy(table: Table, top: StackObject, effect: fx.Destroy, targets: list[Any]) -> None:
    """701.8; 702.12b: an indestructible permanent isn't destroyed."""
    doomed = [p for p in table.state.each(targets) if not ch.has_keyword(table.state, p, "indestructible")]
    if doomed:
        emit(table, ev.PermanentsPutIntoGraveyard, permanents=[{"object": p.object, "card": p.card, "owner": p.owner} for p in doomed], rule="701.8")


def counter_unless_pays(table: Table, top: StackObject, effect: fx.CounterUnlessPays, targets: list[Any]) -> None:
    """702.21a: the spell or ability that targeted the ward permanent is countered unless its controller
    pays; the engine pays for them, as it pays a cost left to it (601.2g-h), when they can."""
    s = table.state
    aimed = next((o for o in s.stack if o.object == top.context.get("object")), None)
    if aimed is None:
        return  # it has left the stack already
    what = Phrase("rules.what_ward_cost", {"card": top.card, "cost": effect.cost})
    try:
        taps, spent = plan_payment(s, aimed.controller, parse_cost(effect.cost), None, what=what, rule="702.21a")
    except CannotPay:
        emit(table, ev.ObjectCountered, object=aimed.object, card=aimed.card, controller=aimed.controller, rule="702.21a")
        return
    for obj, name, color in taps:
        emit(table, ev.ManaAbilityActivated, player=aimed.controller, source=obj, card=name, mana=color)
    emit(table, ev.ManaSpent, player=aimed.controller, mana=spent, paid_with=[t[0] for t in taps], rule="702.21a")


def return_to_owners_hand(table: Table, top: StackObject, effect: fx.ReturnToOwnersHand, targets: list[Any]) -> None:
    """400.7: to its owner's hand."""
    back = table.state.each(targets)
    if back:
        emit(table, ev.PermanentsReturnedToHand, permanents=[{"object": p.object, "card": p.card, "owner": p.owner} for p in back], source=top.object)


def exile_target(table: Table, top: StackObject, effect: fx.ExileTarget, targets: list[Any]) -> None:
    """406.2; 608.2h: the life its controller gains is its power as it last existed on the battlefield."""
    s = table.state
    gone = s.each(targets)
    if not gone:
        return
    gains = [(p.controller, ch.power(s, p), p.object) for p in gone]
    emit(table, ev.PermanentsExiled, permanents=[{"object": p.object, "card": p.card, "owner": p.owner} for p in gone], source=top.object)
    if effect.controller_gains_its_power:
        for player, amount, obj in gains:
            if amount > 0:
                emit(table, ev.LifeGained, player=player, amount=amount, source=obj)


def tap_target(table: Table, top: StackObject, effect: fx.TapTarget, targets: list[Any]) -> None:
    """701.26a: the untapped targets become tapped."""
    untapped = [p.object for p in table.state.each(targets) if not p.tapped]
    if untapped:
        emit(table, ev.PermanentsTapped, permanents=untapped, rule="701.26")


def counter_target_spell(table: Table, top: StackObject, effect: fx.CounterTargetSpell, targets: list[Any]) -> None:
    """701.6a."""
    for aimed in [o for o in table.state.stack if o.object in targets and o.kind == "spell"]:
        emit(table, ev.ObjectCountered, object=aimed.object, card=aimed.card, controller=aimed.controller, rule="701.6a")


def pump(table: Table, top: StackObject, effect: fx.PumpUntilEndOfTurn, targets: list[Any]) -> None:
    """611.2, layers 6 and 7c."""
    for target in targets:
        _continuous(table, kind=EffectKind.PT.value, object=target, power=effect.power, toughness=effect.toughness, keywords=list(effect.keywords))


def pump_yours(table: Table, top: StackObject, effect: fx.PumpYoursUntilEndOfTurn, targets: list[Any]) -> None:
    """611.2c: the ones there now."""
    for perm in ch.on_battlefield(table.state):
        if perm.controller == top.controller and effect.subtype in ch.face(table.state, perm).subtypes:
            _continuous(table, kind=EffectKind.PT.value, object=perm.object, power=effect.power, toughness=effect.toughness)


def draw_cards(table: Table, top: StackObject, effect: fx.DrawCards, targets: list[Any]) -> None:
    """121.2."""
    for _ in range(effect.count):
        draw(table, top.controller)


def lose_life(table: Table, top: StackObject, effect: fx.LoseLife, targets: list[Any]) -> None:
    """119.3: you, each opponent, or the target players."""
    me = top.controller
    if effect.who == "target":
        losers = [t for t in targets if isinstance(t, str)]
    else:
        losers = [me] if effect.who == "you" else teams.opponents(table.state, me)
    for player in losers:
        emit(table, ev.LifeLost, player=player, amount=effect.amount, source=_source(top))


def gain_life(table: Table, top: StackObject, effect: fx.GainLife, targets: list[Any]) -> None:
    """119.3."""
    emit(table, ev.LifeGained, player=top.controller, amount=effect.amount, source=_source(top))


def add_counters(table: Table, top: StackObject, effect: fx.AddCounters, targets: list[Any]) -> None:
    """122.1."""
    for target in targets:
        emit(table, ev.CountersAdded, object=target, kind=effect.kind, count=effect.count)


def create_token(table: Table, top: StackObject, effect: fx.CreateToken, targets: list[Any]) -> None:
    """111.1."""
    emit(table, ev.TokenCreated, player=top.controller, token=effect.token, object=table.state.next_object)


def discard_cards(table: Table, top: StackObject, effect: fx.DiscardCards, targets: list[Any]) -> None:
    """608.2d, 701.9b: no real choice (the whole hand, or identical cards): they are discarded."""
    hand = table.state.players[top.controller].hand
    if hand:
        emit(table, ev.CardsDiscarded, player=top.controller, cards=hand[: effect.count], max_hand_size=None, rule="608.2d")


def discarders(table: Table, top: StackObject, effect: fx.DiscardCards | fx.PlayerDiscards, targets: list[Any]) -> list[str]:
    """Who discards: "you" (the controller), the target players still in the game, or, for a trigger,
    "that player" (701.9b: each chooses the cards they discard)."""
    if isinstance(effect, fx.DiscardCards):
        return [top.controller]
    chosen = [top.context.get("player")] if effect.who == "that_player" else targets
    return [p for p in chosen if isinstance(p, str) and p in table.state.players and not table.state.players[p].lost]  # 800.4a


def player_discards(table: Table, top: StackObject, effect: fx.PlayerDiscards, targets: list[Any]) -> None:
    """701.9b, 608.2d: no real choice (the whole hand, or identical cards): they are discarded."""
    for player in discarders(table, top, effect, targets):
        hand = table.state.players[player].hand
        if hand:
            emit(table, ev.CardsDiscarded, player=player, cards=hand[: effect.count], max_hand_size=None, rule="608.2d")


def untap_self(table: Table, top: StackObject, effect: fx.UntapSelf, targets: list[Any]) -> None:
    """701.21."""
    source = table.state.permanent(top.source) if top.source is not None else None
    if source is not None and not source.phased_out:
        emit(table, ev.PermanentsUntappedByEffect, permanents=[source.object], source=source.object)


def untap_attackers(table: Table, top: StackObject, effect: fx.UntapAttackers, targets: list[Any]) -> None:
    """701.21: the creatures that attacked this turn."""
    s = table.state
    attacked = [p.object for p in ch.on_battlefield(s) if p.object in s.attacked_this_turn and ch.is_creature(s, p)]
    if attacked:
        emit(table, ev.PermanentsUntappedByEffect, permanents=attacked, source=top.object)


def additional_combat_and_main(table: Table, top: StackObject, effect: fx.AdditionalCombatAndMain, targets: list[Any]) -> None:
    """500.8: right after this main phase."""
    emit(table, ev.ExtraPhaseAdded, phase=Phase.COMBAT, source=top.object, position=0)
    emit(table, ev.ExtraPhaseAdded, phase=Phase.POSTCOMBAT_MAIN, source=top.object, position=1)


def skip_next_combat(table: Table, top: StackObject, effect: fx.SkipNextCombat, targets: list[Any]) -> None:
    """500.10."""
    for target in targets:
        _continuous(table, kind=EffectKind.SKIP_COMBAT.value, object=0, player=target, until="end_of_turn")


def no_maximum_hand_size(table: Table, top: StackObject, effect: fx.NoMaximumHandSizeUntilYourNextTurn, targets: list[Any]) -> None:
    """402.2, 611.2a."""
    _continuous(table, kind=EffectKind.NO_MAX_HAND_SIZE.value, object=0, player=top.controller, until="next_turn")


def destroy_nonland(table: Table, top: StackObject, effect: fx.DestroyNonland, targets: list[Any]) -> None:
    """701.8."""
    for target in targets:
        doomed = [
            p
            for p in ch.on_battlefield(table.state)
            if p.controller == target and not ch.face(table.state, p).is_type("Land") and not ch.has_keyword(table.state, p, "indestructible")  # 702.12b
        ]
        if doomed:
            gone = [{"object": p.object, "card": p.card, "owner": p.owner} for p in doomed]
            emit(table, ev.PermanentsPutIntoGraveyard, permanents=gone, rule="701.8")


EFFECTS: dict[type, Resolver] = {
    fx.DealDamage: deal_damage,
    fx.PumpUntilEndOfTurn: pump,
    fx.PumpYoursUntilEndOfTurn: pump_yours,
    fx.DrawCards: draw_cards,
    fx.LoseLife: lose_life,
    fx.GainLife: gain_life,
    fx.AddCounters: add_counters,
    fx.CreateToken: create_token,
    fx.DiscardCards: discard_cards,
    fx.UntapSelf: untap_self,
    fx.UntapAttackers: untap_attackers,
    fx.AdditionalCombatAndMain: additional_combat_and_main,
    fx.SkipNextCombat: skip_next_combat,
    fx.NoMaximumHandSizeUntilYourNextTurn: no_maximum_hand_size,
    fx.DestroyNonland: destroy_nonland,
    fx.PumpSelfUntilEndOfTurn: pump_self,
    fx.EachPlayerDraws: each_player_draws,
    fx.TargetPlayerDraws: target_player_draws,
    fx.TargetPlayerMills: target_player_mills,
    fx.Attach: attach,
    fx.Destroy: destroy,
    fx.CounterUnlessPays: counter_unless_pays,
    fx.ReturnToOwnersHand: return_to_owners_hand,
    fx.CounterTargetSpell: counter_target_spell,
    fx.ExileTarget: exile_target,
    fx.TapTarget: tap_target,
    fx.PlayerDiscards: player_discards,
}
