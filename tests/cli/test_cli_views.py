"""The command line shows a player's view as the service does: ``state --as`` and ``events --as``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.cli import main

SCENARIOS = examples.directory()
pytestmark = pytest.mark.usefixtures("cli_env")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_state_as_a_player_hides_the_opponent_s_hand_and_every_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "v.sqlite")
    _, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    game = out.strip()
    code, out, _ = run(capsys, "state", game, "--as", "alice", "--db", db)
    shown = json.loads(out)
    assert code == 0 and shown["players"]["bob"]["hand"] == [None] * len(shown["players"]["bob"]["hand"])
    assert shown["players"]["alice"]["hand"] and None not in shown["players"]["alice"]["hand"]
    assert "hash" not in shown and shown["state_hash"] is None
    code, out, _ = run(capsys, "state", game, "--db", db)
    assert json.loads(out)["players"]["bob"]["hand"] == ["Mountain"]  # the judge sees the card bob drew


def test_events_as_a_player_null_the_opponent_s_draws_and_carry_no_hash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "v.sqlite")
    _, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    game = out.strip()
    code, out, _ = run(capsys, "events", game, "--as", "alice", "--db", db)
    events = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and events and all("hash" not in e for e in events)
    bob_draws = [e for e in events if e["type"] == "CardDrawn" and e["player"] == "bob"]
    assert bob_draws and all(e["card"] is None for e in bob_draws)
    assert events[0]["players"][1]["hand"] == [None]


def test_as_someone_who_is_not_in_the_game_is_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "v.sqlite")
    _, out, _ = run(capsys, "play", str(SCENARIOS / "contract_example.json"), "--db", db)
    code, _, err = run(capsys, "state", out.strip(), "--as", "mallory", "--db", db)
    assert code == 2 and "mallory" in err and err.count("\n") == 1
