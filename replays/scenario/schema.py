"""The shape of a scenario file (docs/reference/scenario-files.md) as pydantic models: what keys exist and what
type each holds, strictly (an unknown or misspelt key is an error naming its path). Its actions are
``scenario.actions``' models, each with the ``player`` who decides; ``Setup`` is also the body of
``POST /games``.

``check_scenario`` and ``check_action`` validate parsed JSON once, giving the models, or raise
``SchemaViolation`` with one line such as ``actions[3].target: unknown key (did you mean "targets"?)``
(``describe`` says the same of the service's requests); ``json_schema()`` is what ``mtg-ledger schema``
prints for editors. What the shape cannot say (card names, player names, the number of players a
format needs) is left to ``replays.scenario`` and the actions' ``to_command``, which cite the rules.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar, Union, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError, create_model
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import ErrorDetails, PydanticCustomError

from mtg_ledger.replays.scenario.actions import ACTION_MODELS, ACTION_NAMES, ActionModel
from mtg_ledger.replays.scenario.forms import (
    MAX_INT,
    Assignment,
    AttackerByName,
    BlockerByName,
    Damage,
    ObjectById,
    Step,
    Strict,
    TriggerByName,
)

Format = Literal["two-player", "free-for-all", "single-defender", "archenemy"]  # the one list of formats
FORMATS: tuple[str, ...] = get_args(Format)
__all__ = ["ACTION_NAMES", "FORMATS", "Format", "Scenario", "SchemaViolation", "Setup", "Step", "check_action", "check_scenario", "json_schema"]


def _not_null(value: Any) -> Any:
    if value is None:
        raise PydanticCustomError("null", "null is no value here: leave the key out for the default")
    return value


# A key whose absence means "the engine decides": it may be left out, but null is not one of its values.
Absent = Annotated[SkipJsonSchema[None], BeforeValidator(_not_null)]
A = TypeVar("A", bound=ActionModel)
Player = Annotated[str, Field(description="the player who decides", examples=["alice"])]


def with_fields(model: type[A], **fields: Any) -> type[A]:
    """``model`` with more keys, under the same name: the action as a scenario file or a request body holds it."""
    made: type[A] = create_model(model.__name__, __base__=model, __module__=model.__module__, __doc__=model.__doc__, **fields)
    return made


def one_of(models: tuple[type[BaseModel], ...]) -> Any:
    """The discriminated union of ``models`` (by their ``action``), as a type annotation."""
    return Annotated[Union[models], Field(discriminator="action")]  # noqa: UP007 - a union of a tuple known at run time


# A scenario file's action: the model, with the player who decides (pass_until: whoever holds priority).
ENTRIES: tuple[type[ActionModel], ...] = tuple(
    model if model.command is None else with_fields(model, player=(Player, ...)) for model in ACTION_MODELS
)
if TYPE_CHECKING:
    Action = ActionModel
else:
    Action = one_of(ENTRIES)


# --- the file -------------------------------------------------------------------------------------

Whole = Annotated[int, Field(ge=-MAX_INT - 1, le=MAX_INT)]


class PlayerSetup(Strict):
    name: str = Field(min_length=1)
    life: Whole | Absent = Field(None, description="starting life; left out, the format decides (20; the archenemy 40)")
    library: list[str] = Field([], description="top card first")
    deck: str | Absent = Field(
        None,
        description="instead of library: a deck list in the common text form, one `N Card Name` a line (docs/decks.md); "
        "shuffled with the seed; its sideboard is not played",
    )
    hand: list[str] | Absent = Field(None, description="the opening hand as given; left out, seven cards are drawn (103.5)")
    battlefield: list[str] = []
    schemes: list[str] | Absent = Field(None, description="the archenemy's scheme deck, top first")


class Setup(Strict):
    """A scenario without its actions: what a game starts from (the body of ``POST /games``)."""

    format: Format = "two-player"
    seed: int = Field(0, ge=0, le=2**64 - 1)
    shuffle: bool = False
    starting_player: str | Absent = Field(None, description="left out: the first player listed (the archenemy in that format)")
    players: list[PlayerSetup]


class Scenario(Setup):
    """A scenario file (docs/reference/scenario-files.md)."""

    model_config = ConfigDict(title="mtg-ledger scenario")

    schema_: str | Absent = Field(None, alias="$schema", description="the JSON Schema an editor checks this file against")
    actions: list[Action] = []


SCENARIO: TypeAdapter[Scenario] = TypeAdapter(Scenario)
ACTION: TypeAdapter[ActionModel] = TypeAdapter(Action)


class SchemaViolation(ValueError):
    """Parsed JSON that is not of the scenario's shape; the message is one line naming the path."""


