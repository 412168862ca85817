"""Each command's candidates for a pending decision: the command table's generators.

A generator lists every answer of its command type worth asking the rules about (not all of them
legal: ``core.legal`` keeps those ``rules.check`` accepts), lazily, up to the choice of mana
sources (a cost is listed once, paid as the engine pays when ``pay`` is left out, 601.2g-h).
Where a choice is too large to list (past ``LIMIT`` options: the subsets of attackers or blockers,
each with its defender or attacker, the orders of triggered abilities, the discards; and, always,
the divisions of combat damage other than the default), it lists the simplest answers and
describes the rest by its ``shape``: what may be chosen from, in the action's own terms.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, permutations, product
from typing import Any, Generic, TypeVar

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import attack_targets, combat, targeting, teams, triggers
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CastSpell,
    ChooseDefender,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
    Target,
)
from mtg_ledger.core.decision import Decision
from mtg_ledger.core.effects import ability_targets
from mtg_ledger.core.state import GameState

LIMIT = 256  # options listed, at most, for one decision

C = TypeVar("C")


@dataclass(frozen=True)
class Options(Generic[C]):
    """A command type's candidates for a decision: every one, or the simplest and the ``shape`` of the rest."""

    listed: Iterable[C]
    shape: dict[str, Any] | None = None


# --- with priority (117): pass, or, for the player holding it or any of their team (805.5a), act --------


def passes(state: GameState, decision: Decision) -> Options[PassPriority]:
    return Options([PassPriority(decision.player)])


def _team_first(state: GameState, player: str) -> list[str]:
    """805.5a: while a team has priority, each of its players may cast, activate and play a land."""
    return [player, *(m for m in teams.live_members(state, teams.team_of(state, player)) if m != player)]


def lands(state: GameState, decision: Decision) -> Options[PlayLand]:
    """305.1: a land from hand, by name (copies are alike)."""
    return Options(
        PlayLand(member, name)
        for member in _team_first(state, decision.player)
        for name in dict.fromkeys(state.players[member].hand)
        if state.cards.card(name).is_type("Land")
    )


def casts(state: GameState, decision: Decision) -> Options[CastSpell]:
    """601.2: a spell from hand, by name, with each choice of targets (601.2c)."""
    return Options(
        CastSpell(member, name, targets=targets)
        for member in _team_first(state, decision.player)
        for name in dict.fromkeys(state.players[member].hand)
        if not state.cards.card(name).is_type("Land")
        for targets in _target_choices(state, state.cards.card(name).spell_targets, member)
    )


def _target_choices(state: GameState, specs: tuple[str, ...], controller: str) -> Iterator[tuple[Target, ...]]:
    """601.2c, 115.1: each legal choice of one target for each spec (core.targeting), none for no spec.
    Targets of one spec ("two target lands") are different objects, listed once whatever their order."""
    options = [targeting.legal_targets(state, spec, controller) for spec in specs]
    for picked in product(*options):
        if all(options[i].index(picked[i]) < options[j].index(picked[j]) for i, j in combinations(range(len(specs)), 2) if specs[i] == specs[j]):
            yield picked


def activations(state: GameState, decision: Decision) -> Options[ActivateAbility]:
    """605.3a: mana abilities of the untapped sources; 602: the abilities that use the stack."""
    return Options(c for member in _team_first(state, decision.player) for c in _activations(state, member))


def _activations(state: GameState, player: str) -> Iterator[ActivateAbility]:
    sources = ch.mana_sources(state, player)
    for obj in dict.fromkeys(s[0] for s in sources):
        colors = [c for o, _, c in sources if o == obj]
        if len(colors) == 1:
            yield ActivateAbility(player, obj)
        else:  # 106.1: each colour it may add
            yield from (ActivateAbility(player, obj, 0, mana=color) for color in colors)
    for perm in ch.on_battlefield(state):
        face = ch.face(state, perm)
        for i, ability in enumerate(face.activated):
            if perm.controller == player:
                if ability.up_to_one:  # 601.2c: "up to one target": none is a choice too
                    yield ActivateAbility(player, perm.object, len(face.mana_abilities) + i)
                for targets in _target_choices(state, ability_targets(ability), player):  # 606 loyalty abilities, 702.6 equip
                    yield ActivateAbility(player, perm.object, len(face.mana_abilities) + i, targets)


# --- the other decisions ---------------------------------------------------------------------------


def concessions(state: GameState, decision: Decision) -> Options[Concede]:
    return Options([Concede(decision.player)])  # 104.3a


def defenders(state: GameState, decision: Decision) -> Options[ChooseDefender]:
    """507.1: one of the opponents still in the game."""
    return Options(ChooseDefender(decision.player, p) for p in state.live_players() if p != decision.player)


