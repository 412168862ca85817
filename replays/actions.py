"""Commands back into the scenario's action form (CONTRACT section 2): what `mtg-ledger legal`
prints, and what `mtg-ledger decide` and a scenario file take again."""

from __future__ import annotations

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

Action = dict[str, Any]


def ref(value: Ref) -> Any:
    """An object as ``{"object": N}``; a card name as itself, or ``{"card", "index"}`` past the first."""
    if isinstance(value, CardRef):
        return value.card if value.index == 0 else {"card": value.card, "index": value.index}
    return {"object": value}


def target(value: Target) -> Any:
    return value if isinstance(value, str) else ref(value)


def _named(value: Ref, **extra: Any) -> Any:
    """An attacker, a blocker or a trigger: the reference with more keys beside it."""
    if not extra:
        return ref(value)
    if isinstance(value, CardRef):
        return {"card": value.card, **({"index": value.index} if value.index else {}), **extra}
    return {"object": value, **extra}


def to_action(command: Command) -> Action:
    """The scenario action for ``command``, which ``replays.scenario.parse_action`` reads back."""
    out: Action = {"player": command.player}
    if isinstance(command, PassPriority):
        out["action"] = "pass"
    elif isinstance(command, Concede):
        out["action"] = "concede"
    elif isinstance(command, PlayLand):
        out.update(action="play_land", card=command.card, **({"index": command.index} if command.index else {}))
    elif isinstance(command, CastSpell):
        out.update(action="cast", card=command.card, **({"index": command.index} if command.index else {}))
        if command.targets:
            out["targets"] = [target(t) for t in command.targets]
        if command.pay is not None:
            out["pay"] = [ref(r) for r in command.pay]
    elif isinstance(command, ActivateAbility):
        out.update(action="activate", card=ref(command.source), ability=command.ability)
    elif isinstance(command, ChooseDefender):
        out.update(action="choose_defender", defender=command.defender)
    elif isinstance(command, DeclareAttackers):
        out.update(
            action="declare_attackers",
            attackers=[_named(a, **({"defender": d} if d is not None else {})) for a, d in command.attackers],
        )
        if command.pay is not None:
            out["pay"] = [ref(r) for r in command.pay]
    elif isinstance(command, DeclareBlockers):
        out.update(action="declare_blockers", blockers=[_named(b, attacker=ref(a)) for b, a in command.blockers])
    elif isinstance(command, AssignDamage):
        out.update(
            action="assign_damage",
            assignments=[
                {"attacker": ref(a), "damage": [{"target": target(t), "amount": n} for t, n in parts]} for a, parts in command.assignments
            ],
        )
    elif isinstance(command, Discard):
        out.update(action="discard", cards=list(command.cards))
    elif isinstance(command, OrderTriggers):
        order = []
        for i, r in enumerate(command.order):
            chosen = command.targets[i] if i < len(command.targets) else None
            order.append(_named(r, **({"targets": [target(t) for t in chosen]} if chosen is not None else {})))
        out.update(action="order_triggers", order=order)
    else:  # pragma: no cover - every command of core.commands is above
        raise TypeError(f"no scenario form for {command!r}")
    return {"action": out.pop("action"), **out}
