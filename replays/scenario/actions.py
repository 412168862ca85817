"""Commands in the scenario's action form (CONTRACT section 2), both ways: one ``Form`` per kind of the
command table (``core.command_table``), its half of each command's entry that is the outer shell's.

``action_json`` writes a command as its action; ``command_of`` reads one back (``scenario.parse_action``
checks the action's shape first). Objects are written by id (``{"object": N}``), so an action listed
here means exactly one thing however many cards share its name; players by name.
tests/test_command_table.py checks that the forms cover exactly the table's kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mtg_ledger.core.cards import CARDS, require_known
from mtg_ledger.core.command_table import COMMANDS
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CardRef,
    CastSpell,
    ChooseDefender,
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

Map = dict[str, Any]
C = TypeVar("C")


class ScenarioError(ValueError):
    """A malformed scenario file, or action: the message says where and what."""


@dataclass(frozen=True)
class Form(Generic[C]):
    """One kind's action form: ``write`` gives its keys after ``player`` and ``action``; ``read`` makes the
    command from the action (``a``), its player, the game's player names and where it is (``at``)."""

    write: Callable[[C], Map]
    read: Callable[[Map, str, list[str], str], C]


def action_json(command: Command, *, with_player: bool = True) -> Map:
    """The section-2 action for ``command``; ``with_player=False`` gives the service's body form."""
    kind = COMMANDS[type(command)].kind
    out: Map = {"player": command.player} if with_player else {}
    out["action"] = kind
    out.update(FORMS[kind].write(command))
    return out


def command_of(a: Map, player: str, names: list[str], at: str) -> Command:
    """The command for an action of a known kind (``a["action"]``), by ``player``, in a game of ``names``."""
    made: Command = FORMS[a["action"]].read(a, player, names, at)
    return made


# --- values -----------------------------------------------------------------------------------------


