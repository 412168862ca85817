"""Every legal answer to the pending decision, or, where the choice is too large to list, its shape.

``core.legal`` offers a sample of decisions worth trying (for play and for audits); this lists them
all, through the same predicate (``core.rules.is_legal``): every action a player may take now, up to
``LIMIT`` of them. Where a choice has more options than that (any subset of blockers, each blocking
one of several attackers; a division of combat damage), the answer lists the simplest legal actions
and describes the rest by its shape: what may be chosen from, in the action's own terms.

Actions are listed up to the choice of mana sources: a spell or attack cost is listed once, paid as the
engine pays when ``pay`` is left out (601.2g-h).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations, permutations, product
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import combat, teams, triggers
from mtg_ledger.core.commands import (
    AssignDamage,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    Target,
)
from mtg_ledger.core.legal import candidates
from mtg_ledger.core.rules import Decision, is_legal, pending_decision
from mtg_ledger.core.state import GameState

LIMIT = 256  # options listed, at most, for one decision


@dataclass(frozen=True)
class Choices:
    """The pending decision, its legal actions, and the shape of any choice too large to list."""

    decision: Decision | None
    actions: list[Command] = field(default_factory=list)
    shapes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when ``actions`` is every legal action (up to the choice of mana sources)."""
        return not self.shapes


def choices(state: GameState) -> Choices:
    decision = pending_decision(state)
    if decision is None:
        return Choices(None)
    make = _BY_KIND.get(decision.kind, _sampled)
    listed, shapes = make(state, decision)
    legal = [c for c in listed if is_legal(state, c)]
    return Choices(decision, [*_unique(legal), Concede(decision.player)], shapes)  # 104.3a: conceding is always allowed


Listing = tuple[Iterable[Command], list[dict[str, Any]]]


def _sampled(state: GameState, decision: Decision) -> Listing:
    """Priority (play a land, cast, activate, pass) and the choice of a defending player: listed whole."""
    return (c for c in candidates(state) if not isinstance(c, Concede)), []


def _attackers(state: GameState, decision: Decision) -> Listing:
    """508.1a-b: any subset of the creatures able to attack, each attacking one of the attackable players."""
    ready = [p for p in ch.on_battlefield(state) if combat.can_attack(state, p)]
    targets = combat.attackable_players(state)
    options = [[None, *targets] for _ in ready]
    if _count(options) <= LIMIT:
        return (DeclareAttackers(decision.player, _pairs(ready, combo)) for combo in product(*options)), []
    simple = [DeclareAttackers(decision.player, ())]
    simple += [DeclareAttackers(decision.player, ((p.object, t),)) for p in ready for t in targets]
    shape = {
        "action": "declare_attackers",
        "choose": "any subset of these creatures, each attacking one of its defenders",
        "attackers": [{"object": p.object, "card": ch.name(p), "defenders": list(targets)} for p in ready],
        "options": _count(options),
    }
    return simple, [shape]


def _blockers(state: GameState, decision: Decision) -> Listing:
    """509.1a-c: each untapped creature of the defending player blocks at most one attacker it can block."""
    player = decision.player
    attackers = [p for p in ch.on_battlefield(state) if p.attacking and teams.teammates(state, p.attacking, player)]
    mine = [p for p in ch.on_battlefield(state) if teams.teammates(state, p.controller, player) and ch.is_creature(p)]
    able = [(b, [a.object for a in attackers if combat.block_restriction(state, b, a) is None]) for b in mine]
    able = [(b, can) for b, can in able if can]
    options = [[None, *can] for _, can in able]
    if _count(options) <= LIMIT:
        return (DeclareBlockers(player, _pairs([b for b, _ in able], combo)) for combo in product(*options)), []
    simple = [DeclareBlockers(player, ())] + [DeclareBlockers(player, ((b.object, a),)) for b, can in able for a in can]
    shape = {
        "action": "declare_blockers",
        "choose": "any subset of these creatures, each blocking one of the attackers it may block",
        "blockers": [{"object": b.object, "card": ch.name(b), "may_block": can} for b, can in able],
        "options": _count(options),
    }
    return simple, [shape]


def _damage(state: GameState, decision: Decision) -> Listing:
    """510.1c-d: the default division is listed; any other division of each attacker's damage is a shape."""
    shape_attackers = []
    for attacker in ch.on_battlefield(state):
        if combat.needs_assignment(state, attacker):
            among: list[Target] = [b for b in attacker.blocked_by if state.permanent(b) is not None]
            if ch.has_keyword(state, attacker, "trample") and attacker.attacking:
                among.append(attacker.attacking)  # 702.19c
            shape_attackers.append({"attacker": attacker.object, "card": ch.name(attacker), "damage": ch.power(state, attacker), "among": among})
    shape = {
        "action": "assign_damage",
        "choose": "for each attacker, how its damage is divided among these (lethal damage to each blocker in order first, 510.1c)",
        "assignments": shape_attackers,
    }
    return [AssignDamage(decision.player, ())], [shape]


def _discard(state: GameState, decision: Decision) -> Listing:
    """514.1, 608.2d: exactly ``count`` cards of the hand (cards of one name are alike)."""
    hand = list(state.players[decision.player].hand)
    picks: dict[tuple[str, ...], None] = {}
    for chosen in combinations(range(len(hand)), decision.count):
        picks[tuple(sorted(hand[i] for i in chosen))] = None
        if len(picks) > LIMIT:
            shape = {"action": "discard", "choose": f"{decision.count} of these cards", "cards": hand, "count": decision.count}
            return [Discard(decision.player, tuple(hand[: decision.count]))], [shape]
    return (Discard(decision.player, cards) for cards in picks), []


def _order(state: GameState, decision: Decision) -> Listing:
    """603.3b-d: every order of the player's waiting triggered abilities, each with one of its legal targets."""
    mine = [t for t in state.pending_triggers if t.player == decision.player]
    targets = {t.object: triggers.legal_targets(state, triggers.ability(t).target, t.player) for t in mine}
    options = math.factorial(len(mine)) * math.prod(max(1, len(v)) for v in targets.values())
    if options > LIMIT:
        shape = {
            "action": "order_triggers",
            "choose": "an order of all these triggered abilities (bottom of the stack first), each with one of its targets",
            "order": [{"object": t.object, "card": t.card, "targets": targets[t.object]} for t in mine],
            "options": options,
        }
        return [OrderTriggers(decision.player, tuple(t.object for t in mine))], [shape]
    return _orders(decision.player, [t.object for t in mine], targets), []


def _orders(player: str, objects: list[int], targets: dict[int, list[Any]]) -> Iterator[Command]:
    for order in permutations(objects):
        options: list[list[tuple[Any, ...] | None]] = [[(x,) for x in targets[o]] or [None] for o in order]
        for picked in product(*options):
            yield OrderTriggers(player, order, tuple(picked))


def _pairs(items: list[Any], combo: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    return tuple((p.object, choice) for p, choice in zip(items, combo, strict=True) if choice is not None)


def _count(options: list[list[Any]]) -> int:
    return math.prod(len(o) for o in options)


def _unique(commands: Iterable[Command]) -> list[Command]:
    return list(dict.fromkeys(commands))


_BY_KIND = {
    "declare_attackers": _attackers,
    "declare_blockers": _blockers,
    "assign_damage": _damage,
    "discard": _discard,
    "order_triggers": _order,
}
