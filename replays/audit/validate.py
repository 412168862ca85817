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

from pydantic import TypeAdapter, ValidationError

from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.events import EVENT_TYPES
from mtg_ledger.core.events.turn import PermanentEntry, PlayerEntry
from mtg_ledger.replays.logfile import Finding

Map = dict[str, Any]
HEX64 = re.compile(r"[0-9a-f]{64}")
FORMATS = ("two-player", "free-for-all", "single-defender", "archenemy")
SEED_RANGE = range(0, 2**64)


_PLAIN: dict[Any, frozenset[type]] = {str: frozenset({str}), int: frozenset({int}), bool: frozenset({bool})}
_PLAIN |= {str | None: frozenset({str, type(None)}), int | None: frozenset({int, type(None)})}


def _exact_test(tp: Any) -> tuple[frozenset[type], frozenset[type] | None] | None:
    """For a field of a plain type (``str``, ``int``, ``bool``, one of them or None, a list of ``str`` or
    of ``int``): the exact types its value may be, and its items' (a list's); None for any other type."""
    if tp in _PLAIN:
        return _PLAIN[tp], None
    if typing.get_origin(tp) is list and typing.get_args(tp) in ((str,), (int,)):
        return frozenset({list}), _PLAIN[typing.get_args(tp)[0]]
    return None


def _plainly_conforms(fields: Map, exact: tuple[tuple[str, frozenset[type], frozenset[type] | None], ...], count: int) -> bool:
    """Whether an event's fields are exactly its type's (``count`` of them, all of ``exact``) and each of
    exactly its plain type: what pydantic's strict check accepts without asking it (every value a log
    decodes to, a str, an int of any size, a bool, None, a list, is its type exactly or is not). False says
    nothing: the full check then says what is wrong, if anything."""
    if len(fields) != count:
        return False
    for key, types, items in exact:
        if key not in fields:
            return False
        value = fields[key]
        if type(value) not in types:
            return False
        if items is not None and not items.issuperset(map(type, value)):
            return False
    return True


class Shape:
    """A map's declared keys and their types (a TypedDict's), and pydantic's strict check of them."""

    def __init__(self, typed: Any) -> None:
        self.types: dict[str, Any] = typing.get_type_hints(typed)
        self.adapter: TypeAdapter[Any] = TypeAdapter(typed)
        tests = [(key, _exact_test(tp)) for key, tp in self.types.items()]
        # every field of a plain type: (key, the types its value may be, those of a list's items or None)
        self.exact: tuple[tuple[str, frozenset[type], frozenset[type] | None], ...] | None = (
            tuple((key, *test) for key, test in tests if test is not None) if all(test is not None for _, test in tests) else None
        )

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


_TYPE_WORDS = {"str": "schema.a_string", "int": "schema.a_whole_number", "bool": "schema.true_or_false", "dict": "schema.a_map", "list": "schema.a_list"}


def _kind(value: Any) -> Phrase | str:
    """What a value is, said: a word of the catalogues for JSON's kinds, else the type as it is named."""
    name = type(value).__name__
    return Phrase(_TYPE_WORDS[name]) if name in _TYPE_WORDS else name


def _expected(tp: Any) -> Phrase | str:
    if typing.get_origin(tp) is None and isinstance(tp, type) and tp.__name__ in _TYPE_WORDS:
        return Phrase(_TYPE_WORDS[tp.__name__])
    return str(tp).replace("typing.", "") if not isinstance(tp, type) else tp.__name__


def _fields_problem(where: str, value: Any, expected: Shape) -> Phrase | None:
    if type(value) is not dict:
        return Phrase("schema.not_a_map", {"where": where, "kind": _kind(value)})
    missing = [k for k in expected.types if k not in value]
    unknown = [k for k in value if k not in expected.types]
    if missing:
        return Phrase("schema.lacks", {"where": where, "keys": ", ".join(missing)})
    if unknown:
        return Phrase("schema.unknown_keys", {"where": where, "keys": ", ".join(repr(k) for k in unknown)})
    key = expected.wrong_key(value)
    if key is not None:
        return Phrase("schema.wrong_type", {"where": f"{where}.{key}", "expected": _expected(expected.types[key]), "value": value[key]})
    return None


