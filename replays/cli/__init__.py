"""The ``mtg-ledger`` command line (CONTRACT section 1): the outermost shell.

Conventions: quiet by default (log lines only with ``-v``, ``--log-level`` or ``MTG_LEDGER_LOG_LEVEL``);
the options common to every verb (``--db``, ``-v``, ``--log-level``, ``--json``) go before or after the
verb; ``--json`` prints only JSON. Errors are one line on stderr. Exit status: 0 success or clean,
1 findings (a failed replay, an audit or a diff that found something), 2 user error (bad arguments,
bad file, illegal action), 3 store or internal failure (a traceback only with ``-v``).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from eventsourcing.persistence import MapperDeserialisationError, PersistenceError

from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.versions import RULES_EDITION, SCHEMA_VERSION
from mtg_ledger.replays.cli import backup
from mtg_ledger.replays.cli import log_verbs
from mtg_ledger.replays.cli import serve_verbs
from mtg_ledger.replays.cli import verbs
from mtg_ledger.core.topics import UnknownTopic
from mtg_ledger.replays.ledger.application import GameExists, GameNotFound, NotADecisionPoint, VersionConflict
from mtg_ledger.replays.scenario.examples import UnknownExample
from mtg_ledger.replays.logfile import UnreadableLog
from mtg_ledger.replays.version import ENGINE_VERSION
from mtg_ledger.replays.ledger.logs import LEVEL_ENV, LEVELS, LogLevelError, configure_logging
from mtg_ledger.replays.scenario import ScenarioError
from mtg_ledger.replays.stores.errors import StoreSetupError
from mtg_ledger.replays.cli.store import DEFAULT_DB, NoStore, Store
from mtg_ledger.replays.stores.errors import StoreFailure
from mtg_ledger.replays.stores.verify import BrokenChain, StoreDamage

USER_ERRORS = (
    verbs.UserError, ScenarioError, RulesError, GameNotFound, GameExists, NotADecisionPoint, UnreadableLog, UnknownExample,
    NoStore, StoreSetupError, LogLevelError,
)
STORE_ERRORS = (StoreFailure, PersistenceError)
EXIT_CONFLICT = 4  # the game moved on: another writer stored its next event first (HTTP 409)
GAME = "1b4e28ba-2fa1-4d2e-883f-0016d3cca427"  # an example game id for the help texts

Verb = Callable[[Store, argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (and the verb's --help named) rather than the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def _common() -> Parser:
    """The options every verb takes, before or after the verb (SUPPRESS: one given after the verb
    doesn't reset one given before)."""
    common = Parser(add_help=False)
    group = common.add_argument_group("options of every verb")
    group.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS,
        help=f"the SQLite file of the store (default ./{DEFAULT_DB}; PERSISTENCE_MODULE and POSTGRES_* choose PostgreSQL)",
    )
    group.add_argument(
        "-v", "--verbose", action="count", default=argparse.SUPPRESS,
        help="log one line per decision on stderr (-vv: debug); a traceback with a store or internal failure",
    )
    group.add_argument(
        "--log-level", choices=LEVELS, default=argparse.SUPPRESS, metavar="LEVEL",
        help=f"log threshold: {', '.join(LEVELS)} (default warning, or {LEVEL_ENV})",
    )
    group.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print only JSON, for machines")
    return common


