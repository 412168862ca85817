"""A simple deterministic policy for the demo: lands, then the biggest spell it can cast, sensible
attacks and blocks, removal and pump at sensible moments. Every choice goes through the same checks
as a player's (core.rules), so the policy can never make the engine do something illegal.
"""

from __future__ import annotations

from core import characteristics as ch
from core.cards import card
from core.commands import CastSpell, Command, DeclareAttackers, DeclareBlockers, Discard, PassPriority, PlayLand
from core.rules import Decision, is_legal, pending_decision
from core.state import GameState, Permanent
from core.turn import MAIN_STEPS


def choose(state: GameState) -> Command | None:
    """The policy's decision for whatever the game is waiting for (None when it waits for nothing)."""
    decision = pending_decision(state)
    if decision is None:
        return None
    if decision.kind == "declare_attackers":
        return _attack(state, decision.player)
    if decision.kind == "declare_blockers":
        return _block(state, decision.player)
    if decision.kind == "discard":
        return _discard(state, decision)
    return _priority(state, decision.player)


def _opponents(state: GameState, player: str) -> list[str]:
    return [p for p in state.live_players() if p != player]


def _creatures(state: GameState, player: str) -> list[Permanent]:
    return [p for p in ch.on_battlefield(state) if p.controller == player and ch.is_creature(p)]


def _priority(state: GameState, player: str) -> Command:
    for command in _wanted_actions(state, player):
        if is_legal(state, command):
            return command
    return PassPriority(player)


def _wanted_actions(state: GameState, player: str) -> list[Command]:
    hand = state.players[player].hand
    wanted: list[Command] = []
    foes = _opponents(state, player)
    # Lightning Bolt to the face when it is lethal, at any time.
    for foe in foes:
        if state.players[foe].life <= 3 and "Lightning Bolt" in hand:
            wanted.append(CastSpell(player, "Lightning Bolt", targets=(foe,)))
    own_main = state.active_player == player and state.step in MAIN_STEPS and not state.stack
    if own_main:
        lands = sorted({c for c in hand if card(c).is_type("Land")}, key=lambda c: (-_land_need(state, player, c), c))
        wanted.extend(PlayLand(player, c) for c in lands)
        spells = sorted(
            {c for c in hand if not card(c).is_type("Land") and card(c).sorcery_speed},
            key=lambda c: (-card(c).mana_cost.mana_value, c),
        )
        wanted.extend(CastSpell(player, c) for c in spells)
    if "Lightning Bolt" in hand and not state.stack:
        victim = _bolt_victim(state, foes)
        if victim is not None and (own_main or state.step in ("declare_attackers", "declare_blockers")):
            wanted.append(CastSpell(player, "Lightning Bolt", targets=(victim.object,)))
    if "Giant Growth" in hand and state.step == "declare_blockers" and not state.stack:
        saved = _growth_target(state, player)
        if saved is not None:
            wanted.append(CastSpell(player, "Giant Growth", targets=(saved.object,)))
    return wanted


def _land_need(state: GameState, player: str, land: str) -> int:
    """How many spells in hand want the color this land makes and that the player lacks."""
    color = card(land).mana_abilities[0].produces
    have = {c for _, _, c in ch.mana_sources(state, player)}
    if color in have:
        return 0
    return sum(1 for c in state.players[player].hand if any(col == color for col, _ in card(c).mana_cost.colored))


def _bolt_victim(state: GameState, foes: list[str]) -> Permanent | None:
    killable = [
        p
        for foe in foes
        for p in _creatures(state, foe)
        if ch.toughness(state, p) - p.damage <= 3 and ch.power(state, p) >= 2
    ]
    return max(killable, key=lambda p: (ch.power(state, p), -p.object), default=None)


def _growth_target(state: GameState, player: str) -> Permanent | None:
    """A creature of ours in a fight that +3/+3 turns from dying into surviving."""
    for perm in _creatures(state, player):
        enemies = [state.permanent(o) for o in (perm.blocked_by or perm.blocking)]
        incoming = sum(ch.power(state, e) for e in enemies if e is not None)
        if enemies and incoming >= ch.toughness(state, perm) - perm.damage and incoming < ch.toughness(state, perm) + 3 - perm.damage:
            return perm
    return None


def _attack(state: GameState, player: str) -> DeclareAttackers:
    foes = _opponents(state, player)
    target = min(foes, key=lambda f: (state.players[f].life, state.turn_order.index(f)))
    blockers = [b for b in _creatures(state, target) if not b.tapped]
    ready = [c for c in _creatures(state, player) if not c.tapped and not c.fresh]
    total = sum(ch.power(state, c) for c in ready)
    chosen = []
    for c in ready:
        bad_block = any(
            ch.power(state, b) >= ch.toughness(state, c) and ch.toughness(state, b) > ch.power(state, c) for b in blockers
        )
        if not bad_block or total >= state.players[target].life + sum(ch.toughness(state, b) for b in blockers):
            chosen.append((c.object, target if len(foes) > 1 else None))
    command = DeclareAttackers(player, tuple(chosen))
    return command if is_legal(state, command) else DeclareAttackers(player, ())


def _block(state: GameState, player: str) -> DeclareBlockers:
    attackers = sorted(
        (p for p in ch.on_battlefield(state) if p.attacking == player), key=lambda p: (-ch.power(state, p), p.object)
    )
    free = [b for b in _creatures(state, player) if not b.tapped]
    incoming = sum(ch.power(state, a) for a in attackers)
    life = state.players[player].life
    chosen: list[tuple[int, int]] = []
    for attacker in attackers:
        a_pow, a_tough = ch.power(state, attacker), ch.toughness(state, attacker)
        good = [b for b in free if ch.power(state, b) >= a_tough and ch.toughness(state, b) > a_pow]
        trade = [b for b in free if ch.power(state, b) >= a_tough and ch.power(state, b) <= a_pow]
        chump = free if incoming >= life else []
        pick = (good or trade or chump or [None])[0]
        if pick is not None:
            free.remove(pick)
            chosen.append((pick.object, attacker.object))
            incoming -= a_pow
    command = DeclareBlockers(player, tuple(chosen))
    return command if is_legal(state, command) else DeclareBlockers(player, ())


def _discard(state: GameState, decision: Decision) -> Discard:
    """Keep lands while there are few on the battlefield; otherwise shed lands, then the priciest."""
    lands_out = sum(1 for p in state.battlefield if p.controller == decision.player and card(p.card).is_type("Land"))

    def keep_score(name: str) -> tuple[int, str]:
        definition = card(name)
        if definition.is_type("Land"):
            return (10 if lands_out < 5 else -1, name)
        return (10 - definition.mana_cost.mana_value, name)

    hand = sorted(state.players[decision.player].hand, key=keep_score)
    return Discard(decision.player, tuple(hand[: decision.count]))
