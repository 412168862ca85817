"""A client generated from the service's own OpenAPI description (openapi-python-client) plays a whole
game against a real server process, unpatched: the description is what a stranger's tools read, so a
schema they cannot build a client from, or a body they cannot send back, is a fault of the API."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from mtg_ledger.replays.scenario.actions import FORMS
from tests.service_server import server

PACKAGE = "mtg_ledger_client"  # the generated package's name: its folder's
ADMIN = "admin-s3cret"  # the server's MTG_LEDGER_ADMIN_TOKEN: only its holder creates games
# The generator's own settings, not patches: the two media types that are not JSON read as what they are
# (a log file as bytes, JSON lines as text), and no formatter run over the output. Then any warning fails.
CONFIG = {
    "post_hooks": [],
    "content_type_overrides": {"application/vnd.mtg-ledger": "application/octet-stream", "application/x-ndjson": "text/plain"},
}
MOST_DECISIONS = 400  # a game of a few cards a player ends (decking out, 704.5b, if not before) well before this
SETUP: dict[str, Any] = {
    "starting_player": "alice",
    "players": [
        {"name": "alice", "library": ["Forest"] * 4, "hand": ["Forest", "Giant Growth"], "battlefield": ["Grizzly Bears"]},
        {"name": "bob", "library": ["Mountain"] * 4, "hand": ["Mountain", "Lightning Bolt"], "battlefield": ["Grizzly Bears"]},
    ],
}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path_factory.mktemp("generated") / "ledger.sqlite"),
    }
    with server(store, MTG_LEDGER_ADMIN_TOKEN=ADMIN) as base:
        yield base


@pytest.fixture(scope="module")
def generated(url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated package, imported from its temporary folder (and forgotten afterwards)."""
    folder = tmp_path_factory.mktemp("client")
    (folder / "openapi.json").write_bytes(httpx.get(f"{url}/openapi.json").content)
    (folder / "config.json").write_text(json.dumps(CONFIG))
    generator = Path(sys.executable).with_name("openapi-python-client")
    made = subprocess.run(
        [str(generator), "generate", "--path", "openapi.json", "--output-path", str(folder / PACKAGE), "--meta", "none",
         "--config", "config.json", "--fail-on-warning"],
        cwd=folder, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def api(name: str) -> Any:
    """An operation of the generated client, by its operation id (the route function's name)."""
    for tag in ("games", "playing", "reading", "judging", "service"):
        try:
            return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")
        except ModuleNotFoundError:
            continue
    raise AssertionError(f"the generated client has no operation {name}")


def choose(legal: list[Any], rng: random.Random) -> Any:
    """One of the legal actions, never a concession: more often one that does something than a pass."""
    options = [a for a in legal if a.action != "concede"]
    acting = [a for a in options if a.action not in ("pass", "activate")]
    return rng.choice(acting) if acting and rng.random() < 0.6 else options[0]


def test_a_client_generated_from_the_openapi_description_plays_a_whole_game_to_its_end_and_the_log_audits_clean(
    url: str, generated: ModuleType
) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    admin = generated.AuthenticatedClient(base_url=url, token=ADMIN)
    created = api("create_game").sync(client=admin, body=models.NewGame.from_dict(SETUP))
    assert isinstance(created, models.GameCreated), created
    game = created.game
    tokens = created.tokens.additional_properties
    assert set(tokens) == {"alice", "bob", "judge"}
    clients = {holder: generated.AuthenticatedClient(base_url=url, token=token) for holder, token in tokens.items()}

    rng = random.Random(7)
    decisions = 0
    seen: set[str] = set()
    while True:
        decision = api("get_decision").sync(client=clients["judge"], id=game)
        assert isinstance(decision, models.DecisionOut), decision
        if decision.player is None:
            break
        assert decisions < MOST_DECISIONS, f"no end after {decisions} decisions"
        asked = api("get_decision").sync_detailed(client=clients[decision.player], id=game)
        mine = asked.parsed
        assert isinstance(mine, models.DecisionOut) and mine.version == decision.version and mine.legal, asked.content
        # each legal action is read as its own model, and written back as it came: a body to send as it is
        assert [type(a).__name__ for a in mine.legal] == [FORMS[a.action].__name__ for a in mine.legal]
        assert [a.to_dict() for a in mine.legal] == json.loads(asked.content)["legal"]
        action = choose(mine.legal, rng)
        action.expected_version = mine.version
        answer = api("act").sync_detailed(client=clients[decision.player], id=game, body=action)
        assert answer.status_code == 200, answer.content
        assert isinstance(answer.parsed, models.ActionTaken) and answer.parsed.version > mine.version
        seen.add(action.action)
        decisions += 1

    state = api("get_state").sync(client=clients["judge"], id=game)
    assert isinstance(state, models.StateOut), state
    players = state.players.additional_properties
    assert decision.version == state.version and state.priority is None
    assert state.ended is True and state.winner == "alice" and state.winners == ["alice"]
    assert players["bob"]["lost"] is True and players["alice"]["lost"] is False
    assert {"pass", "play_land"} <= seen
    audit = api("get_audit").sync(client=clients["judge"], id=game)
    assert isinstance(audit, models.AuditOut) and audit.clean is True and audit.first is None, audit
