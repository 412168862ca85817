"""An audit report with receipts (``audit --receipts``, ``POST /games/{id}/audit``): the log's own
checks (``replays.audit``), then each receipt against the log's public chain (``check``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mtg_ledger.core.schema import SchemaError, upgrade
from mtg_ledger.replays.audit import AuditReport
from mtg_ledger.replays.receipts.check import receipt_findings
from mtg_ledger.replays.receipts.commitments import Secrets

Map = dict[str, Any]


def add_receipt_findings(
    report: AuditReport, events: list[Map], versions: dict[str, int] | None, secret: Secrets | None,
    receipts: list[tuple[str, Any]], keys: Mapping[str, str],
) -> None:
    """Add to ``report`` what is wrong between the log (``events`` as recorded in the class ``versions``)
    and the ``receipts``. The public chain is over the events in their current form, as players see them."""
    current: list[Map] = []
    for event in events:
        try:
            current.append(event if versions is None else upgrade(event, versions))  # None: in this engine's forms already
        except SchemaError:  # the log's own checks said so; the chain stops where the log cannot be read
            break
    game = report.game or ""
    report.findings.extend(receipt_findings(game, current, secret, receipts, keys))
