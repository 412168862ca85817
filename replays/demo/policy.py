"""A simple deterministic policy for the demo: lands, then the biggest spell it can cast, attacks and
blocks that win fights (first strike, flying, reach and trample considered), removal and combat tricks
at sensible moments. Every choice goes through the same checks as a player's (core.rules), so the
policy can never make the engine do something illegal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import attack_targets, combat, teams, triggers

from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CastSpell,
    CastTransformed,
    ChooseDefender,
    ChooseProtector,
    Command,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
)
from mtg_ledger.core.decision import Decision, DecisionKind, pending_decision
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.rules import is_legal
from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.turn import MAIN_STEPS


def choose(state: GameState) -> Command | None:
    """The policy's decision for whatever the game is waiting for (None when it waits for nothing)."""
    decision = pending_decision(state)
    return None if decision is None else PLAYS[decision.kind](state, decision)


def _order(state: GameState, player: str) -> OrderTriggers:
    """In the order they triggered; a +1/+1 counter goes on our best creature that can attack, damage to any
    target on the weakest opponent."""
    mine = [t for t in state.pending_triggers if t.player == player]
    chosen: list[tuple[Any, ...] | None] = []
    for t in mine:
        options = triggers.legal_targets(state, triggers.ability(state, t).target, player)
        if not options:
            chosen.append(None)
            continue
        players = [o for o in options if isinstance(o, str)]
        if players and len(players) < len(options):  # any target: the weakest opponent
            best = min((p for p in players if p != player), key=lambda p: (state.players[p].life, state.turn_order.index(p)), default=players[0])
        elif isinstance(options[0], int):
            best = max(options, key=lambda o: (combat.can_attack(state, ch.find_permanent(state, o)), ch.power(state, ch.find_permanent(state, o)), -o))
        else:
            best = min(options, key=lambda p: (state.players[p].life, state.turn_order.index(p)))
        chosen.append((best,))
    return OrderTriggers(player, tuple(t.object for t in mine), tuple(chosen))


# --- fights ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    power: int
    toughness: int  # left, after damage already marked
    first: bool  # first or double strike
    double: bool

    @classmethod
    def of(cls, state: GameState, perm: Permanent, power: int = 0, toughness: int = 0, first: bool = False) -> Fighter:
        return cls(
            ch.power(state, perm) + power,
            ch.toughness(state, perm) - perm.damage + toughness,
            first or any(ch.has_keyword(state, perm, k) for k in combat.FIRST_STRIKE),
            ch.has_keyword(state, perm, "double strike"),
        )


def fight(a: Fighter, b: Fighter) -> tuple[bool, bool]:
    """Whether each dies when the two deal combat damage to each other (510.4's two steps)."""
    to_a = to_b = 0
    if a.first or b.first:
        to_b += a.power if a.first else 0
        to_a += b.power if b.first else 0
    a_alive, b_alive = to_a < a.toughness, to_b < b.toughness
    if a_alive and (not a.first or a.double):
        to_b += a.power
    if b_alive and (not b.first or b.double):
        to_a += b.power
    return to_a >= a.toughness, to_b >= b.toughness


# --- priority -------------------------------------------------------------------------------


def _opponents(state: GameState, player: str) -> list[str]:
    return teams.opponents(state, player)


def _weakest_opponent(state: GameState, player: str) -> str:
    return min(_opponents(state, player), key=lambda f: (_taxed(state, f), state.players[f].life, state.turn_order.index(f)))


def _strongest_opponent(state: GameState, player: str) -> str:
    """310.11a: the Siege's protector: the opponent with the most life (the first in turn order of equals),
    so that the others, who may attack it, are the weaker."""
    return min(teams.opponents(state, player), key=lambda f: (-state.players[f].life, state.turn_order.index(f)))


def _taxed(state: GameState, defender: str) -> int:
    return sum(ch.face(state, p).attack_tax for p in ch.on_battlefield(state) if p.controller == defender)


def _creatures(state: GameState, player: str) -> list[Permanent]:
    return [p for p in ch.on_battlefield(state) if p.controller == player and ch.is_creature(state, p)]


def _priority(state: GameState, player: str) -> Command:
    """What the player (or, with shared team turns, a teammate: 805.5a) wants to do; else pass."""
    for member in [player, *(m for m in teams.live_members(state, teams.team_of(state, player)) if m != player)]:
        for command in _wanted_actions(state, member):
            if is_legal(state, command):
                return command
    return PassPriority(player)


