"""Appliers for triggered and activated abilities, life, counters, tokens, phasing, day and night,
Sagas, schemes and changes to the turn's phases. Like every applier, they only assign."""

from __future__ import annotations

from mtg_ledger.core.apply import Event, applier, spend
from mtg_ledger.core.state import GameState, Permanent, StackObject, Trigger


@applier("AbilityActivated")
def _ability_activated(s: GameState, e: Event) -> None:
    spend(s.players[e["player"]].mana_pool, e["mana_spent"])
    s.stack.append(
        StackObject(
            object=e["object"], card=e["card"], controller=e["player"], kind="activated", targets=list(e["targets"]),
            source=e["source"], ability=e["ability"],
        )
    )
    s.next_object = e["object"] + 1
    s.passes = []


@applier("AbilityTriggered")
def _ability_triggered(s: GameState, e: Event) -> None:
    s.pending_triggers.append(
        Trigger(object=e["object"], player=e["player"], card=e["card"], source=e["source"], ability=e["ability"], context=dict(e["context"]))
    )
    s.next_object = e["object"] + 1


@applier("TriggerOrderAsked")
def _order_asked(s: GameState, e: Event) -> None:
    s.ordering = {"player": e["player"], "priority_to": e["priority_to"]}


@applier("TriggeredAbilitiesStacked")
def _stacked(s: GameState, e: Event) -> None:
    waiting = {t.object: t for t in s.pending_triggers}
    for obj in e["objects"]:
        t = waiting[obj]
        s.stack.append(
            StackObject(
                object=obj, card=t.card, controller=t.player, kind="triggered", targets=list(e["targets"].get(str(obj), [])),
                source=t.source, ability=t.ability, context=dict(t.context),
            )
        )
    gone = set(e["objects"]) | set(e["removed"])
    s.pending_triggers = [t for t in s.pending_triggers if t.object not in gone]
    s.ordering = None


@applier("ResolutionPaused")
def _paused(s: GameState, e: Event) -> None:
    s.paused = {"object": e["object"], "player": e["player"], "choice": e["choice"], "count": e["count"], "effect": e["effect"]}


@applier("LifeLost")
def _life_lost(s: GameState, e: Event) -> None:
    s.players[e["player"]].life -= e["amount"]


@applier("LifeGained")
def _life_gained(s: GameState, e: Event) -> None:
    s.players[e["player"]].life += e["amount"]


@applier("CountersAdded")
def _counters(s: GameState, e: Event) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.counters[e["kind"]] = perm.counters.get(e["kind"], 0) + e["count"]


@applier("LoreCounterAdded")
def _lore(s: GameState, e: Event) -> None:
    perm = s.permanent(e["saga"])
    if perm is not None:
        perm.counters["lore"] = e["total"]


@applier("TokenCreated")
def _token(s: GameState, e: Event) -> None:
    s.battlefield.append(Permanent(object=e["object"], card=e["token"], owner=e["player"], controller=e["player"], token=True))
    s.next_object = e["object"] + 1


@applier("PermanentsPhased")
def _phased(s: GameState, e: Event) -> None:
    for perm in s.each(e["phased_out"]):
        perm.phased_out = True
    for perm in s.each(e["phased_in"]):
        perm.phased_out = False


@applier("DayNightChanged")
def _day_night(s: GameState, e: Event) -> None:
    s.day_night = e["to"]
    _transform(s, e["transformed"])


@applier("PermanentsTransformed")
def _transformed(s: GameState, e: Event) -> None:
    _transform(s, e["permanents"])


def _transform(s: GameState, objects: list[int]) -> None:
    for perm in s.each(objects):
        perm.transformed = not perm.transformed


@applier("ExtraPhaseAdded")
def _extra_phase(s: GameState, e: Event) -> None:
    s.phase_plan.insert(e["position"], e["phase"])


@applier("PhaseSkipped")
def _phase_skipped(s: GameState, e: Event) -> None:
    if s.phase_plan and s.phase_plan[0] == e["phase"]:
        s.phase_plan.pop(0)
    s.effects = [eff for eff in s.effects if eff.id != e["effect"]]


@applier("EffectsEnded")
def _effects_ended(s: GameState, e: Event) -> None:
    ended = set(e["effects"])
    s.effects = [eff for eff in s.effects if eff.id not in ended]


@applier("SchemeSetInMotion")
def _scheme(s: GameState, e: Event) -> None:
    s.schemes.pop(0)
    s.scheme_in_motion = e["scheme"]


@applier("SchemePutOnBottom")
def _scheme_bottom(s: GameState, e: Event) -> None:
    s.schemes.append(e["scheme"])
    s.scheme_in_motion = None
