"""The ``mtg-ledger`` command line (CONTRACT section 1): the outermost shell.

User errors (bad files, illegal actions, unknown games) print one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from core.decks import demo_setup
from core.errors import RulesError
from core.view import state_view
from projections.runner import catch_up, make_view
from replays.app import GameNotFound, Ledger
from replays.logs import configure_logging
from replays.play import ActionFailed, play_demo, play_scenario
from replays.scenario import ScenarioError, load
from replays.text import line

DEFAULT_DB = "mtg-ledger.sqlite"
NARRATED = frozenset(
    {
        "TurnBegan", "LandPlayed", "SpellCast", "ObjectResolved", "DefendingPlayerChosen", "AttackersDeclared", "BlockersDeclared",
        "CombatDamageDealt", "DamageDealt", "PermanentsPutIntoGraveyard", "CardsDiscarded", "PlayerLost", "GameEnded",
    }
)


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
    for e in ledger.event_maps(game_id, args.first, args.last):
        print(json.dumps(e, ensure_ascii=False, separators=(",", ":")) if args.format == "jsonl" else line(e))
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
    p.set_defaults(run=cmd_events)
    p = verb("state", "print a game's state as JSON")
    p.add_argument("game")
    p.add_argument("--at", type=int, metavar="V", help="as it stood after event version V")
    p.set_defaults(run=cmd_state)
    p = verb("views", "catch the read models up and print them (phase/step, stack, hand sizes, cleanups)")
    p.add_argument("game")
    p.set_defaults(run=cmd_views)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    configure_logging()
    ledger: Ledger | None = None
    try:
        ledger = Ledger(env=store_env(args.db))
        code: int = args.run(ledger, args)
        return code
    except (UserError, ScenarioError, RulesError, GameNotFound) as e:
        print(f"mtg-ledger: {e}", file=sys.stderr)
        return 2
    except PersistenceError as e:
        print(f"mtg-ledger: the store failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    finally:
        if ledger is not None:
            ledger.close()


def run() -> Any:  # pragma: no cover - console script entry
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
