"""The routes the viewer reads, through a real server: a game's summary, the timeline a window at a time,
a turn's steps, jumps, and the judge's diff; each as the token's holder may see it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mtg_ledger.replays import logfile
from tests.service_server import bearer, card_names, new_game, server

SETUP: dict[str, Any] = {
    "starting_player": "alice",
    "players": [
        {"name": "alice", "library": ["Forest"] * 6, "hand": ["Forest", "Llanowar Elves"]},
        {"name": "bob", "library": ["Mountain", "Hill Giant", "Mountain", "Mountain"], "hand": ["Lightning Bolt", "Divination"]},
    ],
}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("routes") / "routes.sqlite"
    with server({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}) as base:
        yield base


@pytest.fixture(scope="module")
def game(url: str) -> tuple[str, dict[str, str]]:
    """Two turns of passes: bob draws Mountain (hidden from alice) and keeps Lightning Bolt and Divination."""
    game, tokens = new_game(url, SETUP)
    while httpx.get(f"{url}/games/{game}/state", headers=bearer(tokens["judge"])).json()["turn"] < 3:
        decision = httpx.get(f"{url}/games/{game}/decision", headers=bearer(tokens["judge"])).json()
        body = {"action": "pass"} if decision["kind"] == "priority" else decision["legal"][0]
        assert httpx.post(f"{url}/games/{game}/actions", headers=bearer(tokens[decision["player"]]), json=body).status_code == 200
    return game, tokens


def test_the_summary_says_whose_view_it_is(url: str, game: tuple[str, dict[str, str]]) -> None:
    gid, tokens = game
    alice = httpx.get(f"{url}/games/{gid}", headers=bearer(tokens["alice"])).json()
    judge = httpx.get(f"{url}/games/{gid}", headers=bearer(tokens["judge"])).json()
    assert (alice["viewer"], judge["viewer"], alice["players"], alice["format"]) == ("alice", "judge", ["alice", "bob"], "two-player")
    assert alice["version"] == judge["version"] > 20 and "SpellCast" in alice["event_types"]


def test_a_player_s_timeline_never_names_the_opponent_s_hidden_cards_402_3(url: str, game: tuple[str, dict[str, str]]) -> None:
    gid, tokens = game
    rows = httpx.get(f"{url}/games/{gid}/timeline?from=1&to=500", headers=bearer(tokens["alice"])).json()["events"]
    judge = httpx.get(f"{url}/games/{gid}/timeline?from=1&to=500", headers=bearer(tokens["judge"])).json()["events"]
    said = " ".join(r["text"] for r in rows)
    assert "Lightning Bolt" not in said and "Divination" not in said and "bob draws a card" in said
    assert "bob draws Mountain" in " ".join(r["text"] for r in judge)
    assert not card_names([r["text"] for r in rows]) & {"Lightning Bolt", "Divination"}
    assert [r["v"] for r in rows] == list(range(1, len(rows) + 1)) and rows[-1]["v"] == judge[-1]["v"]


def test_a_turn_s_steps_as_they_happened_508_8(url: str, game: tuple[str, dict[str, str]]) -> None:
    gid, tokens = game
    turn = httpx.get(f"{url}/games/{gid}/turn?at=30", headers=bearer(tokens["bob"])).json()
    names = [s["step"] for s in turn["steps"]]
    assert turn["turn"] >= 1 and names[0] == "untap" and "declare_blockers" not in names  # no attackers: 508.8


def test_jumps_find_the_next_step_and_refuse_what_is_not_a_question(url: str, game: tuple[str, dict[str, str]]) -> None:
    gid, tokens = game
    judge = bearer(tokens["judge"])
    nxt = httpx.get(f"{url}/games/{gid}/find?after=10&step_boundary=true", headers=judge).json()["v"]
    events = httpx.get(f"{url}/games/{gid}/timeline?from={nxt}&to={nxt}", headers=judge).json()["events"]
    assert nxt > 10 and events[0]["type"] == "StepBegan"
    assert httpx.get(f"{url}/games/{gid}/find?after=1&turn=2&step=upkeep", headers=judge).json()["v"] is not None
    for query in ("after=1", "after=1&type=NoSuchEvent", "after=1&step=nonsense&turn=1"):
        answer = httpx.get(f"{url}/games/{gid}/find?{query}", headers=judge)
        assert answer.status_code == 422 and "error" in answer.json()


def test_the_judge_s_diff_shows_two_games_from_their_first_divergence(url: str, game: tuple[str, dict[str, str]]) -> None:
    gid, tokens = game
    branch = httpx.post(f"{url}/games/{gid}/branch?at=21", headers=bearer(tokens["judge"])).json()
    other = branch["game"]
    player = httpx.post(f"{url}/games/{gid}/diff", headers=bearer(tokens["judge"]), json={"other": other, "token": branch["tokens"]["alice"]})
    assert player.status_code == 403
    diff = httpx.post(f"{url}/games/{gid}/diff", headers=bearer(tokens["judge"]), json={"other": other, "token": branch["tokens"]["judge"]})
    assert diff.status_code == 200 and diff.json()["first"] == 22
    assert any(r["a"] and r["b"] is None for r in diff.json()["rows"])
    assert httpx.post(f"{url}/games/{gid}/diff", headers=bearer(tokens["alice"]), json={"other": other, "token": "x"}).status_code == 403


def test_the_viewer_page_and_its_assets_are_served_from_the_package(url: str, game: tuple[str, dict[str, str]]) -> None:
    gid, _ = game
    page = httpx.get(f"{url}/games/{gid}/viewer")
    assert page.status_code == 200 and "/viewer/viewer.js" in page.text and page.headers["referrer-policy"] == "no-referrer"
    assert httpx.get(f"{url}/viewer/viewer.js").headers["content-type"].startswith("text/javascript")
    assert httpx.get(f"{url}/viewer/other.js").status_code in (404, 422)


def test_a_schema_1_log_posted_to_the_service_is_stored_as_recorded_and_reads_back_checked(url: str) -> None:
    """The golden log (schema 1: GameEnded's older form) through POST /logs: its events keep the form their
    hashes cover, so every checked read, the audit and the export agree with it; its tokens come with it."""
    golden = (Path(__file__).parents[1] / "golden" / "schema1-free-for-all.mtgl").read_bytes()
    made = httpx.post(f"{url}/logs", content=golden, headers={"Content-Type": "application/vnd.mtg-ledger"})
    assert made.status_code == 201, made.text
    game, judge = made.json()["game"], bearer(made.json()["tokens"]["judge"])
    state = httpx.get(f"{url}/games/{game}/state", headers=judge)
    assert state.status_code == 200 and state.json()["ended"]
    assert httpx.get(f"{url}/games/{game}/audit", headers=judge).json()["clean"]
    exported = logfile.read_bytes(httpx.get(f"{url}/games/{game}/export", headers=judge).content)  # in schema 3's form
    assert exported[1] == logfile.read_bytes(golden)[1] and exported[0]["event_versions"]["GameEnded"] == 1
