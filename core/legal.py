"""Legal actions as a lazy view, backed by the same predicate that validation uses (core.rules.check)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import combat, teams, triggers
from mtg_ledger.core.cards import card
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    ChooseDefender,
    CastSpell,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
    Target,
)
from mtg_ledger.core.rules import is_legal, pending_decision
from mtg_ledger.core.state import GameState

MAX_SUBSETS = 64  # attack and block declarations offered, at most, per decision


def candidates(state: GameState) -> Iterator[Command]:
    """Every decision worth asking the rules about now (not all of them legal)."""
    decision = pending_decision(state)
    if decision is None:
        return
    player = decision.player
    if decision.kind == "priority":
        yield PassPriority(player)
        # 805.5a: while a team has priority, each of its players may cast, activate and play a land
        for member in [player, *(m for m in teams.live_members(state, teams.team_of(state, player)) if m != player)]:
            yield from _acts(state, member)
    elif decision.kind == "order_triggers":
        mine = [t.object for t in state.pending_triggers if t.player == player]
        yield OrderTriggers(player, tuple(mine))
        yield OrderTriggers(player, tuple(reversed(mine)))
        for t in state.pending_triggers:
            if t.player == player:
                for option in triggers.legal_targets(state, triggers.ability(t).target, player)[1:2]:
                    yield OrderTriggers(player, tuple(mine), tuple((option,) if o == t.object else None for o in mine))
    elif decision.kind == "choose_defender":
        for opponent in state.live_players():
            if opponent != player:
                yield ChooseDefender(player, opponent)
    elif decision.kind == "declare_attackers":
        ready = [p.object for p in ch.on_battlefield(state) if combat.can_attack(state, p)]
        defenders = combat.attackable_players(state)
        for n, subset in enumerate(_subsets(ready)):
            yield DeclareAttackers(player, tuple((o, defenders[(n + i) % len(defenders)]) for i, o in enumerate(subset)))
    elif decision.kind == "assign_damage":
        yield AssignDamage(player, ())  # the default division
        for attacker in ch.on_battlefield(state):
            if combat.needs_assignment(state, attacker):
                blockers = [b for b in attacker.blocked_by if state.permanent(b) is not None]
                yield AssignDamage(player, ((attacker.object, ((blockers[-1], ch.power(state, attacker)),)),))
    elif decision.kind == "declare_blockers":  # 805.8: with shared team turns, the whole team's
        team = teams.team_of(state, player)
        attackers = [p.object for p in ch.on_battlefield(state) if p.attacking in team]
        blockers = [p.object for p in ch.on_battlefield(state) if p.controller in team and ch.is_creature(p) and not p.tapped]
        yield DeclareBlockers(player, ())
        count = 0
        for b in blockers:
            for a in attackers:
                yield DeclareBlockers(player, ((b, a),))
                count += 1
        if attackers and len(blockers) > 1:
            yield DeclareBlockers(player, tuple((b, attackers[i % len(attackers)]) for i, b in enumerate(blockers)))
    elif decision.kind == "discard":
        hand = state.players[player].hand
        yield Discard(player, tuple(hand[: decision.count]))
        yield Discard(player, tuple(hand[-decision.count :]))
    yield Concede(player)


def _acts(state: GameState, player: str) -> Iterator[Command]:
    """What a player holding priority (or whose team holds it) might do besides passing."""
    hand = state.players[player].hand
    for name in dict.fromkeys(hand):
        definition = card(name)
        if definition.is_type("Land"):
            yield PlayLand(player, name)
            continue
        for targets in _target_choices(state, definition.target):
            yield CastSpell(player, name, targets=targets)
    for obj, _, _ in ch.mana_sources(state, player):
        yield ActivateAbility(player, obj)
    for perm in ch.on_battlefield(state):  # abilities that use the stack (602)
        face = ch.face(perm)
        for i in range(len(face.activated)):
            if perm.controller == player:
                yield ActivateAbility(player, perm.object, len(face.mana_abilities) + i)


def _target_choices(state: GameState, spec: str | None) -> Iterator[tuple[Target, ...]]:
    if spec is None:
        yield ()
        return
    if spec in ("any", "player"):
        for name in state.live_players():
            yield (name,)
        if spec == "player":
            return
    for p in ch.on_battlefield(state):
        if ch.is_creature(p):
            yield (p.object,)


def _subsets(items: list[int]) -> Iterator[tuple[int, ...]]:
    produced = 0
    for size in range(len(items) + 1):
        for subset in combinations(items, size):
            yield subset
            produced += 1
            if produced >= MAX_SUBSETS:
                return


def legal_actions(state: GameState, *, allow_concede: bool = False) -> Iterator[Command]:
    """The candidates the rules accept, lazily."""
    for command in candidates(state):
        if isinstance(command, Concede) and not allow_concede:
            continue
        if is_legal(state, command):
            yield command
