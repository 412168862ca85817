"""Scenario files (CONTRACT section 2): parse, validate, and turn actions into commands.

Every problem is reported as one ``ScenarioError`` naming where it is in the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtg_ledger.core.cards import CARDS
from mtg_ledger.core.commands import Command
from mtg_ledger.core.turn import STEP_NAMES
from mtg_ledger.replays.scenario.actions import FORMS, command_of, known, whole
from mtg_ledger.replays.scenario.actions import ScenarioError as ScenarioError  # raised for a file's actions as for the rest of it
from mtg_ledger.replays.scenario.schema import SchemaViolation, check_action, check_scenario

FORMATS = ("two-player", "free-for-all", "single-defender", "archenemy")
ACTIONS = (
    "pass", "pass_until", "play_land", "cast", "activate", "declare_attackers", "declare_blockers",
    "assign_damage", "choose_defender", "discard", "order_triggers", "concede",
)


@dataclass(frozen=True)
class PassUntil:
    turn: int
    step: str


Action = Command | PassUntil


@dataclass(frozen=True)
class Scenario:
    setup: dict[str, Any]
    actions: list[Action]


def load(path: str | Path) -> Scenario:
    try:
        text = Path(path).read_text(encoding="utf-8")
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
    try:
        check_scenario(data)  # the shape first: unknown keys and wrong types, named by their path
    except SchemaViolation as e:
        raise ScenarioError(f"{where}: {e}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{where}: the scenario must be a JSON object")
    fmt = data.get("format", "two-player")
    if fmt not in FORMATS:
        raise ScenarioError(f"{where}: format {fmt!r} is not one of {', '.join(FORMATS)}")
    players = data.get("players")
    if fmt == "two-player" and (not isinstance(players, list) or len(players) != 2):
        raise ScenarioError(f"{where}: players must be a list of two players in the two-player format (rule 100.1a)")
    if fmt in ("free-for-all", "single-defender") and (not isinstance(players, list) or len(players) < 3):
        raise ScenarioError(f"{where}: players must be a list of three or more players in the {fmt} format (rule 100.1b)")
    if fmt == "archenemy":
        if not isinstance(players, list) or len(players) < 2:
            raise ScenarioError(f"{where}: an archenemy game needs the archenemy and at least one opponent (rule 904.2)")
        schemers = [p.get("name") for p in players if isinstance(p, dict) and p.get("schemes")]
        if len(schemers) != 1:
            raise ScenarioError(f"{where}: exactly one player, the archenemy, has a scheme deck (\"schemes\") (rule 904.2a)")
        if data.get("starting_player", schemers[0]) != schemers[0]:
            raise ScenarioError(f"{where}: the archenemy, {schemers[0]}, takes the first turn (rule 904.6)")
    names: list[str] = []
    setup_players = []
    for i, p in enumerate(players or []):
        at = f"{where}: players[{i}]"
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"]:
            raise ScenarioError(f"{at}: each player needs a non-empty string name")
        if p["name"] in names:
            raise ScenarioError(f"{at}: player name {p['name']!r} is used twice")
        names.append(p["name"])
        entry: dict[str, Any] = {"name": p["name"], "life": whole(p.get("life", 20), f"{at}.life")}
        for zone in ("library", "hand", "battlefield", "schemes"):
            if zone in p:
                entry[zone] = _cards(p[zone], f"{at}.{zone}")
        if "life" not in p:
            del entry["life"]  # the format decides (20; the archenemy 40, rule 904.5)
        entry.setdefault("library", [])
        setup_players.append(entry)
    starting = data.get("starting_player", names[0] if fmt != "archenemy" else schemers[0])
    if starting not in names:
        raise ScenarioError(f"{where}: starting_player {starting!r} is not one of the players")
    setup = {
        "format": fmt,
        "seed": whole(data.get("seed", 0), f"{where}: seed", 0, 2**64 - 1),
        "shuffle": _bool(data.get("shuffle", False), f"{where}: shuffle"),
        "starting_player": starting,
        "players": setup_players,
    }
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScenarioError(f"{where}: actions must be a list")
    actions = [_action(a, names, f"{where}: actions[{i}]") for i, a in enumerate(raw_actions)]
    return Scenario(setup, actions)


def _bool(value: Any, at: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{at}: expected true or false, got {value!r}")
    return value


def _cards(value: Any, at: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{at}: expected a list of card names")
    for j, name in enumerate(value):
        known(name, f"{at}[{j}]")
        if name not in CARDS:
            raise ScenarioError(f"{at}[{j}]: {name!r} is not a card that can start in a zone (a token or a back face)")
    return list(value)


def parse_action(a: Any, names: list[str], at: str = "action") -> Action:
    """One scenario action (CONTRACT section 2) for a game with these players."""
    try:
        check_action(a, at)
    except SchemaViolation as e:
        raise ScenarioError(str(e)) from None
    return _action(a, names, at)


def _action(a: Any, names: list[str], at: str) -> Action:
    if not isinstance(a, dict) or not isinstance(a.get("action"), str):
        raise ScenarioError(f"{at}: each action is an object with an \"action\" name")
    kind = a["action"]
    if kind not in ACTIONS:
        raise ScenarioError(f"{at}: unknown action {kind!r}; known: {', '.join(ACTIONS)}")
    if kind == "pass_until":
        step = a.get("step")
        if step not in STEP_NAMES:
            raise ScenarioError(f"{at}: step {step!r} is not one of {', '.join(STEP_NAMES)}")
        return PassUntil(whole(a.get("turn"), f"{at}.turn"), step)
    player = a.get("player")
    if player not in names:
        raise ScenarioError(f"{at}: {kind} needs \"player\", one of {', '.join(names)} (got {player!r})")
    if kind not in FORMS:
        raise ScenarioError(f"{at}: the action {kind!r} is not supported yet by this engine version")
    return command_of(a, player, names, at)
