"""The forms an action's parts take in a scenario file, a service's body and ``mtg-ledger decide``
(docs/reference/scenario-files.md): naming a card or a permanent (by name, by ``{"card": NAME, "index": I}``,
by ``{"object": N}`` or by id), a player, an attacker and what it attacks, a blocker, a waiting trigger, a
damage assignment; and what those names mean in a game (``known``: a card the pool knows, with the nearest
names when it does not; a player of the game). The actions themselves, one model per kind, are
``scenario.actions``'.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag
from pydantic_core import PydanticCustomError

from mtg_ledger.replays.cards import live_pool
from mtg_ledger.core.commands import (
    CardRef,
)
from mtg_ledger.core.commands import Ref as RefCommand
from mtg_ledger.core.commands import Target as TargetCommand
from mtg_ledger.core.errors import UnknownCard
from mtg_ledger.core.turn import STEP_NAMES

Map = dict[str, Any]
MAX_INT = 2**31 - 1  # what a turn, an index, an object id or a life total can be

Step = Literal[STEP_NAMES]  # type: ignore[valid-type]  # the engine's table of steps, 500-514
Count = Annotated[int, Field(ge=0, le=MAX_INT)]


class ScenarioError(ValueError):
    """A malformed scenario file, or action: the message says where and what."""


@dataclass(frozen=True)
class PassUntil:
    """A scenario's shorthand, no decision of the rules: pass up to the first decision of that step of that turn."""

    turn: int
    step: str


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- naming a card or a permanent -----------------------------------------------------------------


class CardByName(Strict):
    """The ``index``-th card of that name in the zone the action takes it from (0: the first)."""

    card: str = Field(description="the card's English name")  # (no ``examples``: the service's fuzzing generates its own)
    index: Count = Field(0, description="which of the cards of that name, 0 for the first")


class ObjectById(Strict):
    """The object with this id (the ``object`` of the state and the events)."""

    object: Count = Field(description="an object id, as `mtg-ledger state` shows it")


def _ref_kind(value: Any) -> str:
    if isinstance(value, str):
        return "by-name"
    if isinstance(value, int) and not isinstance(value, bool):
        return "by-id"
    return "by-object" if _by_object(value) else "by-card"


def _by_object(value: Any) -> bool:
    """An object named by id: ``{"object": N}`` as parsed JSON, or its model when serialised."""
    return isinstance(value, ObjectById) or (isinstance(value, dict) and "object" in value)


# Each form is told apart by its JSON type and keys (never tried one after another), so the JSON Schema
# has exactly one matching branch for any value, and an error is about the form that was meant.
Ref = Annotated[
    Annotated[str, Tag("by-name")] | Annotated[int, Tag("by-id")] | Annotated[CardByName, Tag("by-card")] | Annotated[ObjectById, Tag("by-object")],
    Discriminator(_ref_kind),
    Field(description='a card name, {"card": NAME, "index": I}, {"object": N} or an object id'),
]
Target = Annotated[Ref, Field(description='a player name, a card name, {"card": NAME, "index": I}, {"object": N} or an object id')]
Pay = Annotated[list[Ref] | None, Field(description="the permanents to tap for mana; left out, the engine pays")]


def _no_object_in_a_hand(value: Any) -> Any:
    if (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, dict) and "object" in value):
        raise PydanticCustomError(
            "hand_object", 'a card in a hand has no object id (the state lists a hand by card name); name it: "NAME" or {"card": NAME}'
        )
    return value


InHand = Annotated[
    Annotated[str, Tag("by-name")] | Annotated[CardByName, Tag("by-card")],
    Discriminator(lambda value: "by-card" if isinstance(value, (dict, CardByName)) else "by-name"),
    BeforeValidator(_no_object_in_a_hand),
    Field(description='a card in a hand, by name: "NAME" or {"card": NAME} (copies in a hand are interchangeable)'),
]


Defender = Annotated[
    Annotated[str, Tag("player")] | Annotated[CardByName, Tag("by-card")] | Annotated[ObjectById, Tag("by-object")],
    Discriminator(lambda value: "player" if isinstance(value, str) else ("by-object" if _by_object(value) else "by-card")),
    Field(description='the player it attacks, or a planeswalker or battle: {"object": N} or {"card": NAME, "index": I} (506.3)'),
]
DEFENDER_HELP = "what it attacks: a player, or a planeswalker or battle by {\"object\": N} or {\"card\": NAME}; needed when several can be attacked"


class AttackerByName(CardByName):
    defender: Defender | None = Field(None, description=DEFENDER_HELP)


class AttackerById(ObjectById):
    defender: Defender | None = Field(None, description=DEFENDER_HELP)


