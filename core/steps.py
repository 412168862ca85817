"""What the turn plan's actions and conditions (``core.turn.Action``, ``core.turn.Condition``) stand
for: each step's turn-based actions (502-514, 703.4) and the conditions its rows test.

A turn-based action takes the table and returns True when it is done, False when it stopped where a
player must decide (a declaration, a choice, a discard); the engine's loop runs it again, or goes on,
once the decision is taken. Like the rest of the engine, actions only record facts through ``emit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import attack_targets, combat, teams
from mtg_ledger.core import events as ev
from mtg_ledger.core.record import Table, draw, emit, gain_life
from mtg_ledger.core.sba import state_based_checks
from mtg_ledger.core.state import GameState
from mtg_ledger.core.tapped import tapped
from mtg_ledger.core.turn import Action, Condition, Step

TurnBasedAction = Callable[[Table], bool]
Test = Callable[[GameState], bool]


def untap(table: Table) -> bool:
    """502.1 phasing, 502.2 day and night, 502.3 untapping, in that order; no priority (502.4).
    With shared team turns, for every player of the active team (805.4)."""
    s = table.state
    team = teams.active_team(s)
    phasers = s.cards.phasing  # the game's cards with phasing: none, most often
    going = [p.object for p in s.battlefield if p.card in phasers and p.controller in team and not p.phased_out and "phasing" in ch.face(s, p).keywords] if phasers else []
    # only a permanent with phasing phases out (``going``, 702.26a): a game of no such card has none to phase in
    coming = [p.object for p in s.battlefield if p.phased_out and p.controller in team] if phasers else []
    if going or coming:
        emit(table, ev.PermanentsPhased, phased_in=coming, phased_out=going)
    to = None
    if s.day_night == "day" and s.spells_cast_last_turn == 0:
        to = "night"  # 726.3a
    elif s.day_night == "night" and s.spells_cast_last_turn >= 2:
        to = "day"  # 726.3b
    if to is not None:
        emit(table, ev.DayNightChanged, to=to, rule="502.2", transformed=transforming(s, to))
    for player in team:  # 502.3, 805.4: each player of the active team untaps their permanents
        untapping = [p.object for p in tapped(s) if p.controller == player and not p.phased_out and not ch.face(s, p).doesnt_untap]
        if untapping:
            emit(table, ev.PermanentsUntapped, player=player, permanents=untapping)
    return True


def transforming(s: GameState, to: str) -> list[int]:
    """702.145: as it becomes night daybound permanents transform; as it becomes day, nightbound ones."""
    return [
        p.object
        for p in s.battlefield
        if (to == "night" and not p.transformed and ch.face(s, p).daybound) or (to == "day" and p.transformed and ch.face(s, p).nightbound)
    ]


def _members(s: GameState) -> list[str]:
    """805.4: the active team's players still in the game (none: 800.4, the turn goes on without them)."""
    return teams.live_members(s, teams.active_team(s))


def draw_step(table: Table) -> bool:
    """504.1: the active player draws; 103.8a: not on the first turn of a two-player game; 805.4b:
    each player of the active team."""
    s = table.state
    members = _members(s)
    if members:
        if s.turn == 1 and s.game_format == "two-player":
            emit(table, ev.DrawSkipped, player=s.active_player, rule="103.8a")
        else:
            for member in members:
                draw(table, member)
    return True


def precombat_main(table: Table) -> bool:
    """505.3, 904.9: the archenemy sets a scheme in motion; 505.4: lore counters on the active
    team's Sagas, only in the first main phase (505.1a)."""
    s = table.state
    members = _members(s)
    if s.archenemy in members and s.schemes:
        emit(table, ev.SchemeSetInMotion, player=s.archenemy, scheme=s.schemes[0])
    for saga in [p for p in ch.watched(s) if not p.phased_out and p.controller in members and "Saga" in ch.face(s, p).subtypes]:  # a Saga is watched
        emit(table, ev.LoreCounterAdded, saga=saga.object, count=1, total=saga.counters.get("lore", 0) + 1)
    return True


def choose_defender(table: Table) -> bool:
    """507.1: in the single-defender format the active player chooses the defending player; with
    one opponent left there is nothing to choose."""
    s = table.state
    if not _members(s) or not combat.must_choose_defender(s):
        return True
    active = s.active_player
    assert active is not None
    opponents = teams.opponents(s, active)
    if len(opponents) != 1:
        return False  # the active player chooses
    emit(table, ev.DefendingPlayerChosen, player=opponents[0], chooser=active)
    return True


