"""Read models folded from the contract event maps (docs/reference/events.md). Pure: no I/O.

Three read models per game, all derived from one small fold state, :class:`GameView`:

- phase/step: turn, phase, step, active player, who holds priority (``None`` when nobody does), version;
- the stack, bottom first (rows of object, card, controller);
- hand sizes: each player's hand size, maximum hand size (402.2) and cards to discard (514.1),
  plus the history of cleanup steps (:class:`Cleanup`).

The fold (``projections.folds``) reads only what the events say and what a card's definition says about hand
size; it mirrors the event appliers (``core.events``) for the fields the two have in common.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mtg_ledger.core.characteristics import cards_over_maximum as cards_to_discard
from mtg_ledger.core.characteristics import maximum_hand_size

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
