"""Deck lists on the command line (docs/decks.md): ``demo --deck`` plays two deck files, a scenario may
give a player's ``deck``, and unknown cards are one error listing them all (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.log_tools import run

MINE = "Deck\n20 Forest\n16 Grizzly Bears\n4 Giant Growth\n\nSideboard\n3 Giant Spider\n"


def test_demo_plays_two_deck_files_and_the_game_audits_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.txt").write_text(MINE)
    db = str(tmp_path / "d.sqlite")
    code, out, err = run(capsys, "demo", "--deck", str(tmp_path / "mine.txt"), "--deck", "red-blue", "--db", db, "--json")
    assert code == 0 and err == ""
    game = json.loads(out)["game"]
    code, out, _ = run(capsys, "audit", game, "--db", db)
    assert code == 0 and "clean" in out
    code, out, _ = run(capsys, "events", game, "--db", db, "--json")
    started = json.loads(out.splitlines()[0])  # JSON lines, GameStarted first
    assert sorted(started["players"][0]["library"]) == sorted(["Forest"] * 20 + ["Grizzly Bears"] * 16 + ["Giant Growth"] * 4)
    assert "Giant Spider" not in started["cards"]


def test_demo_with_unknown_cards_exits_2_naming_every_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text("4 Grizly Bears\n36 Forest\n")
    (tmp_path / "b.txt").write_text("4 Lightening Bolt\n36 Mountain\n")
    code, out, err = run(capsys, "demo", "--deck", str(tmp_path / "a.txt"), "--deck", str(tmp_path / "b.txt"), "--db", str(tmp_path / "d.sqlite"))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "'Grizly Bears' (Grizzly Bears" in err and "'Lightening Bolt' (Lightning Bolt" in err


def test_demo_names_the_line_of_a_deck_file_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text("4 Forest\nfour Forests\n")
    code, _, err = run(capsys, "demo", "--deck", str(tmp_path / "a.txt"), "--deck", "white", "--db", str(tmp_path / "d.sqlite"))
    assert code == 2 and f"{tmp_path / 'a.txt'}: line 2:" in err


def test_a_scenario_player_with_a_deck_plays_and_an_unknown_card_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = {"seed": 1, "players": [{"name": "alice", "deck": MINE}, {"name": "bob", "deck": "40 Mountain"}], "actions": []}
    (tmp_path / "s.json").write_text(json.dumps(good))
    code, out, _ = run(capsys, "play", str(tmp_path / "s.json"), "--db", str(tmp_path / "s.sqlite"))
    assert code == 0 and out.strip()
    bad = {**good, "players": [{"name": "alice", "deck": "4 Grizly Bears"}, {"name": "bob", "deck": "40 Mountian"}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    code, out, err = run(capsys, "play", str(tmp_path / "bad.json"), "--db", str(tmp_path / "s.sqlite"))
    assert (code, out) == (2, "") and "Grizzly Bears" in err and "Mountain" in err
