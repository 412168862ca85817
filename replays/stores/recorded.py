"""Events kept in the form they were recorded in (docs/reference/events.md: the hash chain is checked on
the maps as recorded, before any upcasting).

A game imported from an older log, or played by an older engine, keeps its events in the store as
they were recorded, each with its class version (the library's ``class_version``); reading them
as domain events upcasts them (``core.schema``, through the library's mapper). ``replays.verify``
reads the stored maps without upcasting, for the verbs that check or copy a log: audit, replay,
export, branch.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from mtg_ledger.core import events as ev
from mtg_ledger.core.table import FIELDS_BYTES
from mtg_ledger.core.topics import canonical, resolve
from mtg_ledger.replays.stores import rows

Map = dict[str, Any]
RECORDED_VERSION = "recorded_class_version"  # on a domain event built in the form an older class version recorded


class SchemaMapper(Mapper[UUID]):
    """The library's mapper, reading only the stored names of the log's schema (core.topics): a row
    with any other topic is refused, and no stored byte ever makes Python import a module. A game's
    events are stored in schema 3's row form (``replays.rows``) and read in any schema's form; a
    domain event built in an older recorded form is stored in that form, under its recorded class
    version, for the mapper to upcast when it reads it."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if not isinstance(domain_event, ev.GameEvent):
            return super().to_stored_event(domain_event)
        state = vars(domain_event)
        body = state.get(FIELDS_BYTES)
        cls = type(domain_event)
        if body is not None and cls.class_version == 1:  # its fields as its chain hash encoded them (``Game.emit``)
            data = rows.row(bytes.fromhex(state["hash"]), body)
        else:
            state = dict(state)
            state.pop(FIELDS_BYTES, None)
            version = state.pop(RECORDED_VERSION, None) or getattr(cls, "class_version", 1)
            if version > 1:
                state["class_version"] = version
            del state["originator_id"], state["originator_version"]
            data = rows.encode(state, self.transcoder.encode)
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return StoredEvent(originator_id=domain_event.originator_id, originator_version=domain_event.originator_version, topic=get_topic(cls), state=data)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        name = canonical(stored_event.topic)
        cls = resolve(name)
        if not (isinstance(cls, type) and issubclass(cls, ev.GameEvent)):
            if name != stored_event.topic:
                stored_event = StoredEvent(stored_event.originator_id, stored_event.originator_version, name, stored_event.state)
            domain_event = super().to_domain_event(stored_event)
            fields = vars(domain_event)
            for inner in ("originator_topic", "topic"):  # the aggregate a created event or a snapshot names
                if isinstance(fields.get(inner), str):
                    fields[inner] = canonical(fields[inner])
            return domain_event
        state = rows.decode(self._plain(stored_event.state), self.transcoder.decode)
        state.setdefault("timestamp", rows.NO_TIME)
        state["originator_id"] = stored_event.originator_id
        state["originator_version"] = stored_event.originator_version
        rows.upcast(cls, state)
        if isinstance(state.get("originator_topic"), str):
            state["originator_topic"] = canonical(state["originator_topic"])
        domain_event = object.__new__(cls)
        object.__setattr__(domain_event, "__dict__", state)
        return domain_event

    def _plain(self, data: bytes) -> bytes:
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return data


def in_recorded_form(cls: type[ev.GameEvent], game_id: UUID, event: Map, version: int, **library: Any) -> ev.GameEvent:
    """A domain event holding ``event`` as recorded under class ``version``, to be stored (never
    applied: its fields may not be the class's)."""
    fields = {k: v for k, v in event.items() if k not in ("v", "type", "hash")}
    domain = object.__new__(cls)
    state = {"originator_id": game_id, "originator_version": event["v"], **library, "hash": event["hash"], **fields}
    object.__setattr__(domain, "__dict__", {**state, RECORDED_VERSION: version})
    return domain
