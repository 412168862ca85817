"""The command line starts without the engine: ``--version`` and ``--help`` read the verb table and three
constants; ``state GAME`` loads the ledger and the view, not the audit, the scenario's models, the service
or the logging library. Pinned by what a fresh interpreter imports (``python -X importtime``), never by a
time: ``make bench`` measures the times (cli_version_over_python, cli_state_ms)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from mtg_ledger.replays import cli
from mtg_ledger.replays.cli import store

HEAVY = ("fastapi", "pydantic", "eventsourcing", "structlog", "rich", "tqdm", "uvicorn", "importlib.metadata",
         "mtg_ledger.replays.audit", "mtg_ledger.replays.service", "mtg_ledger.replays.scenario", "mtg_ledger.core.events")
NOT_FOR_STATE = ("fastapi", "pydantic", "structlog", "rich", "tqdm", "uvicorn", "logging",
                 "mtg_ledger.replays.audit", "mtg_ledger.replays.service", "mtg_ledger.replays.scenario", "mtg_ledger.replays.demo",
                 "mtg_ledger.replays.text", "mtg_ledger.core.redact")  # the events in words, what a player may see (--as)
# A read folds the checked events with the appliers: the decision machinery (the engine, the rules' checks, the
# commands, the pending decision), the snapshot writer, the log files (their imports and exports, their reader and
# writer, zstd) and the message catalogues stay unloaded.
NOT_FOR_A_READ = ("mtg_ledger.core.engine", "mtg_ledger.core.rules", "mtg_ledger.core.command_table", "mtg_ledger.core.commands",
                  "mtg_ledger.core.decision", "mtg_ledger.replays.ledger.imports", "mtg_ledger.replays.stores.snapshots",
                  "mtg_ledger.replays.messages", "mtg_ledger.replays.logfile", "zstandard")


def imported(*argv: str, cwd: Path | None = None) -> set[str]:
    """Every module a fresh ``python -m mtg_ledger.replays.cli ARGV`` imports."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mtg_ledger.replays.cli", *argv],
                          capture_output=True, text=True, cwd=cwd, timeout=60)
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:") and "|" in line}


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["state", "--help"]])
def test_version_and_help_import_neither_the_engine_nor_the_store_nor_the_service(argv: list[str]) -> None:
    modules = imported(*argv)
    assert "mtg_ledger.replays.cli" in modules
    assert loaded(modules, HEAVY) == []


def test_state_of_a_stored_game_loads_the_ledger_but_not_the_audit_the_scenario_models_the_service_or_the_logger(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["demo", "--seed", "7", "--quiet", "--json", "--db", str(tmp_path / "d.sqlite")]) == 0
    game = capsys.readouterr().out.split('"game": "')[1].split('"')[0]
    modules = imported("state", game, "--db", "d.sqlite", cwd=tmp_path)
    assert "mtg_ledger.replays.ledger.application" in modules
    assert loaded(modules, NOT_FOR_STATE) == []
    assert loaded(modules, NOT_FOR_A_READ) == []


def test_every_verb_names_a_function_that_exists() -> None:
    for verb in cli.VERBS:
        assert callable(cli.function(verb.run)), verb.name


def test_every_error_the_exit_statuses_name_is_an_exception_class_of_the_module_named() -> None:
    """A failure is classified among the modules already loaded, so each class must be named where it is
    defined: a class named through a module that re-exports it would go unrecognised."""
    for names, _ in cli.FAILURES:
        for name in names:
            module, _, attribute = name.partition(":")
            found = getattr(importlib.import_module(module), attribute)
            assert issubclass(found, Exception) and found.__module__ == module, name
    for name in (cli.BROKEN_CHAIN, cli.STORE_FAILURE):
        module, _, attribute = name.partition(":")
        assert getattr(importlib.import_module(module), attribute).__module__ == module


@pytest.mark.parametrize("argv", [["state", "x"], ["-vv", "--db", "games", "state", "x"], ["--db=d", "--json", "legal", "x"]])
def test_a_verb_named_after_the_common_options_is_parsed_as_the_whole_parser_parses_it(argv: list[str]) -> None:
    verb = cli.named_verb(argv)
    assert verb is not None
    assert vars(cli.parser(verb).parse_args(argv)) == vars(cli.parser().parse_args(argv))


@pytest.mark.parametrize("argv", [["--help", "state"], ["--d", "x", "state"], ["stat", "x"], []])
def test_help_an_abbreviation_or_an_unknown_verb_gets_the_whole_parser(argv: list[str]) -> None:
    assert cli.named_verb(argv) is None


def test_the_help_names_the_default_store_file_the_store_opens() -> None:
    db = next(action for action in cli.parser()._actions if "--db" in action.option_strings)
    assert f"default ./{store.DEFAULT_DB};" in str(db.help)
