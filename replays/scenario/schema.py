"""The shape of a scenario file (CONTRACT section 2) as pydantic models: what keys exist and what
type each holds, strictly (an unknown or misspelt key is an error naming its path).

``check_scenario`` and ``check_action`` validate parsed JSON and raise ``SchemaViolation`` with one
line such as ``actions[3].target: unknown key (did you mean "targets"?)``; ``json_schema()`` is what
``mtg-ledger schema`` prints for editors. What the shape cannot say (card names, player names, the
number of players a format needs) is left to ``replays.scenario``, which cites the rules.

The models are meant to be shared: the HTTP service can take ``Action`` and ``Setup`` as its bodies.
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, model_validator, BeforeValidator, ConfigDict, Discriminator, Field, Tag, TypeAdapter, ValidationError
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import ErrorDetails, PydanticCustomError

Step = Literal[
    "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers", "declare_blockers",
    "combat_damage", "end_of_combat", "postcombat_main", "end", "cleanup",
]
Format = Literal["two-player", "free-for-all", "single-defender", "archenemy"]


def _not_null(value: Any) -> Any:
    if value is None:
        raise PydanticCustomError("null", "null is no value here: leave the key out for the default")
    return value


# A key whose absence means "the engine decides": it may be left out, but null is not one of its values.
Absent = Annotated[SkipJsonSchema[None], BeforeValidator(_not_null)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- naming a card or a permanent -----------------------------------------------------------------


class CardByName(Strict):
    """The ``index``-th card of that name in the zone the action takes it from (0: the first)."""

    card: str = Field(description="the card's English name", examples=["Grizzly Bears"])
    index: int = Field(0, ge=0, description="which of the cards of that name, 0 for the first")


class ObjectById(Strict):
    """The object with this id (the ``object`` of the state and the events)."""

    object: int = Field(ge=0, description="an object id, as `mtg-ledger state` shows it", examples=[3])


def _ref_kind(value: Any) -> str:
    if isinstance(value, str):
        return "by-name"
    if isinstance(value, int) and not isinstance(value, bool):
        return "by-id"
    if isinstance(value, dict) and "object" in value:
        return "by-object"
    return "by-card"


Ref = Annotated[
    Annotated[str, Tag("by-name")] | Annotated[int, Tag("by-id")] | Annotated[CardByName, Tag("by-card")] | Annotated[ObjectById, Tag("by-object")],
    Discriminator(_ref_kind),
    Field(description='a card name, {"card": NAME, "index": I}, {"object": N} or an object id'),
]
Target = Annotated[Ref, Field(description='a player name, a card name, {"card": NAME, "index": I}, {"object": N} or an object id')]


class AttackerByName(CardByName):
    defender: str | None = Field(None, description="the player it attacks; needed when several can be attacked")


class AttackerById(ObjectById):
    defender: str | None = Field(None, description="the player it attacks; needed when several can be attacked")


class BlockerByName(CardByName):
    attacker: Ref = Field(description="the attacking creature it blocks")


class BlockerById(ObjectById):
    attacker: Ref = Field(description="the attacking creature it blocks")


class TriggerByName(CardByName):
    targets: list[Target] | None = Field(None, description="the ability's targets")


class TriggerById(ObjectById):
    targets: list[Target] | None = Field(None, description="the ability's targets")


# Each form is told apart by its JSON type and keys (never tried one after another), so the JSON Schema
# has exactly one matching branch for any value, and an error is about the form that was meant.
Attacker = Annotated[
    Annotated[str, Tag("by-name")] | Annotated[int, Tag("by-id")] | Annotated[AttackerByName, Tag("by-card")]
    | Annotated[AttackerById, Tag("by-object")],
    Discriminator(_ref_kind),
    Field(description='a creature as a card name or an object id, or {"card": NAME, "index": I, "defender": PLAYER} or {"object": N, "defender": PLAYER}'),
]
Blocker = Annotated[
    Annotated[BlockerByName, Tag("by-card")] | Annotated[BlockerById, Tag("by-object")],
    Discriminator(lambda value: "by-object" if isinstance(value, dict) and "object" in value else "by-card"),
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
    amount: int


class Assignment(Strict):
    attacker: Ref
    damage: list[Damage] = []


# --- actions --------------------------------------------------------------------------------------

Player = Annotated[str, Field(description="the player who decides", examples=["alice"])]
Pay = Annotated[list[Ref] | None, Field(description="the permanents to tap for mana; left out, the engine pays")]


class Pass(Strict):
    """Pass priority (117.3d)."""

    action: Literal["pass"]
    player: Player


class PassUntil(Strict):
    """Whoever holds priority passes, declaring nothing, up to the first decision of that step of that turn."""

    action: Literal["pass_until"]
    turn: int = Field(ge=1)
    step: Step


class PlayLand(Strict):
    """Play a land from hand (305, a special action)."""

    action: Literal["play_land"]
    player: Player
    card: Ref
    index: int = Field(0, ge=0)


class Cast(Strict):
    """Cast a spell from hand (601)."""

    action: Literal["cast"]
    player: Player
    card: Ref
    index: int = Field(0, ge=0)
    targets: list[Target] = []
    pay: Pay = None


class Activate(Strict):
    """Activate an ability of a permanent (602, 605): mana abilities are numbered first."""

    action: Literal["activate"]
    player: Player
    card: Ref | None = Field(None, description="the permanent whose ability is activated (or name it by `object`)")
    object: int | None = Field(None, ge=0, description="the permanent's object id, instead of `card`")
    index: int = Field(0, ge=0)
    ability: int = Field(0, description="which ability: the mana abilities are numbered first, from 0")

    @model_validator(mode="after")
    def _one_permanent(self) -> Activate:
        if (self.card is None) == (self.object is None):
            raise ValueError('name the permanent once: "card" or "object"')
        return self


class DeclareAttackers(Strict):
    """Declare attackers (508.1); an empty list declares none."""

    action: Literal["declare_attackers"]
    player: Player
    attackers: list[Attacker] = []
    pay: Pay = None


class DeclareBlockers(Strict):
    """Declare blockers (509.1); an empty list declares none."""

    action: Literal["declare_blockers"]
    player: Player
    blockers: list[Blocker] = []


class AssignDamage(Strict):
    """Divide blocked attackers' combat damage (510.1c); attackers not named take the default."""

    action: Literal["assign_damage"]
    player: Player
    assignments: list[Assignment] = []


