"""Schema 2: the game's outcome is a value (core.outcome), and ``GameEnded`` records it as a reason
code and the whole winning team; logs of schema 1 still import, replay and audit clean, their
hash chain checked on the maps as they were recorded (docs/reference/events.md)."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import uuid4

import pytest

from mtg_ledger.core.commands import CastSpell, Concede, PassPriority
from mtg_ledger.core.events import UPCASTERS, GameEnded
from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.core.outcome import Outcome, Reason
from mtg_ledger.core.schema import SCHEMAS, SchemaError, class_versions, upgrade
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.cli import main
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.text import describe
from tests.helpers import archenemy, last, start, two_players
from tests.log_tools import header_of, rehash, write_raw

GOLDEN = Path(__file__).parents[1] / "golden" / "schema1-free-for-all.mtgl"
V1 = {kind: 1 for kind in class_versions()}
# GameEnded as schema 1 wrote it, in a game played today: its GameStarted holds the cards' definitions, which
# only class version 2 of it has (a GameStarted of version 1 holding them is not one any engine wrote)
V1_ENDED = {**V1, "GameStarted": 2}


def test_104_2a_the_last_player_standing_wins_and_the_event_says_so_with_a_code() -> None:
    table = start(two_players(alice={"hand": ["Lightning Bolt"], "battlefield": ["Mountain"]}, bob={"life": 3}))
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("bob",)))
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))
    ended = last(table, "GameEnded")
    assert {k: ended[k] for k in ("winner", "winners", "reason")} == {"winner": "alice", "winners": ["alice"], "reason": "last_player_standing"}
    assert table.state.outcome == Outcome(Reason.LAST_PLAYER_STANDING, "alice", ("alice",))


def test_104_3a_a_game_that_ends_because_the_last_opponent_conceded_says_concession() -> None:
    table = start(two_players())
    table.handle(Concede("bob"))
    assert (last(table, "GameEnded")["reason"], table.state.outcome.winner) == ("concession", "alice")


def test_104_4a_when_every_player_left_loses_at_once_the_game_is_a_draw_with_no_winner() -> None:
    table = start(two_players(alice={"life": 0}, bob={"life": 0}))
    ended = last(table, "GameEnded")
    assert (ended["winner"], ended["winners"], ended["reason"]) == (None, [], "all_players_lost")
    assert table.state.outcome is not None and table.state.outcome.draw


def test_805_904_a_teams_win_names_the_whole_team_even_a_player_who_had_left() -> None:
    table = start(archenemy(["Your Puny Minds Cannot Fathom"]))
    table.handle(Concede("alice"))
    assert not table.state.ended  # bob is still in the game for the team
    table.handle(PassPriority("eve"))
    table.handle(Concede("eve"))
    ended = last(table, "GameEnded")
    assert (ended["winner"], ended["winners"], ended["reason"]) == ("bob", ["alice", "bob"], "concession")
    assert describe(ended) == "game over: alice and bob win: the last opponent conceded (rule 104.3a)"


def test_an_outcome_is_a_closed_set_of_reasons_and_a_draw_has_no_winner() -> None:
    assert [r.value for r in Reason] == ["last_player_standing", "concession", "all_players_lost", "draw"]
    with pytest.raises(ValueError):
        Outcome(Reason.DRAW, "alice", ("alice",))
    with pytest.raises(ValueError):
        Outcome(Reason.CONCESSION, "carol", ("alice",))


def test_schema_2_is_gameended_class_version_2_and_the_header_says_which_schema_a_log_is_in() -> None:
    assert GameEnded.class_version == SCHEMAS[2]["GameEnded"] == 2  # schemas 3 and 4 store and export the same events in other forms
    assert logfile.header_for("g", [])["schema"] == SCHEMA_VERSION
    recorded_in_v1 = logfile.header_for("g", [], V1)  # a file of today's schema holding events recorded in schema 1's class versions
    assert recorded_in_v1["schema"] == SCHEMA_VERSION and recorded_in_v1["event_versions"]["GameEnded"] == 1
    assert {k: v for k, v in class_versions().items() if v != 1} == SCHEMAS[SCHEMA_VERSION]


@pytest.mark.parametrize(
    ("v1", "v2"),
    [
        ({"winner": "carol", "winners": ["carol"], "reason": "carol is the only player left in the game"},
         {"winner": "carol", "winners": ["carol"], "reason": "last_player_standing"}),
        ({"winner": "alice", "winners": ["alice", "bob"], "reason": "every opponent of the team of alice, bob has left the game"},
         {"winner": "alice", "winners": ["alice", "bob"], "reason": "last_player_standing"}),
        ({"winner": None, "winners": [], "reason": "all players lost simultaneously"},
         {"winner": None, "winners": [], "reason": "all_players_lost"}),
        ({"winner": "bob", "reason": "bob is the only player left in the game"},
         {"winner": "bob", "winners": ["bob"], "reason": "last_player_standing"}),
        ({"winner": "bob", "winners": ["bob"], "reason": "concession"},  # already a code: unchanged
         {"winner": "bob", "winners": ["bob"], "reason": "concession"}),
    ],
    ids=["last-player", "last-team", "draw", "no-winners-field", "code"],
)
def test_the_gameended_upcaster_turns_schema_1_free_text_into_a_reason_code(v1: dict, v2: dict) -> None:
    event = {"v": 9, "type": "GameEnded", **v1, "hash": "h"}
    assert UPCASTERS[("GameEnded", 1)](dict(event)) == {"v": 9, "type": "GameEnded", **v2, "hash": "h"}
    stored = {k: v for k, v in event.items() if k not in ("v", "type")}
    GameEnded.upcast_v1_v2(stored)  # the library mapper's form of the same upcaster
    assert stored == {**v2, "hash": "h"}


def test_the_golden_log_imported_by_the_cli_audits_replays_and_exports_as_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MTG_LEDGER_LOG_LEVEL", "warning")
    db = str(tmp_path / "golden.sqlite")
    header, recorded = logfile.read(GOLDEN)
    assert main(["import", str(GOLDEN), "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["audit", game, "--db", db]) == 0, capsys.readouterr().out  # the store keeps the chain as recorded
    assert main(["replay", game, "--db", db]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert main(["events", game, "--db", db, "--from", str(len(recorded))]) == 0
    ended = json.loads(capsys.readouterr().out)
    assert (ended["reason"], ended["hash"]) == ("last_player_standing", recorded[-1]["hash"])  # read upcast, hash as recorded
    assert main(["export", game, "-o", str(tmp_path / "again.mtgl"), "--db", db]) == 0
    again_header, again = logfile.read(tmp_path / "again.mtgl")
    assert again == recorded and again_header["schema"] == SCHEMA_VERSION and again_header["event_versions"]["GameEnded"] == 1


def test_a_schema_1_log_of_a_game_ended_by_a_concession_replays_and_audits_clean(tmp_path: Path) -> None:
    table = start(two_players())
    table.handle(PassPriority("alice"))
    table.handle(Concede("alice"))
    assert table.events[-1]["reason"] == "concession"
    v1 = rehash([*table.events[:-1], {**table.events[-1], "reason": "bob is the only player left in the game"}])  # as schema 1 wrote it
    header = {**header_of(v1), "schema": 1, "event_versions": V1_ENDED}
    assert audit("g", v1, header).clean
    assert replay(v1, versions=V1_ENDED).ok
    assert upgrade(v1[-1], V1_ENDED)["reason"] == "last_player_standing"  # what schema 1 could say of it
    path = write_raw(tmp_path / "v1.mtgl", header, v1)
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "v1.sqlite")})
    try:
        game = ledger.import_events(logfile.read(path)[1], uuid4(), versions=V1_ENDED)
        recorded, versions = ledger.recorded_log(game)
        assert recorded == v1 and versions["GameEnded"] == 1 and not logfile.integrity(recorded)
        assert replay(recorded, versions=versions).ok
        assert replay(list(ledger.event_maps(game))).ok  # the maps read upcast, their hash as recorded
    finally:
        ledger.close()


def test_a_gamestarted_that_says_version_1_but_holds_card_definitions_is_refused_not_upcast() -> None:
    """Only class version 2 of GameStarted records the cards' definitions (schema 5): a log that says its
    GameStarted is of version 1 while it holds them says something no engine wrote; read as version 1 it
    would be upcast, and written again, as another event."""
    started = start(two_players()).events[0]
    assert "cards" in started
    with pytest.raises(SchemaError, match="never held cards"):
        upgrade(started, V1)
    assert upgrade({k: x for k, x in started.items() if k != "cards"}, V1)["cards"]  # version 1's form: the classic cards pinned
