"""Read models folded from the contract event maps (docs/reference/events.md). Pure: no I/O.

Three read models per game, all derived from one small fold state, :class:`GameView`:

- phase/step: turn, phase, step, active player, who holds priority (``None`` when nobody does), version;
- the stack, bottom first (rows of object, card, controller);
- hand sizes: each player's hand size, maximum hand size (402.2) and cards to discard (514.1),
  plus the history of cleanup steps (:class:`Cleanup`).

The fold reads only what the events say and what a card's definition says about hand size;
it mirrors the event appliers (``core.events``) for the fields the two have in common.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import Catalog
from mtg_ledger.core.characteristics import cards_over_maximum as cards_to_discard
from mtg_ledger.core.characteristics import maximum_hand_size
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

Event = Mapping[str, Any]
Row = dict[str, Any]

VIEW_SCHEMA = 4  # the layout of GameView.to_dict(); a change means rebuilding stored views (3: a cleanup per team player; 4: unbounded, tokens)


@dataclass(frozen=True)
class Cleanup:
    """One player's part of a cleanup step (514): their hand as it began, and what they discarded
    (514.1). With shared team turns every player of the active team has one (805.4)."""

    version: int  # of the StepBegan event that began this cleanup step
    turn: int
    player: str
    hand_size: int
    max_hand_size: int | None
    required: int
    discarded: tuple[str, ...] = ()


@dataclass
class GameView:
    """What the fold needs to carry from one event to the next, for one game."""

    game_id: str
    version: int = 0
    turn: int = 0
    phase: str | None = None
    step: str | None = None
    active_player: str | None = None
    priority: str | None = None
    players: list[str] = field(default_factory=list)  # seats, as GameStarted lists them
    hands: dict[str, int] = field(default_factory=dict)  # player -> number of cards in hand
    permanents: list[Row] = field(default_factory=list)  # {"object", "card", "controller"}
    stack: list[Row] = field(default_factory=list)  # bottom first; {"object", "card", "controller"}
    waiting: list[Row] = field(default_factory=list)  # triggered abilities not yet on the stack (603.3)
    phased_out: list[int] = field(default_factory=list)  # treated as though they don't exist (702.26b)
    no_maximum: dict[str, list[int]] = field(default_factory=dict)  # player -> effects lifting the maximum
    lost: list[str] = field(default_factory=list)  # players who left the game (800.4a)
    teams: list[list[str]] = field(default_factory=list)  # 805: players sharing their turns (empty: none)
    cleanups: tuple[Cleanup, ...] = ()  # the latest cleanup step, one per player of the active team; replaced on change
    unbounded: list[str] = field(default_factory=list)  # the game's cards that lift their controller's maximum hand size (402.2)
    tokens: list[str] = field(default_factory=list)  # the names of the game's tokens (111): none goes to a hand (111.7)

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["cleanups"] = [{**dataclasses.asdict(c), "discarded": list(c.discarded)} for c in self.cleanups]
        out["schema"] = VIEW_SCHEMA
        return out

    @classmethod
    def stored(cls, data: Mapping[str, Any]) -> GameView | None:
        """A stored view, or None when it has an older layout (the views are then folded again)."""
        return cls.from_dict(data) if data.get("schema") == VIEW_SCHEMA else None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameView:
        d = dict(data)
        schema = d.pop("schema", None)
        if schema != VIEW_SCHEMA:
            raise ValueError(f"stored game view has schema {schema!r}, expected {VIEW_SCHEMA}: rebuild the views")
        cleanups = d.pop("cleanups")
        view = cls(**d)
        view.cleanups = tuple(Cleanup(**{**c, "discarded": tuple(c["discarded"])}) for c in cleanups)
        return view


class Projected(NamedTuple):
    view: GameView
    cleanups: list[Cleanup]


# --- card knowledge ----------------------------------------------------------------------


def max_hand_size(view: GameView, player: str) -> int | None:
    """402.2 (core.characteristics.maximum_hand_size), from what the events said: a permanent the
    player controls lifts it (Spellbook), or an effect lasting until their next turn (a scheme)."""
    lifted = any(
        perm["controller"] == player and perm["object"] not in view.phased_out and perm["card"] in view.unbounded
        for perm in view.permanents
    ) or bool(view.no_maximum.get(player))
    return maximum_hand_size(lifted)


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


# --- rows ----------------------------------------------------------------------------------


def phase_step_row(view: GameView) -> Row:
    return {
        "game_id": view.game_id,
        "turn": view.turn,
        "phase": view.phase,
        "step": view.step,
        "active_player": view.active_player,
        "priority": view.priority,
        "version": view.version,
    }


def stack_rows(view: GameView) -> list[Row]:
    """Bottom first; ``position`` 0 is the bottom of the stack."""
    return [{"game_id": view.game_id, "position": i, **s} for i, s in enumerate(view.stack)]


def hand_size_rows(view: GameView) -> list[Row]:
    rows = []
    for seat, player in enumerate(view.players):
        hand = view.hands.get(player, 0)
        maximum = max_hand_size(view, player)
        rows.append(
            {
                "game_id": view.game_id,
                "seat": seat,
                "player": player,
                "hand_size": hand,
                "max_hand_size": maximum,
                "cards_to_discard": cards_to_discard(hand, maximum),
            }
        )
    return rows


def cleanup_row(game_id: str, c: Cleanup) -> Row:
    return {
        "game_id": game_id,
        "version": c.version,
        "turn": c.turn,
        "player": c.player,
        "hand_size": c.hand_size,
        "max_hand_size": c.max_hand_size,
        "required": c.required,
        "discarded": list(c.discarded),
    }
