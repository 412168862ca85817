"""The fold of the read models (``projections.views``): each event type's fold, declared with ``@folder`` and
typed by the event's ``<Event>Fields``; ``fold`` advances a view by one event map, ``fold_many`` the views of
any number of games, ``project`` one game's whole log. Pure: no I/O. Event types no read model uses only move a
view's version.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import Catalog
from mtg_ledger.core.characteristics import cards_over_maximum as cards_to_discard
from mtg_ledger.core import events as ev
from mtg_ledger.core.events.cleanup import CardsDiscardedFields, CleanupPerformedFields
from mtg_ledger.core.events.effects import EffectCreatedFields, EffectsEndedFields, PermanentsPutIntoGraveyardFields, TokenCreatedFields
from mtg_ledger.core.events.permanents import ObjectCounteredFields, PermanentsExiledFields, PermanentsReturnedToHandFields
from mtg_ledger.core.events.outcome import GameEndedFields, PlayerLostFields
from mtg_ledger.core.events.priority import AbilityActivatedFields, LandPlayedFields, PriorityGivenFields, PriorityPassedFields, SpellCastFields
from mtg_ledger.core.events.sieges import SpellCastTransformedFields
from mtg_ledger.core.events.stack import AbilityTriggeredFields, ObjectResolvedFields, TriggeredAbilitiesStackedFields
from mtg_ledger.core.events.turn import CardDrawnFields, GameStartedFields, StepBeganFields, StepEndedFields, TurnBeganFields
from mtg_ledger.core.events.turn_actions import PermanentsPhasedFields
from mtg_ledger.core.turn import Step

from mtg_ledger.projections.views import Cleanup, Event, GameView, Projected, max_hand_size


# --- the fold ----------------------------------------------------------------------------

Folder = Callable[[GameView, Any], None]  # (view, the event's map, typed in each folder by its <Event>Fields)
F = TypeVar("F", bound=Folder)
FOLDERS: dict[str, Folder] = {}


def folder(event_class: type[ev.GameEvent]) -> Callable[[F], F]:
    """Declare the function below as the fold of ``event_class``: its map is typed by the event's
    ``<Event>Fields``, as core's appliers are, so mypy checks every key a fold reads."""

    def register(fn: F) -> F:
        FOLDERS[event_class.__name__] = fn
        return fn

    return register


def new_view(game_id: str) -> GameView:
    return GameView(game_id=game_id)


def fold(view: GameView, event: Event) -> None:
    """Advance ``view`` by one event map; event types that no read model uses only move the version."""
    view.version = event["v"]  # first: a fold reads the version of the event it folds here
    handler = FOLDERS.get(event["type"])
    if handler is not None:
        handler(view, event)


def fold_many(
    events: Iterable[tuple[str, Event]], load: Callable[[str], GameView | None]
) -> tuple[dict[str, GameView], list[tuple[str, Cleanup]]]:
    """Fold ``(game_id, event)`` pairs of any number of games, in order.

    ``load`` gives the stored view of a game not yet seen (or ``None`` for a new game). Returns the
    views touched and every cleanup row that changed, as ``(game_id, cleanup)``, oldest change first.
    """
    views: dict[str, GameView] = {}
    changed: list[tuple[str, Cleanup]] = []
    for game_id, event in events:
        view = views.get(game_id)
        if view is None:
            view = load(game_id) or new_view(game_id)
            views[game_id] = view
        before = view.cleanups
        fold(view, event)
        if view.cleanups is not before:
            changed.extend((game_id, c) for c in view.cleanups if not any(c is b for b in before))
    return views, changed


def project(game_id: str, events: Iterable[Event]) -> Projected:
    """The read models of one game from its whole log (tests, tools)."""
    views, changed = fold_many(((game_id, e) for e in events), lambda _: None)
    latest: dict[tuple[int, str], Cleanup] = {}  # ordered as the stores order them: version, then player
    for _, c in changed:
        latest[(c.version, c.player)] = c
    view = views.get(game_id) or new_view(game_id)
    return Projected(view, [latest[v] for v in sorted(latest)])


