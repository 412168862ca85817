"""Schema evolution of the log (CONTRACT section 3): the schema version, each event type's class
version, and upcasters that turn older event maps into current ones.

An upcaster is registered for (event type, class version it upgrades from); the library's stored
events use the same functions: a class that bumps its ``class_version`` declares
``upcast_v1_v2 = stored_upcaster("TurnBegan", 1)`` and the library's mapper applies it on read.
The hash chain is always checked on maps as they were recorded, before any upcasting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core.events import EVENT_TYPES, SCHEMA_VERSION

Map = dict[str, Any]
UPCASTERS: dict[tuple[str, int], Callable[[Map], Map]] = {}


def class_versions() -> dict[str, int]:
    """The class version of every event type the engine writes."""
    return {name: getattr(cls, "class_version", 1) for name, cls in EVENT_TYPES.items()}


class SchemaError(ValueError):
    """A log this engine cannot read or upgrade."""


def upgrade(event: Map, recorded: dict[str, int]) -> Map:
    """The current form of an event map recorded with the class versions ``recorded``."""
    kind = event.get("type")
    if kind not in EVENT_TYPES:
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


def stored_upcaster(kind: str, from_version: int) -> Callable[[Map], None]:
    """The registered upcaster in the form the library's mapper calls (mutating the stored fields)."""

    def upcast(stored: Map) -> None:
        upgraded = UPCASTERS[(kind, from_version)]({"type": kind, **stored})
        upgraded.pop("type", None)
        stored.clear()
        stored.update(upgraded)

    return staticmethod(upcast)


def check_schema(schema: Any) -> None:
    if not isinstance(schema, int) or schema < 1:
        raise SchemaError(f"schema {schema!r} is not a schema version")
    if schema > SCHEMA_VERSION:
        raise SchemaError(f"schema {schema} is newer than this engine's schema {SCHEMA_VERSION}: upgrade mtg-ledger")
