"""When the store cannot answer (PostgreSQL restarting, say), clients get 503 with Retry-After, at once,
and nothing is done; never a 500, never a hang. The real restart under load is in ``tests/fault_service.py``."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from eventsourcing.persistence import OperationalError
from fastapi.testclient import TestClient

from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.service.app import create_app

SETUP = {"players": [{"name": "alice", "library": ["Forest"] * 5, "hand": []}, {"name": "bob", "library": ["Mountain"] * 5, "hand": []}]}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    configure_logging(io.StringIO(), level="warning")  # the service logs each 503: here, not to a stream an earlier test closed
    app = create_app({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "down.sqlite")}, settings={})
    with TestClient(app) as c:
        yield c


def test_a_store_error_of_the_connection_is_503_with_retry_after_and_no_traceback(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    created = client.post("/games", json=SETUP).json()
    ledger = client.app.state.games.ledger  # type: ignore[attr-defined]

    def down(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection refused: the database system is shutting down")

    monkeypatch.setattr(ledger, "current", down)  # every read of the game and every save of a decision
    monkeypatch.setattr(ledger.recorder, "insert_events", down)
    r = client.post(f"/games/{created['game']}/actions", json={"action": "pass"}, headers={"Authorization": f"Bearer {created['tokens']['alice']}"})
    assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    assert r.json() == {"error": "the store is unavailable; try again"}


def test_while_the_listener_has_lost_its_session_every_store_route_answers_503_at_once(client: TestClient) -> None:
    created = client.post("/games", json=SETUP).json()
    judge = {"Authorization": f"Bearer {created['tokens']['judge']}"}
    client.app.state.listener = SimpleNamespace(listening=threading.Event())  # type: ignore[attr-defined]  # lost, reconnecting
    began = time.perf_counter()
    answers = [
        client.get("/healthz"),
        client.post("/games", json=SETUP),
        client.get(f"/games/{created['game']}/decision", headers=judge),
        client.post(f"/games/{created['game']}/actions", json={"action": "pass"}, headers={"Authorization": f"Bearer {created['tokens']['alice']}"}),
    ]
    assert time.perf_counter() - began < 1.0
    assert [r.status_code for r in answers] == [503] * 4 and all(r.headers["Retry-After"] == "1" for r in answers)
    assert client.get(f"/games/{created['game']}/viewer").status_code == 200  # a page of its own, no store
    client.app.state.listener.listening.set()  # type: ignore[attr-defined]  # back
    assert client.get(f"/games/{created['game']}/decision", headers=judge).json()["version"] == created["version"]
