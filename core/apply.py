"""Appliers: how each event changes the state. They only assign what the event says.

Every decision (which card, which object id, how much damage) was taken before the event was
triggered and travels in it, so applying the same events always rebuilds the same state.
Appliers take the contract map of an event, so the aggregate, the fast projector and the
replay checker share them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core import teams
from mtg_ledger.core.state import Effect, GameState, Permanent, Player, StackObject
from mtg_ledger.core.turn import FIRST_STEP, PHASES

Event = dict[str, Any]
APPLIERS: dict[str, Callable[[GameState, Event], None]] = {}


def applier(name: str) -> Callable[[Callable[[GameState, Event], None]], Callable[[GameState, Event], None]]:
    def register(fn: Callable[[GameState, Event], None]) -> Callable[[GameState, Event], None]:
        APPLIERS[name] = fn
        return fn

    return register


def apply_event(state: GameState, e: Event) -> None:
    APPLIERS[e["type"]](state, e)
    state.version = e["v"]
    state.last_hash = e["hash"]


def spend(pool: dict[str, int], spent: dict[str, int]) -> None:
    for color, n in spent.items():
        pool[color] -= n
        if not pool[color]:
            del pool[color]


def _leave_battlefield(state: GameState, objects: set[int]) -> list[Permanent]:
    """Permanents leave: they leave combat (506.4) and effects on them have nothing to apply to."""
    gone = [p for p in state.battlefield if p.object in objects]
    state.battlefield = [p for p in state.battlefield if p.object not in objects]
    for other in state.battlefield:
        other.blocked_by = [o for o in other.blocked_by if o not in objects]
        other.blocking = [o for o in other.blocking if o not in objects]
    state.effects = [eff for eff in state.effects if eff.object not in objects]
    return gone


@applier("GameStarted")
def _game_started(s: GameState, e: Event) -> None:
    s.game_format = e["format"]
    s.seed = e["seed"]
    s.rules = e["rules"]
    s.teams = [list(team) for team in e["teams"]]
    s.archenemy = e["archenemy"]
    names = [p["name"] for p in e["players"]]
    start = names.index(e["starting_player"])
    s.turn_order = names[start:] + names[:start]  # 103.1: play proceeds from the starting player
    top = 0
    for p in e["players"]:
        s.players[p["name"]] = Player(
            name=p["name"], life=p["life"], library=list(p["library"]), hand=list(p["hand"])
        )
        if p["name"] == e["archenemy"]:
            s.schemes = list(p["schemes"])
        for perm in p["battlefield"]:
            s.battlefield.append(
                Permanent(object=perm["object"], card=perm["card"], owner=p["name"], controller=p["name"], fresh=False)
            )
            top = max(top, perm["object"])
    s.next_object = top + 1


@applier("LibraryShuffled")
def _library_shuffled(s: GameState, e: Event) -> None:
    s.players[e["player"]].library = list(e["order"])


@applier("SchemeDeckShuffled")
def _schemes_shuffled(s: GameState, e: Event) -> None:
    s.schemes = list(e["order"])


@applier("TurnBegan")
def _turn_began(s: GameState, e: Event) -> None:
    """500.1. With shared team turns the team's turn is each of its players' turn (805.4): "the
    previous turn's active player" (726.3) is every player of the previous active team, so their
    spells count together, and every player of the new active team starts their turn (302.6)."""
    previous = s.active_player
    s.turn = e["turn"]
    s.active_player = e["active_player"]
    s.phase = s.step = None
    s.spells_cast_last_turn = sum(s.spells_cast_this_turn.get(p, 0) for p in teams.team_of(s, previous)) if previous else 0
    s.spells_cast_this_turn = {}
    s.attacked_this_turn = []
    s.phase_plan = list(PHASES)
    for player in s.players.values():
        player.lands_played = 0
    team = teams.team_of(s, e["active_player"])
    for perm in s.battlefield:  # 302.6: continuously controlled since this turn began
        if perm.controller in team:
            perm.fresh = False


@applier("StepBegan")
def _step_began(s: GameState, e: Event) -> None:
    if e["step"] == FIRST_STEP[e["phase"]] and s.phase_plan and s.phase_plan[0] == e["phase"]:
        s.phase_plan.pop(0)  # a new phase begins
    s.phase = e["phase"]
    s.step = e["step"]
    s.first_strike_step = e["first_strike"]
    s.priority = None
    s.priority_given_this_step = False
    s.passes = []
    if e["step"] == "beginning_of_combat":  # a new combat: nothing carries over from an earlier one
        s.defender_chosen = None
        s.defending_players = []
        s.declared_attackers = []
        s.first_strikers = []
    if e["step"] == "declare_attackers":
        s.attackers_declared = False
        s.declared_attackers = []
    if e["step"] == "declare_blockers":
        s.blockers_declared_by = []
    if e["step"] == "combat_damage":
        s.combat_damage_dealt = False


@applier("StepEnded")
def _step_ended(s: GameState, e: Event) -> None:
    s.priority = None
    s.passes = []


@applier("PermanentsUntapped")
@applier("PermanentsUntappedByEffect")
def _untapped(s: GameState, e: Event) -> None:
    for perm in s.each(e["permanents"]):
        perm.tapped = False


@applier("CardDrawn")
def _card_drawn(s: GameState, e: Event) -> None:
    player = s.players[e["player"]]
    player.library.pop(0)
    player.hand.append(e["card"])


@applier("EmptyLibraryDrawAttempted")
def _empty_draw(s: GameState, e: Event) -> None:
    s.players[e["player"]].drew_from_empty_library = True


@applier("DrawSkipped")
def _draw_skipped(s: GameState, e: Event) -> None:
    return None


@applier("LandPlayed")
def _land_played(s: GameState, e: Event) -> None:
    player = s.players[e["player"]]
    player.hand.remove(e["card"])
    player.lands_played += 1
    s.battlefield.append(Permanent(object=e["object"], card=e["card"], owner=e["player"], controller=e["player"]))
    s.next_object = e["object"] + 1
    s.passes = []


@applier("PriorityGiven")
def _priority_given(s: GameState, e: Event) -> None:
    s.priority = e["player"]
    s.priority_given_this_step = True
    s.ordering = None


@applier("PriorityPassed")
def _priority_passed(s: GameState, e: Event) -> None:
    s.priority = None
    s.passes.append(e["player"])


@applier("ManaAbilityActivated")
def _mana_ability(s: GameState, e: Event) -> None:
    perm = s.permanent(e["source"])
    if perm is not None:
        perm.tapped = True
    pool = s.players[e["player"]].mana_pool
    pool[e["mana"]] = pool.get(e["mana"], 0) + 1
    s.passes = []  # 117.4: an action breaks a succession of passes


@applier("SpellCast")
def _spell_cast(s: GameState, e: Event) -> None:
    player = s.players[e["player"]]
    player.hand.remove(e["card"])
    spend(player.mana_pool, e["mana_spent"])
    s.stack.append(StackObject(object=e["object"], card=e["card"], controller=e["player"], targets=list(e["targets"])))
    s.next_object = e["object"] + 1
    s.spells_cast_this_turn[e["player"]] = s.spells_cast_this_turn.get(e["player"], 0) + 1
    s.passes = []


@applier("ObjectResolved")
def _object_resolved(s: GameState, e: Event) -> None:
    top = s.stack.pop()
    s.paused = None
    s.passes = []
    if top.kind != "spell":
        return  # an ability simply leaves the stack (608.2n)
    if e["permanent"] is not None:  # 608.3
        s.battlefield.append(Permanent(object=e["permanent"], card=top.card, owner=top.controller, controller=top.controller))
        s.next_object = e["permanent"] + 1
    else:
        s.players[top.controller].graveyard.append(top.card)


@applier("DamageDealt")
def _damage_dealt(s: GameState, e: Event) -> None:
    _deal(s, e["target"], e["amount"])


def _deal(s: GameState, target: Any, amount: int) -> None:
    if isinstance(target, str):
        s.players[target].life -= amount  # 120.3a
    else:
        perm = s.permanent(target)
        if perm is not None:
            perm.damage += amount  # 120.3e


@applier("EffectCreated")
def _effect_created(s: GameState, e: Event) -> None:
    s.effects.append(Effect(**e["effect"]))
    s.next_effect = e["effect"]["id"] + 1


@applier("PermanentsPutIntoGraveyard")
def _to_graveyard(s: GameState, e: Event) -> None:
    for perm in _leave_battlefield(s, {item["object"] for item in e["permanents"]}):
        if not perm.token:  # 111.7, 704.5d: a token that leaves the battlefield ceases to exist
            s.players[perm.owner].graveyard.append(perm.card)


@applier("DefendingPlayerChosen")
def _defender_chosen(s: GameState, e: Event) -> None:
    s.defender_chosen = e["player"]


@applier("AttackersDeclared")
def _attackers(s: GameState, e: Event) -> None:
    s.attackers_declared = True
    s.declared_attackers = [a["object"] for a in e["attackers"]]
    s.attacked_this_turn.extend(a["object"] for a in e["attackers"])
    for a in e["attackers"]:
        perm = s.permanent(a["object"])
        if perm is not None:
            perm.attacking = a["defender"]
    for perm in s.each(e["tapped"]):
        perm.tapped = True
    s.defending_players = [p for p in s.turn_order if any(a["defender"] == p for a in e["attackers"])]
    spend(s.players[e["player"]].mana_pool, e["mana_spent"])


@applier("BlockersDeclared")
def _blockers(s: GameState, e: Event) -> None:
    s.blockers_declared_by.append(e["player"])
    for b in e["blockers"]:
        blocker = s.permanent(b["object"])
        attacker = s.permanent(b["attacker"])
        if blocker is not None and attacker is not None:
            blocker.blocking.append(attacker.object)
            attacker.blocked = True
            attacker.blocked_by.append(blocker.object)


@applier("CombatDamageDealt")
def _combat_damage(s: GameState, e: Event) -> None:
    for a in e["assignments"]:
        _deal(s, a["target"], a["amount"])
    s.combat_damage_dealt = True
    if e["first_strike"]:
        s.first_strikers = list(e["first_strikers"])


@applier("RemovedFromCombat")
def _removed_from_combat(s: GameState, e: Event) -> None:
    for perm in s.each(e["permanents"]):
        perm.attacking = None
        perm.blocking = []
        perm.blocked = False
        perm.blocked_by = []
    s.defending_players = []
    s.declared_attackers = []
    s.first_strikers = []


@applier("CardsDiscarded")
def _discarded(s: GameState, e: Event) -> None:
    player = s.players[e["player"]]
    for name in e["cards"]:
        player.hand.remove(name)
        player.graveyard.append(name)
    if e["rule"] == "608.2d":
        s.paused = None


@applier("CleanupPerformed")
def _cleanup(s: GameState, e: Event) -> None:
    for perm in s.each(e["damage_removed"]):
        perm.damage = 0
    ended = set(e["effects_ended"])
    s.effects = [eff for eff in s.effects if eff.id not in ended]


@applier("ManaPoolEmptied")
def _pool_emptied(s: GameState, e: Event) -> None:
    s.players[e["player"]].mana_pool = {}


@applier("PlayerLost")
def _player_lost(s: GameState, e: Event) -> None:
    name = e["player"]
    player = s.players[name]
    player.lost = True
    player.loss_reason = e["reason"]
    if s.priority == name:
        s.priority = None
    # 800.4a: the objects the player owns leave the game; spells they control cease to exist
    _leave_battlefield(s, {p.object for p in s.battlefield if p.owner == name})
    s.stack = [o for o in s.stack if o.controller != name]
    s.pending_triggers = [t for t in s.pending_triggers if t.player != name]
    if s.paused is not None and s.paused["player"] == name:
        s.paused = None
    if s.ordering is not None and s.ordering["player"] == name:
        s.ordering = None
    for perm in s.battlefield:  # 506.4: creatures attacking a player who left are removed from combat
        if perm.attacking == name:
            perm.attacking = None
    s.defending_players = [p for p in s.defending_players if p != name]


@applier("GameEnded")
def _game_ended(s: GameState, e: Event) -> None:
    s.ended = True
    s.winner = e["winner"]
    s.winners = list(e["winners"])
    s.end_reason = e["reason"]
    s.priority = None


from mtg_ledger.core import apply_board  # noqa: E402,F401  (registers the appliers of core.apply_board)
