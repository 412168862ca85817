"""What ``Ledger.save`` collects, without the library's protocol checks.

``Application.save`` collects each aggregate's new events after asking ``isinstance`` of two runtime-checkable
protocols, which walks the protocols' members on every call: two of them a save, a twentieth of a decision's
CPU in process. An aggregate of the library's ``BaseAggregate`` class (every one the ledger saves: games,
tokens, idempotency records, receipts' records) is collected directly; anything else goes the library's way.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.application import ProcessingEvent
from eventsourcing.domain import BaseAggregate


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
