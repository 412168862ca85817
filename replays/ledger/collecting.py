"""What ``Ledger.save`` collects, without the library's protocol checks, and how it stores it.

``Application.save`` collects each aggregate's new events after asking ``isinstance`` of two runtime-checkable
protocols, which walks the protocols' members on every call: two of them a save, a twentieth of a decision's
CPU in process. An aggregate of the library's ``BaseAggregate`` class (every one the ledger saves: games,
tokens, idempotency records, receipts' records) is collected directly; anything else goes the library's way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import BaseAggregate
from eventsourcing.persistence import Recording


class Collected(ProcessingEvent[UUID]):
    """The library's processing event: the same events, aggregates and keyword arguments, in the same order."""

    def collect_events(self, *objs: Any, **kwargs: Any) -> None:
        for obj in objs:
            if isinstance(obj, BaseAggregate):
                self.events.extend(obj.collect_events())
                self.aggregates[obj.id] = obj
            elif obj is not None:
                super().collect_events(obj)
        self.saved_kwargs.update(kwargs)


def stored(app: Application[UUID], objs: Sequence[Any], kwargs: dict[str, Any], recordings: bool) -> list[Recording[UUID]]:
    """The library's ``Application.save`` of ``objs`` (``Collected``); without its recordings (each event's
    notification, made after the insert) when ``recordings`` is false and nothing reads them (``_notify``
    is the library's, which does nothing): a decision's save."""
    processing_event = Collected()
    processing_event.collect_events(*objs, **kwargs)
    if recordings or type(app)._notify is not Application._notify:
        made = app._record(processing_event)
    else:  # the library's _record but for the recordings
        app.events.recorder.insert_events(
            list(map(app.mapper.to_stored_event, processing_event.events)),
            tracking=processing_event.tracking, **processing_event.saved_kwargs,
        )
        if app.repository.cache and not app.repository.fastforward:
            for aggregate_id, aggregate in processing_event.aggregates.items():
                app.repository.cache.put(aggregate_id, aggregate)
        made = []
    app._take_snapshots(processing_event)
    app._notify(made)
    app.notify(processing_event.events)  # the library's deprecated hook, which its save calls too
    return made