def declare_attackers(table: Table) -> bool:
    """508.1: the active player declares attackers; with no creature able to attack, or nobody to
    attack, the declaration is empty."""
    s = table.state
    if any(combat.can_attack(s, p) for p in ch.watched(s)) and attack_targets.attackable_players(s):  # a creature is watched
        return False  # the active player declares
    emit(table, ev.AttackersDeclared, player=s.active_player, attackers=[], tapped=[], costs_paid=[], mana_spent={}, paid_with=[])
    return True


def declare_blockers(table: Table) -> bool:
    """509.1: each defending player in APNAP order; one who can block nothing declares no blockers."""
    s = table.state
    for defender in combat.defenders_to_declare(s):
        if combat.can_block_anything(s, defender):
            return False  # that player declares
        emit(table, ev.BlockersDeclared, player=defender, blockers=[])
    return True


def combat_damage(table: Table) -> bool:
    """510.1-510.2: the active player divides damage where there is a choice; otherwise it is dealt."""
    s = table.state
    if any(combat.needs_assignment(s, p) for p in ch.on_battlefield(s)):
        return False  # the active player divides the damage
    deal_combat_damage(table, combat.combat_assignments(s, {}))
    return True


def deal_combat_damage(table: Table, assignments: list[dict[str, Any]]) -> None:
    """510.2: all assigned combat damage is dealt at once."""
    s = table.state
    strikers = combat.first_strikers(s) if s.first_strike_step else []
    gains = combat.lifelink_gains(s, assignments)
    emit(table, ev.CombatDamageDealt, assignments=assignments, first_strike=s.first_strike_step, first_strikers=strikers)
    for source, player, amount in gains:  # 702.15b: at the same time as the damage, before anything else looks
        gain_life(table, player, amount, source)  # 119.7


def cleanup(table: Table) -> bool:
    """514.1: each player of the active team discards down to their maximum hand size (805.6); then
    514.2: damage wears off and "until end of turn" effects end, simultaneously."""
    s = table.state
    if any(ch.cards_to_discard(s, member) for member in _members(s)):
        return False
    damaged = [p.object for p in ch.watched(s) if p.damage]  # 120.3e: marked on creatures only, and a creature is watched
    ending = [e.id for e in s.effects if e.until == "end_of_turn"]
    emit(table, ev.CleanupPerformed, damage_removed=damaged, effects_ended=ending)
    return True


def remove_from_combat(table: Table) -> bool:
    """511.3: as the end of combat step ends, creatures are removed from combat."""
    s = table.state
    # 508.1a, 509.1a, 506.3: only creatures attack, block or are blocked, and a creature is watched
    in_combat = [p.object for p in ch.watched(s) if p.attacking or p.blocking or p.blocked]
    if in_combat:
        emit(table, ev.RemovedFromCombat, permanents=in_combat)
    return True


ACTIONS: dict[Action, TurnBasedAction] = {
    Action.UNTAP: untap,
    Action.DRAW: draw_step,
    Action.PRECOMBAT_MAIN: precombat_main,
    Action.CHOOSE_DEFENDER: choose_defender,
    Action.DECLARE_ATTACKERS: declare_attackers,
    Action.DECLARE_BLOCKERS: declare_blockers,
    Action.COMBAT_DAMAGE: combat_damage,
    Action.CLEANUP: cleanup,
    Action.REMOVE_FROM_COMBAT: remove_from_combat,
}

CONDITIONS: dict[Condition, Test] = {
    # 508.8: only when no creature was declared as an attacker; an attacker removed since still
    # leaves the declare blockers and combat damage steps to happen.
    Condition.NO_ATTACKERS_DECLARED: lambda s: not s.declared_attackers,
    # 510.4: the step that began as the first of two combat damage steps is followed by the second
    Condition.IN_FIRST_STRIKE_STEP: lambda s: s.first_strike_step,
    # 510.4: as a combat damage step begins (not the second one), a creature in combat has first or double strike
    Condition.FIRST_STRIKE_STEP_BEGINS: lambda s: s.step != Step.COMBAT_DAMAGE and combat.first_strike_step_needed(s),
    # 514.3a: state-based actions would be performed, or abilities have triggered: players receive priority
    Condition.ACTIONS_OR_TRIGGERS_WAITING: lambda s: bool(s.pending_triggers) or any(state_based_checks(s)),
    # 514.3a: a cleanup step in which players received priority is followed by another
    Condition.PRIORITY_WAS_GIVEN: lambda s: s.priority_given_this_step,
}
