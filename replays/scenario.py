"""Scenario files (CONTRACT section 2): parse, validate, and turn actions into commands.

Every problem is reported as one ``ScenarioError`` naming where it is in the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtg_ledger.core.cards import CARDS, require_known
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    ChooseDefender,
    CardRef,
    CastSpell,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
    Ref,
    Target,
)
from mtg_ledger.core.errors import UnknownCard
from mtg_ledger.core.turn import STEP_NAMES
from mtg_ledger.replays.scenario_schema import SchemaViolation, check_action, check_scenario

FORMATS = ("two-player", "free-for-all", "single-defender", "archenemy")
ACTIONS = (
    "pass", "pass_until", "play_land", "cast", "activate", "declare_attackers", "declare_blockers",
    "assign_damage", "choose_defender", "discard", "order_triggers", "concede",
)


class ScenarioError(ValueError):
    """A malformed scenario file: the message says where and what."""


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
        entry: dict[str, Any] = {"name": p["name"], "life": _int(p.get("life", 20), f"{at}.life")}
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
        "seed": _int(data.get("seed", 0), f"{where}: seed", 0, 2**64 - 1),
        "shuffle": _bool(data.get("shuffle", False), f"{where}: shuffle"),
        "starting_player": starting,
        "players": setup_players,
    }
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScenarioError(f"{where}: actions must be a list")
    actions = [_action(a, names, f"{where}: actions[{i}]") for i, a in enumerate(raw_actions)]
    return Scenario(setup, actions)


def _int(value: Any, at: str, low: int = -(2**31), high: int = 2**31 - 1) -> int:
    """A whole number in [low, high]: by default what a life total, a turn, an index or an object id can be."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{at}: expected a whole number, got {value!r:.60}")
    if not low <= value <= high:
        raise ScenarioError(f"{at}: {value if abs(value) < 10**30 else f'a {len(str(abs(value)))}-digit number'} is out of range ({low} to {high})")
    return value


