"""A stored game whose rows fail their checks, read through the service: one clear 422 naming the game and the
event, never a 5xx or a traceback, and nothing of the damaged game served (the CLI says the same, exit 1)."""

from __future__ import annotations

import io
from pathlib import Path

from fastapi.testclient import TestClient

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.logs import configure_logging
from mtg_ledger.replays.service.app import create_app
from tests import store_tools


def test_a_game_with_an_altered_row_is_a_422_naming_the_game_and_the_event(tmp_path: Path) -> None:
    configure_logging(io.StringIO(), level="warning")
    db = tmp_path / "s.sqlite"
    app = create_app({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}, settings={})
    with TestClient(app) as client:
        created = client.post("/games", json=demo_setup(7, 2))
        assert created.status_code == 201, created.text
        game, tokens = created.json()["game"], created.json()["tokens"]
        judge = {"Authorization": f"Bearer {tokens['judge']}"}
        assert client.get(f"/games/{game}/state", headers=judge).status_code == 200
    store_tools.edit_event(db, game, 3, seed=12345)  # a value changed, its hash left as it was
    app = create_app({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}, settings={})
    with TestClient(app, raise_server_exceptions=False) as client:
        for route in ("state", "export", "events"):
            r = client.get(f"/games/{game}/{route}", headers=judge)
            assert r.status_code == 422, (route, r.status_code, r.text)
            assert game in r.json()["error"] and "event 3" in r.json()["error"], r.text
