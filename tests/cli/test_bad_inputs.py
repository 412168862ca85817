"""Bad values in what a user hands the CLI are user errors: exit 2, one line naming the problem, no
traceback, nothing stored (life and seeds beyond what a number in the log can hold, a file that is not
UTF-8, JSON nested a hundred thousand deep)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.scenario import examples

from tests.log_tools import run

pytestmark = pytest.mark.usefixtures("cli_env")
EXAMPLE = examples.path("contract_example")


def scenario(tmp_path: Path, change: Any) -> Path:
    data = json.loads(EXAMPLE.read_text())
    change(data)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    return path


def stored_games(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as con:
        tables = {t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return con.execute("SELECT COUNT(DISTINCT key / 4294967296) FROM events").fetchone()[0] if "events" in tables else 0


def refused(code: int, out: str, err: str, *words: str) -> None:
    assert (code, out) == (2, ""), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and err.startswith("mtg-ledger:")
    assert all(w in err for w in words), err


def _life(data: dict[str, Any]) -> None:
    data["players"][0]["life"] = 10**30


def _seed(data: dict[str, Any]) -> None:
    data["seed"] = 2**70


def _object(data: dict[str, Any]) -> None:
    data["actions"][1] = {"player": "alice", "action": "activate", "card": {"object": 2**80}, "ability": 0}


@pytest.mark.parametrize(
    ("change", "words"),
    [(_life, ("players[0].life", "out of range")), (_seed, ("seed", "out of range")), (_object, ("actions[1]", "out of range"))],
    ids=["a life of 10**30", "a seed of 2**70", "an object id of 2**80"],
)
def test_a_number_no_log_can_hold_is_a_one_line_user_error(change: Any, words: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    refused(*run(capsys, "play", str(scenario(tmp_path, change)), "--db", str(db)), *words)
    assert stored_games(db) == 0


def test_a_scenario_in_latin_1_is_a_one_line_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(EXAMPLE.read_text().replace("alice", "Zoé").encode("latin-1"))
    refused(*run(capsys, "play", str(path), "--db", str(tmp_path / "s.sqlite")), "not UTF-8")


@pytest.mark.parametrize("text", ["[" * 100_000, "[" * 100_000 + "]" * 100_000], ids=["unclosed", "closed"])
def test_json_nested_a_hundred_thousand_deep_is_a_one_line_user_error(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    refused(*run(capsys, "play", str(path), "--db", str(tmp_path / "s.sqlite")), "nested too deeply")


def test_an_action_nested_a_hundred_thousand_deep_is_a_one_line_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    code, out, _ = run(capsys, "play", str(EXAMPLE), "--db", str(db))
    assert code == 0
    game = out.strip()
    before = run(capsys, "events", game, "--db", str(db))[1]
    refused(*run(capsys, "decide", game, "[" * 100_000, "--db", str(db)), "nested too deeply")
    assert run(capsys, "events", game, "--db", str(db))[1] == before


def test_a_demo_seed_beyond_64_bits_is_a_one_line_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    refused(*run(capsys, "demo", "--seed", str(2**70), "--db", str(db)), "--seed")
    assert stored_games(db) == 0


def test_a_misspelt_card_in_a_scenario_names_the_nearest_cards_of_the_pool_not_every_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def misspell(data: dict[str, Any]) -> None:
        data["players"][0]["library"][0] = "Forrest"

    db = tmp_path / "s.sqlite"
    code, out, err = run(capsys, "play", str(scenario(tmp_path, misspell)), "--db", str(db))
    refused(code, out, err, "players[0].library[0]: unknown card 'Forrest'", "did you mean 'Forest'?", "(rule 108.1)")
    assert "Lightning Bolt" not in err and stored_games(db) == 0