def _bool(value: Any, at: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{at}: expected true or false, got {value!r}")
    return value


def _cards(value: Any, at: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{at}: expected a list of card names")
    for j, name in enumerate(value):
        _known(name, f"{at}[{j}]")
        if name not in CARDS:
            raise ScenarioError(f"{at}[{j}]: {name!r} is not a card that can start in a zone (a token or a back face)")
    return list(value)


def _known(name: Any, at: str) -> str:
    if not isinstance(name, str):
        raise ScenarioError(f"{at}: expected a card name, got {name!r}")
    try:
        require_known(name)
    except UnknownCard as e:
        raise ScenarioError(f"{at}: {e}") from None
    return name


REF_FORMS = '"NAME", {"card": NAME, "index": I} or {"object": ID}'


def _ref(value: Any, at: str) -> Ref:
    """A permanent, or an object on the stack, named by card name (and index), or by its object id
    (CONTRACT section 2: ``{"object": N}``, the ``object`` of the state and the events)."""
    if isinstance(value, str):
        return CardRef(_known(value, at))
    if isinstance(value, dict) and "card" in value and "object" in value:
        raise ScenarioError(f"{at}: give either \"card\" or \"object\", not both")
    if isinstance(value, dict) and "card" in value:
        if not isinstance(value["card"], str):
            raise ScenarioError(f"{at}.card: expected a card name, got {value['card']!r}; an object id is written {{\"object\": {value['card']!r}}}")
        return CardRef(_known(value["card"], at), _int(value.get("index", 0), f"{at}.index"))
    if isinstance(value, dict) and "object" in value:
        return _int(value["object"], f"{at}.object")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ScenarioError(f"{at}: expected {REF_FORMS}")


def _target(value: Any, names: list[str], at: str) -> Target:
    if isinstance(value, str) and value in names:
        return value
    return _ref(value, at)


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
        return PassUntil(_int(a.get("turn"), f"{at}.turn"), step)
    player = a.get("player")
    if player not in names:
        raise ScenarioError(f"{at}: {kind} needs \"player\", one of {', '.join(names)} (got {player!r})")
    if kind == "pass":
        return PassPriority(player)
    if kind == "concede":
        return Concede(player)
    if kind == "play_land":
        _int(a.get("index", 0), f"{at}.index")  # accepted, and changes nothing: a hand is known by card names only
        return PlayLand(player, _known(a.get("card"), f"{at}.card"))
    if kind == "cast":
        targets = a.get("targets", [])
        if not isinstance(targets, list):
            raise ScenarioError(f"{at}.targets: expected a list")
        pay = a.get("pay")
        if pay is not None and not isinstance(pay, list):
            raise ScenarioError(f"{at}.pay: expected a list of permanents")
        _int(a.get("index", 0), f"{at}.index")  # accepted, and changes nothing (as for play_land)
        return CastSpell(
            player,
            _known(a.get("card"), f"{at}.card"),
            targets=tuple(_target(t, names, f"{at}.targets[{j}]") for j, t in enumerate(targets)),
            pay=None if pay is None else tuple(_ref(r, f"{at}.pay[{j}]") for j, r in enumerate(pay)),
        )
    if kind == "activate":
        source = a.get("card")
        if isinstance(source, str):
            source = {"card": source, "index": a.get("index", 0)}
        elif source is None and "object" in a:
            source = {"object": a["object"]}  # {"action": "activate", "object": N}
        return ActivateAbility(player, _ref(source, f"{at}.card"), _int(a.get("ability", 0), f"{at}.ability"))
    if kind == "order_triggers":
        refs = []
        chosen_targets: list[tuple[Target, ...] | None] = []
        for j, item in enumerate(_list(a.get("order", []), f"{at}.order")):
            here = f"{at}.order[{j}]"
            refs.append(_ref(item, here))
            given = item.get("targets") if isinstance(item, dict) else None
            if given is None:
                chosen_targets.append(None)
            else:
                chosen_targets.append(tuple(_target(t, names, f"{here}.targets[{k}]") for k, t in enumerate(_list(given, f"{here}.targets"))))
        return OrderTriggers(player, tuple(refs), tuple(chosen_targets))
    if kind == "choose_defender":
        defender = a.get("defender")
        if defender not in names:
            raise ScenarioError(f"{at}.defender: {defender!r} is not a player")
        return ChooseDefender(player, defender)
    if kind == "declare_attackers":
        items = _list(a.get("attackers", []), f"{at}.attackers")
        pay = a.get("pay")
        if pay is not None and not isinstance(pay, list):
            raise ScenarioError(f"{at}.pay: expected a list of permanents")
        return DeclareAttackers(
            player,
            tuple((_ref(x, f"{at}.attackers[{j}]"), _defender(x, names, f"{at}.attackers[{j}]")) for j, x in enumerate(items)),
            pay=None if pay is None else tuple(_ref(r, f"{at}.pay[{j}]") for j, r in enumerate(pay)),
        )
    if kind == "assign_damage":
        out_assign = []
        for j, x in enumerate(_list(a.get("assignments", []), f"{at}.assignments")):
            here = f"{at}.assignments[{j}]"
            if not isinstance(x, dict) or "attacker" not in x:
                raise ScenarioError(f"{here}: expected {{\"attacker\": CARD, \"damage\": [{{\"target\": T, \"amount\": N}}]}}")
            parts = []
            for k, d in enumerate(_list(x.get("damage", []), f"{here}.damage")):
                if not isinstance(d, dict) or "target" not in d:
                    raise ScenarioError(f"{here}.damage[{k}]: expected {{\"target\": T, \"amount\": N}}")
                parts.append((_target(d["target"], names, f"{here}.damage[{k}].target"), _int(d.get("amount"), f"{here}.damage[{k}].amount")))
            out_assign.append((_ref(x["attacker"], f"{here}.attacker"), tuple(parts)))
        return AssignDamage(player, tuple(out_assign))
    if kind == "declare_blockers":
        items = _list(a.get("blockers", []), f"{at}.blockers")
        out = []
        for j, x in enumerate(items):
            if not isinstance(x, dict) or "attacker" not in x:
                raise ScenarioError(f"{at}.blockers[{j}]: expected {{\"card\": BLOCKER, \"attacker\": ATTACKER}}")
            out.append((_ref(x, f"{at}.blockers[{j}]"), _ref(x["attacker"], f"{at}.blockers[{j}].attacker")))
        return DeclareBlockers(player, tuple(out))
    if kind == "discard":
        return Discard(player, tuple(_in_hand(c, f"{at}.cards[{j}]") for j, c in enumerate(_list(a.get("cards", []), f"{at}.cards"))))
    raise ScenarioError(f"{at}: the action {kind!r} is not supported yet by this engine version")


def _in_hand(value: Any, at: str) -> str:
    """A card in a hand, by name ("Forest" or {"card": "Forest"}). A card in a hand has no object
    id (the state lists a hand by name), so {"object": N} cannot name one."""
    if isinstance(value, dict) and set(value) == {"object"}:
        raise ScenarioError(
            f"{at}: a card in a hand has no object id (the state lists a hand by card name); name it: \"NAME\" or {{\"card\": NAME}}"
        )
    if isinstance(value, dict) and set(value) == {"card"}:
        value = value["card"]
    _known(value, at)
    if value not in CARDS:
        raise ScenarioError(f"{at}: {value!r} is not a card that can be in a hand (a token or a back face)")
    return str(value)


def _list(value: Any, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError(f"{at}: expected a list")
    return value


def _defender(x: Any, names: list[str], at: str) -> str | None:
    if isinstance(x, dict) and x.get("defender") is not None:
        if x["defender"] not in names:
            raise ScenarioError(f"{at}.defender: {x['defender']!r} is not a player")
        return str(x["defender"])
    return None
