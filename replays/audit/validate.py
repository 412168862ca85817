"""Every event of a log against the schema (docs/reference/events.md), before the rules look at it:
known type, exactly its fields (none missing, none unknown), each of the declared type (a bool is not
an int, a float is not an int), ``v`` a version and ``hash`` a sha256 in hex. ``GameStarted``, the one
event a replay takes as given rather than derives, is checked down to every player's entry.

The types are checked by pydantic in strict mode against each event's ``<Event>Fields`` TypedDict (the one
its applier is typed with, core/events/base.py), one ``TypeAdapter`` per event type built at import; the
keys (missing, unknown) are compared here first, so a finding names them as it always has.

``first_problem`` returns the first event that fails, as a ``Finding``; the audit and ``import`` both
run it, then re-adjudicate the log by replay.
"""

from __future__ import annotations

import re
import typing
from typing import Any

from typing_extensions import TypedDict

from pydantic import TypeAdapter, ValidationError

from mtg_ledger.core.events import EVENT_TYPES
from mtg_ledger.replays.logfile import Finding

Map = dict[str, Any]
HEX64 = re.compile(r"[0-9a-f]{64}")
FORMATS = ("two-player", "free-for-all", "single-defender", "archenemy")
SEED_RANGE = range(0, 2**64)


class PlayerEntry(TypedDict):
    """One player's entry of ``GameStarted.players``."""

    name: str
    life: int
    schemes: list[str]
    library: list[str]
    hand: list[str]
    opening_hand: bool
    battlefield: list[dict[str, Any]]


class PermanentEntry(TypedDict):
    """One permanent of a player's starting ``battlefield``."""

    object: int
    card: str


class Shape:
    """A map's declared keys and their types (a TypedDict's), and pydantic's strict check of them."""

    def __init__(self, typed: Any) -> None:
        self.types: dict[str, Any] = typing.get_type_hints(typed)
        self.adapter: TypeAdapter[Any] = TypeAdapter(typed)

    def wrong_key(self, value: dict[str, Any]) -> str | None:
        """The first declared key (in declaration order) whose value is not of its type, or None."""
        try:
            self.adapter.validate_python(value, strict=True)  # strict: True is not an int, 3.0 is not an int
        except ValidationError as error:
            wrong = {str(e["loc"][0]) for e in error.errors() if e["loc"]}
            return next((k for k in self.types if k in wrong), next(iter(self.types)))
        return None


FIELDS = {name: Shape(cls.fields_type) for name, cls in EVENT_TYPES.items()}
PLAYER_FIELDS = Shape(PlayerEntry)
PERMANENT_FIELDS = Shape(PermanentEntry)


def _name(tp: Any) -> str:
    if typing.get_origin(tp) is None and isinstance(tp, type):
        return {"str": "a string", "int": "a whole number", "bool": "true or false"}.get(tp.__name__, tp.__name__)
    return str(tp).replace("typing.", "")


def _fields_problem(where: str, value: Any, expected: Shape) -> str | None:
    if type(value) is not dict:
        return f"{where} must be a map, not {type(value).__name__}"
    missing = [k for k in expected.types if k not in value]
    unknown = [k for k in value if k not in expected.types]
    if missing:
        return f"{where} lacks {', '.join(missing)}"
    if unknown:
        return f"{where} has unknown key(s) {', '.join(repr(k) for k in unknown)}"
    key = expected.wrong_key(value)
    if key is not None:
        return f"{where}.{key} must be {_name(expected.types[key])}, not {value[key]!r:.60}"
    return None


def event_problem(event: Any) -> str | None:
    """What is wrong with one event map, or None."""
    if type(event) is not dict:
        return "it is not a map"
    kind = event.get("type")
    if type(kind) is not str or kind not in EVENT_TYPES:
        return f"unknown event type {kind!r:.60}"
    if type(event.get("v")) is not int:
        return f"its version must be a whole number, not {event.get('v')!r:.60}"
    if type(event.get("hash")) is not str or not HEX64.fullmatch(event["hash"]):
        return f"its hash must be 64 lowercase hex digits, not {event.get('hash')!r:.80}"
    fields = {k: v for k, v in event.items() if k not in ("v", "type", "hash")}
    problem = _fields_problem(kind, fields, FIELDS[kind])
    if problem is None and kind == "GameStarted":
        problem = _game_started_problem(fields)
    return problem


def _game_started_problem(e: Map) -> str | None:
    players = e["players"]
    if len(players) < 2:
        return f"GameStarted.players must seat at least two players, not {len(players)}"
    names: list[str] = []
    for i, p in enumerate(players):
        where = f"GameStarted.players[{i}]"
        problem = _fields_problem(where, p, PLAYER_FIELDS)
        if problem:
            return problem
        for j, permanent in enumerate(p["battlefield"]):
            problem = _fields_problem(f"{where}.battlefield[{j}]", permanent, PERMANENT_FIELDS)
            if problem:
                return problem
        if not p["name"] or p["name"] in names:
            return f"{where}.name {p['name']!r} is empty or used twice"
        names.append(p["name"])
    if e["format"] not in FORMATS:
        return f"GameStarted.format {e['format']!r:.40} is not one of {', '.join(FORMATS)}"
    if e["seed"] not in SEED_RANGE:
        return f"GameStarted.seed {e['seed']} is outside 0 to 2**64 - 1"
    if e["starting_player"] not in names:
        return f"GameStarted.starting_player {e['starting_player']!r:.40} is not one of the players"
    if e["archenemy"] is not None and e["archenemy"] not in names:
        return f"GameStarted.archenemy {e['archenemy']!r:.40} is not one of the players"
    if any(member not in names for team in e["teams"] for member in team):
        return "GameStarted.teams names someone who is not a player"
    return None


def first_problem(events: list[Any]) -> Finding | None:
    """The first event that does not conform to the schema, as an integrity finding."""
    for i, event in enumerate(events, start=1):
        found = problem_at(i, event)
        if found is not None:
            return found
    return None


def problem_at(i: int, event: Any) -> Finding | None:
    """Event ``i`` (from 1) against the schema: an integrity finding if it does not conform."""
    problem = event_problem(event)
    if problem is None:
        return None
    return Finding(i, "integrity", f"event {i} does not conform to the schema: {problem}", recorded=event if type(event) is dict else None)