def check_scenario(data: Any) -> Scenario:
    """``data`` as a scenario, or ``SchemaViolation`` for the first place where it is not of that shape."""
    try:
        return SCENARIO.validate_python(data)
    except ValidationError as e:
        raise SchemaViolation(describe(e.errors(), data, "")[1]) from None


def check_action(data: Any, where: str = "") -> ActionModel:
    """The same for one action (``mtg-ledger decide``), its path starting at ``where``."""
    try:
        return ACTION.validate_python(data)
    except ValidationError as e:
        raise SchemaViolation(describe(e.errors(), data, where)[1]) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file, for editors."""
    schema = SCENARIO.json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


# --- saying what is wrong, in one line ----------------------------------------------------------------


def describe(errors: Any, data: Any, where: str) -> tuple[str, str]:
    """The place (``actions[3].targets[0]``, after ``where``) and the one-line message of the error to
    report among pydantic's ``errors`` for ``data``: the CLI's and the service's words alike."""
    error = _first(errors)
    typo = _misspelt_action(error)
    loc = (*error["loc"], typo) if typo is not None else tuple(error["loc"])
    return _path(loc, data, where)[0], _say(error, data, where)


def _misspelt_action(error: ErrorDetails) -> str | None:
    """The key of an action without ``"action"`` that is a misspelling of it (``"acton"``), if any."""
    if error["type"] != "union_tag_not_found" or not isinstance(error["input"], dict):
        return None
    keys = [k for k in error["input"] if isinstance(k, str)]
    return next((k for k in keys if difflib.get_close_matches(k, ["action"], n=1)), None)


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error to report: a misspelt key explains the "missing key" it also causes, so it goes first."""
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
    Scenario, PlayerSetup, Damage, Assignment, AttackerByName, BlockerByName, TriggerByName, ObjectById, *ENTRIES,
)
_KEYS = sorted({field.alias or name for model in _MODELS for name, field in model.model_fields.items()})


def _number(value: Any) -> str:
    return f"a {len(str(abs(value)))}-digit number" if isinstance(value, int) and abs(value) >= 10**30 else repr(value)


def _say(error: ErrorDetails, data: Any, where: str) -> str:
    path, value = _path(tuple(error["loc"]), data, where)
    at = path or "scenario"
    kind = error["type"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    if kind == "extra_forbidden":
        key = str(error["loc"][-1])
        close = difflib.get_close_matches(key, [k for k in _KEYS if k != key], n=1)
        return f"{at}: unknown key" + (f' (did you mean "{close[0]}"?)' if close else "")
    if kind == "missing" and str(error["loc"][-1]) == "card" and isinstance(error["input"], dict):
        return f'{at}: missing key (or name it by "object")'
    if kind == "missing":
        return f"{at}: missing key"
    if kind == "union_tag_invalid" or (kind == "literal_error" and path.endswith(".action")):
        return f"{at}: unknown action {value if kind == 'literal_error' else error['input'].get('action')!r}; known: {', '.join(ACTION_NAMES)}"
    if kind == "union_tag_not_found":
        typo = _misspelt_action(error)
        if typo is not None:  # {"acton": "pass"}: the misspelt key, as any other (the tag is the key it misses)
            return f'{_path((*error["loc"], typo), data, where)[0]}: unknown key (did you mean "action"?)'
        return f'{at}: each action is an object with an "action" name'
    if kind == "literal_error":
        expected = ctx.get("expected", "")
        return f"{at}: {value!r} is not one of {expected.replace(chr(39), '')}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{at}: expected a whole number, got {error['input']!r:.60}"
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = f"at least {ctx['ge']}" if kind == "greater_than_equal" else f"at most {ctx['le']}"
        return f"{at}: {_number(error['input'])} is out of range ({bound})"
    if kind == "bool_type":
        return f"{at}: expected true or false, got {error['input']!r}"
    if kind == "string_type" and path.endswith(".card") and isinstance(error["input"], int):
        return f'{at}: expected a card name, got {error["input"]!r}; an object id is written {{"object": {error["input"]}}}'
    if kind == "string_type":
        return f"{at}: expected a string, got {error['input']!r:.60}"
    if kind == "list_type":
        return f"{at}: expected a list, got {error['input']!r:.60}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"{at}: expected an object, got {error['input']!r:.60}"
    return f"{at}: {error['msg'][:1].lower()}{error['msg'][1:]}"