class ChooseDefender(Strict):
    """Choose the defending player (507.1, single-defender format)."""

    action: Literal["choose_defender"]
    player: Player
    defender: str


class DiscardCards(Strict):
    """Discard (514.1 in cleanup, or when a resolving ability asks, 608.2d)."""

    action: Literal["discard"]
    player: Player
    cards: list[Ref] = []


class OrderTriggers(Strict):
    """Put your waiting triggered abilities on the stack, bottom first (603.3b)."""

    action: Literal["order_triggers"]
    player: Player
    order: list[Trigger] = []


class Concede(Strict):
    """Leave the game (104.3a)."""

    action: Literal["concede"]
    player: Player


Action = Annotated[
    Pass | PassUntil | PlayLand | Cast | Activate | DeclareAttackers | DeclareBlockers | AssignDamage | ChooseDefender
    | DiscardCards | OrderTriggers | Concede,
    Field(discriminator="action"),
]
ACTION_NAMES: tuple[str, ...] = (
    "pass", "pass_until", "play_land", "cast", "activate", "declare_attackers", "declare_blockers",
    "assign_damage", "choose_defender", "discard", "order_triggers", "concede",
)


# --- the file -------------------------------------------------------------------------------------


class PlayerSetup(Strict):
    name: str = Field(min_length=1)
    life: int | Absent = Field(None, description="starting life; left out, the format decides (20; the archenemy 40)")
    library: list[str] = Field([], description="top card first")
    hand: list[str] | Absent = Field(None, description="the opening hand as given; left out, seven cards are drawn")
    battlefield: list[str] = []
    schemes: list[str] | Absent = Field(None, description="the archenemy's scheme deck, top first")


class Setup(Strict):
    """A scenario without its actions: what a game starts from."""

    schema_: str | None = Field(None, alias="$schema", description="the JSON Schema an editor checks this file against")
    format: Format = "two-player"
    seed: int = 0
    shuffle: bool = False
    starting_player: str | Absent = Field(None, description="left out: the first player listed (the archenemy in that format)")
    players: list[PlayerSetup]


