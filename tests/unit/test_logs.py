"""Log lines are machine-readable when nobody is watching a terminal."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
import structlog

from mtg_ledger.replays.ledger.logs import configure_logging, get_logger


@pytest.fixture(autouse=True)
def _restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def test_logging_to_a_pipe_writes_one_json_line_with_the_bound_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MTG_LEDGER_LOG_LEVEL", raising=False)
    out = io.StringIO()
    configure_logging(out)

    get_logger().bind(game="g-7").info("priority_passed", player="alice", turn=3)

    (line,) = out.getvalue().splitlines()
    record = json.loads(line)
    assert record["event"] == "priority_passed"
    assert record["game"] == "g-7"
    assert record["player"] == "alice"
    assert record["turn"] == 3
    assert record["level"] == "info"
    assert record["logger"] == "mtg-ledger"
    assert "T" in record["timestamp"]


def test_log_level_warning_silences_per_decision_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTG_LEDGER_LOG_LEVEL", "warning")
    out = io.StringIO()
    configure_logging(out)

    get_logger().info("priority_passed", player="alice")
    get_logger().warning("replay_diverged", version=12)

    assert [json.loads(line)["event"] for line in out.getvalue().splitlines()] == ["replay_diverged"]
