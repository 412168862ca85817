"""Replays re-derive a stored game identically on every store, without the random generator, and
catch a forged state hash; export and import carry a game between stores and refuse bad files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

import mtg_ledger.core.rng
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, PassPriority
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.ledger.play import play_demo
from mtg_ledger.replays.audit.replay import replay
from tests.helpers import advance_to, both_pass, two_players
from tests.log_tools import SEED, Event, demo_game, demo_log, edited, first, header_of, rehash, run, write_raw
from tests.rules.mechanics_cards import start

pytestmark = pytest.mark.usefixtures("cli_env")


def sqlite(db: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}


@pytest.fixture
def store_b(tmp_path: Path) -> Iterator[tuple[Path, Ledger]]:
    """A second SQLite store, empty, to import into (and to count its games)."""
    db = tmp_path / "b.sqlite"
    ledger = Ledger(env=sqlite(db))
    yield db, ledger
    ledger.close()


def games_in(ledger: Ledger) -> list[UUID]:
    return ledger.game_ids()


# --- replay equality -------------------------------------------------------------------------------------


@pytest.mark.parametrize("store", ["popo_env", "sqlite_env", pytest.param("postgres_env", marks=pytest.mark.postgres)])
def test_a_stored_demo_game_replays_identically_to_its_final_state_hash(store: str, request: pytest.FixtureRequest) -> None:
    ledger = Ledger(env=request.getfixturevalue(store))
    try:
        game_id = play_demo(ledger, demo_setup(4))
        events = list(ledger.event_maps(game_id))
        result = replay(events)
        stored = Ledger.game(ledger, game_id).state  # rebuilt from the store, not the live copy
    finally:
        ledger.close()
    assert result.ok, result.findings[:1]
    assert result.state is not None and result.events == len(events)
    assert result.state.state_hash() == stored.state_hash()
    assert result.state.version == len(events) and stored.ended


def _no_generator(self: mtg_ledger.core.rng.SeededRandom, items: list[object]) -> list[object]:
    raise AssertionError("a replay must take its shuffles from LibraryShuffled, not from the generator")


def _another_generator(self: mtg_ledger.core.rng.SeededRandom, items: list[object]) -> list[object]:
    return list(reversed(items))


@pytest.mark.parametrize("generator", [_no_generator, _another_generator], ids=["raising", "reversing"])
def test_replay_takes_shuffles_from_the_log_not_from_the_random_generator(
    generator: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = demo_log()
    monkeypatch.setattr(mtg_ledger.core.rng.SeededRandom, "shuffled", generator)
    result = replay(log)
    assert result.ok, result.findings[:1]


def test_a_log_whose_shuffles_the_seed_would_not_give_still_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shuffles recorded by another engine (or another generator) are facts, not something to re-roll (701.20)."""
    setup = demo_setup(SEED)
    decks = {p["name"]: list(reversed(p["library"])) for p in setup["players"]}
    table = LocalTable.start(setup, {("library", name): order for name, order in decks.items()})
    while (command := choose(table.state)) is not None:
        table.handle(command)
    shuffled = {e["player"]: e["order"] for e in table.events if e["type"] == "LibraryShuffled"}
    assert shuffled == decks and shuffled != {e["player"]: e["order"] for e in demo_log() if e["type"] == "LibraryShuffled"}
    monkeypatch.setattr(mtg_ledger.core.rng.SeededRandom, "shuffled", _no_generator)
    assert replay(table.events).ok


def test_a_turn_state_hash_altered_and_rehashed_is_a_divergence_at_that_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = demo_log()
    turn = first(log, "TurnBegan", turn=4)
    events = rehash(edited(log, turn["v"], state_hash="ab" * 32))
    result = replay(events)
    assert not result.ok
    found = result.findings[0]
    assert (found.version, found.kind) == (turn["v"], "divergence")
    assert "state_hash" in found.message
    assert found.derived is not None and found.derived["state_hash"] == turn["state_hash"]

    path = write_raw(tmp_path / "forged.mtg", header_of(events), events)
    code, out, _ = run(capsys, "replay", str(path), "--db", str(tmp_path / "s.sqlite"))
    assert code == 1 and out.startswith(f"replay diverges at event {turn['v']}:")


def test_cli_replay_of_a_stored_game_and_of_its_file_is_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.sqlite"
    game = demo_game(capsys, db)
    code, by_id, _ = run(capsys, "replay", game, "--db", str(db))
    assert code == 0 and by_id.startswith("replay identical:")
    run(capsys, "export", game, "-o", str(tmp_path / "g.mtg"), "--db", str(db))
    code, by_file, _ = run(capsys, "replay", str(tmp_path / "g.mtg"), "--db", str(db))
    assert code == 0 and by_file == by_id  # the same final state hash


# --- export and import ------------------------------------------------------------------------------------


