"""The tutorial's curl session (docs/tutorial.md, once the README's) runs against a real server and ends where it says."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from tests.service_server import server

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"


def test_the_readme_s_curl_session_plays_turn_1_and_hides_bob_s_card_from_alice(tmp_path: Path) -> None:
    match = re.search(r"<!-- service example -->\n```sh\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S)
    assert match is not None, "docs/tutorial.md has no service example"
    with server({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "readme.sqlite")}) as url:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", match.group(1)], env={**os.environ, "URL": url}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert '"rule":"117.3d"' in lines[8]
    assert json.loads(lines[-1]) == {"turn": 2, "active_player": "bob", "bob": [None]}
    assert [json.loads(x).get("version") for x in lines[:8]] == [8, 13, 15, 19, 21, 24, 26, 29]