def _wanted_actions(state: GameState, player: str) -> list[Command]:
    hand = state.players[player].hand
    wanted: list[Command] = []
    foes = _opponents(state, player)
    for foe in foes:  # Lightning Bolt to the face when it is lethal, at any time
        if state.players[foe].life <= 3 and "Lightning Bolt" in hand:
            wanted.append(CastSpell(player, "Lightning Bolt", targets=(foe,)))
    own_main = teams.is_active(state, player) and state.step in MAIN_STEPS and not state.stack
    if teams.is_active(state, player) and state.step == "upkeep":  # Colossus of Sardia and its like
        for perm in _creatures(state, player):
            face = ch.face(state, perm)
            if perm.tapped and face.activated:
                wanted.append(ActivateAbility(player, perm.object, len(face.mana_abilities)))
    if "Moment of Silence" in hand and not teams.is_active(state, player) and state.step == "beginning_of_combat":
        active = state.active_player
        if active is not None and any(combat.can_attack(state, c) for c in _creatures(state, active)):
            wanted.append(CastSpell(player, "Moment of Silence", targets=(active,)))
    if own_main:
        lands = sorted({c for c in hand if state.cards.card(c).is_type("Land")}, key=lambda c: (-_land_need(state, player, c), c))
        wanted.extend(PlayLand(player, c) for c in lands)
        spells = sorted(
            {c for c in hand if not state.cards.card(c).is_type("Land") and state.cards.card(c).sorcery_speed and _worth_casting(state, c)},
            key=lambda c: (-state.cards.card(c).mana_cost.mana_value, c),
        )
        wanted.extend(CastSpell(player, c) for c in spells)
        wanted.extend(_loyalty_activations(state, player))
    if "Lightning Bolt" in hand and not state.stack:
        victim = _bolt_victim(state, foes)
        if victim is not None and (own_main or state.step in ("declare_attackers", "declare_blockers")):
            wanted.append(CastSpell(player, "Lightning Bolt", targets=(victim.object,)))
    if state.step == "declare_blockers" and not state.stack:
        for trick, power, toughness, first in (("Kindled Fury", 1, 0, True), ("Giant Growth", 3, 3, False)):
            if trick in hand:
                saved = _trick_target(state, player, power, toughness, first)
                if saved is not None:
                    wanted.append(CastSpell(player, trick, targets=(saved.object,)))
    return wanted


def _loyalty_activations(state: GameState, player: str) -> list[Command]:
    """One loyalty ability of each of the player's planeswalkers (606.3): the costliest minus it survives,
    else its largest plus; its targets the first the legal actions offer."""
    found: list[Command] = []
    for perm in ch.on_battlefield(state):
        face = ch.face(state, perm) if perm.controller == player else None
        loyal = [] if face is None else [(i, a.loyalty) for i, a in enumerate(face.activated) if a.loyalty is not None]
        if face is None or not loyal:
            continue
        have = perm.counters.get("loyalty", 0)
        ranked = sorted(loyal, key=lambda ia: (0 if 0 > ia[1] > -have else 1 if ia[1] >= 0 else 2, -abs(ia[1])))
        offered = [c for c in legal_actions(state) if isinstance(c, ActivateAbility) and c.source == perm.object]
        for i, _ in ranked:
            chosen = next((c for c in offered if c.ability == len(face.mana_abilities) + i), None)
            if chosen is not None:
                found.append(chosen)
                break
    return found


def _worth_casting(state: GameState, name: str) -> bool:
    """Relentless Assault only after creatures attacked this turn."""
    if name == "Relentless Assault":
        return state.step == "postcombat_main" and bool(state.attacked_this_turn)
    return True


def _land_need(state: GameState, player: str, land: str) -> int:
    """How many spells in hand want the color this land makes and that the player lacks."""
    colors = set(state.cards.card(land).mana_abilities[0].colors)
    have = {c for _, _, c in ch.mana_sources(state, player)}
    if colors <= have:
        return 0
    return sum(1 for c in state.players[player].hand if any(col in colors - have for col, _ in state.cards.card(c).mana_cost.colored))


def _bolt_victim(state: GameState, foes: list[str]) -> Permanent | None:
    killable = [
        p
        for foe in foes
        for p in _creatures(state, foe)
        if ch.toughness(state, p) - p.damage <= 3 and ch.power(state, p) >= 2
    ]
    return max(killable, key=lambda p: (ch.power(state, p), -p.object), default=None)


def _trick_target(state: GameState, player: str, power: int, toughness: int, first: bool) -> Permanent | None:
    """A creature of ours in a one-on-one fight that the trick turns from a loss into a win."""
    for perm in _creatures(state, player):
        enemies = [e for e in (state.permanent(o) for o in (perm.blocked_by or perm.blocking)) if e is not None]
        if len(enemies) != 1:
            continue
        mine_dies, theirs_dies = fight(Fighter.of(state, perm), Fighter.of(state, enemies[0]))
        after = fight(Fighter.of(state, perm, power, toughness, first), Fighter.of(state, enemies[0]))
        if (mine_dies or not theirs_dies) and after == (False, True):
            return perm
    return None


# --- combat ---------------------------------------------------------------------------------


