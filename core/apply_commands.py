"""Applying checked decisions (each command table entry's ``apply``): each records what was decided (its plan, from ``rules.check``) and
names the move the engine's loop resumes with. Below each, how the decision is read back from the
event that records it (a replay feeds the engine only the recorded decisions)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import combat, steps, teams
from mtg_ledger.core import events as ev
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
    passing,
)
from mtg_ledger.core.decision import Decision, DecisionKind, pending_decision
from mtg_ledger.core.entering import entered
from mtg_ledger.core.moves import PRIORITY_OR_END, TURN_BASED_ACTIONS, Next, passed_by, priority_to
from mtg_ledger.core.outcome import Reason
from mtg_ledger.core.plans import AbilityPlan, CastPlan, ConcedePlan, DiscardPlan, LandPlan, ManaAbilityPlan, PassPlan, StackPlan
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.resolve import go_on_without, resume
from mtg_ledger.core.sba import check_game_end
from mtg_ledger.core.state import GameState

Map = dict[str, Any]  # an event's contract map


def _tap(table: Table, player: str, taps: list[tuple[int, str, str]]) -> None:
    for obj, name, color in taps:
        emit(table, ev.ManaAbilityActivated, player=player, source=obj, card=name, mana=color)


def apply_pass(table: Table, command: PassPriority, checked: PassPlan) -> Next:
    emit(table, ev.PriorityPassed, player=checked.player)
    return passed_by(checked.player)


def priority_passed(e: Map, decision: Decision, state: GameState) -> PassPriority:
    return passing(e["player"])


def apply_land(table: Table, command: PlayLand, checked: LandPlan) -> Next:
    obj = table.state.next_object
    emit(table, ev.LandPlayed, player=checked.player, card=checked.card, object=obj)
    entered(table, obj, table.state.cards.card(checked.card), checked.player)  # 305.1: it enters as a permanent does: tapped, if it says so (614.1c)
    return priority_to(checked.player)  # 117.3c


def land_played(e: Map, decision: Decision, state: GameState) -> PlayLand:
    return PlayLand(e["player"], e["card"])


def apply_cast(table: Table, command: CastSpell, checked: CastPlan) -> Next:
    _tap(table, checked.player, checked.taps)  # 601.2g
    emit(
        table,
        ev.SpellCast,
        player=checked.player,
        card=checked.card,
        object=table.state.next_object,
        targets=checked.targets,
        mana_spent=checked.mana_spent,
        paid_with=[t[0] for t in checked.taps],
    )
    return priority_to(checked.player)  # 117.3c


def spell_cast(e: Map, decision: Decision, state: GameState) -> CastSpell:
    return CastSpell(e["player"], e["card"], targets=tuple(e["targets"]), pay=tuple(e["paid_with"]))


def apply_activation(table: Table, command: ActivateAbility, checked: ManaAbilityPlan | AbilityPlan) -> Next | None:
    if isinstance(checked, AbilityPlan):  # 602.2: on the stack
        _tap(table, checked.player, checked.taps)
        ability = table.state.next_object
        emit(
            table,
            ev.AbilityActivated,
            player=checked.player,
            source=checked.source,
            card=checked.card,
            ability=checked.ability,
            object=table.state.next_object,
            targets=checked.targets,
            mana_spent=checked.mana_spent,
            paid_with=[t[0] for t in checked.taps],
        )
        _pay_other_costs(table, checked)
        if checked.discard and not _discard_cost(table, checked, ability):
            return None  # 601.2h: the player chooses the cards (``apply_discard``)
        return priority_to(checked.player)  # 117.3c
    # 605.3a: a mana ability, no stack; the player keeps priority
    emit(table, ev.ManaAbilityActivated, player=checked.player, source=checked.source, card=checked.card, mana=checked.mana)
    return None


def _pay_other_costs(table: Table, checked: AbilityPlan) -> None:
    """602.2h: with the ability on the stack, the costs other than mana: loyalty (606.4), tapping the
    source (107.5), paying life (119.4: its controller loses it), sacrificing it (701.21). Recorded after the
    event of the decision, which a replay reads it from."""
    if checked.loyalty is not None:
        emit(table, ev.LoyaltyCostPaid, object=checked.source, change=checked.loyalty, turn=table.state.turn)
    if checked.tap:  # 107.5
        emit(table, ev.PermanentsTapped, permanents=[checked.source], rule="107.5")
    if checked.life:  # 119.4
        emit(table, ev.LifeLost, player=checked.player, amount=checked.life, source=checked.source)
    source = table.state.permanent(checked.source)
    if checked.sacrifice and source is not None:
        gone = [{"object": source.object, "card": source.card, "owner": source.owner}]
        emit(table, ev.PermanentsPutIntoGraveyard, permanents=gone, rule="701.21")


def _discard_cost(table: Table, checked: AbilityPlan, ability: int) -> bool:
    """602.2b, 601.2h: the cards the cost discards, paid last: without a real choice (the whole hand, or
    identical cards) they are discarded; otherwise the ability waits for its controller to choose them.
    False while it waits."""
    hand = table.state.players[checked.player].hand
    if len(hand) > checked.discard and len(set(hand)) > 1:
        emit(table, ev.ActivationPaused, object=ability, player=checked.player, choice="discard", count=checked.discard)
        return False
    emit(table, ev.CardsDiscarded, player=checked.player, cards=hand[: checked.discard], max_hand_size=None, rule="601.2h")
    return True


def ability_activated(e: Map, decision: Decision, state: GameState) -> ActivateAbility:
    return ActivateAbility(e["player"], e["source"], e["ability"], tuple(e["targets"]))


def mana_ability_activated(e: Map, decision: Decision, state: GameState) -> ActivateAbility:
    """605.3a: a mana ability activated on its own (one activated to pay for a spell, an ability or an
    attack is part of that decision, 601.2g). The colour it added is the one chosen where it had a choice (106.1)."""
    source = state.permanent(e["source"])
    choice = source is not None and len(ch.face(state, source).mana_abilities[0].colors) > 1
    return ActivateAbility(e["player"], e["source"], 0, mana=e["mana"] if choice else None)


def apply_order(table: Table, command: OrderTriggers, checked: StackPlan) -> Next:
    assert table.state.ordering is not None
    receiver = table.state.ordering["priority_to"]
    emit(table, ev.TriggeredAbilitiesStacked, player=checked.player, objects=checked.order, targets=checked.targets, removed=checked.removed)
    return priority_to(receiver)


def triggers_stacked(e: Map, decision: Decision, state: GameState) -> OrderTriggers:
    order = [*e["objects"], *e["removed"]]
    targets = tuple(tuple(e["targets"][str(o)]) if str(o) in e["targets"] else None for o in order)
    return OrderTriggers(e["player"], tuple(order), targets)


def apply_defender(table: Table, command: ChooseDefender, checked: combat.DefenderPlan) -> Next:
    emit(table, ev.DefendingPlayerChosen, player=checked.defender, chooser=checked.chooser)
    return PRIORITY_OR_END


def defender_chosen(e: Map, decision: Decision, state: GameState) -> ChooseDefender:
    return ChooseDefender(e["chooser"], e["player"])


def apply_attackers(table: Table, command: DeclareAttackers, checked: combat.AttackPlan) -> Next:
    _tap(table, checked.player, checked.taps)  # 508.1h
    emit(
        table,
        ev.AttackersDeclared,
        player=checked.player,
        attackers=checked.attackers,
        tapped=checked.tapped,
        costs_paid=checked.costs,
        mana_spent=checked.mana_spent,
        paid_with=[t[0] for t in checked.taps],
    )
    return PRIORITY_OR_END  # 508.2


def attackers_declared(e: Map, decision: Decision, state: GameState) -> DeclareAttackers:
    # an attacker of a planeswalker or battle names it (schema 5, 506.3); others the player they attack
    return DeclareAttackers(e["player"], tuple((a["object"], a.get("attacked", a["defender"])) for a in e["attackers"]), pay=tuple(e["paid_with"]))


def apply_blockers(table: Table, command: DeclareBlockers, checked: combat.BlockPlan) -> Next:
    emit(table, ev.BlockersDeclared, player=checked.player, blockers=checked.blockers)
    return TURN_BASED_ACTIONS  # the next defending player, or 509.2


def blockers_declared(e: Map, decision: Decision, state: GameState) -> DeclareBlockers:
    return DeclareBlockers(e["player"], tuple((b["object"], b["attacker"]) for b in e["blockers"]))


def apply_damage(table: Table, command: AssignDamage, checked: combat.DamagePlan) -> Next:
    steps.deal_combat_damage(table, checked.assignments)
    return PRIORITY_OR_END


def damage_dealt(e: Map, decision: Decision, state: GameState) -> AssignDamage | None:
    """Combat damage is the player's decision only where the rules asked for one (510.1c-d)."""
    if decision.kind != DecisionKind.ASSIGN_DAMAGE:
        return None
    attackers: dict[int, list[tuple[Any, int]]] = {}
    for a in e["assignments"]:
        source = state.permanent(a["source"])
        if source is not None and source.attacking:
            attackers.setdefault(a["source"], []).append((a["target"], a["amount"]))
    return AssignDamage(decision.player, tuple((obj, tuple(parts)) for obj, parts in attackers.items()))


