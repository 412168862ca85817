"""The ``mtg-ledger`` command line (docs/reference/cli.md): the outermost shell.

Conventions: quiet by default (log lines only with ``-v``, ``--log-level`` or ``MTG_LEDGER_LOG_LEVEL``);
the options common to every verb (``--db``, ``-v``, ``--log-level``, ``--json``) go before or after the
verb; ``--json`` prints only JSON. Errors are one line on stderr. Exit status: 0 success or clean,
1 findings (a failed replay, an audit or a diff that found something), 2 user error (bad arguments,
bad file, illegal action), 3 store or internal failure (a traceback only with ``-v``).

Start-up is quick: the parser is built from the table below, which is data (names, help texts,
arguments); a verb's module, and the engine, the store and the service with it, is imported only when
that verb runs, and an error is classified only when one is raised (``FAILURES``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple, NoReturn

from mtg_ledger.core.versions import RULES_EDITION, SCHEMA_VERSION
from mtg_ledger.replays.ledger.logs import LEVEL_ENV, LEVELS
from mtg_ledger.replays.version import ENGINE_VERSION

if TYPE_CHECKING:
    from mtg_ledger.replays.cli.store import Store

EXIT_CONFLICT: Final = 4  # the game moved on: another writer stored its next event first (HTTP 409)
GAME: Final = "1b4e28ba-2fa1-4d2e-883f-0016d3cca427"  # an example game id for the help texts
VERBS_MODULE: Final = "mtg_ledger.replays.cli.verbs"
LOG_VERBS_MODULE: Final = "mtg_ledger.replays.cli.log_verbs"
SERVE_VERBS_MODULE: Final = "mtg_ledger.replays.cli.serve_verbs"
TRANSFER_MODULE: Final = "mtg_ledger.replays.cli.transfer_verbs"
RECEIPT_VERBS_MODULE: Final = "mtg_ledger.replays.cli.receipt_verbs"

Run = Callable[["Store", argparse.Namespace], int]


def arg(*flags: str, **options: Any) -> tuple[tuple[str, ...], dict[str, Any]]:
    """One argument of a verb, as ``add_argument`` takes it."""
    return flags, options


class Verb(NamedTuple):
    """One verb: its name, the function that runs it (``"module:function"``, imported when the verb
    runs), a summary, an example, which store it opens (read, write or none) and its arguments."""

    name: str
    run: str
    summary: str
    example: str
    store: str
    arguments: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = ()


GAME_ARG = arg("game", metavar="GAME", help="a game id in the store")

VERBS: Final = (
    Verb("demo", f"{VERBS_MODULE}:cmd_demo", "play a seeded game between the built-in decks or deck list files (two players, or a 3-4 player free-for-all)",
         "mtg-ledger demo --seed 7 --players 3 --db demo.sqlite\nmtg-ledger demo --deck mine.txt --deck red-blue", "write", (
             arg("--seed", type=int, default=7, metavar="N", help="the seed of the shuffles (default 7)"),
             arg("--players", type=int, default=2, metavar="N", help="2 (a two-player game) or 3-4 (a free-for-all)"),
             arg("--deck", action="append", metavar="FILE", help="a deck list file (docs/decks.md) or a shipped deck's name, once a player (2 to 4); "
                 "replaces --players"),
             arg("--quiet", action="store_true", help="print only the summary, not the narration"),
         )),
    Verb("play", f"{VERBS_MODULE}:cmd_play", "run a scenario file and store its events; prints the game id",
         "mtg-ledger play scenario.json --db games.sqlite", "write", (
             arg("scenario", metavar="SCENARIO.json", help="a scenario file (`mtg-ledger example` lists some; `schema` describes them)"),
         )),
    Verb("games", f"{VERBS_MODULE}:cmd_games", "list the stored games: id, format, players, turn, events, winner, branched from",
         "mtg-ledger games --json", "read"),
    Verb("legal", f"{VERBS_MODULE}:cmd_legal", "the pending decision and its legal actions, as scenario actions in JSON",
         f"mtg-ledger legal {GAME}", "read", (GAME_ARG,)),
    Verb("events", f"{VERBS_MODULE}:cmd_events", "print a game's log, one event a line",
         f"mtg-ledger events {GAME} --format text --from 30 --to 40", "read", (
             GAME_ARG,
             arg("--format", choices=("jsonl", "text"), default="jsonl", help="JSON lines (default) or one readable line an event"),
             arg("--from", dest="first", type=int, metavar="V", help="from event version V"),
             arg("--to", dest="last", type=int, metavar="V", help="up to event version V"),
             arg("--around", type=int, metavar="V", help="the events around version V (marked > in the text format)"),
             arg("--context", type=int, default=5, metavar="N", help="how many events on each side of --around (default 5)"),
             arg("--as", dest="as_player", metavar="PLAYER", help="only what PLAYER may see (hidden cards as null)"),
         )),
    Verb("state", f"{VERBS_MODULE}:cmd_state", "print a game's state as JSON (the judge's view: hidden information included)",
         f"mtg-ledger state {GAME} --at 40", "read", (
             GAME_ARG,
             arg("--at", type=int, metavar="V", help="as it stood after event version V (default: now)"),
             arg("--as", dest="as_player", metavar="PLAYER", help="only what PLAYER may see (hidden cards as null)"),
         )),
    Verb("step", f"{VERBS_MODULE}:cmd_step", "event by event: the phase, the stack, priority and what changed",
         f"mtg-ledger step {GAME} --from 40 --to 48", "read", (
             GAME_ARG,
             arg("--from", dest="first", type=int, metavar="V", help="from event version V (default 1)"),
             arg("--to", dest="last", type=int, metavar="V", help="up to event version V (default: the last)"),
         )),
    Verb("views", f"{VERBS_MODULE}:cmd_views", "catch the read models up and print them (phase/step, stack, hand sizes, cleanups)",
         f"mtg-ledger views {GAME}", "read", (GAME_ARG,)),
    Verb("export", f"{TRANSFER_MODULE}:cmd_export", "write a game's self-describing log file",
         f"mtg-ledger export {GAME} -o game.mtgl", "read", (
             GAME_ARG,
             arg("-o", "--output", required=True, metavar="FILE", help="the log file to write"),
             arg("--forensic", action="store_true",
                 help="write every stored row that reads, as recorded, even when the chain is broken (exit 1 then)"),
         )),
    Verb("import", f"{TRANSFER_MODULE}:cmd_import", "store a log file as a game, after checking its header and hash chain",
         "mtg-ledger import game.mtgl --new-id", "write", (
             arg("file", metavar="FILE", help="a log file written by `mtg-ledger export`"),
             arg("--new-id", action="store_true", help="store it under a new game id"),
         )),
    Verb("replay", f"{LOG_VERBS_MODULE}:cmd_replay", "re-run the recorded decisions and check every derived event and state hash",
         "mtg-ledger replay game.mtgl --json", "read", (
             arg("source", metavar="FILE|GAME", help="a log file, or a game id in the store"),
         )),
    Verb("audit", f"{LOG_VERBS_MODULE}:cmd_audit", "integrity and legality report: the first bad event and the rule it breaks",
         "mtg-ledger audit game.mtgl --lang fr", "read", (
             arg("source", metavar="FILE|GAME", help="a log file, or a game id in the store"),
             arg("--lang", choices=("en", "fr"), default="en", help="the report's language (default en)"),
             arg("--receipts", nargs="+", metavar="FILE",
                 help="receipts a player kept (each file one receipt or a JSON array of them), checked against the log"),
             arg("--keys", metavar="FILE", help="the service's public keys for --receipts (a saved GET /keys answer; default: the store's)"),
             arg("--player-key", action="append", metavar="NAME=KEY", help="the public key (base64) player NAME registered: the log must hold that one (repeatable)"),
         )),
    Verb("receipt", f"{RECEIPT_VERBS_MODULE}:cmd_receipt", "the service's signed receipt of a game's latest version (docs/receipts.md)",
         f"mtg-ledger receipt {GAME} --as alice --json", "write", (
             GAME_ARG,
             arg("--as", dest="as_player", metavar="PLAYER", help="as PLAYER, who must be a player of the game"),
             arg("--openings", action="store_true", help="once the game has ended: every hidden value with its salt, which opens each commitment"),
         )),
    Verb("keys", f"{RECEIPT_VERBS_MODULE}:cmd_keys", "the service's public keys, which verify its receipts; --rotate makes a new signing key",
         "mtg-ledger keys --json", "write", (
             arg("--rotate", action="store_true", help="make a new signing key (the older ones stay published)"),
         )),
    Verb("diff", f"{LOG_VERBS_MODULE}:cmd_diff", "the first event where two logs diverge",
         f"mtg-ledger diff game.mtgl {GAME}", "read", (
             arg("a", metavar="A", help="a log file or a game id"),
             arg("b", metavar="B", help="another log file or game id"),
         )),
    Verb("branch", f"{VERBS_MODULE}:cmd_branch", "a new game from the first V events of a game, to try another decision",
         f"mtg-ledger branch {GAME} --at 57", "write", (
             GAME_ARG,
             arg("--at", type=int, required=True, metavar="V", help="keep events 1 to V (a point where a player decides)"),
         )),
    Verb("decide", f"{VERBS_MODULE}:cmd_decide", "take decisions in a stored game (scenario actions as JSON)",
         f"mtg-ledger decide {GAME} '{{\"player\": \"bob\", \"action\": \"pass\"}}'", "write", (
             GAME_ARG,
             arg("actions", nargs="+", metavar="ACTION_JSON", help="one action (or a list of them) as in a scenario file"),
         )),
    Verb("backup", "mtg_ledger.replays.cli.backup:cmd_backup",
         "copy an SQLite store to a new file, safely while `serve` or another writer writes to it",
         "mtg-ledger backup backups/games-monday.sqlite --db games.sqlite", "read", (
             arg("dest", metavar="DEST", help="the new file (never overwritten); PostgreSQL is backed up with pg_dump instead"),
         )),
    Verb("serve", f"{SERVE_VERBS_MODULE}:cmd_serve", "the HTTP service (docs/reference/http.md; OpenAPI at /openapi.json, docs at /docs)",
         "mtg-ledger serve --db games.sqlite --port 8000\n"
         "PERSISTENCE_MODULE=eventsourcing.postgres mtg-ledger serve --workers 2", "none", (
             arg("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"),
             arg("--port", type=int, default=8000, help="the port (default 8000; 0: any free one)"),
             arg("--workers", type=int, default=1, metavar="N",
                 help="worker processes (more than one needs PostgreSQL: PERSISTENCE_MODULE=eventsourcing.postgres)"),
         )),
    Verb("view", f"{SERVE_VERBS_MODULE}:cmd_view", "the time-travel viewer of one game or log file, on a local port: prints its address",
         f"mtg-ledger view {GAME} --db demo.sqlite\nmtg-ledger view game.mtgl --open", "write", (
             arg("source", metavar="GAME|FILE", help="a game id in the store, or a log file (served from a temporary store)"),
             arg("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"),
             arg("--port", type=int, default=0, help="the port (default 0: any free one)"),
             arg("--open", action="store_true", help="open the address in the default browser too"),
         )),
    Verb("cards", "mtg_ledger.replays.cli.card_verbs:cmd_cards", "the card pool: every card, or those whose name contains QUERY; one card's text and abilities",
         "mtg-ledger cards bolt\nmtg-ledger cards --json", "none", (
             arg("query", nargs="?", metavar="QUERY", help="a card's name or part of it (case aside); the card named so comes first"),
         )),
    Verb("schema", f"{VERBS_MODULE}:cmd_schema", "print the JSON Schema of a scenario file, for editors",
         "mtg-ledger schema -o scenario.schema.json", "none", (
             arg("-o", "--output", metavar="FILE", help="write it to FILE rather than print it"),
         )),
    Verb("example", f"{VERBS_MODULE}:cmd_example", "list the example scenarios, or print or write one",
         "mtg-ledger example\nmtg-ledger example combat_first_strike -o first_strike.json", "none", (
             arg("name", nargs="?", metavar="NAME", help="an example's name (as listed)"),
             arg("-o", "--output", metavar="FILE", help="write it to FILE rather than print it"),
         )),
)

# How a failure ends a command, the first row whose classes match: (classes, exit status, how it is said).
# Each class is named where it is defined ("module:Class") and looked up when something is raised, among
# the modules already loaded: a class whose module was never imported cannot have been raised, so no verb
# imports the others' errors (or the store's, or the library's) to start.
USER = "user"  # the error's own sentence
DAMAGED = "damaged"  # a stored game that fails its checks (BrokenChain, exit 1) or cannot be read
UNREADABLE_ROW = "unreadable row"
CONFLICT = "conflict"
STORE = "store"
BROKEN_CHAIN = "mtg_ledger.replays.stores.checked:BrokenChain"
STORE_FAILURE = "mtg_ledger.replays.stores.errors:StoreFailure"
FAILURES: Final[tuple[tuple[tuple[str, ...], str], ...]] = (
    ((
        "mtg_ledger.replays.cli.errors:UserError",
        "mtg_ledger.replays.scenario.forms:ScenarioError",
        "mtg_ledger.core.errors:RulesError",
        "mtg_ledger.replays.ledger.errors:GameNotFound",
        "mtg_ledger.replays.ledger.errors:GameExists",
        "mtg_ledger.replays.ledger.errors:NotADecisionPoint",
        "mtg_ledger.replays.logfile.reader:UnreadableLog",
        "mtg_ledger.replays.scenario.examples:UnknownExample",
        "mtg_ledger.replays.cli.store:NoStore",
        "mtg_ledger.replays.stores.errors:StoreSetupError",
        "mtg_ledger.replays.ledger.logs:LogLevelError",
    ), USER),
    (("mtg_ledger.replays.stores.checked:StoreDamage",), DAMAGED),  # nothing of the damaged game was shown or built on
    (("eventsourcing.persistence:MapperDeserialisationError", "mtg_ledger.core.topics:UnknownTopic"), UNREADABLE_ROW),
    (("mtg_ledger.replays.ledger.errors:VersionConflict",), CONFLICT),
    ((STORE_FAILURE, "eventsourcing.persistence:PersistenceError"), STORE),
)


def raised(error: BaseException, names: Sequence[str]) -> bool:
    """Whether ``error`` is an instance of one of the classes ``names`` ("module:Class") whose modules are loaded."""
    for name in names:
        module, _, attribute = name.partition(":")
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(error, getattr(loaded, attribute)):
            return True
    return False


def failed(error: Exception, verbose: int) -> int:
    """Say ``error`` in one line on stderr (with its traceback under -v where it is no user error) and
    return the exit status it ends the command with."""
    kind = next((kind for names, kind in FAILURES if raised(error, names)), None)
    if kind == USER:
        _say(error)
        return 2
    if kind == DAMAGED:
        broken = raised(error, (BROKEN_CHAIN,))
        _say(f"the stored game {'fails its checks' if broken else 'cannot be read'}: {error}", verbose)
        return 1 if broken else 3
    if kind == UNREADABLE_ROW:  # a damaged row met outside a game's checked read
        _say(f"the store holds a row this version cannot read: {error}", verbose)
        return 3
    if kind == CONFLICT:
        _say(error)
        return EXIT_CONFLICT
    if kind == STORE:
        _say(error if raised(error, (STORE_FAILURE,)) else f"the store failed: {type(error).__name__}: {error}", verbose)
        return 3
    _say(f"internal error: {type(error).__name__}: {error}" + ("" if verbose else " (run with -v for the traceback)"), verbose)  # a defect
    return 3


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (and the verb's --help named) rather than the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


class ShowVersion(argparse.Action):
    """``--version``: the engine's version, the event schema and the rules edition."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> NoReturn:
        print(f"mtg-ledger {ENGINE_VERSION} (event schema {SCHEMA_VERSION}, Comprehensive Rules of {RULES_EDITION})")
        parser.exit()


