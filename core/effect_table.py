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
from mtg_ledger.core import record
from mtg_ledger.core.record import Table, draw, emit
from mtg_ledger.core.state import EffectKind, Permanent, StackObject
from mtg_ledger.core.effects_players import (
    discard_cards,
    draw_cards,
    draw_greatest_power,
    each_player_draws,
    gain_life,
    lose_life,
    player_discards,
    reveal_top_land_to_hand,
    source_of,
    target_player_draws,
    target_player_mills,
)

Resolver = Callable[[Table, StackObject, Any, list[Any]], None]  # (table, resolving object, effect, legal targets)


_source = source_of  # the source of a resolving object (core.effects_players)


def _deathtouch(table: Table, source: Permanent | None, target: Any, amount: int) -> None:
    """702.2b, 704.5h: a creature dealt damage by a source with deathtouch is remembered as such."""
    if source is None or amount <= 0 or not isinstance(target, int) or not ch.has_keyword(table.state, source, "deathtouch"):
        return
    victim = table.state.permanent(target)
    if victim is not None and ch.is_creature(table.state, victim):
        emit(table, ev.DeathtouchDamageMarked, object=target, source=source.object)


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
            _deathtouch(table, source, target, effect.amount)
            if source is not None and effect.amount > 0 and ch.has_keyword(table.state, source, "lifelink"):
                record.gain_life(table, source.controller, effect.amount, source.object)  # 119.7


def pump_self(table: Table, top: StackObject, effect: fx.PumpSelfUntilEndOfTurn, targets: list[Any]) -> None:
    """611.2: the ability's source, if it is still on the battlefield (prowess, 702.108a)."""
    source = table.state.permanent(_source(top))
    if source is not None and not source.phased_out:
        pt = {"power": effect.power, "toughness": effect.toughness, "keywords": list(effect.keywords)}
        _continuous(table, kind=EffectKind.PT.value, object=source.object, **pt)


def attach(table: Table, top: StackObject, effect: fx.Attach, targets: list[Any]) -> None:
    """702.6a, 701.3: the Equipment becomes attached to the target creature, if both are still there."""
    source = table.state.permanent(_source(top))
    if source is not None and not source.phased_out and source.controller == top.controller:
        for target in targets:
            if target != source.object:
                emit(table, ev.Attached, object=source.object, to=target, rule="702.6a")


def destroy(table: Table, top: StackObject, effect: fx.Destroy, targets: list[Any]) -> None:
    """701.8; 702.12b: an indestructible permanent isn't destroyed. 608.2h: "its controller" is each
    target's controller as it last existed on the battlefield; they draw destroyed or not (121.2)."""
    aimed = table.state.each(targets)
    drawers = [p.controller for p in aimed] if effect.controller_draws else []
    doomed = [p for p in aimed if not ch.has_keyword(table.state, p, "indestructible")]
    if doomed:
        emit(table, ev.PermanentsPutIntoGraveyard, permanents=[{"object": p.object, "card": p.card, "owner": p.owner} for p in doomed], rule="701.8")
    for player in drawers:
        for _ in range(effect.controller_draws):
            draw(table, player)


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
                record.gain_life(table, player, amount, obj)  # 119.7


def tap_target(table: Table, top: StackObject, effect: fx.TapTarget, targets: list[Any]) -> None:
    """701.26a: the untapped targets become tapped."""
    untapped = [p.object for p in table.state.each(targets) if not p.tapped]
    if untapped:
        emit(table, ev.PermanentsTapped, permanents=untapped, rule="701.26")


def fight(table: Table, top: StackObject, effect: fx.Fight, targets: list[Any]) -> None:
    """701.14a: each of the two creatures deals damage equal to its power to the other, at once (the
    powers are read before either is dealt); 701.14b: if either has left the battlefield or is no longer a
    legal target (608.2b), no damage is dealt. 702.15b: a creature with lifelink makes its controller gain as much."""
    s = table.state
    fighters = s.each(targets)
    if len(targets) != 2 or len(fighters) != 2 or not all(ch.is_creature(s, p) for p in fighters):
        return
    first, second = fighters
    blows = [(first, second, ch.power(s, first)), (second, first, ch.power(s, second))]
    for source, victim, amount in blows:
        if amount > 0:  # 120.8: no damage is dealt by a source with no power
            emit(table, ev.DamageDealt, source=source.object, card=ch.name(s, source), target=victim.object, amount=amount)
            _deathtouch(table, source, victim.object, amount)
    for source, _, amount in blows:
        if amount > 0 and ch.has_keyword(s, source, "lifelink"):
            record.gain_life(table, source.controller, amount, source.object)  # 119.7