def apply_discard(table: Table, command: Discard, checked: DiscardPlan) -> Next | None:
    s = table.state
    if s.paused is not None and s.paused.get("rule") == "601.2h":  # the cards an activated ability's cost discards
        emit(table, ev.CardsDiscarded, player=checked.player, cards=list(checked.cards), max_hand_size=None, rule="601.2h")
        return priority_to(checked.player)  # 117.3c
    if s.paused is not None:  # 608.2d: a resolving ability asked for it
        return priority_to(teams.acting(s) or checked.player) if resume(table, list(checked.cards)) else None
    limit = ch.max_hand_size(s, checked.player)  # 514.1
    emit(table, ev.CardsDiscarded, player=checked.player, cards=list(checked.cards), max_hand_size=limit, rule="514.1")
    return TURN_BASED_ACTIONS  # a teammate's discard (805.6), or 514.2


def cards_discarded(e: Map, decision: Decision, state: GameState) -> Discard:
    return Discard(e["player"], tuple(e["cards"]))


def apply_concession(table: Table, command: Concede, checked: ConcedePlan) -> Next | None:
    """104.3a: a player may concede at any time; they leave the game (800.4a). If the game goes on
    and was waiting for them, it moves on without them: priority passes on (or, when everyone
    left has passed, the top object resolves or the step ends); a declaration or choice that was
    theirs to make is no longer asked for."""
    s = table.state
    player = checked.player
    waiting = pending_decision(s)
    ordering, paused = s.ordering, s.paused
    emit(table, ev.PlayerLost, player=player, reason=f"{player} conceded", rule="104.3a")
    if check_game_end(table, Reason.CONCESSION) or waiting is None:
        return None
    if paused is not None and paused["player"] != player and s.paused is None:  # their object that waited for another's choice left
        return priority_to(teams.acting(s) or teams.next_team_player(s, player))
    if waiting.player != player:
        return None
    if waiting.kind == DecisionKind.PRIORITY:
        return passed_by(player)
    if ordering is not None:  # their triggers left with them; priority goes where it was going
        return priority_to(ordering["priority_to"])
    if paused is not None:  # the object that waited for their choice left the stack with them, or goes on without it
        if s.stack and s.stack[-1].object == paused["object"] and not go_on_without(table, paused):
            return None  # it waits for another player's choice (608.2d)
        return priority_to(teams.acting(s) or teams.next_team_player(s, player))
    return TURN_BASED_ACTIONS


def conceded(e: Map, decision: Decision, state: GameState) -> Concede | None:
    return Concede(e["player"]) if e.get("rule") == "104.3a" else None
