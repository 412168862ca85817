"""Schema evolution of the log (docs/reference/events.md): the schema version, each event type's class
version, and upcasters that turn older event maps into current ones.

An upcaster is registered for (event type, class version it upgrades from) in
``core.events.UPCASTERS``, beside the event class it upgrades (``core.events.outcome``); the library's
stored events use the same functions: a class that bumps its ``class_version`` declares
``upcast_v1_v2 = stored_upcaster("GameEnded", 1)`` and the library's mapper applies it on read.
The hash chain is always checked on maps as they were recorded, before any upcasting.

Schema history: 1, the first; 2, ``GameEnded.reason`` is a code (``core.outcome.Reason``) and
``winners`` always names the whole winning team (``GameEnded`` class version 2); 3, the same events,
stored and exported compactly (hashes as 32 bytes, no timestamps, compressed log files): its upcasters
read the rows and files of schemas 1 and 2 (``replays``), the event maps are unchanged; 4, the same
events and stored rows, log files in blocks of events, each its own checked zstd frame, after a lead
that an engine of schema 3 reads as a header and refuses by its number (``replays.logcodec``); 5,
``GameStarted`` records the definitions of the cards its game uses (``cards``, class version 2): an
older one is upcast with the classic definitions it was played with (``core.classic_cards``); receipts'
records lie beside the games in the store, and a log file's header may keep the commitment secret
(``replays.receipts``): an engine of schema 4 refuses such a file by its number.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.errors import ENGLISH, render
from mtg_ledger.core.events import EVENT_TYPES, NEVER_IN, UPCASTERS
from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.core.outcome import Reason

Map = dict[str, Any]


def class_versions() -> dict[str, int]:
    """The class version of every event type the engine writes."""
    return {name: cls.class_version for name, cls in EVENT_TYPES.items()}


class SchemaError(ValueError):
    """A log this engine cannot read or upgrade: a message id of ``ENGLISH`` ("schema.*") and its params."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(render(ENGLISH, code, params))


def upgrade(event: Map, recorded: dict[str, int]) -> Map:
    """The current form of an event map recorded with the class versions ``recorded``."""
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise SchemaError("schema.unknown_type_at", v=event.get("v"), kind=kind)
    current = EVENT_TYPES[kind].class_version
    version = recorded.get(kind, 1)
    if version > current:
        raise SchemaError("schema.class_newer", v=event.get("v"), kind=kind, version=version, current=current)
    never = NEVER_IN.get((kind, version), frozenset()).intersection(event)
    if never:  # a later version's fields under an older one's name: upcast, it would read as another event
        raise SchemaError("schema.not_that_form", v=event.get("v"), kind=kind, version=version, fields=", ".join(sorted(never)))
    while version < current:
        step = UPCASTERS.get((kind, version))
        if step is None:
            raise SchemaError("schema.no_upcaster", v=event.get("v"), kind=kind, version=version)
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


SCHEMAS: dict[int, dict[str, int]] = {  # each schema version: the event types whose class version is not 1
    1: {},
    2: {"GameEnded": 2},
    3: {"GameEnded": 2},  # the events of schema 2, stored and exported compactly
    4: {"GameEnded": 2},  # the events of schema 3, exported in checked blocks
    5: {"GameEnded": 2, "GameStarted": 2},  # GameStarted.cards; receipts' records beside the events
}
# Receipts sign the public chain over events in their current form: an upcaster of a class version that
# schema 5 or later records must leave the public form of those events as it was (docs/receipts.md), or
# every receipt kept of them becomes a false rewrite (tests/unit/test_receipts_public_chain.py).


def check_schema(schema: Any) -> None:
    current = SCHEMA_VERSION
    if not isinstance(schema, int) or schema < 1:
        raise SchemaError("schema.not_a_version", schema=schema)
    if schema > current:
        raise SchemaError("schema.newer", schema=schema, current=current)
