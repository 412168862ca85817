"""Schema evolution of the log (CONTRACT section 3): the schema version, each event type's class
version, and upcasters that turn older event maps into current ones.

An upcaster is registered for (event type, class version it upgrades from); the library's stored
events use the same functions: a class that bumps its ``class_version`` declares
``upcast_v1_v2 = stored_upcaster("GameEnded", 1)`` and the library's mapper applies it on read.
The hash chain is always checked on maps as they were recorded, before any upcasting.

Schema history: 1, the first; 2, ``GameEnded.reason`` is a code (``core.outcome.Reason``) and
``winners`` always names the whole winning team (``GameEnded`` class version 2); 3, the same events,
stored and exported compactly (hashes as 32 bytes, no timestamps, compressed log files): its upcasters
read the rows and files of schemas 1 and 2 (``replays``), the event maps are unchanged; 4, the same
events and stored rows, log files in blocks of events, each its own checked zstd frame, after a lead
that an engine of schema 3 reads as a header and refuses by its number (``replays.logcodec``).

This module does not import ``core.events`` at load time (``core.events`` needs ``stored_upcaster``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core.outcome import Reason

Map = dict[str, Any]
UPCASTERS: dict[tuple[str, int], Callable[[Map], Map]] = {}


def _events() -> Any:
    from mtg_ledger.core import events

    return events


def class_versions() -> dict[str, int]:
    """The class version of every event type the engine writes."""
    return {name: getattr(cls, "class_version", 1) for name, cls in _events().EVENT_TYPES.items()}


class SchemaError(ValueError):
    """A log this engine cannot read or upgrade."""


def upgrade(event: Map, recorded: dict[str, int]) -> Map:
    """The current form of an event map recorded with the class versions ``recorded``."""
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in _events().EVENT_TYPES:
        raise SchemaError(f"event {event.get('v')}: unknown event type {kind!r}")
    current = class_versions()[kind]
    version = recorded.get(kind, 1)
    if version > current:
        raise SchemaError(f"event {event.get('v')}: {kind} version {version} is newer than this engine's {current}")
    while version < current:
        step = UPCASTERS.get((kind, version))
        if step is None:
            raise SchemaError(f"event {event.get('v')}: no upcaster for {kind} from version {version}")
        event = step(dict(event))
        version += 1
    return event


def upgrade_log(events: list[Map], recorded: dict[str, int]) -> list[Map]:
    """The current form of every event of a log recorded with the class versions ``recorded``."""
    return [upgrade(event, recorded) for event in events]


def agrees_with_older_form(upcast: Map, derived: Map) -> bool:
    """Whether ``derived``, an event the engine derives, is the event a log recorded in an older
    form says, once upcast (``upcast``): the same, except where that older form could not tell.
    A ``GameEnded`` of class version 1 said the last player or team was left standing even when
    the last opponent left by conceding: it upcasts to ``last_player_standing``, which a derived
    ``concession`` agrees with."""
    if {**upcast, "hash": None} == {**derived, "hash": None}:
        return True
    if upcast.get("type") != "GameEnded" or upcast.get("reason") != Reason.LAST_PLAYER_STANDING.value:
        return False
    return derived.get("reason") == Reason.CONCESSION.value and {**upcast, "hash": None, "reason": None} == {**derived, "hash": None, "reason": None}


def stored_upcaster(kind: str, from_version: int) -> Callable[[Map], None]:
    """The registered upcaster in the form the library's mapper calls (mutating the stored fields)."""

    def upcast(stored: Map) -> None:
        upgraded = UPCASTERS[(kind, from_version)]({"type": kind, **stored})
        upgraded.pop("type", None)
        stored.clear()
        stored.update(upgraded)

    return staticmethod(upcast)


SCHEMAS: dict[int, dict[str, int]] = {  # each schema version: the event types whose class version is not 1
    1: {},
    2: {"GameEnded": 2},
    3: {"GameEnded": 2},  # the events of schema 2, stored and exported compactly
    4: {"GameEnded": 2},  # the events of schema 3, exported in checked blocks
}


def schema_of(versions: dict[str, int]) -> int:
    """The newest schema version whose class versions these are (this engine's when none matches exactly)."""
    for schema, changed in reversed(SCHEMAS.items()):
        if all(versions.get(kind, 1) == changed.get(kind, 1) for kind in {*versions, *changed}):
            return schema
    return int(_events().SCHEMA_VERSION)


def check_schema(schema: Any) -> None:
    current = _events().SCHEMA_VERSION
    if not isinstance(schema, int) or schema < 1:
        raise SchemaError(f"schema {schema!r} is not a schema version")
    if schema > current:
        raise SchemaError(f"schema {schema} is newer than this engine's schema {current}: upgrade mtg-ledger")


# --- the upcasters ------------------------------------------------------------------------------

V1_REASONS = (  # the free texts schema 1 wrote, in core.sba of that version
    ("all players lost simultaneously", Reason.ALL_PLAYERS_LOST),
    (" is the only player left in the game", Reason.LAST_PLAYER_STANDING),
    ("every opponent of the team of ", Reason.LAST_PLAYER_STANDING),
)


def reason_of_v1(text: Any, winner: Any) -> Reason:
    """The code for a schema-1 ``GameEnded.reason`` text; a text no version wrote reads as a draw
    when nobody won, otherwise as the last player (or team) standing."""
    if isinstance(text, str):
        if text in {r.value for r in Reason}:  # already a code: upcasting twice changes nothing
            return Reason(text)
        for words, reason in V1_REASONS:
            if words in text:
                return reason
    return Reason.DRAW if winner is None else Reason.LAST_PLAYER_STANDING


def _game_ended_v1_v2(event: Map) -> Map:
    """GameEnded 1 -> 2: ``reason`` from free text to a code; ``winners`` from ``winner`` where a
    log lacks it (one winner, or nobody in a draw)."""
    winner = event.get("winner")
    winners = event.get("winners")
    if winners is None:
        winners = [] if winner is None else [winner]
    return {**event, "winners": list(winners), "reason": reason_of_v1(event.get("reason"), winner).value}


UPCASTERS[("GameEnded", 1)] = _game_ended_v1_v2
