"""Combat (506-511): who may attack whom, who may block what, attack costs, and combat damage.

Pure functions of the state, shared by the checks (core.rules), the engine and the legal-action view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import teams
from mtg_ledger.core.commands import AssignDamage, CardRef, ChooseDefender, DeclareAttackers, DeclareBlockers, Ref
from mtg_ledger.core.errors import IllegalAction, Phrase, either
from mtg_ledger.core.mana import ManaCost, Source
from mtg_ledger.core.payment import and_all, plan_payment
from mtg_ledger.core.attack_targets import attackable_objects, attackable_players, attacked, defending_player_of
from mtg_ledger.core.state import GameState, Permanent

FIRST_STRIKE = ("first strike", "double strike")
Assignment = dict[str, Any]  # {"source": object, "target": object or player name, "amount": n}


def must_choose_defender(state: GameState) -> bool:
    """507.1: in the single-defender format the active player picks one opponent as combat begins."""
    return state.game_format == "single-defender" and state.defender_chosen is None


def can_attack(state: GameState, perm: Permanent) -> bool:
    """508.1a: an untapped creature the active player has controlled since the turn began (302.6);
    phased-out permanents don't exist (702.26b); a creature with defender can't attack (702.3b), nor one
    a static ability says can't (508.1a: Pacifism)."""
    return (  # the cheapest tests first: most permanents are not creatures
        not perm.phased_out
        and not perm.tapped
        and ch.is_creature(state, perm)
        and teams.is_active(state, perm.controller)
        and not ch.sick(state, perm)
        and not ch.has_keyword(state, perm, "defender")
        and not ch.cannot(state, perm, "attack")
    )


def block_restriction(state: GameState, blocker: Permanent, attacker: Permanent) -> tuple[str, Phrase] | None:
    """Why ``blocker`` can't block ``attacker`` (509.1a-b) as (rule, sentence), or None if it can."""
    if not ch.is_creature(state, blocker) or blocker.phased_out:
        return ("509.1a", Phrase("rules.card_is_not_creature_and_cannot_block", {"card": blocker.card}))
    if blocker.tapped:
        return ("509.1a", Phrase("rules.card_is_tapped_and_cannot_block", {"card": blocker.card}))
    if ch.cannot(state, blocker, "block"):
        return ("509.1a", Phrase("rules.card_cannot_block_an_ability_says_so", {"card": blocker.card}))
    if not teams.teammates(state, blocker.controller, attacker.attacking or ""):
        defending = teams.team_of(state, blocker.controller)
        rule = "802.4" if len(defending) == 1 else "805.9"  # 805.9: a creature of the defending team blocks creatures attacking any player of that team
        return (rule, Phrase("rules.card_can_block_only_creatures_attacking", {"card": blocker.card, "player": either(defending), "other": attacker.card}))
    if ch.has_keyword(state, attacker, "flying") and not (
        ch.has_keyword(state, blocker, "flying") or ch.has_keyword(state, blocker, "reach")
    ):
        return ("702.9b", Phrase("rules.card_has_flying_other_neither_flying_nor_reach", {"card": attacker.card, "other": blocker.card}))
    return None


def can_block_anything(state: GameState, defender: str) -> bool:
    """Whether the defending player's team (805.8: it blocks as one) has a creature that can block
    a creature attacking it."""
    team = teams.team_of(state, defender)
    attackers = [p for p in ch.on_battlefield(state) if p.attacking in team]
    blockers = [p for p in ch.on_battlefield(state) if p.controller in team]
    return any(block_restriction(state, b, a) is None for b in blockers for a in attackers)


def defenders_to_declare(state: GameState) -> list[str]:
    """509.1, 101.4: defending players still to declare blockers, in APNAP order. 805.8: a team
    declares its blockers together, once, asked of its primary player (any of its players may send it)."""
    attacked = {p.attacking for p in ch.on_battlefield(state) if p.attacking}
    out: list[str] = []
    for player in teams.apnap(state):
        team = teams.team_of(state, player)
        if any(p in attacked for p in team) and not any(p in state.blockers_declared_by for p in team):
            first = teams.live_members(state, team)[0]
            if first not in out:
                out.append(first)
    return out


