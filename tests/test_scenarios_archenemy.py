"""An Archenemy game played from a scenario file through the command line (904, 805)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_ledger.replays.cli import main
from mtg_ledger.replays import examples

SCENARIO = examples.path("archenemy")


pytestmark = pytest.mark.usefixtures("cli_env")


def test_an_archenemy_scenario_sets_schemes_in_motion_and_the_team_shares_its_turn_904_805(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "a.sqlite")
    assert main(["play", str(SCENARIO), "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["events", game, "--db", db]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    schemes = [e["scheme"] for e in events if e["type"] == "SchemeSetInMotion"]
    assert schemes == ["Behold the Power of Destruction", "Your Puny Minds Cannot Fathom"]
    destroyed = next(e for e in events if e["type"] == "PermanentsPutIntoGraveyard")
    assert sorted(p["card"] for p in destroyed["permanents"]) == ["Hill Giant", "Spellbook"]
    assert [e["player"] for e in events if e["type"] == "LandPlayed"] == ["alice", "bob"]
    assert main(["state", game, "--db", db]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["players"]["eve"]["life"] == 40 - 2  # the Grizzly Bears attacked her
    assert state["players"]["eve"]["max_hand_size"] is None  # until her next turn (Your Puny Minds Cannot Fathom)
    assert (state["turn"], state["step"], state["active_player"]) == (3, "precombat_main", "eve")
