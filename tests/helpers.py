"""Small helpers for the rules tests: start a LocalTable, drive it to a step, read its events; and for
the tests of older stores, whether today's engine shows what older code showed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from mtg_ledger.core.commands import Command, Concede, DeclareAttackers, DeclareBlockers, Discard, OrderTriggers, PassPriority, Ref
from mtg_ledger.core.errors import IllegalAction, RulesError
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.ledger.play import pass_until_step
from mtg_ledger.replays.scenario import PassUntil

Event = dict[str, Any]


def start(setup: dict[str, Any]) -> LocalTable:
    """A two-player game in memory, from a setup dict (docs/reference/scenario-files.md, without actions)."""
    return LocalTable.start(setup)


def advance_to(table: LocalTable, turn: int, step: str) -> None:
    """``pass_until``: pass priority (and declare nothing) up to the first decision of that step."""
    target = PassUntil(turn, step)
    while (command := pass_until_step(table.state, target)) is not None:
        table.handle(command)


def events_of(table: LocalTable, event_type: str) -> list[Event]:
    return [e for e in table.events if e["type"] == event_type]


def last(table: LocalTable, event_type: str) -> Event:
    found = events_of(table, event_type)
    assert found, f"no {event_type} event was recorded"
    return found[-1]


def since(table: LocalTable, version: int) -> list[Event]:
    """The events recorded after event version ``version``."""
    return [e for e in table.events if e["v"] > version]


def types_since(table: LocalTable, version: int) -> list[str]:
    return [e["type"] for e in since(table, version)]


def perm(table: LocalTable, card_name: str, index: int = 0) -> Permanent:
    """The ``index``-th permanent named ``card_name`` on the battlefield (in order of entering)."""
    same = [p for p in table.state.battlefield if p.card == card_name]
    assert index < len(same), f"only {len(same)} {card_name!r} on the battlefield"
    return same[index]


def two_players(alice: dict[str, Any] | None = None, bob: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A setup with alice starting; each player's zones default to an empty hand and a small library."""
    default = {"library": ["Forest"] * 5, "hand": []}
    return {
        "seed": 1,
        "starting_player": "alice",
        "players": [
            {"name": "alice", **default, **(alice or {})},
            {"name": "bob", **default, **(bob or {})},
        ],
        **extra,
    }


def rejected(table: LocalTable, command: Command, error: type[IllegalAction] = IllegalAction) -> IllegalAction:
    """Handle a command that must be refused, and check that nothing of it was stored (733, docs/reference/scenario-files.md)."""
    stored = len(table.events)
    state_hash = table.state.state_hash()
    with pytest.raises(error) as exc:
        table.handle(command)
    assert len(table.events) == stored
    assert table.state.state_hash() == state_hash
    return exc.value


def both_pass(table: LocalTable, first: str = "alice", second: str = "bob") -> None:
    """``first`` passes priority, then ``second`` (who must be next to hold it)."""
    table.handle(PassPriority(first))
    table.handle(PassPriority(second))


