"""Events kept in the form they were recorded in (CONTRACT section 3: the hash chain is checked on
the maps as recorded, before any upcasting).

A game imported from an older log, or played by an older engine, keeps its events in the store as
they were recorded, each with its class version (the library's ``class_version``); reading them
as domain events upcasts them (``core.schema``, through the library's mapper). ``read_recorded``
reads the stored maps without upcasting, for the verbs that check or copy a log: audit, replay,
export, branch.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, Mapper, StoredEvent
from eventsourcing.utils import get_topic

from mtg_ledger.core import events as ev
from mtg_ledger.core.schema import SchemaError
from mtg_ledger.core.topics import canonical, resolve

Map = dict[str, Any]
RECORDED_VERSION = "recorded_class_version"  # on a domain event built in the form an older class version recorded
_LIBRARY_FIELDS = ("originator_id", "originator_version", "timestamp", "originator_topic", "hash")


class SchemaMapper(Mapper[UUID]):
    """The library's mapper, reading only the stored names of the log's schema (core.topics): a row
    with any other topic is refused, and no stored byte ever makes Python import a module."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        name = canonical(stored_event.topic)
        if name != stored_event.topic:
            stored_event = StoredEvent(stored_event.originator_id, stored_event.originator_version, name, stored_event.state)
        domain_event = super().to_domain_event(stored_event)
        fields = vars(domain_event)
        for inner in ("originator_topic", "topic"):  # the aggregate a created event or a snapshot names
            if isinstance(fields.get(inner), str):
                fields[inner] = canonical(fields[inner])
        return domain_event


class RecordedFormMapper(SchemaMapper):
    """The library's mapper, except that a domain event built in an older recorded form is stored
    in that form, under its recorded class version, for the mapper to upcast when it reads it."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = dict(vars(domain_event))
        if RECORDED_VERSION not in state:
            return super().to_stored_event(domain_event)
        version = state.pop(RECORDED_VERSION)
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        if version > 1:
            state["class_version"] = version
        data = self.transcoder.encode(state)
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return StoredEvent(originator_id=originator_id, originator_version=originator_version, topic=get_topic(type(domain_event)), state=data)


def in_recorded_form(cls: type[ev.GameEvent], game_id: UUID, event: Map, version: int, **library: Any) -> ev.GameEvent:
    """A domain event holding ``event`` as recorded under class ``version``, to be stored (never
    applied: its fields may not be the class's)."""
    fields = {k: v for k, v in event.items() if k not in ("v", "type", "hash")}
    domain = object.__new__(cls)
    state = {"originator_id": game_id, "originator_version": event["v"], **library, "hash": event["hash"], **fields}
    object.__setattr__(domain, "__dict__", {**state, RECORDED_VERSION: version})
    return domain


def read_recorded(mapper: Mapper[UUID], recorder: AggregateRecorder, game_id: UUID, last: int | None = None) -> tuple[list[Map], dict[str, int]]:
    """The game's event maps as recorded, and the class version of each event type they were
    recorded in (as a log file's header gives them: one per type)."""
    maps: list[Map] = []
    versions: dict[str, int] = {}
    for stored in recorder.select_events(game_id, lte=last):
        data = stored.state
        if mapper.cipher:
            data = mapper.cipher.decrypt(data)
        if mapper.compressor:
            data = mapper.compressor.decompress(data)
        state = mapper.transcoder.decode(data)
        version = state.pop("class_version", 1)
        kind = resolve(stored.topic).__name__
        if versions.setdefault(kind, version) != version:
            raise SchemaError(f"game {game_id}: {kind} events are recorded in two class versions, {versions[kind]} and {version}")
        fields = {k: v for k, v in state.items() if k not in _LIBRARY_FIELDS}
        maps.append({"v": stored.originator_version, "type": kind, **fields, "hash": state["hash"]})
    return maps, versions