def _common() -> Parser:
    """The options every verb takes, before or after the verb (SUPPRESS: one given after the verb
    doesn't reset one given before)."""
    common = Parser(add_help=False)
    group = common.add_argument_group("options of every verb")
    group.add_argument(  # the default is cli.store.DEFAULT_DB, named here without importing the store
        "--db", metavar="PATH", default=argparse.SUPPRESS,
        help="the SQLite file of the store (default ./mtg-ledger.sqlite; PERSISTENCE_MODULE and POSTGRES_* choose PostgreSQL)",
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


def parser(only: str | None = None) -> Parser:
    """The whole parser; with ``only``, a verb's name, the same parser with that verb's sub-parser alone
    (``main``, when the arguments name the verb: building the 20 sub-parsers costs some 5 ms)."""
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
    top.add_argument("--version", action=ShowVersion, help="print the version and exit")
    sub = top.add_subparsers(dest="verb", required=True, metavar="VERB", title="verbs")
    for verb in VERBS if only is None else [v for v in VERBS if v.name == only]:
        p = sub.add_parser(
            verb.name, help=verb.summary, description=verb.summary[0].upper() + verb.summary[1:] + ".", parents=[common],
            epilog="example:\n" + "\n".join(f"  {x}" for x in verb.example.splitlines()),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(run=verb.run, store=verb.store)
        for flags, options in verb.arguments:
            p.add_argument(*flags, **options)
    return top


_TAKES_VALUE: Final = ("--db", "--log-level")
_FLAGS: Final = ("-v", "--verbose", "--json")


def named_verb(argv: Sequence[str]) -> str | None:
    """The verb the arguments name, when only the common options in their full spelling come before it
    (an abbreviation, --help, --version or an unknown verb: None, and the whole parser, to say it all)."""
    rest = iter(argv)
    for given in rest:
        if given in _TAKES_VALUE:
            next(rest, None)
        elif given.startswith(tuple(f"{option}=" for option in _TAKES_VALUE)) or given in _FLAGS or (given[:2] == "-v" and set(given[1:]) == {"v"}):
            continue
        else:
            return given if any(given == verb.name for verb in VERBS) else None
    return None


def function(name: str) -> Run:
    """The function a verb names (``"module:function"``), its module imported now."""
    module, _, attribute = name.partition(":")
    run: Run = getattr(importlib.import_module(module), attribute)
    return run


def _option(args: argparse.Namespace, name: str, default: Any) -> Any:
    return getattr(args, name, default)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser(named_verb(sys.argv[1:] if argv is None else argv)).parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error already printed
        return e.code if isinstance(e.code, int) else 2
    verbose: int = _option(args, "verbose", 0)
    args.json = _option(args, "json", False)
    store = None
    try:
        from mtg_ledger.replays.cli.store import Store
        from mtg_ledger.replays.ledger.logs import configure_logging

        store = Store(_option(args, "db", None), reading=args.store == "read")
        level = _option(args, "log_level", None) or {0: None, 1: "info"}.get(verbose, "debug")
        configure_logging(level=level, default="warning")
        code: int = function(args.run)(store, args)
        return code
    except BrokenPipeError:
        return 0
    except Exception as e:
        return failed(e, verbose)
    finally:
        if store is not None:
            store.close()


def _say(error: object, verbose: int = 0) -> None:
    if verbose:
        import traceback

        traceback.print_exc(file=sys.stderr)
    text = " ".join(str(error).split())  # one line, whatever the message holds
    print(f"mtg-ledger: {text}", file=sys.stderr)


def run() -> Any:  # pragma: no cover - console script entry
    sys.exit(main())
