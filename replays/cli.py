"""The ``mtg-ledger`` command line (CONTRACT section 1): the outermost shell.

User errors (bad files, illegal actions, unknown games) print one line on stderr and exit 2. A stored
game that fails its checks exits 1 (its chain is broken) or 3 (a row cannot be read), a failing store
3, a decision another writer beat to the game's next version 4; always one line, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import MapperDeserialisationError, PersistenceError

from mtg_ledger.core.decks import demo_setup
from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.apply import apply_event
from mtg_ledger.core.rules import pending_decision
from mtg_ledger.core.state import GameState
from mtg_ledger.core.topics import UnknownTopic
from mtg_ledger.core.view import state_view
from mtg_ledger.projections.runner import catch_up, make_view
from mtg_ledger.replays import logfile
from mtg_ledger.replays.app import GameExists, GameNotFound, Ledger, NotADecisionPoint, VersionConflict
from mtg_ledger.replays.audit import audit, audit_game, forensic_copy, stored_log
from mtg_ledger.replays.snapshots import check_all as check_snapshots
from mtg_ledger.replays.verify import BrokenChain, StoreDamage
from mtg_ledger.replays.progress import Progress
from mtg_ledger.replays.replay import replay
from mtg_ledger.replays.logs import configure_logging
from mtg_ledger.replays.play import ActionFailed, pass_until_step, play_demo, play_scenario
from mtg_ledger.replays.scenario import PassUntil, ScenarioError, load, parse_action
from mtg_ledger.replays.text import line
from mtg_ledger.replays.timetravel import changes

DEFAULT_DB = "mtg-ledger.sqlite"
NARRATED = frozenset(
    {
        "TurnBegan", "LandPlayed", "SpellCast", "ObjectResolved", "DefendingPlayerChosen", "AttackersDeclared", "BlockersDeclared",
        "CombatDamageDealt", "DamageDealt", "PermanentsPutIntoGraveyard", "CardsDiscarded", "PlayerLost", "GameEnded",
    }
)


WRITING_VERBS = frozenset({"demo", "play", "import", "branch", "decide", "views"})  # the others never create or alter a store
EXIT_CONFLICT = 4  # the game moved on: another writer stored its next event first (HTTP 409)


class UserError(Exception):
    """Reported as one line on stderr, exit status 2."""


def store_env(db: str | None) -> dict[str, str]:
    """The library's environment for the chosen store: the variables win unless they ask for SQLite."""
    module = os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    if module not in ("eventsourcing.sqlite", "sqlite"):
        return {}
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": db or os.environ.get("SQLITE_DBNAME") or DEFAULT_DB,
    }


