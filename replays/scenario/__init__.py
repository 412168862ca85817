"""Scenario files (docs/reference/scenario-files.md): parse, validate, and turn actions into commands.

Every problem is reported as one ``ScenarioError`` naming where it is in the file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtg_ledger.replays.cards import live_pool
from mtg_ledger.replays.cards.decks import DeckError, parse_deck, shuffled, unknown_cards
from mtg_ledger.replays.messages import say
from mtg_ledger.core.commands import Command
from mtg_ledger.replays.scenario.actions import ACTION_NAMES, ActionModel
from mtg_ledger.replays.scenario.forms import PassUntil, known
from mtg_ledger.replays.scenario.forms import ScenarioError as ScenarioError  # raised for a file's actions as for the rest of it
from mtg_ledger.replays.scenario.schema import FORMATS, SchemaViolation, Setup, check_action, check_scenario

ACTIONS = ACTION_NAMES
__all__ = ["ACTIONS", "FORMATS", "Action", "PassUntil", "Scenario", "ScenarioError", "command_of", "load", "parse", "parse_action", "setup_of"]

Action = Command | PassUntil


@dataclass(frozen=True)
class Scenario:
    setup: dict[str, Any]
    actions: list[Action]


def load(path: str | Path) -> Scenario:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"no such file: {path}") from None
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read the scenario file: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {e.start} is {e.object[e.start]:#04x}); save the scenario as UTF-8") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(f"{path}: not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: nested too deeply to be a scenario") from None
    return parse(data, str(path))


def parse(data: Any, where: str = "scenario") -> Scenario:
    """A scenario from its parsed JSON: its shape checked once (``schema``), then what the shape cannot say."""
    try:
        model = check_scenario(data)  # unknown keys and wrong types, named by their path
    except SchemaViolation as e:
        raise ScenarioError(f"{where}: {e}") from None
    setup = setup_of(model, where)
    names = [p["name"] for p in setup["players"]]
    return Scenario(setup, [command_of(a, names, f"{where}: actions[{i}]") for i, a in enumerate(model.actions)])


def setup_of(model: Setup, where: str) -> dict[str, Any]:
    """What a game starts from (``LocalTable.start``'s setup), checked against the rules of its format."""
    fmt, players = model.format, model.players
    if fmt == "two-player" and len(players) != 2:
        raise ScenarioError(f"{where}: players must be a list of two players in the two-player format (rule 100.1a)")
    if fmt in ("free-for-all", "single-defender") and len(players) < 3:
        raise ScenarioError(f"{where}: players must be a list of three or more players in the {fmt} format (rule 100.1b)")
    first = players[0].name if players else None
    if fmt == "archenemy":
        if len(players) < 2:
            raise ScenarioError(f"{where}: an archenemy game needs the archenemy and at least one opponent (rule 904.2)")
        schemers = [p.name for p in players if p.schemes]
        if len(schemers) != 1:
            raise ScenarioError(f"{where}: exactly one player, the archenemy, has a scheme deck (\"schemes\") (rule 904.2a)")
        if model.starting_player not in (None, schemers[0]):
            raise ScenarioError(f"{where}: the archenemy, {schemers[0]}, takes the first turn (rule 904.6)")
        first = schemers[0]
    names: list[str] = []
    setup_players = []
    decks = _decks(model, where)
    for i, p in enumerate(players):
        at = f"{where}: players[{i}]"
        if p.name in names:
            raise ScenarioError(f"{at}: player name {p.name!r} is used twice")
        names.append(p.name)
        entry: dict[str, Any] = {"name": p.name}
        if p.life is not None:
            entry["life"] = p.life  # left out, the format decides (20; the archenemy 40, rule 904.5)
        if i in decks:  # 103.3: a deck is shuffled before the game, with the scenario's seed
            entry["library"] = shuffled(decks[i], model.seed, p.name)
        else:
            entry["library"] = _cards(p.library, f"{at}.library")
        for zone in ("hand", "battlefield", "schemes"):
            if zone in p.model_fields_set and getattr(p, zone) is not None:
                entry[zone] = _cards(getattr(p, zone), f"{at}.{zone}")
        setup_players.append(entry)
    starting = model.starting_player if model.starting_player is not None else first
    if starting not in names:
        raise ScenarioError(f"{where}: starting_player {starting!r} is not one of the players")
    return {"format": fmt, "seed": model.seed, "shuffle": model.shuffle, "starting_player": starting, "players": setup_players}


def _decks(model: Setup, where: str) -> dict[int, list[str]]:
    """The main deck of each player who gives a deck list, by seat; every unknown name of every deck in one error."""
    decks: dict[int, list[str]] = {}
    names: list[str] = []
    for i, p in enumerate(model.players):
        if p.deck is None:
            continue
        at = f"{where}: players[{i}].deck"
        if "library" in p.model_fields_set:
            raise ScenarioError(f"{at}: a player gives a library or a deck, not both")
        try:
            deck = parse_deck(p.deck)
        except DeckError as e:
            raise ScenarioError(f"{at}: {say('deck.at_line', {'line': e.line, 'why': e.why})}") from None
        decks[i] = deck.main
        names.extend(deck.names())
    unknown = unknown_cards(names)
    if unknown is not None:
        raise ScenarioError(f"{where}: {say(unknown.id, unknown.params)}")
    return decks


def _cards(names: list[str], at: str) -> list[str]:
    for j, name in enumerate(names):
        known(name, f"{at}[{j}]")
        if name not in live_pool().catalog.cards:
            raise ScenarioError(f"{at}[{j}]: {name!r} is not a card that can start in a zone (a token or a back face)")
    return list(names)


def parse_action(a: Any, names: Sequence[str], at: str = "action") -> Action:
    """One scenario action (docs/reference/scenario-files.md) for a game with these players."""
    try:
        model = check_action(a, at)
    except SchemaViolation as e:
        raise ScenarioError(str(e)) from None
    return command_of(model, names, at)


def command_of(action: ActionModel, names: Sequence[str], at: str) -> Action:
    """The command of a scenario's action (validated: ``schema.check_action``), whose ``player`` must be one of ``names``."""
    player: str | None = getattr(action, "player", None)
    if action.command is not None and player not in names:
        raise ScenarioError(f"{at}: {action.kind()} needs \"player\", one of {', '.join(names)} (got {player!r})")
    return action.to_command(player or "", names, at)
