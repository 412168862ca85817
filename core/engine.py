"""The engine: applies checked decisions and walks the turn plan until the next decision.

It works on any ``Table`` (the ``Game`` aggregate, or the in-memory ``LocalTable``): it reads
``table.state`` and records facts through ``core.record.emit``. Before a player would receive
priority it checks, in a fixed order, state-based actions, then triggered abilities waiting to go
on the stack, repeating until neither applies (117.5, 704.3, 603.3); a step ends when all players
pass in succession with an empty stack (117.4, 500.2).
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import combat
from mtg_ledger.core import events as ev
from mtg_ledger.core import teams, triggers
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
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
)
from mtg_ledger.core.outcome import Reason
from mtg_ledger.core.record import Table, draw, emit
from mtg_ledger.core.resolve import resolve_top, resume
from mtg_ledger.core.rules import AbilityPlan, CastPlan, StackPlan, check, pending_decision
from mtg_ledger.core.sba import check_game_end, state_based_actions, state_based_checks
from mtg_ledger.core.setup import RULES_EDITION, Shuffles, shuffle_and_draw, started_fields
from mtg_ledger.core.turn import FIRST_STEP, StepSpec, next_player, next_step, spec

__all__ = ["RULES_EDITION", "begin_game", "handle", "apply_decision", "started_fields"]


def begin_game(table: Table, started: dict[str, Any], recorded: Shuffles | None = None) -> None:
    """After GameStarted: shuffles (recorded), opening hands (103.5), then turn 1."""
    shuffle_and_draw(table, started, recorded)
    begin_turn(table)


# --- the turn plan -----------------------------------------------------------------------


def begin_turn(table: Table) -> None:
    s = table.state
    active = s.turn_order[0] if s.active_player is None else next_player(s, s.active_player)  # 805.4
    emit(table, ev.TurnBegan, turn=s.turn + 1, active_player=active, state_hash=s.state_hash())  # 500.1
    team = teams.active_team(s)  # 805.4: the team's turn is each of its players' turn
    ending = [e.id for e in s.effects if e.until == "next_turn" and e.player in team]
    if ending:  # 611.2a: "until your next turn" ends as that turn begins
        emit(table, ev.EffectsEnded, effects=ending, rule="611.2a")
    begin_step(table, next_step(table.state))


def begin_step(table: Table, step: StepSpec | None) -> None:
    if step is None:
        begin_turn(table)
        return
    s = table.state
    if step.step == FIRST_STEP[step.phase] and step.phase == "combat":  # 500.10: a skipped phase doesn't begin
        # 805.10: an effect that makes a player of the active team skip a phase makes the team skip it
        team = teams.active_team(s)
        skip = next((e for e in s.effects if e.kind == "skip_combat" and e.player in team), None)
        if skip is not None:
            emit(table, ev.PhaseSkipped, phase="combat", source=skip.source, player=skip.player, effect=skip.id)
            begin_step(table, next_step(table.state))
            return
    # 510.4: the first of two combat damage steps, when a creature in combat has first or double strike
    first_strike = step.step == "combat_damage" and s.step != "combat_damage" and combat.first_strike_step_needed(s)
    emit(table, ev.StepBegan, turn=s.turn, phase=step.phase, step=step.step, first_strike=first_strike)
    turn_based_actions(table)


def turn_based_actions(table: Table) -> None:
    """The turn-based actions of the current step; stops where a player must decide."""
    s = table.state
    active = s.active_player
    assert active is not None
    step = s.step
    members = teams.live_members(s, teams.active_team(s))  # 805.4: the active team's players
    gone = not members  # 800.4: the turn goes on without its player
    if step == "untap":
        untap_step(table)
    elif step == "draw" and not gone:  # 504.1, 103.8a; 805.4b: each player on the active team
        if s.turn == 1 and s.game_format == "two-player":
            emit(table, ev.DrawSkipped, player=active, rule="103.8a")
        else:
            for member in members:
                draw(table, member)
    elif step == "precombat_main":
        if s.archenemy in members and s.schemes:  # 505.3, 904.9: the archenemy sets a scheme in motion
            emit(table, ev.SchemeSetInMotion, player=s.archenemy, scheme=s.schemes[0])
        # 505.4: lore counters, only in the first main phase (505.1a)
        for saga in [p for p in ch.on_battlefield(s) if p.controller in members and "Saga" in ch.face(p).subtypes]:
            emit(table, ev.LoreCounterAdded, saga=saga.object, count=1, total=saga.counters.get("lore", 0) + 1)
    elif step == "beginning_of_combat" and not gone and combat.must_choose_defender(s):  # 507.1
        opponents = teams.opponents(s, active)
        if len(opponents) != 1:
            return  # the active player chooses
        emit(table, ev.DefendingPlayerChosen, player=opponents[0], chooser=active)
    elif step == "declare_attackers":  # 508.1
        if not any(combat.can_attack(s, p) for p in s.battlefield) or not combat.attackable_players(s):
            emit(table, ev.AttackersDeclared, player=active, attackers=[], tapped=[], costs_paid=[], mana_spent={}, paid_with=[])
        else:
            return  # the active player declares
    elif step == "declare_blockers":  # 509.1: each defending player in APNAP order
        for defender in combat.defenders_to_declare(s):
            if combat.can_block_anything(s, defender):
                return  # that player declares
            emit(table, ev.BlockersDeclared, player=defender, blockers=[])
    elif step == "combat_damage":  # 510.1-510.2, 510.4
        if any(combat.needs_assignment(s, p) for p in ch.on_battlefield(s)):
            return  # the active player divides the damage
        deal_combat_damage(table, combat.combat_assignments(s, {}))
    elif step == "cleanup":  # 514.1: each player of the active team
        if any(ch.cards_to_discard(s, member) for member in members):
            return
        cleanup(table)
        return
    finish_turn_based_actions(table)


def untap_step(table: Table) -> None:
    """502.1 phasing, 502.2 day and night, 502.3 untapping, in that order; no priority (502.4).
    With shared team turns, for every player of the active team (805.4)."""
    s = table.state
    team = teams.active_team(s)
    going = [p.object for p in s.battlefield if p.controller in team and not p.phased_out and "phasing" in ch.face(p).keywords]
    coming = [p.object for p in s.battlefield if p.controller in team and p.phased_out]
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
        untapping = [
            p.object
            for p in s.battlefield
            if p.controller == player and p.tapped and not p.phased_out and not ch.face(p).doesnt_untap
        ]
        if untapping:
            emit(table, ev.PermanentsUntapped, player=player, permanents=untapping)


def transforming(s: Any, to: str) -> list[int]:
    """702.145: as it becomes night daybound permanents transform; as it becomes day, nightbound ones."""
    return [
        p.object
        for p in s.battlefield
        if (to == "night" and not p.transformed and ch.face(p).daybound) or (to == "day" and p.transformed and ch.face(p).nightbound)
    ]


def finish_turn_based_actions(table: Table) -> None:
    """After the turn-based actions: the active player receives priority, or the step ends."""
    s = table.state
    if s.step is not None and spec(s.step).priority:
        give_priority(table, teams.acting(s) or s.active_player or s.turn_order[0])
    else:
        end_step(table)


def end_step(table: Table) -> None:
    s = table.state
    ending = s.step
    emit(table, ev.StepEnded, turn=s.turn, step=ending)  # 500.2
    if ending == "end_of_combat":  # 511.3
        in_combat = [p.object for p in s.battlefield if p.attacking or p.blocking or p.blocked]
        if in_combat:
            emit(table, ev.RemovedFromCombat, permanents=in_combat)
    for name in s.turn_order:  # 500.4
        pool = s.players[name].mana_pool
        if pool:
            emit(table, ev.ManaPoolEmptied, player=name, mana=dict(pool))
    begin_step(table, next_step(table.state))


def cleanup(table: Table) -> None:
    """514.2: damage wears off and "until end of turn" effects end, simultaneously. 514.3a: if
    state-based actions would be performed or abilities have triggered, players receive priority
    (and another cleanup step follows); otherwise the step ends without priority (514.3)."""
    s = table.state
    damaged = [p.object for p in s.battlefield if p.damage]
    ending = [e.id for e in s.effects if e.until == "end_of_turn"]
    emit(table, ev.CleanupPerformed, damage_removed=damaged, effects_ended=ending)
    if s.pending_triggers or any(state_based_checks(s)):
        give_priority(table, teams.acting(s) or s.active_player or s.turn_order[0])
    else:
        end_step(table)


# --- priority, the stack and state-based actions -------------------------------------------


def give_priority(table: Table, player: str) -> None:
    """117.5, 603.3: state-based actions, then waiting triggers onto the stack (each player in APNAP
    order, 603.3b), repeated until neither applies; then ``player`` receives priority."""
    s = table.state
    while True:
        state_based_actions(table)
        if s.ended:
            return
        if not s.pending_triggers:
            break
        for controller in teams.apnap(s):
            mine = [t for t in s.pending_triggers if t.player == controller]
            if not mine:
                continue
            if triggers.needs_choice(s, mine):
                emit(table, ev.TriggerOrderAsked, player=controller, priority_to=player)
                return
            order, targets, removed = triggers.default_stacking(s, mine)
            emit(table, ev.TriggeredAbilitiesStacked, player=controller, objects=order, targets=targets, removed=removed)
    if s.players[player].lost:  # 805.5: the team has priority; it passes on only if none of it is left
        left = teams.live_members(s, teams.team_of(s, player))
        player = left[0] if left else next_player(s, player)
    emit(table, ev.PriorityGiven, player=player)


def deal_combat_damage(table: Table, assignments: list[dict[str, Any]]) -> None:
    """510.2: all assigned combat damage is dealt at once."""
    s = table.state
    strikers = combat.first_strikers(s) if s.first_strike_step else []
    emit(table, ev.CombatDamageDealt, assignments=assignments, first_strike=s.first_strike_step, first_strikers=strikers)


# --- applying a checked decision -----------------------------------------------------------


def handle(table: Table, command: Command) -> None:
    """Check a decision, record it, and run the game to the next decision."""
    plan = check(table.state, command)
    apply_decision(table, command, plan)


def apply_decision(table: Table, command: Command, plan: Any) -> None:
    s = table.state
    if isinstance(command, PassPriority):
        emit(table, ev.PriorityPassed, player=command.player)
        _after_pass(table, command.player)
    elif isinstance(command, PlayLand):
        emit(table, ev.LandPlayed, player=command.player, card=command.card, object=s.next_object)
        give_priority(table, command.player)  # 117.3c
    elif isinstance(command, CastSpell):
        assert isinstance(plan, CastPlan)
        _tap(table, plan.player, plan.taps)  # 601.2g
        emit(
            table,
            ev.SpellCast,
            player=plan.player,
            card=plan.card,
            object=s.next_object,
            targets=plan.targets,
            mana_spent=plan.mana_spent,
            paid_with=[t[0] for t in plan.taps],
        )
        give_priority(table, plan.player)  # 117.3c
    elif isinstance(command, ActivateAbility):
        if isinstance(plan, AbilityPlan):  # 602.2: on the stack
            _tap(table, plan.player, plan.taps)
            emit(
                table,
                ev.AbilityActivated,
                player=plan.player,
                source=plan.source,
                card=plan.card,
                ability=plan.ability,
                object=s.next_object,
                targets=[],
                mana_spent=plan.mana_spent,
                paid_with=[t[0] for t in plan.taps],
            )
            give_priority(table, plan.player)  # 117.3c
        else:  # 605.3a: a mana ability, no stack
            obj, name, color = plan
            emit(table, ev.ManaAbilityActivated, player=command.player, source=obj, card=name, mana=color)
    elif isinstance(command, OrderTriggers):
        assert isinstance(plan, StackPlan) and s.ordering is not None
        receiver = s.ordering["priority_to"]
        emit(table, ev.TriggeredAbilitiesStacked, player=plan.player, objects=plan.order, targets=plan.targets, removed=plan.removed)
        give_priority(table, receiver)
    elif isinstance(command, ChooseDefender):
        emit(table, ev.DefendingPlayerChosen, player=command.defender, chooser=command.player)
        finish_turn_based_actions(table)
    elif isinstance(command, DeclareAttackers):
        assert isinstance(plan, combat.AttackPlan)
        _tap(table, plan.player, plan.taps)  # 508.1h
        emit(
            table,
            ev.AttackersDeclared,
            player=plan.player,
            attackers=plan.attackers,
            tapped=plan.tapped,
            costs_paid=plan.costs,
            mana_spent=plan.mana_spent,
            paid_with=[t[0] for t in plan.taps],
        )
        finish_turn_based_actions(table)  # 508.2
    elif isinstance(command, DeclareBlockers):
        assert isinstance(plan, combat.BlockPlan)
        emit(table, ev.BlockersDeclared, player=plan.player, blockers=plan.blockers)
        turn_based_actions(table)  # the next defending player, or 509.2
    elif isinstance(command, AssignDamage):
        deal_combat_damage(table, plan)
        finish_turn_based_actions(table)
    elif isinstance(command, Discard):
        if s.paused is not None:  # 608.2d: a resolving ability asked for it
            if resume(table, list(command.cards)):
                give_priority(table, teams.acting(s) or command.player)
        else:  # 514.1
            limit = ch.max_hand_size(s, command.player)
            emit(table, ev.CardsDiscarded, player=command.player, cards=list(command.cards), max_hand_size=limit, rule="514.1")
            turn_based_actions(table)  # a teammate's discard (805.6), or 514.2
    elif isinstance(command, Concede):
        _concede(table, command.player)


def _tap(table: Table, player: str, taps: list[tuple[int, str, str]]) -> None:
    for obj, name, color in taps:
        emit(table, ev.ManaAbilityActivated, player=player, source=obj, card=name, mana=color)


def _after_pass(table: Table, player: str) -> None:
    """117.4: all players passed in succession: resolve the top object, or end the step."""
    s = table.state
    if teams.all_passed(s):
        if s.stack:
            if resolve_top(table):
                give_priority(table, teams.acting(s) or s.live_players()[0])  # 117.3b
        else:
            end_step(table)
    else:
        give_priority(table, next_player(s, player))  # 117.3d


def _concede(table: Table, player: str) -> None:
    """104.3a: a player may concede at any time; they leave the game (800.4a). If the game goes on
    and was waiting for them, it moves on without them: priority passes on (or, when everyone
    left has passed, the top object resolves or the step ends); a declaration or choice that was
    theirs to make is no longer asked for."""
    s = table.state
    waiting = pending_decision(s)
    ordering, paused = s.ordering, s.paused
    emit(table, ev.PlayerLost, player=player, reason=f"{player} conceded", rule="104.3a")
    if check_game_end(table, Reason.CONCESSION) or waiting is None or waiting.player != player:
        return
    if waiting.kind == "priority":
        _after_pass(table, player)
    elif ordering is not None:  # their triggers left with them; priority goes where it was going
        give_priority(table, ordering["priority_to"])
    elif paused is not None:  # the object that waited for their choice left the stack with them
        give_priority(table, teams.acting(s) or next_player(s, player))
    else:
        turn_based_actions(table)