@folder(ev.GameStarted)
def _game_started(v: GameView, e: GameStartedFields) -> None:
    v.players = [p["name"] for p in e["players"]]
    catalog = Catalog.of(e["cards"]) if "cards" in e else CLASSIC  # the definitions the game recorded (schema 5)
    v.unbounded = sorted(name for name, c in catalog.cards.items() if c.no_maximum_hand_size)
    v.tokens = sorted(catalog.definitions[name]["name"] for name in catalog.definitions if catalog.definitions[name].get("token"))
    v.teams = [list(t) for t in e.get("teams", [])]
    v.hands = {p["name"]: len(p.get("hand", [])) for p in e["players"]}
    v.permanents = [
        {"object": perm["object"], "card": perm["card"], "controller": p["name"]}
        for p in e["players"]
        for perm in p.get("battlefield", [])
    ]


@folder(ev.TurnBegan)
def _turn_began(v: GameView, e: TurnBeganFields) -> None:
    v.turn = e["turn"]
    v.active_player = e["active_player"]
    v.phase = v.step = None


@folder(ev.StepBegan)
def _step_began(v: GameView, e: StepBeganFields) -> None:
    v.turn = e["turn"]
    v.phase = e["phase"]
    v.step = e["step"]
    v.priority = None
    if e["step"] == Step.CLEANUP and v.active_player is not None:  # 514.1; 805.4: each player of the active team
        team = next((t for t in v.teams if v.active_player in t), [v.active_player])
        v.cleanups = tuple(
            Cleanup(
                version=v.version,
                turn=e["turn"],
                player=player,
                hand_size=v.hands.get(player, 0),
                max_hand_size=max_hand_size(v, player),
                required=cards_to_discard(v.hands.get(player, 0), max_hand_size(v, player)),
            )
            for player in team
            if player not in v.lost
        )


@folder(ev.StepEnded)
def _step_ended(v: GameView, e: StepEndedFields) -> None:
    v.priority = None


@folder(ev.PriorityGiven)
def _priority_given(v: GameView, e: PriorityGivenFields) -> None:
    v.priority = e["player"]


@folder(ev.PriorityPassed)
def _priority_passed(v: GameView, e: PriorityPassedFields) -> None:
    v.priority = None  # 117.3d: priority moves on with the next PriorityGiven


@folder(ev.CardDrawn)
def _card_drawn(v: GameView, e: CardDrawnFields) -> None:
    v.hands[e["player"]] = v.hands.get(e["player"], 0) + 1


@folder(ev.LandPlayed)
def _land_played(v: GameView, e: LandPlayedFields) -> None:
    v.hands[e["player"]] = v.hands.get(e["player"], 0) - 1
    v.permanents.append({"object": e["object"], "card": e["card"], "controller": e["player"]})


@folder(ev.SpellCast)
def _spell_cast(v: GameView, e: SpellCastFields) -> None:
    v.hands[e["player"]] = v.hands.get(e["player"], 0) - 1
    v.stack.append({"object": e["object"], "card": e["card"], "controller": e["player"]})


@folder(ev.SpellCastTransformed)
def _cast_transformed(v: GameView, e: SpellCastTransformedFields) -> None:
    v.stack.append({"object": e["object"], "card": e["card"], "controller": e["player"]})  # from exile (310.11b)


@folder(ev.ObjectResolved)
def _object_resolved(v: GameView, e: ObjectResolvedFields) -> None:
    v.stack = [s for s in v.stack if s["object"] != e["object"]]
    if e.get("permanent") is not None:  # 608.3: a permanent spell becomes a permanent
        v.permanents.append({"object": e["permanent"], "card": e["card"], "controller": e["controller"]})


@folder(ev.PermanentsPutIntoGraveyard)
def _to_graveyard(v: GameView, e: PermanentsPutIntoGraveyardFields) -> None:
    _leave_battlefield(v, [p["object"] for p in e["permanents"]])


def _leave_battlefield(v: GameView, gone: list[int]) -> None:
    v.permanents = [p for p in v.permanents if p["object"] not in gone]


