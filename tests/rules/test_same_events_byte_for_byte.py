"""The same decisions record the same events, byte for byte: seeded demo games (two players and 3-4
player free-for-alls) and every scenario file, played in memory, are compared with digests committed
in ``tests/fixtures/event-digests.json``. The last chain hash covers every event's contract map; the
digest of the JSON lines covers the order of each event's fields as well.

A refactor of the engine must leave these untouched. Regenerate the file (``python -m
tests.rules.test_same_events_byte_for_byte``) only for a change of the rules that is meant to change the
log, and say so in the commit.

Schema 5 added ``GameStarted.cards`` and nothing else: the same games without it, their chain hashes
computed again, are still the games of schema 4, byte for byte (``event-digests-schema4.json``, never
regenerated).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import chain
from mtg_ledger.core.state import GameState
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.core.schema import class_versions
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.play import pass_until_step
from mtg_ledger.replays.scenario import PassUntil, load

HERE = Path(__file__).parents[1]
DIGESTS = HERE / "fixtures" / "event-digests.json"
SCHEMA4 = HERE / "fixtures" / "event-digests-schema4.json"
GOLDEN = HERE / "golden" / "schema1-free-for-all.mtgl"
SCENARIOS = sorted(examples.directory().glob("*.json"))
DEMOS = [(players, seed) for players in (2, 3, 4) for seed in (1, 2, 3, 4)]


def demo_events(players: int, seed: int) -> list[dict[str, Any]]:
    table = LocalTable.start(demo_setup(seed, players))
    while (command := choose(table.state)) is not None:
        table.handle(command)
    return table.events


def scenario_events(path: Path) -> list[dict[str, Any]]:
    """A scenario's events, up to a refused action when the scenario ends on one."""
    scenario = load(path)
    table = LocalTable.start(scenario.setup)
    try:
        for action in scenario.actions:
            if isinstance(action, PassUntil):
                while (command := pass_until_step(table.state, action)) is not None:
                    table.handle(command)
            else:
                table.handle(action)
    except IllegalAction:
        pass
    return table.events


def digest(events: list[dict[str, Any]]) -> dict[str, Any]:
    lines = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
    return {"events": len(events), "last_hash": events[-1]["hash"], "json_lines_sha256": hashlib.sha256(lines.encode()).hexdigest()}


def recorded() -> dict[str, dict[str, Any]]:
    out = {f"demo {players} players seed {seed}": digest(demo_events(players, seed)) for players, seed in DEMOS}
    out.update({f"scenario {path.stem}": digest(scenario_events(path)) for path in SCENARIOS})
    return out


EXPECTED: dict[str, dict[str, Any]] = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
BEFORE_CARDS: dict[str, dict[str, Any]] = json.loads(SCHEMA4.read_text())


def without_cards(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as schema 4 wrote them: GameStarted without ``cards``, every chain hash computed again,
    and the state hashes TurnBegan records (the state holds the last chain hash) with them."""
    out: list[dict[str, Any]] = []
    state = GameState()
    for e in events:
        body = {k: v for k, v in e.items() if k != "hash" and not (e["type"] == "GameStarted" and k == "cards")}
        if e["type"] == "TurnBegan":
            body["state_hash"] = state.state_hash()
        body["hash"] = chain(state.last_hash, body)
        apply_event(state, {**e, "hash": body["hash"]})
        out.append(body)
    return out


@pytest.mark.parametrize(("players", "seed"), DEMOS)
def test_a_seeded_demo_game_records_the_same_events_byte_for_byte(players: int, seed: int) -> None:
    assert digest(demo_events(players, seed)) == EXPECTED[f"demo {players} players seed {seed}"]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_scenario_records_the_same_events_byte_for_byte(path: Path) -> None:
    assert digest(scenario_events(path)) == EXPECTED[f"scenario {path.stem}"]


@pytest.mark.parametrize(("players", "seed"), DEMOS[:4])
def test_a_demo_game_is_the_game_of_schema_4_but_for_the_card_definitions_its_start_records(players: int, seed: int) -> None:
    assert digest(without_cards(demo_events(players, seed))) == BEFORE_CARDS[f"demo {players} players seed {seed}"]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_scenario_is_the_game_of_schema_4_but_for_the_card_definitions_its_start_records(path: Path) -> None:
    assert digest(without_cards(scenario_events(path))) == BEFORE_CARDS[f"scenario {path.stem}"]


def test_the_digests_cover_every_scenario_file() -> None:
    assert sorted(k for k in EXPECTED if k.startswith("scenario ")) == sorted(f"scenario {p.stem}" for p in SCENARIOS)


def test_a_log_header_lists_the_event_types_in_the_order_logs_were_always_written_with() -> None:
    """A log file's header names every event type with its class version, in the engine's order of
    declaration; moving an event between modules must not reorder the bytes of exported headers.
    Event types a later schema adds (schema 5: counters removed, loyalty costs, attachments, a battle's
    protector, milling, ward, countering, returning to hand, exile, tapping, a revealed card, deathtouch in
    noncombat damage, a defeated Siege cast transformed or not, an activation waiting for the cards its cost
    discards, a Siege waiting for its protector to be chosen) come after every older one."""
    header, _ = logfile.read(GOLDEN)
    older = list(header["event_versions"])
    assert list(class_versions())[: len(older)] == older
    assert list(class_versions())[len(older) :] == [
        "CountersRemoved", "LoyaltyCostPaid", "Attached", "ProtectorChosen", "CardsMilled", "ManaSpent", "ObjectCountered",
        "PermanentsReturnedToHand", "PermanentsExiled", "PermanentsTapped", "TopCardRevealed", "DeathtouchDamageMarked", "SpellCastTransformed", "CastDeclined", "ActivationPaused",
        "ProtectorAsked",
    ]


if __name__ == "__main__":  # regenerate: only for a change of the rules meant to change the log
    DIGESTS.write_text(json.dumps(recorded(), indent=1) + "\n")
