"""The command line's conventions (docs/reference/cli.md): quiet by default, --version, common options
anywhere, help with an example everywhere, --json printing only JSON, exit codes 0/1/2/3, and
reading verbs that never create a store."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from uuid import UUID

import psycopg
import pytest

from mtg_ledger.core.versions import SCHEMA_VERSION
import structlog
from psycopg import sql

from mtg_ledger.core.rules import is_legal
from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.cli import transfer_verbs, verbs
from mtg_ledger.replays.cli import main, parser
from mtg_ledger.replays.ledger.logs import configure_logging, get_logger
from mtg_ledger.replays.cli.progress import progress_bar
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.scenario import PassUntil, parse_action
from tests.conftest import POSTGRES

pytestmark = pytest.mark.usefixtures("cli_env")

READING = {
    "events": ["events", "{game}"],
    "state": ["state", "{game}"],
    "export": ["export", "{game}", "-o", "{tmp}/out.mtgl"],
    "replay": ["replay", "{game}"],
    "audit": ["audit", "{game}"],
    "diff": ["diff", "{game}", "{game}"],
    "step": ["step", "{game}", "--to", "3"],
    "games": ["games"],
    "legal": ["legal", "{game}"],
    "views": ["views", "{game}"],
}
SOME_GAME = "00000000-0000-4000-8000-000000000001"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def played(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str = "contract_example", *extra: str) -> tuple[str, str]:
    """A game played from an example scenario into its own SQLite store: (game id, --db path)."""
    db = str(tmp_path / "s.sqlite")
    code, out, err = run(capsys, "play", str(examples.path(name)), "--db", db, *extra)
    assert code == 0, err
    return out.strip(), db


# --- quiet by default, logs on request -----------------------------------------------------------------------


def test_quiet_by_default_no_log_line_per_decision_in_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MTG_LEDGER_LOG_LEVEL")
    game, db = played(tmp_path, capsys)
    assert game
    code, out, err = run(capsys, "-v", "play", str(examples.path("contract_example")), "--db", db)
    decisions = [json.loads(x) for x in err.splitlines()]
    assert code == 0 and decisions and {d["event"] for d in decisions} == {"game started", "decision"}
    code, out, err = run(capsys, "play", str(examples.path("contract_example")), "--db", db, "--log-level", "info")
    assert code == 0 and len(err.splitlines()) == len(decisions)
    structlog.reset_defaults()


def test_quiet_by_default_even_with_the_first_run_and_the_verbose_flag_after_the_verb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MTG_LEDGER_LOG_LEVEL")
    code, _, err = run(capsys, "demo", "--quiet", "--db", str(tmp_path / "d.sqlite"))
    assert (code, err) == (0, "")
    code, _, err = run(capsys, "demo", "--quiet", "--db", str(tmp_path / "d.sqlite"), "-v")
    assert code == 0 and err.count("\n") > 100
    structlog.reset_defaults()


def test_an_invalid_log_level_in_the_environment_is_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MTG_LEDGER_LOG_LEVEL", "loud")
    code, out, err = run(capsys, "example")
    assert (code, out) == (2, "")
    assert err == "mtg-ledger: MTG_LEDGER_LOG_LEVEL=loud: not a log level; use one of debug, info, warning, warn, error, critical\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_color_turns_the_colours_of_log_lines_on_a_terminal_off(monkeypatch: pytest.MonkeyPatch) -> None:
    for no_color, coloured in (("", True), ("1", False)):
        monkeypatch.setenv("NO_COLOR", no_color)
        screen = Terminal()
        configure_logging(screen, level="info")
        get_logger().info("decision", game="g-1")
        assert ("\x1b[" in screen.getvalue()) is coloured
    structlog.reset_defaults()


def test_a_progress_bar_is_drawn_on_a_terminal_and_never_in_a_pipe() -> None:
    for stream, drawn in ((Terminal(), True), (io.StringIO(), False)):
        with progress_bar(10_000, "audit", stream) as done:
            for n in range(0, 10_001, 1000):
                done(n)
        assert ("audit" in stream.getvalue()) is drawn


# --- version, options, help ---------------------------------------------------------------------------------


def test_version_names_the_engine_the_event_schema_and_the_rules_edition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("mtg-ledger ") and f"event schema {SCHEMA_VERSION}" in out
    assert "Comprehensive Rules of 2025-11-14" in out


def test_options_common_to_every_verb_go_before_or_after_the_verb(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, db = played(tmp_path, capsys)
    before = run(capsys, "--db", db, "--json", "games")
    after = run(capsys, "games", "--db", db, "--json")
    assert before == after and before[0] == 0
    assert json.loads(before[1])["game"] == game


def test_every_verb_has_help_with_an_example_and_every_argument_is_explained() -> None:
    top = parser()
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) >= {"demo", "play", "games", "legal", "events", "state", "schema", "example", "audit", "replay", "diff"}
    for name, verb in sub.choices.items():
        assert f"mtg-ledger {name}" in verb.format_help().split("example:")[1], name
        for action in verb._actions:
            assert action.help, f"{name} {action.option_strings or action.dest}"


def test_a_usage_error_is_one_line_naming_the_help_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "state", SOME_GAME, "--at", "ten")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "invalid int value: 'ten'" in err and "mtg-ledger state --help" in err


# --- games, legal, example ---------------------------------------------------------------------------------


def test_games_lists_each_stored_game_with_its_format_players_turn_events_winner_and_lineage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, db = played(tmp_path, capsys)
    code, branch, _ = run(capsys, "branch", game, "--at", "38", "--db", db)
    assert code == 0
    code, out, _ = run(capsys, "games", "--db", db)
    header, *rows = out.splitlines()
    assert header.split()[:6] == ["game", "format", "players", "turn", "events", "winner"]
    assert [r.split()[0] for r in rows] == [game, branch.strip()]
    assert f"{game} at 38" in rows[1]
    _, out, _ = run(capsys, "games", "--db", db, "--json")
    first, second = (json.loads(x) for x in out.splitlines())
    assert (first["format"], first["players"], first["turn"], first["events"], first["winner"]) == ("two-player", ["alice", "bob"], 3, 161, None)
    assert (second["branched_from"], second["at_version"], second["events"]) == (game, 38, 38)


def test_legal_prints_the_pending_decision_and_actions_that_decide_accepts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, db = played(tmp_path, capsys)
    code, branch, _ = run(capsys, "branch", game, "--at", "19", "--db", db)  # alice in her first main phase
    branch = branch.strip()
    code, out, _ = run(capsys, "legal", branch, "--db", db)
    decision = json.loads(out)
    assert code == 0 and (decision["version"], decision["player"], decision["kind"], decision["rule"]) == (19, "alice", "priority", "117.3")
    actions = decision["legal"]
    assert {"action": "pass", "player": "alice"} in actions
    assert {"action": "play_land", "player": "alice", "card": "Forest"} in actions
    ledger = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
    try:
        state = ledger.state(UUID(branch))
        for action in actions:
            command = parse_action(action, ["alice", "bob"])
            assert not isinstance(command, PassUntil) and is_legal(state, command), action
    finally:
        ledger.close()
    code, out, _ = run(capsys, "decide", branch, json.dumps({"action": "play_land", "player": "alice", "card": "Forest"}), "--db", db, "--json")
    assert code == 0 and json.loads(out)["version"] > 19


def test_example_lists_the_shipped_scenarios_and_prints_or_writes_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "example")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == examples.names()
    code, out, _ = run(capsys, "example", "combat_first_strike")
    assert code == 0 and json.loads(out) == json.loads(examples.text("combat_first_strike"))
    code, _, _ = run(capsys, "example", "archenemy", "-o", str(tmp_path / "a.json"))
    assert code == 0 and json.loads((tmp_path / "a.json").read_text())["format"] == "archenemy"
    code, out, err = run(capsys, "example", "chaos")
    assert (code, out) == (2, "") and "no example scenario 'chaos'" in err and "contract_example" in err


def test_example_without_a_name_lists_each_example_with_a_one_line_description(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "example")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(examples.names())
    for line, name in zip(lines, examples.names(), strict=True):
        assert line.startswith(name + " ") and len(line[len(name):].strip()) > 20, line
    code, out, _ = run(capsys, "example", "--json")
    assert json.loads(out) == examples.names()


@pytest.mark.parametrize(
    "argv",
    [["export", "{game}", "-o", "{tmp}/g.mtgl"], ["export", "{game}", "-o", "{tmp}/f.mtgl", "--forensic"], ["schema", "-o", "{tmp}/s.json"],
     ["example", "archenemy", "-o", "{tmp}/a.json"], ["backup", "{tmp}/copy.sqlite"]],
    ids=["export", "export --forensic", "schema", "example", "backup"],
)
def test_every_verb_that_writes_a_file_confirms_on_stderr_and_keeps_stdout_for_data(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, db = played(tmp_path, capsys)
    code, out, err = run(capsys, *[a.format(game=game, tmp=tmp_path) for a in argv], "--db", db)
    written = argv[argv.index("-o") + 1] if "-o" in argv else argv[1]
    assert (code, out) == (0, "")
    assert err.startswith(written.format(tmp=tmp_path) + ": ") and err.count("\n") == 1
    if argv[0] in ("export", "backup"):  # with --json: the JSON on stdout, and nothing else
        again = [a.format(game=game, tmp=tmp_path / "json-").replace("json-/", "json-") if "{tmp}" in a else a.format(game=game) for a in argv]
        code, out, err = run(capsys, *again, "--db", db, "--json")
        assert (code, err) == (0, "") and json.loads(out)


# --- reading verbs never create a store ---------------------------------------------------------------------


@pytest.mark.parametrize("verb", sorted(READING))
def test_reading_verbs_never_create_a_store_file(verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "missing.sqlite"
    argv = [a.format(game=SOME_GAME, tmp=tmp_path) for a in READING[verb]]
    code, out, err = run(capsys, *argv, "--db", str(db))
    assert (code, out) == (2, "")
    assert err == f"mtg-ledger: no store at {db} (reading verbs never create one; `play`, `demo` and `import` write one)\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.postgres
def test_reading_verbs_never_create_or_alter_a_postgresql_schema(
    postgres_env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in postgres_env.items():
        monkeypatch.setenv(key, value)
    schema = postgres_env["POSTGRES_SCHEMA"]
    for verb in sorted(READING):
        argv = [a.format(game=SOME_GAME, tmp=tmp_path) for a in READING[verb]]
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, ""), verb
        assert f"no mtg-ledger store in PostgreSQL database 'test', schema '{schema}'" in err
    assert _objects_in(schema) == []
    code, out, _ = run(capsys, "play", str(examples.path("contract_example")))  # a writing verb creates the store
    assert code == 0 and _objects_in(schema)
    code, events, _ = run(capsys, "events", out.strip())
    assert code == 0 and len(events.splitlines()) == 161


def _objects_in(schema: str) -> list[str]:
    with psycopg.connect(
        dbname=POSTGRES["POSTGRES_DBNAME"], host=POSTGRES["POSTGRES_HOST"], port=int(POSTGRES["POSTGRES_PORT"]), user=POSTGRES["POSTGRES_USER"]
    ) as conn:
        rows = conn.execute(
            sql.SQL(
                "SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE nspname = %s "
                "UNION ALL SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE nspname = %s "
                "UNION ALL SELECT typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE nspname = %s"
            ),
            (schema, schema, schema),
        ).fetchall()
    return sorted(str(r[0]) for r in rows)


def test_a_log_file_is_audited_replayed_and_diffed_without_any_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, db = played(tmp_path, capsys)
    log = str(tmp_path / "game.mtgl")
    assert run(capsys, "export", game, "-o", log, "--db", db)[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for argv in (["audit", log], ["replay", log], ["diff", log, log]):
        code, _, err = run(capsys, *argv, "--db", str(elsewhere / "none.sqlite"))
        assert (code, err) == (0, ""), argv
    assert list(elsewhere.iterdir()) == []


def test_diff_of_a_missing_file_says_the_file_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, db = played(tmp_path, capsys)
    code, out, err = run(capsys, "diff", game, str(tmp_path / "gone.mtgl"), "--db", db)
    assert (code, out) == (2, "")
    assert err == f"mtg-ledger: B: no such file: {tmp_path / 'gone.mtgl'}\n"


# --- errors that point the right way: a missing file, a short game id -----------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["audit", "nosuch.mtgl"], ["replay", "nosuch.mtgl"], ["diff", "nosuch.mtgl", "{game}"], ["import", "nosuch.mtgl"],
     ["view", "nosuch.mtgl"], ["audit", "logs/nosuch"], ["audit", "nosuch"], ["replay", "beef"]],
)
def test_a_missing_file_is_said_to_be_a_missing_file_not_a_bad_game_id(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, db = played(tmp_path, capsys)
    code, out, err = run(capsys, *[a.format(game=game) for a in argv], "--db", db)
    assert (code, out) == (2, "")
    assert err.startswith(f"mtg-ledger: {'A: ' if argv[0] == 'diff' else ''}no such file: {argv[1]}") and err.count("\n") == 1, err


@pytest.mark.parametrize("verb", ["state", "events", "legal", "step", "views", "export", "branch", "decide", "audit", "replay", "diff"])
def test_every_verb_that_takes_a_game_accepts_a_unique_prefix_of_its_id_as_git_does(
    verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, db = played(tmp_path, capsys)
    extra = {"step": ["--to", "2"], "export": ["-o", str(tmp_path / "g.mtgl")], "branch": ["--at", "19"], "diff": [game],
             "decide": ['{"player": "alice", "action": "concede"}']}.get(verb, [])
    code, _, err = run(capsys, verb, game[:8], *extra, "--db", db)
    assert code in (0, 1) and "mtg-ledger:" not in err, err


def test_an_ambiguous_game_id_prefix_names_its_candidates_and_one_that_matches_nothing_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, db = played(tmp_path, capsys)
    log = str(tmp_path / "game.mtgl")
    assert run(capsys, "export", game, "-o", log, "--db", db)[0] == 0
    ids = iter([UUID("abcd0000-0000-4000-8000-000000000001"), UUID("abcd0000-0000-4000-8000-000000000002")])
    monkeypatch.setattr(transfer_verbs, "uuid4", lambda: next(ids))
    for _ in range(2):
        assert run(capsys, "import", log, "--new-id", "--db", db)[0] == 0
    code, out, err = run(capsys, "state", "abcd", "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "mtg-ledger: 'abcd' is ambiguous: 2 games start with it "
        "(abcd0000-0000-4000-8000-000000000001, abcd0000-0000-4000-8000-000000000002); give more of the id\n"
    )
    assert run(capsys, "state", "abcd0000-0000-4000-8000-000000000002", "--db", db)[0] == 0
    code, out, err = run(capsys, "events", "fedcba", "--db", db)
    assert (code, out) == (2, "") and err == f"mtg-ledger: no game id starts with 'fedcba' in {db} (`mtg-ledger games` lists them)\n"


@pytest.mark.parametrize(
    ("argv", "option"),
    [(["events", "--from", "162"], "--from 162"), (["events", "--to", "500"], "--to 500"), (["events", "--around", "900"], "--around 900"),
     (["step", "--from", "200"], "--from 200"), (["step", "--to", "0"], "--to 0"), (["state", "--at", "162"], "--at 162")],
)
def test_a_version_past_the_end_of_the_log_is_an_error_naming_the_range(
    argv: list[str], option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, db = played(tmp_path, capsys)
    code, out, err = run(capsys, argv[0], game, *argv[1:], "--db", db)
    assert (code, out) == (2, "")
    assert err == f"mtg-ledger: {option}: game {game} has events 1 to 161\n"


# --- --json and exit codes ----------------------------------------------------------------------------------


def test_json_prints_only_json_with_exit_0_when_clean_and_1_with_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, db = played(tmp_path, capsys)
    code, branch, _ = run(capsys, "branch", game, "--at", "19", "--db", db)
    branch = branch.strip()
    run(capsys, "decide", branch, '{"action": "pass", "player": "alice"}', "--db", db)
    code, out, _ = run(capsys, "diff", game, branch, "--db", db, "--json")
    diff = json.loads(out)
    assert code == 1 and diff["identical"] is False and diff["version"] == 20
    assert (diff["a"]["type"], diff["b"]["type"]) == ("LandPlayed", "PriorityPassed")
    code, out, _ = run(capsys, "diff", game, game, "--db", db, "--json")
    assert code == 0 and json.loads(out)["identical"] is True
    code, out, _ = run(capsys, "replay", game, "--db", db, "--json")
    replayed = json.loads(out)
    assert code == 0 and replayed["identical"] is True and replayed["events"] == 161 and replayed["findings"] == []
    code, out, _ = run(capsys, "audit", game, "--db", db, "--json")
    assert code == 0 and json.loads(out)["clean"] is True


def test_a_store_that_fails_is_one_line_exit_3_and_a_traceback_only_with_v(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not an SQLite database, but it is long enough to look like a header of one" * 20)
    code, out, err = run(capsys, "games", "--db", str(garbage))
    assert (code, out) == (3, "") and err.count("\n") == 1 and err.startswith("mtg-ledger: ") and "Traceback" not in err
    code, _, err = run(capsys, "games", "--db", str(garbage), "-v")
    assert code == 3 and "Traceback" in err
    structlog.reset_defaults()


def test_a_defect_is_one_line_exit_3_with_the_traceback_only_with_v(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(store: object, args: object) -> int:
        raise KeyError("phase")

    monkeypatch.setattr(verbs, "cmd_example", broken)
    code, out, err = run(capsys, "example")
    assert (code, out) == (3, "")
    assert err == "mtg-ledger: internal error: KeyError: 'phase' (run with -v for the traceback)\n"
    code, _, err = run(capsys, "example", "-v")
    assert code == 3 and "Traceback" in err and "KeyError" in err
    structlog.reset_defaults()