def whole(value: Any, at: str, low: int = -(2**31), high: int = 2**31 - 1) -> int:
    """A whole number in [low, high]: by default what a life total, a turn, an index or an object id can be."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{at}: expected a whole number, got {value!r:.60}")
    if not low <= value <= high:
        raise ScenarioError(f"{at}: {value if abs(value) < 10**30 else f'a {len(str(abs(value)))}-digit number'} is out of range ({low} to {high})")
    return value


def known(name: Any, at: str) -> str:
    if not isinstance(name, str):
        raise ScenarioError(f"{at}: expected a card name, got {name!r}")
    try:
        require_known(name)
    except UnknownCard as e:
        raise ScenarioError(f"{at}: {e}") from None
    return name


def _list(value: Any, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError(f"{at}: expected a list")
    return value


REF_FORMS = '"NAME", {"card": NAME, "index": I} or {"object": ID}'


def _ref(value: Any, at: str) -> Ref:
    """A permanent, or an object on the stack, named by card name (and index), or by its object id
    (CONTRACT section 2: ``{"object": N}``, the ``object`` of the state and the events)."""
    if isinstance(value, str):
        return CardRef(known(value, at))
    if isinstance(value, dict) and "card" in value and "object" in value:
        raise ScenarioError(f"{at}: give either \"card\" or \"object\", not both")
    if isinstance(value, dict) and "card" in value:
        if not isinstance(value["card"], str):
            raise ScenarioError(f"{at}.card: expected a card name, got {value['card']!r}; an object id is written {{\"object\": {value['card']!r}}}")
        return CardRef(known(value["card"], at), whole(value.get("index", 0), f"{at}.index"))
    if isinstance(value, dict) and "object" in value:
        return whole(value["object"], f"{at}.object")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ScenarioError(f"{at}: expected {REF_FORMS}")


def _target(value: Any, names: list[str], at: str) -> Target:
    if isinstance(value, str) and value in names:
        return value
    return _ref(value, at)


def _pay(a: Map, at: str) -> list[Any] | None:
    pay = a.get("pay")
    if pay is not None and not isinstance(pay, list):
        raise ScenarioError(f"{at}.pay: expected a list of permanents")
    return pay


def _paid_with(pay: list[Any] | None, at: str) -> tuple[Ref, ...] | None:
    return None if pay is None else tuple(_ref(r, f"{at}.pay[{j}]") for j, r in enumerate(pay))


def _in_hand(value: Any, at: str) -> str:
    """A card in a hand, by name ("Forest" or {"card": "Forest"}). A card in a hand has no object
    id (the state lists a hand by name), so {"object": N} cannot name one."""
    if isinstance(value, dict) and set(value) == {"object"}:
        raise ScenarioError(
            f"{at}: a card in a hand has no object id (the state lists a hand by card name); name it: \"NAME\" or {{\"card\": NAME}}"
        )
    if isinstance(value, dict) and set(value) == {"card"}:
        value = value["card"]
    known(value, at)
    if value not in CARDS:
        raise ScenarioError(f"{at}: {value!r} is not a card that can be in a hand (a token or a back face)")
    return str(value)


def _defender(x: Any, names: list[str], at: str) -> str | None:
    if isinstance(x, dict) and x.get("defender") is not None:
        if x["defender"] not in names:
            raise ScenarioError(f"{at}.defender: {x['defender']!r} is not a player")
        return str(x["defender"])
    return None


def _ref_json(ref: Ref) -> Any:
    if isinstance(ref, CardRef):
        return {"card": ref.card, "index": ref.index} if ref.index else ref.card
    return {"object": ref}


def _target_json(target: Target) -> Any:
    return target if isinstance(target, str) else _ref_json(target)


def _named(ref: Ref, **more: Any) -> Map:
    base = _ref_json(ref)
    return {**(base if isinstance(base, dict) else {"card": base}), **more}


# --- the forms, one per kind ------------------------------------------------------------------------


def _land(a: Map, player: str, names: list[str], at: str) -> PlayLand:
    whole(a.get("index", 0), f"{at}.index")  # accepted, and changes nothing: a hand is known by card names only
    return PlayLand(player, known(a.get("card"), f"{at}.card"))


def _cast_json(c: CastSpell) -> Map:
    out: Map = {"card": c.card}
    if c.targets:
        out["targets"] = [_target_json(t) for t in c.targets]
    if c.pay is not None:
        out["pay"] = [_ref_json(r) for r in c.pay]
    return out


def _cast(a: Map, player: str, names: list[str], at: str) -> CastSpell:
    targets = a.get("targets", [])
    if not isinstance(targets, list):
        raise ScenarioError(f"{at}.targets: expected a list")
    pay = _pay(a, at)
    whole(a.get("index", 0), f"{at}.index")  # accepted, and changes nothing (as for play_land)
    return CastSpell(
        player,
        known(a.get("card"), f"{at}.card"),
        targets=tuple(_target(t, names, f"{at}.targets[{j}]") for j, t in enumerate(targets)),
        pay=_paid_with(pay, at),
    )


def _activate(a: Map, player: str, names: list[str], at: str) -> ActivateAbility:
    source = a.get("card")
    if isinstance(source, str):
        source = {"card": source, "index": a.get("index", 0)}
    elif source is None and "object" in a:
        source = {"object": a["object"]}  # {"action": "activate", "object": N}
    return ActivateAbility(player, _ref(source, f"{at}.card"), whole(a.get("ability", 0), f"{at}.ability"))


def _order_json(c: OrderTriggers) -> Map:
    order = []
    for i, ref in enumerate(c.order):
        chosen = c.targets[i] if i < len(c.targets) else None
        order.append(_named(ref, **({"targets": [_target_json(t) for t in chosen]} if chosen is not None else {})))
    return {"order": order}


def _order(a: Map, player: str, names: list[str], at: str) -> OrderTriggers:
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


def _choose_defender(a: Map, player: str, names: list[str], at: str) -> ChooseDefender:
    defender = a.get("defender")
    if defender not in names:
        raise ScenarioError(f"{at}.defender: {defender!r} is not a player")
    return ChooseDefender(player, defender)


def _attack_json(c: DeclareAttackers) -> Map:
    out: Map = {"attackers": [_named(ref, **({"defender": d} if d is not None else {})) for ref, d in c.attackers]}
    if c.pay is not None:
        out["pay"] = [_ref_json(r) for r in c.pay]
    return out


def _attack(a: Map, player: str, names: list[str], at: str) -> DeclareAttackers:
    items = _list(a.get("attackers", []), f"{at}.attackers")
    pay = _pay(a, at)
    return DeclareAttackers(
        player,
        tuple((_ref(x, f"{at}.attackers[{j}]"), _defender(x, names, f"{at}.attackers[{j}]")) for j, x in enumerate(items)),
        pay=_paid_with(pay, at),
    )


def _block(a: Map, player: str, names: list[str], at: str) -> DeclareBlockers:
    out = []
    for j, x in enumerate(_list(a.get("blockers", []), f"{at}.blockers")):
        if not isinstance(x, dict) or "attacker" not in x:
            raise ScenarioError(f"{at}.blockers[{j}]: expected {{\"card\": BLOCKER, \"attacker\": ATTACKER}}")
        out.append((_ref(x, f"{at}.blockers[{j}]"), _ref(x["attacker"], f"{at}.blockers[{j}].attacker")))
    return DeclareBlockers(player, tuple(out))


def _damage_json(c: AssignDamage) -> Map:
    return {
        "assignments": [
            {"attacker": _ref_json(ref), "damage": [{"target": _target_json(t), "amount": n} for t, n in parts]} for ref, parts in c.assignments
        ],
    }


def _damage(a: Map, player: str, names: list[str], at: str) -> AssignDamage:
    out_assign = []
    for j, x in enumerate(_list(a.get("assignments", []), f"{at}.assignments")):
        here = f"{at}.assignments[{j}]"
        if not isinstance(x, dict) or "attacker" not in x:
            raise ScenarioError(f"{here}: expected {{\"attacker\": CARD, \"damage\": [{{\"target\": T, \"amount\": N}}]}}")
        parts = []
        for k, d in enumerate(_list(x.get("damage", []), f"{here}.damage")):
            if not isinstance(d, dict) or "target" not in d:
                raise ScenarioError(f"{here}.damage[{k}]: expected {{\"target\": T, \"amount\": N}}")
            parts.append((_target(d["target"], names, f"{here}.damage[{k}].target"), whole(d.get("amount"), f"{here}.damage[{k}].amount")))
        out_assign.append((_ref(x["attacker"], f"{here}.attacker"), tuple(parts)))
    return AssignDamage(player, tuple(out_assign))


def _discard(a: Map, player: str, names: list[str], at: str) -> Discard:
    return Discard(player, tuple(_in_hand(c, f"{at}.cards[{j}]") for j, c in enumerate(_list(a.get("cards", []), f"{at}.cards"))))


FORMS: dict[str, Form[Any]] = {
    "pass": Form(lambda c: {}, lambda a, player, names, at: PassPriority(player)),
    "play_land": Form(lambda c: {"card": c.card}, _land),
    "cast": Form(_cast_json, _cast),
    "activate": Form(lambda c: {"card": _ref_json(c.source), "ability": c.ability}, _activate),
    "order_triggers": Form(_order_json, _order),
    "choose_defender": Form(lambda c: {"defender": c.defender}, _choose_defender),
    "declare_attackers": Form(_attack_json, _attack),
    "declare_blockers": Form(lambda c: {"blockers": [_named(b, attacker=_ref_json(a)) for b, a in c.blockers]}, _block),
    "assign_damage": Form(_damage_json, _damage),
    "discard": Form(lambda c: {"cards": list(c.cards)}, _discard),
    "concede": Form(lambda c: {}, lambda a, player, names, at: Concede(player)),
}