class BlockerByName(CardByName):
    attacker: Ref = Field(description="the attacking creature it blocks")


class BlockerById(ObjectById):
    attacker: Ref = Field(description="the attacking creature it blocks")


class TriggerByName(CardByName):
    targets: list[Target] | None = Field(None, description="the ability's targets")


class TriggerById(ObjectById):
    targets: list[Target] | None = Field(None, description="the ability's targets")


Attacker = Annotated[
    Annotated[str, Tag("by-name")] | Annotated[int, Tag("by-id")] | Annotated[AttackerByName, Tag("by-card")]
    | Annotated[AttackerById, Tag("by-object")],
    Discriminator(_ref_kind),
    Field(description='a creature as a card name or an object id, or {"card": NAME, "index": I, "defender": PLAYER} or {"object": N, "defender": PLAYER}'),
]
Blocker = Annotated[
    Annotated[BlockerByName, Tag("by-card")] | Annotated[BlockerById, Tag("by-object")],
    Discriminator(lambda value: "by-object" if _by_object(value) else "by-card"),
    Field(description='{"card": BLOCKER, "attacker": ATTACKER} or {"object": N, "attacker": ATTACKER}'),
]
Trigger = Annotated[
    Annotated[str, Tag("by-name")] | Annotated[int, Tag("by-id")] | Annotated[TriggerByName, Tag("by-card")]
    | Annotated[TriggerById, Tag("by-object")],
    Discriminator(_ref_kind),
    Field(description='a waiting triggered ability: its source card name, its object id, {"card": NAME, "index": I, "targets": [...]} or {"object": N, "targets": [...]}'),
]


class Damage(Strict):
    target: Target
    amount: Count


class Assignment(Strict):
    attacker: Ref
    damage: list[Damage] = []


# --- what the names mean in a game: card names the pool knows, player names of the game ------------


NEAREST = 3  # the pool's names offered for a misspelt card


def known(name: str, at: str) -> str:
    """``name`` if the pool knows it (a card, a token or a back face); else a ScenarioError naming the
    nearest names of the pool, never the whole pool."""
    try:
        live_pool().catalog.require_known(name)
    except UnknownCard as e:
        near = nearest_cards(name)
        hint = f"; did you mean {', '.join(repr(n) for n in near[:-1])}{' or ' if len(near) > 1 else ''}{near[-1]!r}?" if near else ""
        raise ScenarioError(f"{at}: {e.message}{hint} (rule {e.rule})") from None
    return name


def nearest_cards(name: str) -> list[str]:
    """The pool's names closest to ``name`` (difflib's ratio, case left aside), best first."""
    pool = live_pool().catalog.names()
    by_lower = {n.lower(): n for n in pool}
    return [by_lower[n] for n in difflib.get_close_matches(name.lower(), list(by_lower), n=NEAREST, cutoff=0.6)]


def _ref(value: str | int | CardByName | ObjectById, at: str) -> RefCommand:
    if isinstance(value, str):
        return CardRef(known(value, at))
    if isinstance(value, int):
        return value
    if isinstance(value, ObjectById):
        return value.object
    return CardRef(known(value.card, at), value.index)


def _target(value: str | int | CardByName | ObjectById, names: Sequence[str], at: str) -> TargetCommand:
    return value if isinstance(value, str) and value in names else _ref(value, at)


def _player(name: str | None, names: Sequence[str], at: str) -> str | None:
    if name is not None and name not in names:
        raise ScenarioError(f"{at}: {name!r} is not a player")
    return name


def _in_hand(value: str | CardByName, at: str, *, printed: bool = False) -> str:
    """A card in a hand, by name (its index changes nothing: a hand is known by card names only);
    ``printed``: a card of the pool, not a token or a back face."""
    name = known(value if isinstance(value, str) else value.card, at)
    if printed and name not in live_pool().catalog.cards:
        raise ScenarioError(f"{at}: {name!r} is not a card that can be in a hand (a token or a back face)")
    return name


def _paid_with(pay: list[Any] | None, at: str) -> tuple[RefCommand, ...] | None:
    return None if pay is None else tuple(_ref(r, f"{at}.pay[{j}]") for j, r in enumerate(pay))


def _ref_json(ref: RefCommand) -> Any:
    if isinstance(ref, CardRef):
        return {"card": ref.card, "index": ref.index} if ref.index else ref.card
    return {"object": ref}


def _target_json(target: TargetCommand) -> Any:
    return target if isinstance(target, str) else _ref_json(target)


def _named(ref: RefCommand, **more: Any) -> Map:
    base = _ref_json(ref)
    return {**(base if isinstance(base, dict) else {"card": base}), **more}
