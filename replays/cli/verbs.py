"""What each ``mtg-ledger`` verb does (docs/reference/cli.md); ``replays.cli`` parses the arguments.

Every verb takes the lazily opened ``Store`` and the parsed arguments and returns the exit status:
0 success or clean, 1 findings. Errors are raised (``UserError`` and the domain's own, exit 2).
With ``--json`` a verb prints only JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game
from mtg_ledger.core.view import state_view
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.cli import names
from mtg_ledger.replays.cli.errors import UserError as UserError  # raised by every verb
from mtg_ledger.replays.cli.store import Store

# A verb's own needs are imported in its function (the demo's decks, the scenario's models, the audit,
# the read models, the progress bar, the log files, the events in words, what a player may see):
# `mtg-ledger state` loads the ledger and the view, not the rest.
Map = dict[str, Any]
NARRATED = frozenset(
    {
        "TurnBegan", "LandPlayed", "SpellCast", "ObjectResolved", "DefendingPlayerChosen", "AttackersDeclared", "BlockersDeclared",
        "CombatDamageDealt", "DamageDealt", "PermanentsPutIntoGraveyard", "CardsDiscarded", "PlayerLost", "GameEnded",
    }
)




def emit(data: Any, *, indent: int | None = 2) -> None:
    """Print one JSON document (the only thing a verb prints under --json)."""
    print(json.dumps(data, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"), default=str))


def _existing(store: Store, text: str) -> tuple[Ledger, UUID, int]:
    """The store, a stored game's id (whole, or a unique prefix: ``names.game``) and its last event
    version: the id's form is checked before the store is opened, and GameNotFound is raised if there
    is no such game."""
    ledger, found, game = _existing_game(store, text)
    return ledger, found, game.version


def _existing_game(store: Store, text: str) -> tuple[Ledger, UUID, Game]:
    """``_existing``, with the game as it is now (read and checked whole) rather than its last version: a
    verb that shows the game now reads it once."""
    found = names.game(store, text)
    ledger = store.ledger
    return ledger, found, ledger.game(found)


def confirm(text: str) -> None:
    """A verb that wrote a file says so in one line on stderr, as git does: stdout keeps data only
    (a game id, JSON), so that ``$(mtg-ledger ...)`` and pipes read nothing else. Not said under --json."""
    print(text, file=sys.stderr)


def _within(option: str, version: int | None, game: UUID, latest: int) -> None:
    if version is not None and not 1 <= version <= latest:
        raise UserError(f"{option} {version}: game {game} has events 1 to {latest}")


def _write(path: str, data: str | bytes) -> None:
    try:
        if isinstance(data, bytes):
            Path(path).write_bytes(data)
        else:
            Path(path).write_text(data, encoding="utf-8")
    except OSError as e:
        raise UserError(f"{path}: cannot write: {e.strerror}") from None


# --- writing verbs -------------------------------------------------------------------------------


def cmd_demo(store: Store, args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 4:
        raise UserError(f"--players {args.players}: the demo seats 2 to 4 players")
    if not 0 <= args.seed < 2**64:
        raise UserError(f"--seed {args.seed}: a seed is a whole number from 0 to 2**64 - 1")
    from mtg_ledger.replays.demo.decks import demo_setup
    from mtg_ledger.replays.ledger.play import play_demo

    from mtg_ledger.replays.cli.decks import deck_lists

    decks = deck_lists(args.deck) if args.deck else None
    ledger = store.ledger
    game = play_demo(ledger, demo_setup(args.seed, args.players, decks))
    events = list(ledger.event_maps(game))
    state = ledger.state(game)
    summary = {"game": str(game), "turns": state.turn, "events": len(events), "winner": state.winner, "winners": list(state.winners),
               "reason": state.end_reason}
    if args.json:
        emit(summary)
        return 0
    from mtg_ledger.replays.text import REASONS, line

    if not args.quiet:
        for e in events:
            if e["type"] in NARRATED and not (e["type"] in ("AttackersDeclared", "BlockersDeclared") and not e.get("attackers", e.get("blockers"))):
                print(line(e))
        print()
    print(f"game     {game}")
    print(f"turns    {state.turn}")
    print(f"events   {len(events)}")
    print(f"winner   {state.winner or 'none (a draw)'}")
    print(f"reason   {REASONS.get(state.end_reason or '', state.end_reason)}")
    return 0


def cmd_play(store: Store, args: argparse.Namespace) -> int:
    from mtg_ledger.replays.ledger.play import ActionFailed, play_scenario
    from mtg_ledger.replays.scenario import load

    scenario = load(args.scenario)
    ledger = store.ledger
    try:
        game = play_scenario(ledger, scenario)
    except ActionFailed as failed:
        kept = ledger.game(failed.game_id).version
        raise UserError(f"{args.scenario}: {failed}; the {kept} events before it are kept in game {failed.game_id}") from None
    if args.json:
        emit({"game": str(game)})
    else:
        print(game)
    return 0


def cmd_branch(store: Store, args: argparse.Namespace) -> int:
    ledger, source, _ = _existing(store, args.game)
    new = ledger.branch(source, args.at)
    if args.json:
        emit({"game": str(new), "branched_from": str(source), "at_version": args.at})
    else:
        print(new)
    return 0


def cmd_decide(store: Store, args: argparse.Namespace) -> int:
    from mtg_ledger.core.decision import pending_decision
    from mtg_ledger.replays.ledger.play import pass_until_step
    from mtg_ledger.replays.scenario import PassUntil, parse_action

    ledger, game, _ = _existing(store, args.game)
    state = ledger.state_now(game)
    for i, text in enumerate(args.actions):  # places are JSON paths counted from 0, as in a scenario file: actions[0] is the first
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise UserError(f"actions[{i}] is not valid JSON: {e.msg}") from None
        except RecursionError:
            raise UserError(f"actions[{i}] is nested too deeply to be an action") from None
        for j, action in enumerate(raw if isinstance(raw, list) else [raw]):
            parsed = parse_action(action, list(state.turn_order), f"actions[{i}][{j}]" if isinstance(raw, list) else f"actions[{i}]")
            if isinstance(parsed, PassUntil):
                while (command := pass_until_step(ledger.state_now(game), parsed)) is not None:
                    ledger.decide(game, command)
            else:
                ledger.decide(game, parsed)
    now = ledger.state_now(game)
    decision = pending_decision(now)
    if args.json:
        emit({"game": str(game), "version": now.version, **_decision(now, with_legal=False)})
    else:
        print(f"version {now.version}; " + (decision.describe() if decision else "the game is over"))
    return 0


# --- reading verbs -------------------------------------------------------------------------------


def cmd_games(store: Store, args: argparse.Namespace) -> int:
    ledger = store.ledger
    rows: list[Map] = []
    for game in ledger.game_ids():
        state = ledger.state(game)
        lineage = ledger.lineage(game) or {}
        rows.append(
            {
                "game": str(game),
                "format": state.game_format,
                "players": list(state.turn_order),
                "turn": state.turn,
                "events": state.version,
                "ended": state.ended,
                "winner": state.winner,
                "branched_from": lineage.get("branched_from"),
                "at_version": lineage.get("at_version"),
            }
        )
    if args.json:
        for row in rows:
            emit(row, indent=None)
        return 0
    if not rows:
        print(f"no games in {store.where(ledger)}")
        return 0
    print(f"{'game':36}  {'format':15}  {'players':20}  {'turn':>4}  {'events':>7}  {'winner':10}  branched from")
    for row in rows:
        winner = row["winner"] or ("(a draw)" if row["ended"] else "-")
        parent = f"{row['branched_from']} at {row['at_version']}" if row["branched_from"] else "-"
        players = ", ".join(row["players"])
        print(f"{row['game']:36}  {row['format']:15}  {players:20}  {row['turn']:>4}  {row['events']:>7}  {winner:10}  {parent}")
    return 0


def _decision(state: GameState, *, with_legal: bool = True) -> Map:
    from mtg_ledger.core.choices import choices
    from mtg_ledger.core.decision import DecisionKind, pending_decision
    from mtg_ledger.replays.scenario.actions import action_json

    decision = pending_decision(state)
    if decision is None:
        return {"player": None, "kind": None, "rule": None, "ended": state.ended, "winner": state.winner, **({"legal": []} if with_legal else {})}
    out: Map = {"player": decision.player, "kind": decision.kind, "rule": decision.rule_cited}
    if decision.kind == DecisionKind.DISCARD:
        out["count"] = decision.count
    if with_legal:  # every legal action (core.choices), or the shape of a choice too large to list
        listed = choices(state)
        out.update(legal=[action_json(c) for c in listed.actions], complete=listed.complete, shapes=listed.shapes)
    return out


def cmd_legal(store: Store, args: argparse.Namespace) -> int:
    _, game, now = _existing_game(store, args.game)
    state = now.state
    emit({"game": str(game), "version": state.version, **_decision(state)})
    return 0


def cmd_events(store: Store, args: argparse.Namespace) -> int:
    ledger, game, latest = _existing(store, args.game)
    for option, version in (("--from", args.first), ("--to", args.last), ("--around", args.around)):
        _within(option, version, game, latest)
    first, last = args.first, args.last
    if args.around is not None:
        first, last = max(1, args.around - args.context), min(latest, args.around + args.context)
    viewer = _viewer(ledger, game, args.as_player) if args.as_player else None
    salts = _salts(ledger, game) if viewer is not None else None
    if salts is not None:
        from mtg_ledger.replays.receipts.book import shown
    from mtg_ledger.core.redact import view_of_event
    from mtg_ledger.replays.text import line

    for e in ledger.event_maps(game, first, last):
        if viewer is not None:
            e = view_of_event(e, viewer) if salts is None else shown(salts, e, viewer)  # as the service shows them
        if args.json or args.format == "jsonl":
            print(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
        elif args.around is not None:
            print(f"{'>' if args.around == e['v'] else ' '}{line(e)}")
        else:
            print(line(e))
    return 0


def cmd_state(store: Store, args: argparse.Namespace) -> int:
    ledger, game, now = _existing_game(store, args.game)
    _within("--at", args.at, game, now.version)
    shown = state_view(now.state if args.at is None else ledger.state(game, args.at))
    if args.as_player:
        from mtg_ledger.core.redact import view_of_state

        shown = view_of_state(shown, _viewer(ledger, game, args.as_player))
    emit(shown)
    return 0


def _salts(ledger: Ledger, game: UUID) -> Any:
    """A game that has given receipts: its salts, so that a player's events carry their commitments (docs/receipts.md)."""
    from mtg_ledger.replays.receipts.commitments import Salts
    from mtg_ledger.replays.receipts.records import game_secret

    secret = game_secret(ledger, str(game), create=False)
    return None if secret is None else Salts(str(game), secret)


