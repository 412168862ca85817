"""Commands in the scenario's action form (CONTRACT section 2): the inverse of ``scenario.parse_action``.

Objects are named by id (``{"object": N}``), so an action listed here means exactly one thing however
many cards share its name; players by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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

Map = dict[str, Any]


def action_json(command: Command, *, with_player: bool = True) -> Map:
    """The section-2 action for ``command``; ``with_player=False`` gives the service's body form."""
    out: Map = {"player": command.player} if with_player else {}
    out.update(_FORMS[type(command)](command))
    return out


def _ref(ref: Ref) -> Any:
    if isinstance(ref, CardRef):
        return {"card": ref.card, "index": ref.index} if ref.index else ref.card
    return {"object": ref}


def _target(target: Target) -> Any:
    return target if isinstance(target, str) else _ref(target)


def _named(ref: Ref, **more: Any) -> Map:
    base = _ref(ref)
    return {**(base if isinstance(base, dict) else {"card": base}), **more}


def _cast(c: CastSpell) -> Map:
    out: Map = {"action": "cast", "card": c.card}
    if c.targets:
        out["targets"] = [_target(t) for t in c.targets]
    if c.pay is not None:
        out["pay"] = [_ref(r) for r in c.pay]
    return out


def _activate(c: ActivateAbility) -> Map:
    return {"action": "activate", "card": _ref(c.source), "ability": c.ability}


def _attack(c: DeclareAttackers) -> Map:
    out: Map = {
        "action": "declare_attackers",
        "attackers": [_named(ref, **({"defender": d} if d is not None else {})) for ref, d in c.attackers],
    }
    if c.pay is not None:
        out["pay"] = [_ref(r) for r in c.pay]
    return out


def _order(c: OrderTriggers) -> Map:
    order = []
    for i, ref in enumerate(c.order):
        chosen = c.targets[i] if i < len(c.targets) else None
        order.append(_named(ref, **({"targets": [_target(t) for t in chosen]} if chosen is not None else {})))
    return {"action": "order_triggers", "order": order}


def _damage(c: AssignDamage) -> Map:
    return {
        "action": "assign_damage",
        "assignments": [
            {"attacker": _ref(ref), "damage": [{"target": _target(t), "amount": n} for t, n in parts]} for ref, parts in c.assignments
        ],
    }


_FORMS: dict[type, Callable[[Any], Map]] = {
    PassPriority: lambda c: {"action": "pass"},
    Concede: lambda c: {"action": "concede"},
    PlayLand: lambda c: {"action": "play_land", "card": c.card},
    CastSpell: _cast,
    ActivateAbility: _activate,
    ChooseDefender: lambda c: {"action": "choose_defender", "defender": c.defender},
    DeclareAttackers: _attack,
    DeclareBlockers: lambda c: {"action": "declare_blockers", "blockers": [_named(b, attacker=_ref(a)) for b, a in c.blockers]},
    AssignDamage: _damage,
    OrderTriggers: _order,
    Discard: lambda c: {"action": "discard", "cards": list(c.cards)},
}
