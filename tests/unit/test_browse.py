"""Browsing a stored game a window at a time (replays.browse): the viewer's timeline, turn ribbon and jumps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.viewer.browse import find, timeline, turn_outline
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.text import describe


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Ledger, UUID, list[dict]]]:
    path: Path = tmp_path_factory.mktemp("browse") / "demo.sqlite"
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
    game = play_demo(ledger, demo_setup(7, 2))
    yield ledger, game, list(ledger.event_maps(game))
    ledger.close()


def test_the_timeline_gives_each_event_its_text_line_rule_turn_and_step(demo: tuple[Ledger, UUID, list[dict]]) -> None:
    ledger, game, events = demo
    rows = timeline(ledger, game, 100, 140)
    assert [r["v"] for r in rows] == list(range(100, 141))
    assert [r["text"] for r in rows] == [describe(e).strip() for e in events[99:140]]
    steps = [e for e in events[:140] if e["type"] == "StepBegan"]
    last_step_before = [s for s in steps if s["v"] <= 100][-1]
    assert (rows[0]["turn"], rows[0]["step"]) == (last_step_before["turn"], last_step_before["step"])
    assert all(r["rule"] == events[r["v"] - 1].get("rule") for r in rows)


def test_a_turn_outline_lists_its_steps_as_they_happened_with_the_first_strike_damage_step(
    demo: tuple[Ledger, UUID, list[dict]],
) -> None:
    """510.4: a turn with a first-strike attacker has two combat damage steps."""
    ledger, game, events = demo
    first_strike = next(e for e in events if e["type"] == "StepBegan" and e.get("first_strike"))
    outline = turn_outline(ledger, game, first_strike["v"])
    names = [s["step"] for s in outline.steps]
    assert outline.turn == first_strike["turn"] and outline.complete
    assert names.count("combat_damage") == 2 and outline.steps[names.index("combat_damage")]["first_strike"]
    assert names[0] == "untap" and names[-1] == "cleanup"


def test_508_8_a_turn_without_attackers_skips_the_blockers_and_damage_steps_in_its_outline(
    demo: tuple[Ledger, UUID, list[dict]],
) -> None:
    ledger, game, events = demo
    outline = turn_outline(ledger, game, 30)
    names = [s["step"] for s in outline.steps]
    assert "declare_attackers" in names and "declare_blockers" not in names and "combat_damage" not in names


def test_jumps_find_the_next_step_a_turn_a_player_s_decision_and_an_event_type(demo: tuple[Ledger, UUID, list[dict]]) -> None:
    ledger, game, events = demo
    by_v = {e["v"]: e for e in events}
    nxt = find(ledger, game, 100, step_boundary=True)
    assert nxt is not None and by_v[nxt]["type"] == "StepBegan" and not any(
        by_v[v]["type"] == "StepBegan" for v in range(101, nxt))
    prev = find(ledger, game, 100, step_boundary=True, back=True)
    assert prev is not None and prev < 100 and by_v[prev]["type"] == "StepBegan"
    at = find(ledger, game, 1, turn=3, step="precombat_main")
    assert at is not None and (by_v[at]["turn"], by_v[at]["step"]) == (3, "precombat_main")
    cast = find(ledger, game, 1, kind="SpellCast")
    assert cast == next(e["v"] for e in events if e["type"] == "SpellCast")
    bob = find(ledger, game, 1, player="bob")
    assert bob is not None and by_v[bob]["player"] == "bob"
    assert find(ledger, game, len(events), kind="SpellCast") is None