def test_export_then_import_round_trips_the_log_and_refuses_the_same_id_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store_b: tuple[Path, Ledger]
) -> None:
    db_a, (db_b, ledger_b) = tmp_path / "a.sqlite", store_b
    game = demo_game(capsys, db_a)
    path = tmp_path / "game.mtg"
    code, out, err = run(capsys, "export", game, "-o", str(path), "--db", str(db_a))
    assert code == 0 and out == "" and str(path) in err  # a confirmation, on stderr like every verb that writes a file

    code, out, err = run(capsys, "import", str(path), "--db", str(db_b))
    assert (code, err, out.strip()) == (0, "", game)
    ledger_a = Ledger(env=sqlite(db_a))
    try:
        original = list(ledger_a.event_maps(UUID(game)))
        original_hash = ledger_a.state(UUID(game)).state_hash()
    finally:
        ledger_a.close()
    assert list(ledger_b.event_maps(UUID(game))) == original
    assert ledger_b.state(UUID(game)).state_hash() == original_hash

    code, out, err = run(capsys, "import", str(path), "--db", str(db_b))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "already in this store" in err and "--new-id" in err

    code, out, err = run(capsys, "import", str(path), "--new-id", "--db", str(db_b))
    copy = UUID(out.strip())
    assert code == 0 and copy != UUID(game)
    assert list(ledger_b.event_maps(copy)) == original
    assert sorted(map(str, games_in(ledger_b))) == sorted([game, str(copy)])


def _refused(capsys: pytest.CaptureFixture[str], path: Path, store_b: tuple[Path, Ledger]) -> str:
    db_b, ledger_b = store_b
    before = games_in(ledger_b)
    code, out, err = run(capsys, "import", str(path), "--db", str(db_b))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert games_in(ledger_b) == before  # nothing stored, not even the events before the fault
    return err


def test_import_refuses_a_file_whose_chain_breaks_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store_b: tuple[Path, Ledger]
) -> None:
    log = demo_log()
    drawn = first(log, "CardDrawn", after=300)
    path = write_raw(tmp_path / "broken.mtg", header_of(log), edited(log, drawn["v"], card="Black Lotus"))
    err = _refused(capsys, path, store_b)
    assert "nothing imported" in err and f"event {drawn['v']}" in err


@pytest.mark.parametrize(
    "newer",
    [{"schema": SCHEMA_VERSION + 1}, {"event_versions": {"SpellCast": 99}}],
    ids=["newer schema", "newer event class version"],
)
def test_import_refuses_a_file_from_a_newer_schema(
    newer: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str], store_b: tuple[Path, Ledger]
) -> None:
    log = demo_log()
    header: Event = {**header_of(log), **newer}
    if "event_versions" in newer:
        header["event_versions"] = {**header_of(log)["event_versions"], **newer["event_versions"]}  # type: ignore[dict-item]
    path = write_raw(tmp_path / "newer.mtg", header, log)
    err = _refused(capsys, path, store_b)
    assert "newer" in err


# --- progress output ----------------------------------------------------------------------------------------


def test_replay_and_audit_of_a_long_log_print_no_progress_when_not_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "a.sqlite"
    code, out, _ = run(capsys, "demo", "--seed", "3", "--players", "4", "--quiet", "--db", str(db))
    summary = dict(line.split(None, 1) for line in out.strip().splitlines())
    assert code == 0 and int(summary["events"]) > 1500
    path = tmp_path / "long.mtg"
    run(capsys, "export", summary["game"], "-o", str(path), "--db", str(db))
    for argv in (
        ["replay", summary["game"]],
        ["replay", str(path)],
        ["audit", summary["game"]],
        ["audit", str(path), "--lang", "fr"],
    ):
        code, out, err = run(capsys, *argv, "--db", str(db))
        assert (code, err) == (0, ""), argv
        assert out and "\r" not in out


def test_a_game_with_a_colour_chosen_two_targets_and_a_revealed_card_replays_to_the_same_events() -> None:
    """The decisions the five named cards added (a mana ability's colour, several targets, an attack
    trigger that reveals) are read back from the events they recorded, and derive them again."""
    table = start(
        two_players(
            alice={"battlefield": ["Selesnya Guildgate", "Forest", "Goblin Guide", "Hill Giant"], "hand": ["Prey Upon"]},
            bob={"battlefield": ["Grizzly Bears"], "library": ["Forest"] * 5},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Selesnya Guildgate"), 0, mana="W"))
    table.handle(CastSpell("alice", "Prey Upon", targets=(CardRef("Hill Giant"), CardRef("Grizzly Bears"))))
    both_pass(table)
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((CardRef("Goblin Guide"), None),)))
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))
    types = [e["type"] for e in table.events]
    assert {"ManaAbilityActivated", "SpellCast", "DamageDealt", "TopCardRevealed"} <= set(types)
    result = replay(table.events)
    assert result.ok, result.findings