def _viewer(ledger: Ledger, game: UUID, name: str) -> str:
    """``--as PLAYER``: the player must be in the game (docs/reference/http.md: what a player may see)."""
    players = ledger.state(game, 1).turn_order
    if name not in players:
        raise UserError(f"--as {name}: not a player of game {game} (players: {', '.join(players)})")
    return name



def cmd_step(store: Store, args: argparse.Namespace) -> int:
    ledger, game, latest = _existing(store, args.game)
    _within("--from", args.first, game, latest)
    _within("--to", args.last, game, latest)
    first, last = args.first or 1, args.last or latest
    if first > last:
        raise UserError(f"--from {first} comes after --to {last}")
    from mtg_ledger.replays.text import changes, line

    state = ledger.state(game, first - 1) if first > 1 else GameState()
    before = state_view(state) if first > 1 else None
    for e in ledger.event_maps(game, first, last):
        apply_event(state, e)
        after = state_view(state)
        said = changes(before, after)
        if args.json:
            brief = {k: after[k] for k in ("turn", "phase", "step", "active_player", "priority")}
            emit({"event": e, **brief, "stack": after["stack"], "changes": said}, indent=None)
        else:
            stack = ", ".join(f"{s['card']}#{s['object']}" for s in after["stack"]) or "empty"
            print(line(e))
            print(f"         turn {after['turn']} {after['step'] or '-'} | priority {after['priority'] or '-'} | stack {stack}")
            for change in said:
                print(f"         {change}")
        before = after
    return 0