@folder(ev.PermanentsExiled)
def _exiled(v: GameView, e: PermanentsExiledFields) -> None:
    _leave_battlefield(v, [p["object"] for p in e["permanents"]])  # off the battlefield (406.2)


@folder(ev.PermanentsReturnedToHand)
def _returned_to_hand(v: GameView, e: PermanentsReturnedToHandFields) -> None:
    _leave_battlefield(v, [p["object"] for p in e["permanents"]])  # off the battlefield, and a card (not a token, 111.7) into its owner's hand (400.7)
    for p in e["permanents"]:
        if p["card"] not in v.tokens:
            v.hands[p["owner"]] = v.hands.get(p["owner"], 0) + 1


@folder(ev.ObjectCountered)
def _countered(v: GameView, e: ObjectCounteredFields) -> None:
    v.stack = [s for s in v.stack if s["object"] != e["object"]]  # 701.6a


@folder(ev.CardsDiscarded)
def _discarded(v: GameView, e: CardsDiscardedFields) -> None:
    v.hands[e["player"]] = v.hands.get(e["player"], 0) - len(e["cards"])
    if e.get("rule", "514.1") == "514.1" and v.step == Step.CLEANUP:  # 514.1: the discarding player's row
        v.cleanups = tuple(
            dataclasses.replace(c, discarded=c.discarded + tuple(e["cards"])) if c.turn == v.turn and c.player == e["player"] else c
            for c in v.cleanups
        )


@folder(ev.AbilityActivated)
def _ability_activated(v: GameView, e: AbilityActivatedFields) -> None:
    v.stack.append({"object": e["object"], "card": e["card"], "controller": e["player"]})


@folder(ev.AbilityTriggered)
def _ability_triggered(v: GameView, e: AbilityTriggeredFields) -> None:
    v.waiting.append({"object": e["object"], "card": e["card"], "controller": e["player"]})


@folder(ev.TriggeredAbilitiesStacked)
def _stacked(v: GameView, e: TriggeredAbilitiesStackedFields) -> None:
    waiting = {w["object"]: w for w in v.waiting}
    v.stack.extend(waiting[obj] for obj in e["objects"])
    gone = set(e["objects"]) | set(e["removed"])
    v.waiting = [w for w in v.waiting if w["object"] not in gone]


@folder(ev.TokenCreated)
def _token_created(v: GameView, e: TokenCreatedFields) -> None:
    v.permanents.append({"object": e["object"], "card": e["token"], "controller": e["player"]})


@folder(ev.PermanentsPhased)
def _phased(v: GameView, e: PermanentsPhasedFields) -> None:
    v.phased_out = [o for o in v.phased_out if o not in e["phased_in"]] + list(e["phased_out"])


@folder(ev.EffectCreated)
def _effect_created(v: GameView, e: EffectCreatedFields) -> None:
    effect = e["effect"]
    if effect.get("kind") == "no_max_hand_size":
        v.no_maximum.setdefault(effect["player"], []).append(effect["id"])


def _end_effects(v: GameView, ended: Iterable[int]) -> None:
    gone = set(ended)
    v.no_maximum = {p: [i for i in ids if i not in gone] for p, ids in v.no_maximum.items()}


@folder(ev.EffectsEnded)
def _effects_ended(v: GameView, e: EffectsEndedFields) -> None:
    _end_effects(v, e["effects"])


@folder(ev.CleanupPerformed)
def _cleanup_performed(v: GameView, e: CleanupPerformedFields) -> None:
    _end_effects(v, e["effects_ended"])


@folder(ev.PlayerLost)
def _player_lost(v: GameView, e: PlayerLostFields) -> None:
    player = e["player"]
    v.lost.append(player)
    if v.priority == player:
        v.priority = None
    # 800.4a: the objects of a player who leaves the game leave with them
    v.permanents = [p for p in v.permanents if p["controller"] != player]
    v.stack = [s for s in v.stack if s["controller"] != player]
    v.waiting = [w for w in v.waiting if w["controller"] != player]


@folder(ev.GameEnded)
def _game_ended(v: GameView, e: GameEndedFields) -> None:
    v.priority = None
