"""Catching the views up with an application's notification log, on demand.

``make_view(app)`` puts the views in the application's own store (same SQLite file, same
PostgreSQL database and schema, or memory); ``catch_up(app, view)`` folds every notification
recorded since the view's tracked position, a batch per transaction.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import Tracking
from eventsourcing.popo import POPOFactory
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteFactory

from mtg_ledger.projections.views import VIEW_SCHEMA
from mtg_ledger.projections.recorders import LedgerViews, POPOLedgerViews, ProjectionConflict, SQLiteLedgerViews

BATCH_SIZE = 500


def make_view(app: Application[Any], *, create_tables: bool = False) -> LedgerViews:
    """The views for ``app``'s store, with their tables created unless CREATE_TABLE says no, or
    whatever it says with ``create_tables`` (the `views` verb reads a store without creating the
    events' tables, but keeping its read models is its job)."""
    factory = app.factory
    if isinstance(factory, SQLiteFactory):
        recorder = factory.tracking_recorder(SQLiteLedgerViews)
        if create_tables and not factory.env_create_table():
            recorder.create_table()
        return recorder  # type: ignore[return-value]
    if isinstance(factory, POPOFactory):
        return factory.tracking_recorder(POPOLedgerViews)  # type: ignore[return-value]
    from eventsourcing.postgres import PostgresFactory  # an optional extra (psycopg)

    from mtg_ledger.projections.postgres import PostgresLedgerViews

    if isinstance(factory, PostgresFactory):
        # Built directly rather than by factory.tracking_recorder(), which would name the tracking
        # table after the application ("ledger_tracking") instead of after the views.
        view = PostgresLedgerViews(factory.datastore)
        if create_tables or factory.env_create_table():
            view.create_table()
        return view
    raise TypeError(f"no ledger views for the store of {type(factory).__qualname__}")


def _contract_map(domain_event: object) -> dict[str, Any] | None:
    to_map = getattr(domain_event, "to_map", None)
    return to_map() if callable(to_map) else None


def tracking_name(app: Application[Any]) -> str:
    """The views' position is tracked per layout (VIEW_SCHEMA): views of an older layout are folded
    again from the first notification, not read."""
    return f"{app.name}-views{VIEW_SCHEMA}"


def catch_up(app: Application[Any], view: LedgerViews, *, batch_size: int = BATCH_SIZE) -> int:
    """Fold every event ``app`` recorded after the view's position; returns how many were folded.

    Each batch and its tracking record are written in one transaction. Notifications whose events
    have no contract map (not game events) are passed over but still tracked. If another
    catch-up moves the position meanwhile, this one resumes from where that one got to.
    """
    processed = 0
    while True:
        after = view.max_tracking_id(tracking_name(app))
        notifications = app.recorder.select_notifications(start=after, limit=batch_size, inclusive_of_start=False)
        if not notifications:
            return processed
        events = []
        for notification in notifications:
            domain_event = app.mapper.to_domain_event(notification)
            event = _contract_map(domain_event)
            if event is not None:
                events.append((str(domain_event.originator_id), event))
        try:
            view.project(events, Tracking(tracking_name(app), notifications[-1].id), after=after)
        except ProjectionConflict:
            continue
        processed += len(events)


class LedgerProjection(Projection[LedgerViews]):
    """The same views for the library's ProjectionRunner (stores that support subscriptions)."""

    name = "mtgl_views"  # the runner's factory names the PostgreSQL tracking table "mtgl_views_tracking"

    def process_event(self, domain_event: DomainEventProtocol[Any], tracking: Tracking) -> None:
        event = _contract_map(domain_event)
        events = [] if event is None else [(str(domain_event.originator_id), event)]
        after = self.view.max_tracking_id(tracking.application_name)
        self.view.project(events, tracking, after=after)