def three_players(
    game_format: str,
    alice: dict[str, Any] | None = None,
    bob: dict[str, Any] | None = None,
    carol: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A three-player setup (``free-for-all`` or ``single-defender``), alice starting, then bob, then carol."""
    default = {"library": ["Forest"] * 5, "hand": []}
    return {
        "format": game_format,
        "seed": 1,
        "starting_player": "alice",
        "players": [
            {"name": "alice", **default, **(alice or {})},
            {"name": "bob", **default, **(bob or {})},
            {"name": "carol", **default, **(carol or {})},
        ],
        **extra,
    }


def refused(table: LocalTable, command: Command, rule: str, error: type[IllegalAction] = IllegalAction) -> IllegalAction:
    """A refusal a judge would accept: ``rule`` cited, nothing stored, and the same decision asked for again."""
    asked = pending_decision(table.state)
    refusal = rejected(table, command, error)
    assert refusal.rule == rule, f"cited rule {refusal.rule} ({refusal}), expected {rule}"
    assert pending_decision(table.state) == asked
    return refusal


def archenemy(schemes: list[str], **zones: dict[str, Any]) -> dict[str, Any]:
    """eve, the archenemy (904), against the team of alice and bob, who share their turns (805)."""
    players = []
    for name in ("alice", "bob", "eve"):
        entry = {"name": name, "library": ["Plains"] * 20, "hand": []}
        entry.update(zones.get(name, {}))
        if name == "eve":
            entry["schemes"] = schemes
        players.append(entry)
    return {"format": "archenemy", "players": players}


# --- combat ---------------------------------------------------------------------------------


def attack(table: LocalTable, *cards: Ref) -> None:
    """Pass to this turn's declaration of attackers; the active player attacks the only opponent with ``cards``."""
    advance_to(table, table.state.turn, "declare_attackers")
    active = table.state.active_player
    assert active is not None
    table.handle(DeclareAttackers(active, tuple((c, None) for c in cards)))


def block(table: LocalTable, *pairs: tuple[Ref, Ref], player: str = "bob") -> None:
    """Pass to this turn's declare blockers step; ``player`` blocks with (blocker, attacker) ``pairs``."""
    advance_to(table, table.state.turn, "declare_blockers")
    table.handle(DeclareBlockers(player, tuple(pairs)))


def obj(table: LocalTable, card_name: str, index: int = 0) -> int:
    """The object id of the ``index``-th permanent named ``card_name``."""
    return perm(table, card_name, index).object


def dealt(event: Event) -> list[tuple[int, Any, int]]:
    """A CombatDamageDealt event's assignments as (source, target, amount)."""
    return [(a["source"], a["target"], a["amount"]) for a in event["assignments"]]


def damage_steps(table: LocalTable) -> list[bool]:
    """The ``first_strike`` flag of every combat damage step begun so far (510.4)."""
    return [e["first_strike"] for e in events_of(table, "StepBegan") if e["step"] == "combat_damage"]


# --- decisions without a default: triggers to order, cards to discard --------------------------

OrderPolicy = Callable[[GameState, str], OrderTriggers]
DiscardPolicy = Callable[[GameState, str, int], Discard]


def as_triggered(state: GameState, player: str) -> OrderTriggers:
    """Put ``player``'s waiting triggers on the stack in the order they triggered (the first listed is at the bottom)."""
    return OrderTriggers(player, tuple(t.object for t in state.pending_triggers if t.player == player))


def last_cards(state: GameState, player: str, count: int) -> Discard:
    """Discard the last ``count`` cards of ``player``'s hand."""
    return Discard(player, tuple(state.players[player].hand[-count:]))


def take_choices(table: LocalTable, order: OrderPolicy = as_triggered, discard: DiscardPolicy = last_cards) -> None:
    """Take the pending decisions that have no default (order_triggers, discard) with the given policies."""
    while (decision := pending_decision(table.state)) is not None and decision.kind in ("order_triggers", "discard"):
        if decision.kind == "order_triggers":
            table.handle(order(table.state, decision.player))
        else:
            table.handle(discard(table.state, decision.player, decision.count))


def advance_through(
    table: LocalTable, turn: int, step: str, order: OrderPolicy = as_triggered, discard: DiscardPolicy = last_cards
) -> None:
    """``advance_to``, taking the decisions it stops at (triggers to order, cards to discard) with the
    given policies, up to the first other decision of that step (usually the active player's priority)."""
    while True:
        advance_to(table, turn, step)
        decision = pending_decision(table.state)
        if decision is None or decision.kind not in ("order_triggers", "discard"):
            return
        take_choices(table, order, discard)


def pass_to_next(table: LocalTable, step: str, order: OrderPolicy = as_triggered, discard: DiscardPolicy = last_cards) -> None:
    """Pass priority (declaring no attackers or blockers) until ``step`` begins again, and stop at its
    first decision other than ordering triggers or discarding; unlike ``advance_to`` it reaches a step
    the turn has already been through (an additional combat, a second cleanup)."""
    recorded = len(table.events)

    def arrived() -> bool:
        return any(e["type"] == "StepBegan" and e["step"] == step for e in table.events[recorded:])

    while not arrived():
        take_choices(table, order, discard)
        decision = pending_decision(table.state)
        assert decision is not None, f"the game ended before {step}"
        if decision.kind == "priority":
            table.handle(PassPriority(decision.player))
        elif decision.kind == "declare_attackers":
            table.handle(DeclareAttackers(decision.player, ()))
        elif decision.kind == "declare_blockers":
            table.handle(DeclareBlockers(decision.player, ()))
        else:
            raise AssertionError(f"pass_to_next stopped at {decision.describe()}")
    take_choices(table, order, discard)


def pass_until_empty_stack(table: LocalTable) -> None:
    """Every player passes in turn until the stack is empty (each object on it resolves)."""
    while table.state.stack:
        take_choices(table)
        decision = pending_decision(table.state)
        assert decision is not None and decision.kind == "priority", decision
        table.handle(PassPriority(decision.player))
    take_choices(table)


def shown_as_before(old: object, new: object, skip: frozenset[str] = frozenset()) -> bool:
    """Whether ``new`` shows everything ``old`` showed, the same (a later engine may show more keys);
    keys in ``skip`` are not compared, at any depth."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and shown_as_before(v, new[k], skip) for k, v in old.items() if k not in skip)
    return old == new


Pick = Callable[[GameState, list[Command], random.Random], Command]


def play_at_random(table: LocalTable, choices: random.Random, decisions: int, pick: Pick) -> LocalTable:
    """Up to ``decisions`` decisions, each ``pick``'s choice among the legal answers (never a concession):
    the property tests' random play. Every pending decision has an answer, and an answer offered is legal."""
    for _ in range(decisions):
        if table.state.ended:
            break
        legal = [c for c in legal_actions(table.state) if not isinstance(c, Concede)]
        assert legal, "a pending decision always has at least one legal answer"
        command = pick(table.state, legal, choices)
        try:
            table.handle(command)
        except RulesError as e:  # pragma: no cover - legal_actions, or the pick, offered it
            raise AssertionError(f"an illegal {command} was offered: {e}") from e
    return table


def assert_rebuilds_and_replays(table: LocalTable) -> None:
    """The game's events fold to the state it reached, and the audit's replay of its decisions is clean."""
    from mtg_ledger.replays.audit.replay import replay

    state = GameState()
    for e in table.events:
        apply_event(state, e)
    assert state.state_hash() == table.state.state_hash()
    result = replay(table.events)
    assert result.ok, [f.message for f in result.findings][:3]
