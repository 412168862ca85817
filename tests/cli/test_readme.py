"""The README's example of one whole turn runs and ends where it says."""

from __future__ import annotations

import contextlib
import io

from tests.readme_example import example


def test_the_readme_example_plays_turn_1_and_hands_the_turn_to_bob() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(example(), "README.md example", "exec"), {"__name__": "__readme__"})
    text = out.getvalue()
    assert "alice skips the draw (rule 103.8a)" in text
    assert "turn 2 begins: bob is the active player" in text