class Scenario(Setup):
    """A scenario file (CONTRACT section 2)."""

    model_config = ConfigDict(title="mtg-ledger scenario")

    actions: list[Action] = []


SCENARIO: TypeAdapter[Scenario] = TypeAdapter(Scenario)
ACTION: TypeAdapter[Any] = TypeAdapter(Action)


class SchemaViolation(ValueError):
    """Parsed JSON that is not of the scenario's shape; the message is one line naming the path."""


def check_scenario(data: Any) -> None:
    """Raises ``SchemaViolation`` for the first place where ``data`` is not a scenario's shape."""
    try:
        SCENARIO.validate_python(data)
    except ValidationError as e:
        raise SchemaViolation(_say(_first(e), data, "")) from None


def check_action(data: Any, where: str = "") -> None:
    """The same for one action (``mtg-ledger decide``), its path starting at ``where``."""
    try:
        ACTION.validate_python(data)
    except ValidationError as e:
        raise SchemaViolation(_say(_first(e), data, where)) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file, for editors."""
    schema = SCENARIO.json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def _first(error: ValidationError) -> ErrorDetails:
    """The error to report: a misspelt key explains the "missing key" it also causes, so it goes first."""
    errors = error.errors()
    return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])


def _path(loc: tuple[int | str, ...], data: Any, where: str) -> tuple[str, Any]:
    """The error's place as ``actions[3].targets[0]``, with the value there. A union's member names
    (``by-card``, ``cast``, ``list[str]``) are in pydantic's path too: a name that is no key of the
    object at that place, other than a missing key at the end, is one of those and left out."""
    out, here = where, data
    for i, step in enumerate(loc):
        if isinstance(step, str) and not (isinstance(here, dict) and (step in here or i == len(loc) - 1)):
            continue
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
        if isinstance(here, dict):
            here = here.get(step)
        else:
            here = here[step] if isinstance(here, list) and isinstance(step, int) and 0 <= step < len(here) else None
    return out, here


_MODELS: tuple[type[BaseModel], ...] = (
    Scenario, PlayerSetup, Damage, Assignment, AttackerByName, BlockerByName, TriggerByName, ObjectById, Pass, PassUntil,
    PlayLand, Cast, Activate, DeclareAttackers, DeclareBlockers, AssignDamage, ChooseDefender, DiscardCards, OrderTriggers,
    Concede,
)
_KEYS = sorted({field.alias or name for model in _MODELS for name, field in model.model_fields.items()})


def _say(error: ErrorDetails, data: Any, where: str) -> str:
    path, value = _path(tuple(error["loc"]), data, where)
    at = path or "scenario"
    kind = error["type"]
    if kind == "extra_forbidden":
        key = str(error["loc"][-1])
        close = difflib.get_close_matches(key, [k for k in _KEYS if k != key], n=1)
        return f"{at}: unknown key" + (f' (did you mean "{close[0]}"?)' if close else "")
    if kind == "missing":
        return f"{at}: missing key"
    if kind == "union_tag_invalid" or (kind == "literal_error" and path.endswith(".action")):
        return f"{at}: unknown action {value if kind == 'literal_error' else error['input'].get('action')!r}; known: {', '.join(ACTION_NAMES)}"
    if kind == "union_tag_not_found":
        return f'{at}: each action is an object with an "action" name'
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        return f"{at}: {value!r} is not one of {expected.replace(chr(39), '')}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{at}: expected a whole number, got {error['input']!r}"
    if kind == "bool_type":
        return f"{at}: expected true or false, got {error['input']!r}"
    if kind == "string_type" and path.endswith(".card") and isinstance(error["input"], int):
        return f'{at}: expected a card name, got {error["input"]!r}; an object id is written {{"object": {error["input"]}}}'
    if kind == "string_type":
        return f"{at}: expected a string, got {error['input']!r}"
    if kind == "list_type":
        return f"{at}: expected a list, got {error['input']!r}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"{at}: expected an object, got {error['input']!r}"
    return f"{at}: {error['msg'][:1].lower()}{error['msg'][1:]}"