def untap_target(table: Table, top: StackObject, effect: fx.UntapTarget, targets: list[Any]) -> None:
    """701.26b: the tapped targets still legal become untapped."""
    tapped = [p.object for p in table.state.each(targets) if p.tapped]
    if tapped:
        emit(table, ev.PermanentsUntappedByEffect, permanents=tapped, source=top.object)


def add_counters_each_yours(table: Table, top: StackObject, effect: fx.AddCountersEachYours, targets: list[Any]) -> None:
    """122.1: counters on each creature its controller controls as it resolves (611.2c); "those creatures"
    then gain the keywords until end of turn (613.1f), the same ones."""
    s = table.state
    mine = [p for p in ch.on_battlefield(s) if p.controller == top.controller and ch.is_creature(s, p)]
    for perm in mine:
        emit(table, ev.CountersAdded, object=perm.object, kind=effect.kind, count=effect.count)
    if effect.keywords:
        for perm in mine:
            _continuous(table, kind=EffectKind.PT.value, object=perm.object, keywords=list(effect.keywords))


def counter_target_spell(table: Table, top: StackObject, effect: fx.CounterTargetSpell, targets: list[Any]) -> None:
    """701.6a."""
    for aimed in [o for o in table.state.stack if o.object in targets and o.kind == "spell"]:
        emit(table, ev.ObjectCountered, object=aimed.object, card=aimed.card, controller=aimed.controller, rule="701.6a")


def pump(table: Table, top: StackObject, effect: fx.PumpUntilEndOfTurn, targets: list[Any]) -> None:
    """611.2, layers 6 and 7c."""
    for target in targets:
        _continuous(table, kind=EffectKind.PT.value, object=target, power=effect.power, toughness=effect.toughness, keywords=list(effect.keywords))


def pump_yours(table: Table, top: StackObject, effect: fx.PumpYoursUntilEndOfTurn, targets: list[Any]) -> None:
    """611.2c: the ones there now: its controller's permanents of the subtype, or without one their
    creatures; each gets +P/+T (layer 7c, 613.4c) and gains the keywords (layer 6, 613.1f) until end of turn."""
    s = table.state
    for perm in ch.on_battlefield(s):
        if perm.controller != top.controller:
            continue
        if effect.subtype in ch.face(s, perm).subtypes if effect.subtype is not None else ch.is_creature(s, perm):
            pt = {"power": effect.power, "toughness": effect.toughness, "keywords": list(effect.keywords)}
            _continuous(table, kind=EffectKind.PT.value, object=perm.object, **pt)


def add_counters(table: Table, top: StackObject, effect: fx.AddCounters, targets: list[Any]) -> None:
    """122.1."""
    for target in targets:
        emit(table, ev.CountersAdded, object=target, kind=effect.kind, count=effect.count)


def exile_siege(table: Table, top: StackObject, effect: fx.ExileThenMayCastTransformed, targets: list[Any]) -> None:
    """310.11b: "exile it": the Siege, if it is still on the battlefield (406.2). The choice to cast it
    transformed follows (``core.resolve``)."""
    siege = table.state.permanent(top.source) if top.source is not None else None
    if siege is not None:
        emit(table, ev.PermanentsExiled, permanents=[{"object": siege.object, "card": siege.card, "owner": siege.owner}], source=top.object)


def create_token(table: Table, top: StackObject, effect: fx.CreateToken, targets: list[Any]) -> None:
    """111.1."""
    emit(table, ev.TokenCreated, player=top.controller, token=effect.token, object=table.state.next_object)


def create_tokens(table: Table, top: StackObject, effect: fx.CreateTokens, targets: list[Any]) -> None:
    """111.1; 608.2h: how many is counted once, as the ability resolves: its controller's life total, or
    the lands they control."""
    s = table.state
    if effect.per == "life_total":
        count = s.players[top.controller].life
    else:
        count = sum(1 for p in ch.on_battlefield(s) if p.controller == top.controller and ch.is_type(s, p, "Land"))
    for _ in range(max(0, count)):
        emit(table, ev.TokenCreated, player=top.controller, token=effect.token, object=table.state.next_object)


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
    fx.CreateTokens: create_tokens,
    fx.DrawCardsEqualToGreatestPower: draw_greatest_power,
    fx.Fight: fight,
    fx.RevealTopLandToHand: reveal_top_land_to_hand,
    fx.UntapTarget: untap_target,
    fx.AddCountersEachYours: add_counters_each_yours,
    fx.ExileThenMayCastTransformed: exile_siege,
    fx.PlayerDiscards: player_discards,
}
