"""Every route fuzzed from its OpenAPI description (schemathesis), against a real server process: no
client input gets a 5xx, and every response matches the description (status code, content type, body).

Each generated request goes out as it was generated (random ids and tokens: 401 and 404 paths), or
aimed at a real game with a player's or the judge's token, so the routes' insides are reached too.
Bounded (``max_examples`` per route) so that ``make test`` stays short.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance, status_code_conformance

from mtg_ledger.replays.service import create_app
from tests.service_server import new_game, server

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
SETUP = {
    "starting_player": "alice",
    "players": [
        {"name": "alice", "library": ["Forest"] * 8, "hand": ["Forest", "Llanowar Elves", "Giant Growth"], "battlefield": ["Grizzly Bears"]},
        {"name": "bob", "library": ["Mountain"] * 8, "hand": ["Lightning Bolt", "Hill Giant"], "battlefield": ["Mountain"]},
    ],
}


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path_factory.mktemp("fuzz") / "ledger.sqlite")}
    with server(store, MTG_LEDGER_STREAM_SECONDS="0.3", MTG_LEDGER_MAX_LOG_BYTES="200000") as url:
        games = [new_game(url, SETUP) for _ in range(3)]
        yield {"url": url, "games": games}


# The description as the app derives it (no store opened); the requests go to the server process.
schema = schemathesis.openapi.from_dict(create_app({}).openapi())


@schema.parametrize()
@schema.given(aim=st.sampled_from(["as generated", "alice", "bob", "judge"]), which=st.integers(0, 2))
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_route_answers_any_input_with_a_5xx_and_every_answer_matches_the_description(
    case: schemathesis.Case, aim: str, which: int, target: dict[str, Any]
) -> None:
    if aim != "as generated":
        game, tokens = target["games"][which]
        if "id" in (case.path_parameters or {}):
            case.path_parameters["id"] = game
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[aim]}"}
    case.call_and_validate(base_url=target["url"], checks=CHECKS, timeout=10)


def test_the_openapi_description_is_served_for_every_route_of_the_contract(target: dict[str, Any], tmp_path: Path) -> None:
    loaded = schemathesis.openapi.from_url(f"{target['url']}/openapi.json")
    paths = {op.path for op in (r.ok() for r in loaded.get_all_operations())}
    assert {"/games", "/logs", "/healthz"} | {f"/games/{{id}}/{r}" for r in ("state", "decision", "actions", "events", "stream", "audit", "export", "branch")} <= paths