def attack_costs(state: GameState, attackers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """508.1d, 508.1g: costs to attack (Ghostly Prison: {2} for each creature attacking its controller)."""
    costs = []
    for source in ch.on_battlefield(state):
        tax = ch.face(state, source).attack_tax
        if not tax:
            continue
        count = sum(1 for a in attackers if a["defender"] == source.controller and "attacked" not in a)  # a planeswalker or battle attacked is not "you"
        if count:
            costs.append(
                {"source": source.object, "card": source.card, "player": source.controller, "creatures": count, "generic": tax * count}
            )
    return costs


# --- combat damage ------------------------------------------------------------------------


def in_combat(state: GameState) -> list[Permanent]:
    return [p for p in ch.on_battlefield(state) if p.attacking or p.blocking]


def first_strike_step_needed(state: GameState) -> bool:
    """510.4: a first combat damage step happens if any attacking or blocking creature has first or double strike."""
    return any(ch.has_keyword(state, p, k) for p in in_combat(state) for k in FIRST_STRIKE)


def deals_damage_now(state: GameState, perm: Permanent) -> bool:
    """510.4: which creatures assign combat damage in the current combat damage step."""
    if state.first_strike_step:
        return any(ch.has_keyword(state, perm, k) for k in FIRST_STRIKE)
    if perm.object in state.first_strikers:
        return ch.has_keyword(state, perm, "double strike")
    return True


def _blockers(state: GameState, attacker: Permanent) -> list[Permanent]:
    found = (state.permanent(o) for o in attacker.blocked_by)
    return [b for b in found if b is not None and not b.phased_out and attacker.object in b.blocking]


def needs_assignment(state: GameState, attacker: Permanent) -> bool:
    """510.1c-d, 702.19b: the attacker's controller has a real choice to make."""
    if not attacker.attacking or not attacker.blocked or not deals_damage_now(state, attacker) or ch.power(state, attacker) <= 0:
        return False
    blockers = _blockers(state, attacker)
    return len(blockers) > 1 or (len(blockers) == 1 and ch.has_keyword(state, attacker, "trample"))


def _lethal(state: GameState, blocker: Permanent, already: dict[int, int], attacker: Permanent | None = None) -> int:
    """702.19b: lethal damage counts damage already marked and damage being assigned by other creatures;
    702.2c: from a source with deathtouch, any nonzero damage is lethal damage."""
    left = max(0, ch.toughness(state, blocker) - blocker.damage - already.get(blocker.object, 0))
    if attacker is not None and left and ch.has_keyword(state, attacker, "deathtouch"):
        return 1
    return left


def default_assignment(state: GameState, attacker: Permanent, already: dict[int, int]) -> list[Assignment]:
    """The engine's choice where the player makes none: lethal damage to each blocker in the order
    they were declared, the rest to the last blocker, or with trample to the player attacked."""
    amount = ch.power(state, attacker)
    if amount <= 0:
        return []
    victim = attacked(state, attacker)  # 506.4c: None, attacking a permanent that left
    if not attacker.blocked:
        return [{"source": attacker.object, "target": victim, "amount": amount}] if victim is not None else []  # 510.1b
    blockers = _blockers(state, attacker)
    trample = ch.has_keyword(state, attacker, "trample")
    if not blockers:  # 510.1c; 702.19e: a trampler with no blockers left hits the player
        return [{"source": attacker.object, "target": victim, "amount": amount}] if trample and victim is not None else []
    out: list[Assignment] = []
    for i, blocker in enumerate(blockers):
        last = i == len(blockers) - 1
        share = min(amount, _lethal(state, blocker, already, attacker)) if (trample or not last) else amount
        if share:
            out.append({"source": attacker.object, "target": blocker.object, "amount": share})
        amount -= share
    if amount and victim is not None:  # only a trampler has damage left over once every blocker has lethal damage
        out.append({"source": attacker.object, "target": victim, "amount": amount})
    elif amount and out:
        out[-1]["amount"] += amount  # 702.19e: nothing to trample over to; the rest goes to the last blocker
    return out


def check_assignment(state: GameState, attacker: Permanent, given: list[Assignment], already: dict[int, int]) -> list[Assignment]:
    """510.1c-d, 702.19b-c: the whole power, among its blockers (and, with trample, the player
    attacked once every blocker has lethal damage)."""
    power = ch.power(state, attacker)
    blockers = _blockers(state, attacker)
    allowed: dict[Any, str] = {b.object: b.card for b in blockers}
    trample = ch.has_keyword(state, attacker, "trample")
    victim = attacked(state, attacker)
    if (trample or not attacker.blocked) and victim is not None:  # 702.19b; 510.1b: an unblocked creature's damage goes to what it attacks
        allowed[victim] = str(victim)
    total = 0
    for a in given:
        if a["target"] not in allowed:
            rule = "510.1b" if not attacker.blocked else "510.1c"
            raise IllegalAction(rule, "rules.card_cannot_assign_combat_damage_to_other", card=attacker.card, other=a['target'])
        if a["amount"] < 0:
            raise IllegalAction("510.1", "rules.card_cannot_assign_negative_damage", card=attacker.card)
        total += a["amount"]
    if total != power:
        raise IllegalAction("510.1", "rules.card_must_assign_exactly_its_power_power", card=attacker.card, power=power, n=total)
    to_player = sum(a["amount"] for a in given if a["target"] == victim) if victim is not None else 0
    if to_player:
        for b in blockers:
            got = sum(a["amount"] for a in given if a["target"] == b.object)
            if got < _lethal(state, b, already, attacker):
                raise IllegalAction(
                    "702.19b", "rules.card_must_assign_lethal_damage_to_other", card=attacker.card, other=b.card, player=attacker.attacking
                )
    return [dict(a, source=attacker.object) for a in given if a["amount"]]


def combat_assignments(state: GameState, chosen: dict[int, list[Assignment]]) -> list[Assignment]:
    """510.1: every attacker's assignment (chosen, or the default), then every blocker's (510.1d)."""
    out: list[Assignment] = []
    already: dict[int, int] = {}
    for attacker in ch.on_battlefield(state):
        if not attacker.attacking or not deals_damage_now(state, attacker):
            continue
        mine = chosen.get(attacker.object)
        mine = check_assignment(state, attacker, mine, already) if mine is not None else default_assignment(state, attacker, already)
        for a in mine:
            if isinstance(a["target"], int):
                already[a["target"]] = already.get(a["target"], 0) + a["amount"]
        out.extend(mine)
    for blocker in ch.on_battlefield(state):
        if not blocker.blocking or not deals_damage_now(state, blocker):
            continue
        amount = ch.power(state, blocker)
        targets = [t for t in (state.permanent(o) for o in blocker.blocking) if t is not None and t.attacking]
        if amount > 0 and targets:
            out.append({"source": blocker.object, "target": targets[0].object, "amount": amount})
    for a in out:  # 704.5h: damage from a source with deathtouch is remembered on what it was dealt to
        source = state.permanent(a["source"])
        if source is not None and ch.has_keyword(state, source, "deathtouch"):
            a["deathtouch"] = True
    return out


def lifelink_gains(state: GameState, assignments: list[Assignment]) -> list[tuple[int, str, int]]:
    """702.15b: (source, its controller, amount) for the combat damage each source with lifelink deals."""
    out: list[tuple[int, str, int]] = []
    for a in assignments:
        source = state.permanent(a["source"])
        if source is not None and a["amount"] > 0 and ch.has_keyword(state, source, "lifelink"):
            out.append((source.object, source.controller, a["amount"]))
    return out


def first_strikers(state: GameState) -> list[int]:
    """510.4: the creatures in combat with first or double strike as the first damage step begins."""
    return [p.object for p in in_combat(state) if any(ch.has_keyword(state, p, k) for k in FIRST_STRIKE)]


# --- checking combat decisions --------------------------------------------------------------


@dataclass(frozen=True)
class AttackPlan:
    player: str
    attackers: list[dict[str, Any]]  # {object, card, defender}
    tapped: list[int]  # 508.1f: attackers without vigilance
    costs: list[dict[str, Any]]  # 508.1g
    taps: list[Source]  # mana abilities activated to pay them (508.1h)
    mana_spent: dict[str, int]


@dataclass(frozen=True)
class BlockPlan:
    player: str
    blockers: list[dict[str, Any]]  # {object, card, attacker}


@dataclass(frozen=True)
class DefenderPlan:
    chooser: str
    defender: str


@dataclass(frozen=True)
class DamagePlan:
    assignments: list[Assignment]  # every attacker's and blocker's combat damage (510.1)


def check_choose_defender(state: GameState, command: ChooseDefender) -> DefenderPlan:
    """507.1: one of the active player's opponents still in the game."""
    opponents = teams.opponents(state, command.player)
    if command.defender not in opponents:
        raise IllegalAction("507.1", "rules.other_is_not_opponent_of_player_in", other=command.defender, player=command.player)
    return DefenderPlan(command.player, command.defender)


def check_attackers(state: GameState, command: DeclareAttackers) -> AttackPlan:
    """508.1a-h as one declaration: creatures that can attack, the player each attacks,
    restrictions, tapping, then the total attack cost, which must be paid in full."""
    chosen: list[dict[str, Any]] = []
    seen: list[int] = []
    targets = attackable_players(state)
    for ref, defender in command.attackers:
        perm = ch.find_permanent(state, ref, what=Phrase("rules.thing_attacker"))
        if perm.object in seen:
            raise IllegalAction("508.1a", "rules.card_object_n_is_declared_as_attacker", card=perm.card, n=perm.object)
        seen.append(perm.object)
        if not teams.teammates(state, command.player, perm.controller) or not ch.is_creature(state, perm):
            raise IllegalAction("508.1a", "rules.card_is_not_creature_player_team_controls", card=perm.card, player=command.player)
        if perm.tapped:
            raise IllegalAction("508.1a", "rules.card_is_tapped_and_cannot_attack", card=perm.card)
        if ch.sick(state, perm):
            raise IllegalAction("302.6", "rules.card_has_summoning_sickness_and_cannot_attack", card=perm.card)
        if ch.has_keyword(state, perm, "defender"):
            raise IllegalAction("702.3b", "rules.card_has_defender_and_cannot_attack", card=perm.card)
        if ch.cannot(state, perm, "attack"):
            raise IllegalAction("508.1a", "rules.card_cannot_attack_an_ability_says_so", card=perm.card)
        if defender is not None and not (isinstance(defender, str) and defender in state.players):
            chosen.append(_attacking_permanent(state, perm, defender))
            continue
        if defender is None:
            if len(targets) != 1:
                raise IllegalAction("508.1b", "rules.card_must_be_told_which_player_it", card=perm.card, players=', '.join(targets))
            defender = targets[0]
        if defender not in targets:
            why = Phrase("rules.why_not_chosen_defender" if state.game_format == "single-defender" else "rules.why_not_opponent")
            raise IllegalAction("508.1b", "rules.card_cannot_attack_player_why", card=perm.card, player=defender, why=why)
        chosen.append({"object": perm.object, "card": perm.card, "defender": defender})
    tapped = [a["object"] for a in chosen if not ch.has_keyword(state, state.permanent(a["object"]), "vigilance")]  # type: ignore[arg-type]
    costs = attack_costs(state, chosen)
    total = sum(c["generic"] for c in costs)
    taps: list[Source] = []
    spent: dict[str, int] = {}
    if total:
        what = and_all([Phrase("rules.what_attack_cost", {"card": c["card"], "generic": c["generic"], "count": c["creatures"], "player": c["player"]}) for c in costs])
        taps, spent = plan_payment(
            state, command.player, ManaCost(total, ()), command.pay, what=what, rule="508.1h", unavailable=frozenset(tapped)
        )
    elif command.pay:
        raise IllegalAction("508.1g", "rules.this_declaration_of_attackers_has_no_cost")
    return AttackPlan(command.player, chosen, tapped, costs, taps, spent)


def _attacking_permanent(state: GameState, perm: Permanent, defender: Ref | str) -> dict[str, Any]:
    """508.1b: an attacker may attack a planeswalker an opponent controls or a battle an opponent
    protects (506.3, 310.8); its defending player is that permanent's controller or protector (506.2)."""
    target = ch.find_permanent(state, CardRef(defender) if isinstance(defender, str) else defender, what=Phrase("rules.thing_attacked"))
    if target.object not in [p.object for p in attackable_objects(state)]:
        raise IllegalAction("508.1b", "rules.card_cannot_attack_other", card=perm.card, other=ch.name(state, target))
    return {"object": perm.object, "card": perm.card, "defender": defending_player_of(state, target), "attacked": target.object}


def check_blockers(state: GameState, command: DeclareBlockers) -> BlockPlan:
    """509.1a-c: the defending player's untapped creatures, each blocking one creature attacking
    that player, within the restrictions (flying and reach, 702.9b, 702.17b). 805.8-805.9: a
    defending team's declaration names creatures of any of its players, each blocking a creature
    attacking any player of the team."""
    chosen: list[dict[str, Any]] = []
    seen: list[int] = []
    for ref, attacker_ref in command.blockers:
        blocker = ch.find_permanent(state, ref, what=Phrase("rules.thing_blocker"))
        attacker = ch.find_permanent(state, attacker_ref, what=Phrase("rules.thing_attacker"))
        if blocker.object in seen:
            raise IllegalAction("509.1a", "rules.card_object_n_can_block_only_one", card=blocker.card, n=blocker.object)
        seen.append(blocker.object)
        if not teams.teammates(state, command.player, blocker.controller):
            whose = f"{command.player}'s team" if len(teams.team_of(state, command.player)) > 1 else command.player
            raise IllegalAction("509.1a", "rules.card_is_not_creature_player_controls", card=blocker.card, player=whose)
        if not attacker.attacking:
            raise IllegalAction("509.1a", "rules.card_is_not_attacking", card=attacker.card)
        why = block_restriction(state, blocker, attacker)
        if why is not None:
            rule, phrase = why
            raise IllegalAction(rule, phrase.id, **phrase.params)
        chosen.append({"object": blocker.object, "card": blocker.card, "attacker": attacker.object})
    for attacker in ch.each_of(state, dict.fromkeys(b["attacker"] for b in chosen)):  # 702.111b
        count = sum(1 for b in chosen if b["attacker"] == attacker.object)
        if count == 1 and ch.has_keyword(state, attacker, "menace"):
            raise IllegalAction("702.111b", "rules.card_has_menace_blocked_by_one", card=attacker.card)
    return BlockPlan(command.player, chosen)


def check_assign_damage(state: GameState, command: AssignDamage) -> DamagePlan:
    """510.1c-d: the active player divides the damage of the attackers named; the rest take the default."""
    chosen: dict[int, list[Assignment]] = {}
    for ref, parts in command.assignments:
        attacker = ch.find_permanent(state, ref, what=Phrase("rules.thing_attacker"))
        if not teams.teammates(state, command.player, attacker.controller) or not attacker.attacking:
            raise IllegalAction("510.1", "rules.card_is_not_creature_attacking_for_player", card=attacker.card, player=command.player)
        if not deals_damage_now(state, attacker):
            raise IllegalAction("510.4", "rules.card_deals_no_combat_damage_in_this", card=attacker.card)
        if attacker.object in chosen:
            raise IllegalAction("510.1", "rules.card_damage_is_assigned_twice", card=attacker.card)
        chosen[attacker.object] = [{"target": ch.resolve_target(state, t, Phrase("rules.thing_creature")), "amount": n} for t, n in parts]
    return DamagePlan(combat_assignments(state, chosen))
