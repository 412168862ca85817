"""Properties of random legal combats (506-511): damage dealt is exactly what was assigned, no
creature deals combat damage twice in a step (double strike aside), life changes only by damage
(or by life explicitly lost or gained, 119.3), and every refused declaration leaves the stored log
byte for byte as it was."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, DeclareAttackers, DeclareBlockers
from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.ledger.application import Ledger
from tests.rules.test_random_play import _setup, play_randomly
from tests.conftest import examples


def check_combat_invariants(events: list[dict[str, Any]]) -> int:
    """Replay the log event by event and check the combat invariants; returns the damage steps seen."""
    table = LocalTable()
    dealt_in_step: list[int] | None = None
    first_step_sources: set[int] = set()
    steps = 0
    for e in events:
        before = {n: p.life for n, p in table.state.players.items()}
        if e["type"] == "CombatDamageDealt":
            assert dealt_in_step == [], "one CombatDamageDealt per combat damage step"
            steps += 1
            per_source: dict[int, int] = {}
            for a in e["assignments"]:
                per_source[a["source"]] = per_source.get(a["source"], 0) + a["amount"]
            for source, total in per_source.items():
                perm = table.state.permanent(source)
                assert perm is not None, "only creatures on the battlefield deal combat damage"
                assert total == ch.power(table.state, perm), "a creature assigns exactly its power (510.1)"
                if not e["first_strike"] and source in first_step_sources:
                    assert ch.has_keyword(table.state, perm, "double strike"), "only double strike deals damage twice (510.4)"
            marked = {p.object: p.damage for p in table.state.battlefield}
            dealt_in_step = list(per_source)
            if e["first_strike"]:
                first_step_sources = set(per_source)
        apply_event(table.state, e)
        if e["type"] == "StepBegan":
            dealt_in_step = [] if e["step"] == "combat_damage" else None
            if e["step"] == "declare_attackers":
                first_step_sources = set()
        to_players: dict[str, int] = {}
        if e["type"] in ("LifeLost", "LifeGained"):
            to_players[e["player"]] = e["amount"] if e["type"] == "LifeLost" else -e["amount"]
        if e["type"] in ("CombatDamageDealt", "DamageDealt"):
            for a in e.get("assignments", [e]):
                if isinstance(a["target"], str):
                    to_players[a["target"]] = to_players.get(a["target"], 0) + a["amount"]
                elif e["type"] == "CombatDamageDealt":
                    perm = table.state.permanent(a["target"])
                    assert perm is not None
            if e["type"] == "CombatDamageDealt":
                for obj, damage in marked.items():
                    perm = table.state.permanent(obj)
                    got = sum(a["amount"] for a in e["assignments"] if a["target"] == obj)
                    assert perm is not None and perm.damage == damage + got, "damage dealt equals damage assigned"
        for name, life in before.items():
            if name in table.state.players and not table.state.players[name].lost:
                assert table.state.players[name].life == life - to_players.get(name, 0), (
                    f"{name}'s life changed by something other than damage at event {e['v']} ({e['type']})"
                )
    return steps


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_random_legal_combats_keep_the_damage_and_life_invariants_510(seed: int, choice_seed: int) -> None:
    table = play_randomly(seed, random.Random(choice_seed), 1500)
    check_combat_invariants(table.events)


def test_the_invariant_checker_sees_combat_damage_in_random_games() -> None:
    steps = 0
    for seed in range(6):  # until the games seen have shown enough combat damage steps
        steps += check_combat_invariants(play_randomly(seed, random.Random(seed), 1500).events)
        if steps > 5:
            break
    assert steps > 5  # the property above is not vacuous


def stored_rows(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute(
            "SELECT g.uuid, e.key % 4294967296, t.name, e.state FROM events AS e JOIN games AS g ON g.id = e.key / 4294967296"
            " JOIN topics AS t ON t.id = e.topic ORDER BY 1, 2"
        ).fetchall()


def wild_declaration(state: Any, choices: random.Random) -> Any:
    decision = pending_decision(state)
    assert decision is not None
    objects = [p.object for p in state.battlefield] + [999]
    players = [*state.turn_order, None]
    if decision.kind == "declare_attackers":
        picks = choices.sample(objects, k=min(len(objects), choices.randint(1, 3)))
        return DeclareAttackers(decision.player, tuple((o, choices.choice(players)) for o in picks))
    pairs = tuple((choices.choice(objects), choices.choice([*objects, CardRef("Serra Angel")])) for _ in range(choices.randint(1, 3)))
    return DeclareBlockers(decision.player, pairs)


@settings(max_examples=examples(6), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_refused_declaration_leaves_the_stored_log_byte_for_byte_unchanged_508_1_509_1_733(tmp_path: Path, seed: int) -> None:
    refuse_wild_declarations(tmp_path, seed)


def test_wild_declarations_are_refused_in_practice() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        assert any(refuse_wild_declarations(Path(tmp), seed) for seed in range(4))  # the property is not vacuous


def refuse_wild_declarations(tmp_path: Path, seed: int) -> int:
    """Play with wild declarations mixed in; check each refusal left the store as it was. Returns how many."""
    db = tmp_path / f"{seed}.sqlite"
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    choices = random.Random(seed)
    game_id = ledger.start(_setup(seed))
    refused = 0
    for _ in range(800):
        state = ledger.state_now(game_id)
        decision = pending_decision(state)
        if decision is None:
            break
        if decision.kind in ("declare_attackers", "declare_blockers") and choices.random() < 0.7:
            rows = stored_rows(db)
            try:
                ledger.decide(game_id, wild_declaration(state, choices))
            except RulesError:
                refused += 1
                assert stored_rows(db) == rows
                assert pending_decision(ledger.state_now(game_id)) == decision  # the same player is asked again
                continue
        ledger.decide(game_id, choices.choice(list(legal_actions(state))))
    ledger.close()
    return refused
