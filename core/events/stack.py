"""The stack beyond casting: triggered abilities waiting and put on it (603.2-603.3), and objects
resolving (608), pausing for a choice (608.2d)."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.state import GameState, Permanent, StackObject, Trigger


class AbilityTriggeredFields(TypedDict):
    player: str
    source: int | None
    card: str
    ability: int
    object: int
    context: dict[str, Any]


class AbilityTriggered(GameEvent):
    """603.2: an ability triggers; it waits, as ``object``, to be put on the stack the next time a
    player would receive priority (603.3). ``context`` is what it saw (a player, a chapter)."""

    fields_type = AbilityTriggeredFields


@applies(AbilityTriggered)
def _ability_triggered(s: GameState, e: AbilityTriggeredFields) -> None:
    s.pending_triggers.append(
        Trigger(object=e["object"], player=e["player"], card=e["card"], source=e["source"], ability=e["ability"], context=dict(e["context"]))
    )
    s.next_object = e["object"] + 1


class TriggerOrderAskedFields(TypedDict):
    player: str
    priority_to: str


class TriggerOrderAsked(GameEvent):
    """603.3b-d: ``player`` must put their waiting triggered abilities on the stack in an order of
    their choice (and choose targets); ``priority_to`` receives priority afterwards."""

    fields_type = TriggerOrderAskedFields


@applies(TriggerOrderAsked)
def _order_asked(s: GameState, e: TriggerOrderAskedFields) -> None:
    s.ordering = {"player": e["player"], "priority_to": e["priority_to"]}


class TriggeredAbilitiesStackedFields(TypedDict):
    player: str
    objects: list[int]
    targets: dict[str, list[Any]]
    removed: list[int]


class TriggeredAbilitiesStacked(GameEvent):
    """603.3b: ``player``'s triggered abilities go on the stack, ``objects`` bottom first, with their
    ``targets``; those in ``removed`` had no legal target and are removed (603.3d)."""

    fields_type = TriggeredAbilitiesStackedFields


@applies(TriggeredAbilitiesStacked)
def _stacked(s: GameState, e: TriggeredAbilitiesStackedFields) -> None:
    pending = {t.object: t for t in s.pending_triggers}
    for obj in e["objects"]:
        t = pending[obj]
        s.stack.append(
            StackObject(
                object=obj, card=t.card, controller=t.player, kind="triggered", targets=list(e["targets"].get(str(obj), [])),
                source=t.source, ability=t.ability, context=dict(t.context),
            )
        )
    gone = set(e["objects"]) | set(e["removed"])
    s.pending_triggers = [t for t in s.pending_triggers if t.object not in gone]
    s.ordering = None


class ResolutionPausedFields(TypedDict):
    object: int
    player: str
    choice: str
    count: int
    effect: int


class ResolutionPaused(GameEvent):
    """608.2d: a resolving object waits for its controller's choice (``choice``: discard ``count``)."""

    fields_type = ResolutionPausedFields


@applies(ResolutionPaused)
def _paused(s: GameState, e: ResolutionPausedFields) -> None:
    s.paused = {"object": e["object"], "player": e["player"], "choice": e["choice"], "count": e["count"], "effect": e["effect"]}


class ObjectResolvedFields(TypedDict):
    object: int
    card: str
    controller: str
    outcome: str
    permanent: int | None


class ObjectResolved(GameEvent):
    """608.2: ``outcome`` is ``resolved``, or ``fizzled`` when every target became illegal (608.2b).

    A permanent spell becomes the permanent ``permanent`` (608.3); others go to the graveyard (608.2n).
    """

    fields_type = ObjectResolvedFields


@applies(ObjectResolved)
def _object_resolved(s: GameState, e: ObjectResolvedFields) -> None:
    # the top object; a spell cast while it resolved (608.2g, 310.11b) sits above it
    top = s.stack.pop() if s.stack[-1].object == e["object"] else s.stack.pop(next(i for i, o in enumerate(s.stack) if o.object == e["object"]))
    s.paused = None
    s.passes = []
    if top.kind != "spell":
        return  # an ability simply leaves the stack (608.2n)
    if e["permanent"] is not None:  # 608.3; a spell cast transformed becomes a permanent with its back face up (712.11a)
        transformed = bool(top.context.get("transformed", False))
        s.battlefield.append(Permanent(object=e["permanent"], card=top.card, owner=top.controller, controller=top.controller, transformed=transformed))
        s.next_object = e["permanent"] + 1
    else:
        s.players[top.controller].graveyard.append(top.card)