def event_problem(event: Any, chained: bool = False) -> Phrase | None:
    """What is wrong with one event map (a message of the catalogues), or None. ``chained``: its hash is known
    to be the sha256 its chain gives, in hex (``logfile.integrity`` compared the two), so not looked at again."""
    if type(event) is not dict:
        return Phrase("schema.event_not_a_map")
    kind = event.get("type")
    if type(kind) is not str or kind not in EVENT_TYPES:
        return Phrase("schema.unknown_type", {"kind": kind})
    if type(event.get("v")) is not int:
        return Phrase("schema.version_form", {"value": event.get("v")})
    if type(event.get("hash")) is not str or not (chained or HEX64.fullmatch(event["hash"])):
        return Phrase("schema.hash_form", {"value": event.get("hash")})
    exact = FIELDS[kind].exact
    if exact is not None and kind != "GameStarted" and _plainly_conforms(event, exact, len(exact) + 3):  # with v, type and hash
        return None  # as the checks below find it: exactly its fields, each of its type
    fields = {k: v for k, v in event.items() if k not in ("v", "type", "hash")}
    problem = _entries_problem(fields.get("players")) if kind == "GameStarted" else None  # each entry first, by name
    problem = problem or _fields_problem(kind, fields, FIELDS[kind])
    if problem is None and kind == "GameStarted":
        problem = _game_started_problem(fields)
    return problem


def _entries_problem(players: Any) -> Phrase | None:
    """The first player entry (or permanent of one) of ``GameStarted.players`` that is not of its shape,
    named by its place, before the event's own shape check would name ``players`` as a whole."""
    if not isinstance(players, list):
        return None
    for i, p in enumerate(players):
        where = f"GameStarted.players[{i}]"
        problem = _fields_problem(where, p, PLAYER_FIELDS)
        if problem:
            return problem
        for j, permanent in enumerate(p["battlefield"]):
            problem = _fields_problem(f"{where}.battlefield[{j}]", permanent, PERMANENT_FIELDS)
            if problem:
                return problem
    return None


def _game_started_problem(e: Map) -> Phrase | None:
    players = e["players"]
    if len(players) < 2:
        return Phrase("schema.too_few_players", {"n": len(players)})
    names: list[str] = []
    for i, p in enumerate(players):
        where = f"GameStarted.players[{i}]"
        if not p["name"] or p["name"] in names:
            return Phrase("schema.name_twice", {"where": where, "name": p["name"]})
        names.append(p["name"])
    if e["format"] not in FORMATS:
        return Phrase("schema.format", {"value": e["format"], "formats": ", ".join(FORMATS)})
    if e["seed"] not in SEED_RANGE:
        return Phrase("schema.seed", {"seed": e["seed"]})
    if e["starting_player"] not in names:
        return Phrase("schema.starting_player", {"value": e["starting_player"]})
    if e["archenemy"] is not None and e["archenemy"] not in names:
        return Phrase("schema.archenemy", {"value": e["archenemy"]})
    if any(member not in names for team in e["teams"] for member in team):
        return Phrase("schema.teams")
    return None


def first_problem(events: list[Any]) -> Finding | None:
    """The first event that does not conform to the schema, as an integrity finding."""
    for i, event in enumerate(events, start=1):
        found = problem_at(i, event)
        if found is not None:
            return found
    return None


def problem_at(i: int, event: Any, chained: bool = False) -> Finding | None:
    """Event ``i`` (from 1) against the schema: an integrity finding if it does not conform (``chained``: as
    ``event_problem``'s)."""
    problem = event_problem(event, chained)
    if problem is None:
        return None
    return Finding.of(i, "integrity", "schema.nonconforming", {"v": i, "problem": problem}, recorded=event if type(event) is dict else None)