def cmd_views(store: Store, args: argparse.Namespace) -> int:
    ledger, game, _ = _existing(store, args.game)
    from mtg_ledger.projections.runner import catch_up, make_view

    view = make_view(ledger, create_tables=True)  # the read models' own tables; never the events'
    processed = catch_up(ledger, view)
    emit(
        {
            "caught_up": processed,
            "phase_step": view.phase_step(game),
            "stack": view.stack(game),
            "hand_sizes": view.hand_sizes(game),
            "cleanups": view.cleanups(game),
        }
    )
    return 0


# --- verbs without a store -----------------------------------------------------------------------


def cmd_schema(store: Store, args: argparse.Namespace) -> int:
    from mtg_ledger.replays.scenario.schema import json_schema

    text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    if args.output:
        _write(args.output, text)
        if not args.json:
            confirm(f"{args.output}: the JSON Schema of a scenario file")
    else:
        sys.stdout.write(text)
    return 0


def cmd_example(store: Store, args: argparse.Namespace) -> int:
    from mtg_ledger.replays.scenario import examples

    if args.name is None:
        listed = examples.names()
        if args.json:
            emit(listed)
        else:
            width = max(map(len, listed))
            print("\n".join(f"{name:{width}}  {examples.description(name)}".rstrip() for name in listed))
        return 0
    text = examples.text(args.name)
    if args.output:
        _write(args.output, text)
        if not args.json:
            confirm(f"{args.output}: the example scenario {args.name}")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
