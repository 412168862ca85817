"""The engine: applies checked decisions and walks the turn plan until the next decision.

It works on any ``Table`` (the ``Game`` aggregate, or the in-memory ``LocalTable``): it reads
``table.state`` and records facts with ``table.emit``. After every action it checks, in a fixed
order, state-based actions, then (future) triggers, then whether the step ends (117, 704.3).
"""

from __future__ import annotations

from typing import Any, Protocol

from core import characteristics as ch
from core import events as ev
from core.cards import DealDamage, DrawCards, PumpUntilEndOfTurn, card
from core import combat
from core.commands import (
    ActivateAbility,
    AssignDamage,
    CastSpell,
    ChooseDefender,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    PassPriority,
    PlayLand,
)
from core.rng import SeededRandom, derive_seed
from core.rules import CastPlan, check, pending_decision, target_still_legal
from core.state import GameState
from core.turn import StepSpec, next_player, next_step, spec

RULES_EDITION = "2025-11-14"
OPENING_HAND = 7  # 103.5


class Table(Protocol):
    state: GameState

    def emit(self, event_class: type[ev.GameEvent], **fields: Any) -> None: ...


# --- starting the game -------------------------------------------------------------------


def started_fields(setup: dict[str, Any]) -> dict[str, Any]:
    """The GameStarted fields for a setup (scenario players, format, seed, ...): objects numbered."""
    next_obj = 1
    players = []
    for p in setup["players"]:
        battlefield = []
        for name in p.get("battlefield", []):
            card(name)
            battlefield.append({"object": next_obj, "card": name})
            next_obj += 1
        for name in [*p.get("library", []), *p.get("hand", [])]:
            card(name)
        players.append(
            {
                "name": p["name"],
                "life": p.get("life", 20),
                "library": list(p.get("library", [])),
                "hand": list(p.get("hand", [])),
                "opening_hand": "hand" not in p,
                "battlefield": battlefield,
            }
        )
    return {
        "players": players,
        "format": setup.get("format", "two-player"),
        "seed": int(setup.get("seed", 0)),
        "starting_player": setup.get("starting_player") or players[0]["name"],
        "rules": RULES_EDITION,
        "shuffle": bool(setup.get("shuffle", False)),
    }


def begin_game(table: Table, started: dict[str, Any]) -> None:
    """After GameStarted: shuffles (701.20, recorded), opening hands (103.5), then turn 1."""
    seed = started["seed"]
    for p in started["players"]:
        if started["shuffle"]:
            order = SeededRandom(derive_seed(seed, "shuffle", p["name"])).shuffled(p["library"])
            table.emit(ev.LibraryShuffled, player=p["name"], order=order)
    for p in started["players"]:
        if p["opening_hand"]:
            for _ in range(OPENING_HAND):
                draw(table, p["name"])
    begin_turn(table)


# --- the turn plan -----------------------------------------------------------------------


def begin_turn(table: Table) -> None:
    s = table.state
    active = s.turn_order[0] if s.active_player is None else next_player(s, s.active_player)
    table.emit(ev.TurnBegan, turn=s.turn + 1, active_player=active)  # 500.1
    begin_step(table, next_step(table.state))


def begin_step(table: Table, step: StepSpec | None) -> None:
    if step is None:
        begin_turn(table)
        return
    s = table.state
    # 510.4: the first of two combat damage steps, when a creature in combat has first or double strike
    first_strike = step.step == "combat_damage" and s.step != "combat_damage" and combat.first_strike_step_needed(s)
    table.emit(ev.StepBegan, turn=s.turn, phase=step.phase, step=step.step, first_strike=first_strike)
    turn_based_actions(table)


def turn_based_actions(table: Table) -> None:
    """The turn-based actions of the current step; stops where a player must decide."""
    s = table.state
    active = s.active_player
    assert active is not None
    step = s.step
    gone = s.players[active].lost  # 800.4: the turn goes on without its player
    if step == "untap":  # 502.3
        untapping = [p.object for p in s.battlefield if p.controller == active and p.tapped and not p.phased_out]
        if untapping:
            table.emit(ev.PermanentsUntapped, player=active, permanents=untapping)
    elif step == "draw" and not gone:  # 504.1, 103.8a
        if s.turn == 1 and len(s.turn_order) == 2:
            table.emit(ev.DrawSkipped, player=active, rule="103.8a")
        else:
            draw(table, active)
    elif step == "beginning_of_combat" and not gone and combat.must_choose_defender(s):  # 507.1
        opponents = [p for p in s.live_players() if p != active]
        if len(opponents) != 1:
            return  # the active player chooses
        table.emit(ev.DefendingPlayerChosen, player=opponents[0], chooser=active)
    elif step == "declare_attackers":  # 508.1
        if not any(combat.can_attack(s, p) for p in s.battlefield) or not combat.attackable_players(s):
            table.emit(ev.AttackersDeclared, player=active, attackers=[], tapped=[], costs_paid=[], mana_spent={})
        else:
            return  # the active player declares
    elif step == "declare_blockers":  # 509.1: each defending player in APNAP order
        for defender in combat.defenders_to_declare(s):
            if combat.can_block_anything(s, defender):
                return  # that player declares
            table.emit(ev.BlockersDeclared, player=defender, blockers=[])
    elif step == "combat_damage":  # 510.1-510.2, 510.4
        if any(combat.needs_assignment(s, p) for p in ch.on_battlefield(s)):
            return  # the active player divides the damage
        deal_combat_damage(table, combat.combat_assignments(s, {}))
    elif step == "cleanup":  # 514.1
        if ch.cards_to_discard(s, active):
            return
        cleanup(table)
        return
    finish_turn_based_actions(table)