def _attack(state: GameState, player: str) -> DeclareAttackers:
    targets = attack_targets.attackable_players(state)
    target = min(targets, key=lambda f: (_taxed(state, f), state.players[f].life, state.turn_order.index(f)))
    ready = sorted(
        (c for member in teams.team_of(state, player) for c in _creatures(state, member) if combat.can_attack(state, c)),
        key=lambda c: (-ch.power(state, c), c.object),
    )
    defenders = [b for b in _creatures(state, target) if not b.tapped]
    total = sum(ch.power(state, c) for c in ready)
    lethal = total >= state.players[target].life + sum(ch.toughness(state, b) for b in defenders)
    chosen = []
    for c in ready:
        blockers = [b for b in defenders if _could_block(state, b, c)]
        bad_block = any(fight(Fighter.of(state, c), Fighter.of(state, b)) == (True, False) for b in blockers)
        if lethal or not bad_block:
            chosen.append(c.object)
    named = target if len(targets) > 1 else None
    while chosen:  # attack costs (Ghostly Prison, 508.1h): drop the weakest until it can be paid
        command = DeclareAttackers(player, tuple((o, named) for o in chosen))
        if is_legal(state, command):
            return command
        chosen.pop()
    return DeclareAttackers(player, ())


def _could_block(state: GameState, blocker: Permanent, attacker: Permanent) -> bool:
    if ch.has_keyword(state, attacker, "flying"):
        return ch.has_keyword(state, blocker, "flying") or ch.has_keyword(state, blocker, "reach")
    return True


def _block(state: GameState, player: str) -> DeclareBlockers:
    """For the player's whole team, which blocks as one (805.8)."""
    team = teams.team_of(state, player)
    attackers = sorted(
        (p for p in ch.on_battlefield(state) if p.attacking in team), key=lambda p: (-ch.power(state, p), p.object)
    )
    free = [b for member in team for b in _creatures(state, member) if not b.tapped]
    incoming = sum(ch.power(state, a) for a in attackers)
    life = min(state.players[member].life for member in team)
    chosen: list[tuple[int, int]] = []
    for attacker in attackers:
        able = [b for b in free if combat.block_restriction(state, b, attacker) is None]
        outcomes = {b.object: fight(Fighter.of(state, attacker), Fighter.of(state, b)) for b in able}
        good = [b for b in able if outcomes[b.object] == (True, False)]
        safe = [b for b in able if not outcomes[b.object][1]]
        trade = [b for b in able if outcomes[b.object] == (True, True) and ch.power(state, b) <= ch.power(state, attacker)]
        chump = able if incoming >= life else []
        pick = next(iter(good or safe or trade or chump), None)
        if pick is not None:
            free.remove(pick)
            chosen.append((pick.object, attacker.object))
            incoming -= ch.power(state, attacker)
    command = DeclareBlockers(player, tuple(chosen))
    return command if is_legal(state, command) else DeclareBlockers(player, ())


def _discard(state: GameState, decision: Decision) -> Discard:  # 514.1, and discards on resolution
    """Keep lands while there are few on the battlefield; otherwise shed lands, then the priciest."""
    lands_out = sum(1 for p in state.battlefield if p.controller == decision.player and ch.face(state, p).is_type("Land"))

    def keep_score(name: str) -> tuple[int, str]:
        definition = state.cards.card(name)
        if definition.is_type("Land"):
            return (10 if lands_out < 5 else -1, name)
        return (10 - definition.mana_cost.mana_value, name)

    hand = sorted(state.players[decision.player].hand, key=keep_score)
    return Discard(decision.player, tuple(hand[: decision.count]))


# One play per kind of decision the command table's entries answer (core.command_table, ``answers``;
# tests/rules/test_command_table.py keeps them in step). Keyed by the decision rather than the command type:
# priority is answered by four command types at once (pass, play a land, cast, activate), and choosing
# among them is the policy's whole work there.
PLAYS: dict[DecisionKind, Callable[[GameState, Decision], Command]] = {
    DecisionKind.PRIORITY: lambda state, decision: _priority(state, decision.player),
    DecisionKind.ORDER_TRIGGERS: lambda state, decision: _order(state, decision.player),
    DecisionKind.CHOOSE_DEFENDER: lambda state, decision: ChooseDefender(decision.player, _weakest_opponent(state, decision.player)),
    DecisionKind.DECLARE_ATTACKERS: lambda state, decision: _attack(state, decision.player),
    DecisionKind.DECLARE_BLOCKERS: lambda state, decision: _block(state, decision.player),
    DecisionKind.ASSIGN_DAMAGE: lambda state, decision: AssignDamage(decision.player, ()),  # the default division: lethal damage in order
    DecisionKind.DISCARD: _discard,
    DecisionKind.CAST_TRANSFORMED: lambda state, decision: CastTransformed(decision.player, True),  # 310.11b: a free spell, always cast
    DecisionKind.CHOOSE_PROTECTOR: lambda state, decision: ChooseProtector(decision.player, _strongest_opponent(state, decision.player)),
}