def attacks(state: GameState, decision: Decision) -> Options[DeclareAttackers]:
    """508.1a-b: any subset of the creatures able to attack, each attacking one of the attackable players."""
    ready = [p for p in ch.on_battlefield(state) if combat.can_attack(state, p)]
    targets: list[Any] = [*attack_targets.attackable_players(state), *(p.object for p in attack_targets.attackable_objects(state))]  # 506.3
    options = [[None, *targets] for _ in ready]
    if _count(options) <= LIMIT:
        return Options(DeclareAttackers(decision.player, _pairs(ready, combo)) for combo in product(*options))
    simple = [DeclareAttackers(decision.player, ())]
    simple += [DeclareAttackers(decision.player, ((p.object, t),)) for p in ready for t in targets]
    shape = {
        "action": "declare_attackers",
        "choose": "any subset of these creatures, each attacking one of its defenders",
        "attackers": [{"object": p.object, "card": ch.name(state, p), "defenders": list(targets)} for p in ready],
        "options": _count(options),
    }
    return Options(simple, shape)


def blocks(state: GameState, decision: Decision) -> Options[DeclareBlockers]:
    """509.1a-c: each untapped creature of the defending player blocks at most one attacker it can block."""
    player = decision.player
    attackers = [p for p in ch.on_battlefield(state) if p.attacking and teams.teammates(state, p.attacking, player)]
    mine = [p for p in ch.on_battlefield(state) if teams.teammates(state, p.controller, player) and ch.is_creature(state, p)]
    able = [(b, [a.object for a in attackers if combat.block_restriction(state, b, a) is None]) for b in mine]
    able = [(b, can) for b, can in able if can]
    options = [[None, *can] for _, can in able]
    if _count(options) <= LIMIT:
        return Options(DeclareBlockers(player, _pairs([b for b, _ in able], combo)) for combo in product(*options))
    simple = [DeclareBlockers(player, ())] + [DeclareBlockers(player, ((b.object, a),)) for b, can in able for a in can]
    shape = {
        "action": "declare_blockers",
        "choose": "any subset of these creatures, each blocking one of the attackers it may block",
        "blockers": [{"object": b.object, "card": ch.name(state, b), "may_block": can} for b, can in able],
        "options": _count(options),
    }
    return Options(simple, shape)


def divisions(state: GameState, decision: Decision) -> Options[AssignDamage]:
    """510.1c-d: the default division is listed; any other division of each attacker's damage is a shape."""
    shape_attackers = []
    for attacker in ch.on_battlefield(state):
        if combat.needs_assignment(state, attacker):
            among: list[Target] = [b for b in attacker.blocked_by if state.permanent(b) is not None]
            if ch.has_keyword(state, attacker, "trample") and attacker.attacking:
                among.append(attacker.attacking)  # 702.19c
            shape_attackers.append({"attacker": attacker.object, "card": ch.name(state, attacker), "damage": ch.power(state, attacker), "among": among})
    shape = {
        "action": "assign_damage",
        "choose": "for each attacker, how its damage is divided among these (lethal damage to each blocker in order first, 510.1c)",
        "assignments": shape_attackers,
    }
    return Options([AssignDamage(decision.player, ())], shape)


def discards(state: GameState, decision: Decision) -> Options[Discard]:
    """514.1, 608.2d, 601.2h (a discard cost): exactly ``count`` cards of the hand (cards of one name are alike)."""
    hand = list(state.players[decision.player].hand)
    picks: dict[tuple[str, ...], None] = {}
    for chosen in combinations(range(len(hand)), decision.count):
        picks[tuple(sorted(hand[i] for i in chosen))] = None
        if len(picks) > LIMIT:
            shape = {"action": "discard", "choose": f"{decision.count} of these cards", "cards": hand, "count": decision.count}
            return Options([Discard(decision.player, tuple(hand[: decision.count]))], shape)
    return Options(Discard(decision.player, cards) for cards in picks)


def orders(state: GameState, decision: Decision) -> Options[OrderTriggers]:
    """603.3b-d: every order of the player's waiting triggered abilities, each with one of its legal targets."""
    mine = [t for t in state.pending_triggers if t.player == decision.player]
    targets = {t.object: triggers.legal_targets(state, triggers.ability(state, t).target, t.player) for t in mine}
    options = math.factorial(len(mine)) * math.prod(max(1, len(v)) for v in targets.values())
    if options > LIMIT:
        shape = {
            "action": "order_triggers",
            "choose": "an order of all these triggered abilities (bottom of the stack first), each with one of its targets",
            "order": [{"object": t.object, "card": t.card, "targets": targets[t.object]} for t in mine],
            "options": options,
        }
        return Options([OrderTriggers(decision.player, tuple(t.object for t in mine))], shape)
    return Options(_orders(decision.player, [t.object for t in mine], targets))


def _orders(player: str, objects: list[int], targets: dict[int, list[Any]]) -> Iterator[OrderTriggers]:
    for order in permutations(objects):
        options: list[list[tuple[Any, ...] | None]] = [[(x,) for x in targets[o]] or [None] for o in order]
        for picked in product(*options):
            yield OrderTriggers(player, order, tuple(picked))


def _pairs(items: list[Any], combo: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    return tuple((p.object, choice) for p, choice in zip(items, combo, strict=True) if choice is not None)


def _count(options: list[list[Any]]) -> int:
    return math.prod(len(o) for o in options)