def finish_turn_based_actions(table: Table) -> None:
    """After the turn-based actions: the active player receives priority, or the step ends."""
    s = table.state
    if s.step is not None and spec(s.step).priority:
        give_priority(table, s.active_player or s.turn_order[0])
    else:
        end_step(table)


def end_step(table: Table) -> None:
    s = table.state
    ending = s.step
    table.emit(ev.StepEnded, turn=s.turn, step=ending)  # 500.2
    if ending == "end_of_combat":  # 511.3
        in_combat = [p.object for p in s.battlefield if p.attacking or p.blocking or p.blocked]
        if in_combat:
            table.emit(ev.RemovedFromCombat, permanents=in_combat)
    for name in s.turn_order:  # 500.4
        pool = s.players[name].mana_pool
        if pool:
            table.emit(ev.ManaPoolEmptied, player=name, mana=dict(pool))
    begin_step(table, next_step(table.state))


def cleanup(table: Table) -> None:
    """514.2: damage wears off and "until end of turn" effects end, simultaneously; then 514.3."""
    s = table.state
    damaged = [p.object for p in s.battlefield if p.damage]
    ending = [e.id for e in s.effects if e.until == "end_of_turn"]
    table.emit(ev.CleanupPerformed, damage_removed=damaged, effects_ended=ending)
    end_step(table)


# --- priority, the stack and state-based actions -------------------------------------------


def give_priority(table: Table, player: str) -> None:
    """117.5: state-based actions are checked before a player would receive priority."""
    state_based_actions(table)
    s = table.state
    if s.ended:
        return
    if s.players[player].lost:
        player = next_player(s, player)
    table.emit(ev.PriorityGiven, player=player)


def state_based_actions(table: Table) -> None:
    """704.3: check all at once, perform them simultaneously, repeat until none apply."""
    while True:
        s = table.state
        losers: list[tuple[str, str, str]] = []
        for name in s.live_players():
            p = s.players[name]
            if p.life <= 0:
                losers.append((name, f"{name} has {p.life} life", "704.5a"))
            elif p.drew_from_empty_library:
                losers.append((name, f"{name} attempted to draw from an empty library", "704.5b"))
        zero = [p for p in ch.on_battlefield(s) if ch.is_creature(p) and ch.toughness(s, p) <= 0]
        lethal = [
            p
            for p in ch.on_battlefield(s)
            if ch.is_creature(p) and p not in zero and p.damage > 0 and p.damage >= ch.toughness(s, p)
        ]
        if not (losers or zero or lethal):
            return
        for name, reason, rule in losers:
            table.emit(ev.PlayerLost, player=name, reason=reason, rule=rule)
        for group, rule in ((zero, "704.5f"), (lethal, "704.5g")):
            if group:
                gone = [{"object": p.object, "card": p.card, "owner": p.owner} for p in group]
                table.emit(ev.PermanentsPutIntoGraveyard, permanents=gone, rule=rule)
        if check_game_end(table):
            return


def check_game_end(table: Table) -> bool:
    """104.2a: the last player in the game wins; 104.4a: if all lost at once, it's a draw."""
    s = table.state
    live = s.live_players()
    if len(live) > 1 or s.ended:
        return s.ended
    winner = live[0] if live else None
    reason = f"{winner} is the only player left in the game" if winner else "all players lost simultaneously"
    table.emit(ev.GameEnded, winner=winner, reason=reason)
    return True


def draw(table: Table, player: str) -> None:
    """121.2; 121.4: drawing from an empty library is remembered for 704.5b."""
    library = table.state.players[player].library
    if library:
        table.emit(ev.CardDrawn, player=player, card=library[0])
    else:
        table.emit(ev.EmptyLibraryDrawAttempted, player=player)


