"""Applying an event's contract map to a state: the one entry point the aggregate, the replay checker,
the projections and the tools share. Each event's applier sits beside its class in ``core.events``."""

from __future__ import annotations

from mtg_ledger.core.events import apply_event

__all__ = ["apply_event"]