def _game_id(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise UserError(f"{text!r} is not a game id (a UUID such as the one `mtg-ledger demo` prints)") from None


def cmd_demo(ledger: Ledger, args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 4:
        raise UserError(f"--players {args.players}: the demo seats 2 to 4 players")
    if not 0 <= args.seed < 2**64:
        raise UserError(f"--seed {args.seed}: a seed is a whole number from 0 to 2**64 - 1")
    game_id = play_demo(ledger, demo_setup(args.seed, args.players))
    events = list(ledger.event_maps(game_id))
    if not args.quiet:
        for e in events:
            if e["type"] in NARRATED and not (e["type"] in ("AttackersDeclared", "BlockersDeclared") and not e.get("attackers", e.get("blockers"))):
                print(line(e))
        print()
    state = ledger.state(game_id)
    print(f"game     {game_id}")
    print(f"turns    {state.turn}")
    print(f"events   {len(events)}")
    print(f"winner   {state.winner or 'none (a draw)'}")
    print(f"reason   {state.end_reason}")
    return 0


def cmd_play(ledger: Ledger, args: argparse.Namespace) -> int:
    scenario = load(args.scenario)
    try:
        game_id = play_scenario(ledger, scenario)
    except ActionFailed as failed:
        kept = ledger.game(failed.game_id).version
        print(
            f"mtg-ledger: {args.scenario}: {failed}; the {kept} events before it are kept in game {failed.game_id}",
            file=sys.stderr,
        )
        return 2
    print(game_id)
    return 0


def cmd_events(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    ledger.game(game_id)  # raises GameNotFound
    first, last = args.first, args.last
    if args.around is not None:
        first, last = max(1, args.around - args.context), args.around + args.context
    for e in ledger.event_maps(game_id, first, last):
        marker = ">" if args.around == e["v"] else " "
        if args.format == "jsonl":
            print(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
        else:
            print(f"{marker}{line(e)}" if args.around is not None else line(e))
    return 0


def load_log(ledger: Ledger, source: str) -> tuple[str, list[dict[str, Any]], dict[str, Any] | None]:
    """A log from a file (with its header) or from the store (a game id)."""
    if Path(source).exists():
        header, events = logfile.read(source)
        return str(header.get("game")), events, header
    game_id = _game_id(source)
    return str(game_id), list(ledger.event_maps(game_id)), None  # checked as read: a broken chain raises


def cmd_export(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    if args.forensic:  # every row as recorded, damage and all, for a judge to audit
        rows, problems = forensic_copy(ledger, game_id, args.output)
        print(f"{args.output}: forensic copy of {rows} rows as recorded" + (f"; {problems[0].place}: {problems[0].message}" if problems else ", clean"))
        return 1 if problems else 0
    header = logfile.write(args.output, str(game_id), list(ledger.event_maps(game_id)))  # the whole chain checked first
    print(f"{args.output}: {header['events']} events, final hash {header['hash']}")
    return 0


def cmd_import(ledger: Ledger, args: argparse.Namespace) -> int:
    header, events = logfile.read(args.file)
    progress = Progress(len(events), "import")
    try:  # checked whole (header, chain, schema, every decision by replay) before anything is stored
        game_id = ledger.import_log(header, events, uuid4() if args.new_id else None, progress)
    except logfile.UnreadableLog as e:
        raise logfile.UnreadableLog(f"{args.file}: {e}") from None
    finally:
        progress.close()
    print(game_id)
    return 0


def cmd_replay(ledger: Ledger, args: argparse.Namespace) -> int:
    stored = not Path(args.source).exists()
    if stored:  # a game: its rows as recorded, checked as a log
        events, problems = stored_log(ledger, _game_id(args.source))
    else:  # a file: its header and chain first (audit says more)
        header, events = logfile.read(args.source)
        problems = logfile.integrity(events, header)
    if problems:
        print(f"replay refused: {problems[0].place}: {problems[0].message} (run `mtg-ledger audit` for the report)")
        return 1
    progress = Progress(len(events), "replay")
    result = replay(events, progress)
    progress.close()
    if result.ok:
        assert result.state is not None
        turns = sum(1 for e in events if e["type"] == "TurnBegan")
        print(f"replay identical: {len(events)} events, {turns} turn state hashes, final state hash {result.state.state_hash()}")
        if stored:  # a stored game's snapshots must be what the events give too
            _, bad = check_snapshots(ledger, _game_id(args.source), events, len(events))
            for finding in bad:
                print(f"  {finding.message}")
            return 1 if bad else 0
        return 0
    first = result.findings[0]
    print(f"replay diverges at event {first.version}: {first.message}" + (f" (rule {first.rule})" if first.rule else ""))
    if first.recorded is not None:
        print(f"  recorded: {json.dumps(first.recorded, ensure_ascii=False)}")
    if first.derived is not None:
        print(f"  derived:  {json.dumps(first.derived, ensure_ascii=False)}")
    return 1


def cmd_audit(ledger: Ledger, args: argparse.Namespace) -> int:
    if Path(args.source).exists():
        header, events = logfile.read(args.source)
        progress = Progress(len(events), "audit")
        report = audit(str(header.get("game")), events, header, progress)
    else:  # a stored game: rows as recorded, and every stored snapshot against the events
        game_id = _game_id(args.source)
        progress = Progress(ledger.last_version(game_id), "audit")
        report = audit_game(ledger, game_id, progress)
    progress.close()
    if args.json:
        print(json.dumps(report.to_json(args.lang), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report.to_text(args.lang)))
    return 0 if report.clean else 1


def cmd_diff(ledger: Ledger, args: argparse.Namespace) -> int:
    _, a, _ = load_log(ledger, args.a)
    _, b, _ = load_log(ledger, args.b)
    for i in range(max(len(a), len(b))):
        left, right = (a[i] if i < len(a) else None), (b[i] if i < len(b) else None)
        if left != right:
            print(f"the logs diverge at event {i + 1}")
            print(f"  A: {line(left) if left else '(the log ends)'}")
            print(f"  B: {line(right) if right else '(the log ends)'}")
            if args.json:
                print(json.dumps({"version": i + 1, "a": left, "b": right}, ensure_ascii=False))
            return 1
    print(f"the logs are identical: {len(a)} events")
    return 0


def cmd_branch(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    ledger.game(game_id)
    print(ledger.branch(game_id, args.at))
    return 0


def cmd_decide(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    state = ledger.state_now(game_id)
    for i, text in enumerate(args.actions):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise UserError(f"action {i + 1} is not valid JSON: {e.msg}") from None
        except RecursionError:
            raise UserError(f"action {i + 1} is nested too deeply to be an action") from None
        for action in raw if isinstance(raw, list) else [raw]:
            parsed = parse_action(action, list(state.turn_order), f"action {i + 1}")
            if isinstance(parsed, PassUntil):
                while (command := pass_until_step(ledger.state_now(game_id), parsed)) is not None:
                    ledger.decide(game_id, command)
            else:
                ledger.decide(game_id, parsed)
    now = ledger.state_now(game_id)
    decision = pending_decision(now)
    print(f"version {now.version}; " + (decision.describe() if decision else "the game is over"))
    return 0


def cmd_step(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    latest = ledger.game(game_id).version
    first = max(1, args.first or 1)
    last = min(latest, args.last or latest)
    state = ledger.at(game_id, first - 1) if first > 1 else GameState()
    before = state_view(state) if first > 1 else None
    for e in ledger.event_maps(game_id, first, last):
        apply_event(state, e)
        after = state_view(state)
        print(line(e))
        stack = ", ".join(f"{s['card']}#{s['object']}" for s in after["stack"]) or "empty"
        print(f"         turn {after['turn']} {after['step'] or '-'} | priority {after['priority'] or '-'} | stack {stack}")
        for change in changes(before, after):
            print(f"         {change}")
        before = after
    return 0


def cmd_state(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    latest = ledger.game(game_id).version
    if args.at is not None and not 1 <= args.at <= latest:
        raise UserError(f"--at {args.at}: game {game_id} has events 1 to {latest}")
    print(json.dumps(state_view(ledger.state(game_id, args.at)), indent=2, ensure_ascii=False))
    return 0


def cmd_views(ledger: Ledger, args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    ledger.game(game_id)  # raises GameNotFound
    view = make_view(ledger)
    processed = catch_up(ledger, view)
    out = {
        "caught_up": processed,
        "phase_step": view.phase_step(game_id),
        "stack": view.stack(game_id),
        "hand_sizes": view.hand_sizes(game_id),
        "cleanups": view.cleanups(game_id),
    }
    print(json.dumps(out, indent=2, ensure_ascii=False, default=str))
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="mtg-ledger", description="Record and check Magic: The Gathering games, event by event.")
    sub = top.add_subparsers(dest="verb", required=True)

    def verb(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--db", help=f"SQLite file of the store (default ./{DEFAULT_DB})")
        return p

    p = verb("demo", "play a seeded game between the built-in decks (two players, or a 3-4 player free-for-all)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=2, help="2 (a two-player game) or 3-4 (a free-for-all)")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.set_defaults(run=cmd_demo)
    p = verb("play", "run a scenario file and store its events")
    p.add_argument("scenario")
    p.set_defaults(run=cmd_play)
    p = verb("events", "print a game's log, one event a line")
    p.add_argument("game")
    p.add_argument("--format", choices=("jsonl", "text"), default="jsonl")
    p.add_argument("--from", dest="first", type=int, metavar="V")
    p.add_argument("--to", dest="last", type=int, metavar="V")
    p.add_argument("--around", type=int, metavar="V", help="the events around version V (marked > in the text format)")
    p.add_argument("--context", type=int, default=5, help="how many events on each side of --around")
    p.set_defaults(run=cmd_events)
    p = verb("state", "print a game's state as JSON")
    p.add_argument("game")
    p.add_argument("--at", type=int, metavar="V", help="as it stood after event version V")
    p.set_defaults(run=cmd_state)
    p = verb("views", "catch the read models up and print them (phase/step, stack, hand sizes, cleanups)")
    p.add_argument("game")
    p.set_defaults(run=cmd_views)
    p = verb("export", "write a game's self-describing log file")
    p.add_argument("game")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--forensic", action="store_true", help="write every stored row as recorded, even when the chain is broken (exit 1 then)")
    p.set_defaults(run=cmd_export)
    p = verb("import", "store a log file as a game, after checking its header, hash chain, schema and every decision")
    p.add_argument("file")
    p.add_argument("--new-id", action="store_true", help="store it under a new game id")
    p.set_defaults(run=cmd_import)
    p = verb("replay", "re-run the recorded decisions and check every derived event and state hash")
    p.add_argument("source", metavar="FILE|GAME")
    p.set_defaults(run=cmd_replay)
    p = verb("audit", "integrity and legality report: the first bad event and the rule it breaks")
    p.add_argument("source", metavar="FILE|GAME")
    p.add_argument("--lang", choices=("en", "fr"), default="en")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_audit)
    p = verb("diff", "the first event where two logs diverge")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_diff)
    p = verb("branch", "a new game from the first V events of a game, to try another decision")
    p.add_argument("game")
    p.add_argument("--at", type=int, required=True, metavar="V")
    p.set_defaults(run=cmd_branch)
    p = verb("decide", "take decisions in a stored game (scenario actions as JSON)")
    p.add_argument("game")
    p.add_argument("actions", nargs="+", metavar="ACTION_JSON")
    p.set_defaults(run=cmd_decide)
    p = verb("step", "event by event: the phase, the stack, priority and what changed")
    p.add_argument("game")
    p.add_argument("--from", dest="first", type=int, metavar="V")
    p.add_argument("--to", dest="last", type=int, metavar="V")
    p.set_defaults(run=cmd_step)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    configure_logging()
    ledger: Ledger | None = None
    try:
        ledger = Ledger(env=store_env(args.db), writes=args.verb in WRITING_VERBS)
        code: int = args.run(ledger, args)
        return code
    except (UserError, ScenarioError, RulesError, GameNotFound, GameExists, NotADecisionPoint, logfile.UnreadableLog) as e:
        print(f"mtg-ledger: {e}", file=sys.stderr)
        return 2
    except StoreDamage as e:  # nothing of the damaged game was shown or built on
        what = "fails its checks" if isinstance(e, BrokenChain) else "cannot be read"
        print(f"mtg-ledger: the stored game {what}: {e}", file=sys.stderr)
        return 1 if isinstance(e, BrokenChain) else 3
    except (MapperDeserialisationError, UnknownTopic) as e:  # a damaged row met outside a game's checked read
        print(f"mtg-ledger: the store holds a row this version cannot read: {_line(e)}", file=sys.stderr)
        return 3
    except VersionConflict as e:
        print(f"mtg-ledger: {e}", file=sys.stderr)
        return EXIT_CONFLICT
    except PersistenceError as e:
        print(f"mtg-ledger: the store failed: {type(e).__name__}: {_line(e)}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return 0
    except Exception as e:  # a defect: still one line, and the exit status of an internal failure
        print(f"mtg-ledger: internal error (please report it): {type(e).__name__}: {_line(e)}", file=sys.stderr)
        return 3
    finally:
        if ledger is not None:
            ledger.close()


def _line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else ""


def run() -> Any:  # pragma: no cover - console script entry
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