def resolve_top(table: Table) -> None:
    """608.2: follow the instructions in order; 608.2b: with every target illegal, it doesn't resolve."""
    s = table.state
    top = s.stack[-1]
    definition = card(top.card)
    legal = [t for t in top.targets if target_still_legal(s, definition.target, t)]
    if top.targets and not legal:
        table.emit(ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="fizzled", permanent=None)
        return
    for effect in definition.effects:
        if isinstance(effect, DealDamage):
            for target in legal:
                table.emit(ev.DamageDealt, source=top.object, card=top.card, target=target, amount=effect.amount)
        elif isinstance(effect, PumpUntilEndOfTurn):
            for target in legal:
                effect_id = table.state.next_effect
                table.emit(
                    ev.EffectCreated,
                    effect={
                        "id": effect_id,
                        "kind": "pt",
                        "object": target,
                        "power": effect.power,
                        "toughness": effect.toughness,
                        "keywords": list(effect.keywords),
                        "until": "end_of_turn",
                    },
                )
        elif isinstance(effect, DrawCards):
            for _ in range(effect.count):
                draw(table, top.controller)
    permanent = table.state.next_object if definition.is_permanent_card else None
    table.emit(ev.ObjectResolved, object=top.object, card=top.card, controller=top.controller, outcome="resolved", permanent=permanent)


# --- combat ------------------------------------------------------------------------------


def deal_combat_damage(table: Table, assignments: list[dict[str, Any]]) -> None:
    """510.2: all assigned combat damage is dealt at once."""
    s = table.state
    strikers = combat.first_strikers(s) if s.first_strike_step else []
    table.emit(ev.CombatDamageDealt, assignments=assignments, first_strike=s.first_strike_step, first_strikers=strikers)


# --- applying a checked decision -----------------------------------------------------------


def handle(table: Table, command: Command) -> None:
    """Check a decision, record it, and run the game to the next decision."""
    plan = check(table.state, command)
    apply_decision(table, command, plan)


def apply_decision(table: Table, command: Command, plan: Any) -> None:
    s = table.state
    if isinstance(command, PassPriority):
        table.emit(ev.PriorityPassed, player=command.player)
        _after_pass(table, command.player)
    elif isinstance(command, PlayLand):
        table.emit(ev.LandPlayed, player=command.player, card=command.card, object=s.next_object)
        give_priority(table, command.player)  # 117.3c
    elif isinstance(command, CastSpell):
        assert isinstance(plan, CastPlan)
        for obj, name, color in plan.taps:  # 601.2g
            table.emit(ev.ManaAbilityActivated, player=plan.player, source=obj, card=name, mana=color)
        table.emit(ev.SpellCast, player=plan.player, card=plan.card, object=table.state.next_object, targets=plan.targets, mana_spent=plan.mana_spent)
        give_priority(table, plan.player)  # 117.3c
    elif isinstance(command, ActivateAbility):
        obj, name, color = plan
        table.emit(ev.ManaAbilityActivated, player=command.player, source=obj, card=name, mana=color)  # 605.3a
    elif isinstance(command, ChooseDefender):
        table.emit(ev.DefendingPlayerChosen, player=command.defender, chooser=command.player)
        finish_turn_based_actions(table)
    elif isinstance(command, DeclareAttackers):
        assert isinstance(plan, combat.AttackPlan)
        for obj, name, color in plan.taps:  # 508.1h
            table.emit(ev.ManaAbilityActivated, player=plan.player, source=obj, card=name, mana=color)
        table.emit(
            ev.AttackersDeclared,
            player=plan.player,
            attackers=plan.attackers,
            tapped=plan.tapped,
            costs_paid=plan.costs,
            mana_spent=plan.mana_spent,
        )
        finish_turn_based_actions(table)  # 508.2
    elif isinstance(command, DeclareBlockers):
        assert isinstance(plan, combat.BlockPlan)
        table.emit(ev.BlockersDeclared, player=plan.player, blockers=plan.blockers)
        turn_based_actions(table)  # the next defending player, or 509.2
    elif isinstance(command, AssignDamage):
        deal_combat_damage(table, plan)
        finish_turn_based_actions(table)
    elif isinstance(command, Discard):
        limit = ch.max_hand_size(s, command.player)
        table.emit(ev.CardsDiscarded, player=command.player, cards=list(command.cards), max_hand_size=limit)
        cleanup(table)
    elif isinstance(command, Concede):
        _concede(table, command.player)


def _after_pass(table: Table, player: str) -> None:
    """117.4: all players passed in succession: resolve the top object, or end the step."""
    s = table.state
    live = s.live_players()
    if all(p in s.passes for p in live):
        if s.stack:
            resolve_top(table)
            give_priority(table, table.state.active_player or live[0])  # 117.3b
        else:
            end_step(table)
    else:
        give_priority(table, next_player(s, player))  # 117.3d


def _concede(table: Table, player: str) -> None:
    """104.3a: a player may concede at any time; they leave the game (800.4a). If the game goes on
    and was waiting for them, it moves on without them: priority passes on (or, when everyone
    left has passed, the top object resolves or the step ends); a declaration or choice that was
    theirs to make is no longer asked for."""
    waiting = pending_decision(table.state)
    table.emit(ev.PlayerLost, player=player, reason=f"{player} conceded", rule="104.3a")
    if check_game_end(table) or waiting is None or waiting.player != player:
        return
    if waiting.kind == "priority":
        _after_pass(table, player)
    else:
        turn_based_actions(table)