def parser() -> Parser:
    common = _common()
    top = Parser(
        prog="mtg-ledger",
        description="Record and check Magic: The Gathering games, event by event.",
        epilog=(
            "examples:\n"
            "  mtg-ledger demo --seed 7                  play a whole seeded game and narrate it\n"
            "  mtg-ledger example contract_example -o s.json && mtg-ledger play s.json\n"
            "  mtg-ledger games                          the games in ./mtg-ledger.sqlite\n"
            "  mtg-ledger audit game.mtgl --lang fr      a judge's report on a log file\n\n"
            "exit status: 0 success or clean, 1 findings (replay, audit, diff; a stored game that fails its checks), 2 user error,\n"
            "  3 store or internal failure, 4 the game moved on (another writer stored its next event first)\n"
            "environment: MTG_LEDGER_LOG_LEVEL, NO_COLOR, and the eventsourcing library's PERSISTENCE_MODULE, POSTGRES_*, SQLITE_DBNAME"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common],
    )
    top.add_argument(
        "--version", action="version",
        version=f"mtg-ledger {ENGINE_VERSION} (event schema {SCHEMA_VERSION}, Comprehensive Rules of {RULES_EDITION})",
        help="print the version and exit",
    )
    sub = top.add_subparsers(dest="verb", required=True, metavar="VERB", title="verbs")

    def verb(name: str, run: Verb, summary: str, example: str, *, store: str) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name, help=summary, description=summary[0].upper() + summary[1:] + ".", parents=[common],
            epilog="example:\n" + "\n".join(f"  {x}" for x in example.splitlines()),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(run=run, store=store)
        return p

    p = verb("demo", verbs.cmd_demo, "play a seeded game between the built-in decks (two players, or a 3-4 player free-for-all)",
             "mtg-ledger demo --seed 7 --players 3 --db demo.sqlite", store="write")
    p.add_argument("--seed", type=int, default=7, metavar="N", help="the seed of the shuffles (default 7)")
    p.add_argument("--players", type=int, default=2, metavar="N", help="2 (a two-player game) or 3-4 (a free-for-all)")
    p.add_argument("--quiet", action="store_true", help="print only the summary, not the narration")

    p = verb("play", verbs.cmd_play, "run a scenario file and store its events; prints the game id",
             "mtg-ledger play scenario.json --db games.sqlite", store="write")
    p.add_argument("scenario", metavar="SCENARIO.json", help="a scenario file (`mtg-ledger example` lists some; `schema` describes them)")

    p = verb("games", verbs.cmd_games, "list the stored games: id, format, players, turn, events, winner, branched from",
             "mtg-ledger games --json", store="read")

    p = verb("legal", verbs.cmd_legal, "the pending decision and its legal actions, as scenario actions in JSON",
             f"mtg-ledger legal {GAME}", store="read")
    p.add_argument("game", metavar="GAME", help="a game id in the store")

    p = verb("events", verbs.cmd_events, "print a game's log, one event a line",
             f"mtg-ledger events {GAME} --format text --from 30 --to 40", store="read")
    p.add_argument("game", metavar="GAME", help="a game id in the store")
    p.add_argument("--format", choices=("jsonl", "text"), default="jsonl", help="JSON lines (default) or one readable line an event")
    p.add_argument("--from", dest="first", type=int, metavar="V", help="from event version V")
    p.add_argument("--to", dest="last", type=int, metavar="V", help="up to event version V")
    p.add_argument("--around", type=int, metavar="V", help="the events around version V (marked > in the text format)")
    p.add_argument("--context", type=int, default=5, metavar="N", help="how many events on each side of --around (default 5)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER", help="only what PLAYER may see (hidden cards as null)")

    p = verb("state", verbs.cmd_state, "print a game's state as JSON (the judge's view: hidden information included)",
             f"mtg-ledger state {GAME} --at 40", store="read")
    p.add_argument("game", metavar="GAME", help="a game id in the store")
    p.add_argument("--at", type=int, metavar="V", help="as it stood after event version V (default: now)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER", help="only what PLAYER may see (hidden cards as null)")

    p = verb("step", verbs.cmd_step, "event by event: the phase, the stack, priority and what changed",
             f"mtg-ledger step {GAME} --from 40 --to 48", store="read")
    p.add_argument("game", metavar="GAME", help="a game id in the store")
    p.add_argument("--from", dest="first", type=int, metavar="V", help="from event version V (default 1)")
    p.add_argument("--to", dest="last", type=int, metavar="V", help="up to event version V (default: the last)")

    p = verb("views", verbs.cmd_views, "catch the read models up and print them (phase/step, stack, hand sizes, cleanups)",
             f"mtg-ledger views {GAME}", store="read")
    p.add_argument("game", metavar="GAME", help="a game id in the store")

    p = verb("export", verbs.cmd_export, "write a game's self-describing log file",
             f"mtg-ledger export {GAME} -o game.mtgl", store="read")
    p.add_argument("game", metavar="GAME", help="a game id in the store")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the log file to write")
    p.add_argument("--forensic", action="store_true",
                   help="write every stored row that reads, as recorded, even when the chain is broken (exit 1 then)")

    p = verb("import", verbs.cmd_import, "store a log file as a game, after checking its header and hash chain",
             "mtg-ledger import game.mtgl --new-id", store="write")
    p.add_argument("file", metavar="FILE", help="a log file written by `mtg-ledger export`")
    p.add_argument("--new-id", action="store_true", help="store it under a new game id")

    p = verb("replay", log_verbs.cmd_replay, "re-run the recorded decisions and check every derived event and state hash",
             "mtg-ledger replay game.mtgl --json", store="read")
    p.add_argument("source", metavar="FILE|GAME", help="a log file, or a game id in the store")

    p = verb("audit", log_verbs.cmd_audit, "integrity and legality report: the first bad event and the rule it breaks",
             "mtg-ledger audit game.mtgl --lang fr", store="read")
    p.add_argument("source", metavar="FILE|GAME", help="a log file, or a game id in the store")
    p.add_argument("--lang", choices=("en", "fr"), default="en", help="the report's language (default en)")

    p = verb("diff", log_verbs.cmd_diff, "the first event where two logs diverge",
             f"mtg-ledger diff game.mtgl {GAME}", store="read")
    p.add_argument("a", metavar="A", help="a log file or a game id")
    p.add_argument("b", metavar="B", help="another log file or game id")

    p = verb("branch", verbs.cmd_branch, "a new game from the first V events of a game, to try another decision",
             f"mtg-ledger branch {GAME} --at 57", store="write")
    p.add_argument("game", metavar="GAME", help="a game id in the store")
    p.add_argument("--at", type=int, required=True, metavar="V", help="keep events 1 to V (a point where a player decides)")

    p = verb("decide", verbs.cmd_decide, "take decisions in a stored game (scenario actions as JSON)",
             f"mtg-ledger decide {GAME} '{{\"player\": \"bob\", \"action\": \"pass\"}}'", store="write")
    p.add_argument("game", metavar="GAME", help="a game id in the store")
    p.add_argument("actions", nargs="+", metavar="ACTION_JSON", help="one action (or a list of them) as in a scenario file")

    p = verb("backup", backup.cmd_backup, "copy an SQLite store to a new file, safely while `serve` or another writer writes to it",
             "mtg-ledger backup backups/games-monday.sqlite --db games.sqlite", store="read")
    p.add_argument("dest", metavar="DEST", help="the new file (never overwritten); PostgreSQL is backed up with pg_dump instead")

    p = verb("serve", serve_verbs.cmd_serve, "the HTTP service (CONTRACT section 6; OpenAPI at /openapi.json, docs at /docs)",
             "mtg-ledger serve --db games.sqlite --port 8000\nPERSISTENCE_MODULE=eventsourcing.postgres mtg-ledger serve --workers 2", store="none")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free one)")
    p.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (more than one needs PostgreSQL: PERSISTENCE_MODULE=eventsourcing.postgres)")

    p = verb("view", serve_verbs.cmd_view, "the time-travel viewer of one game or log file, on a local port: prints its address",
             f"mtg-ledger view {GAME} --db demo.sqlite\nmtg-ledger view game.mtgl --open", store="write")
    p.add_argument("source", metavar="GAME|FILE", help="a game id in the store, or a log file (served from a temporary store)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help="the port (default 0: any free one)")
    p.add_argument("--open", action="store_true", help="open the address in the default browser too")

    p = verb("schema", verbs.cmd_schema, "print the JSON Schema of a scenario file, for editors",
             "mtg-ledger schema -o scenario.schema.json", store="none")
    p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE rather than print it")

    p = verb("example", verbs.cmd_example, "list the example scenarios, or print or write one",
             "mtg-ledger example\nmtg-ledger example combat_first_strike -o first_strike.json", store="none")
    p.add_argument("name", nargs="?", metavar="NAME", help="an example's name (as listed)")
    p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE rather than print it")
    return top


def _option(args: argparse.Namespace, name: str, default: Any) -> Any:
    return getattr(args, name, default)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error already printed
        return e.code if isinstance(e.code, int) else 2
    verbose: int = _option(args, "verbose", 0)
    args.json = _option(args, "json", False)
    store = Store(_option(args, "db", None), reading=args.store == "read")
    try:
        level = _option(args, "log_level", None) or {0: None, 1: "info"}.get(verbose, "debug")
        configure_logging(level=level, default="warning")
        code: int = args.run(store, args)
        return code
    except USER_ERRORS as e:
        _say(e)
        return 2
    except StoreDamage as e:  # nothing of the damaged game was shown or built on
        _say(f"the stored game {'fails its checks' if isinstance(e, BrokenChain) else 'cannot be read'}: {e}", verbose)
        return 1 if isinstance(e, BrokenChain) else 3
    except (MapperDeserialisationError, UnknownTopic) as e:  # a damaged row met outside a game's checked read
        _say(f"the store holds a row this version cannot read: {e}", verbose)
        return 3
    except VersionConflict as e:
        _say(e)
        return EXIT_CONFLICT
    except STORE_ERRORS as e:
        _say(e if isinstance(e, StoreFailure) else f"the store failed: {type(e).__name__}: {e}", verbose)
        return 3
    except BrokenPipeError:
        return 0
    except Exception as e:  # a defect: one line, the traceback with -v
        _say(f"internal error: {type(e).__name__}: {e}" + ("" if verbose else " (run with -v for the traceback)"), verbose)
        return 3
    finally:
        store.close()


def _say(error: object, verbose: int = 0) -> None:
    if verbose:
        traceback.print_exc(file=sys.stderr)
    text = " ".join(str(error).split())  # one line, whatever the message holds
    print(f"mtg-ledger: {text}", file=sys.stderr)


def run() -> Any:  # pragma: no cover - console script entry
    sys.exit(main())
