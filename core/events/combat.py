"""Combat (506-511): the defending player chosen, attackers and blockers declared, combat damage
dealt, creatures removed from combat."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.events.changes import deal, spend
from mtg_ledger.core.state import GameState


class DefendingPlayerChosenFields(TypedDict):
    player: str
    chooser: str


class DefendingPlayerChosen(GameEvent):
    """507.1: in the single-defender format, the active player chooses the defending player."""

    fields_type = DefendingPlayerChosenFields


@applies(DefendingPlayerChosen)
def _defender_chosen(s: GameState, e: DefendingPlayerChosenFields) -> None:
    s.defender_chosen = e["player"]


class AttackersDeclaredFields(TypedDict):
    player: str
    attackers: list[dict[str, Any]]
    tapped: list[int]
    costs_paid: list[dict[str, Any]]
    mana_spent: dict[str, int]
    paid_with: list[int]


class AttackersDeclared(GameEvent):
    """508.1: ``attackers`` maps each creature to the player it attacks (``defender``; from schema 5,
    for a creature attacking a planeswalker or battle, ``attacked`` is that permanent and ``defender``
    its controller or protector, the defending player, 506.2); attackers without
    vigilance are ``tapped`` (508.1f); ``costs_paid`` lists the attack costs (508.1g-h), paid with
    ``mana_spent`` from the active player's pool."""

    fields_type = AttackersDeclaredFields


@applies(AttackersDeclared)
def _attackers(s: GameState, e: AttackersDeclaredFields) -> None:
    attackers = e["attackers"]
    s.attackers_declared = True
    pool = s.players[e["player"]].mana_pool
    if not attackers:  # 508.1: none declared (most turns of most games)
        s.declared_attackers = []
        s.defending_players = []
    else:
        s.declared_attackers = [a["object"] for a in attackers]
        s.attacked_this_turn.extend(s.declared_attackers)
        for a in attackers:
            perm = s.permanent(a["object"])
            if perm is not None:
                perm.attacking = a["defender"]
                if "attacked" in a:  # schema 5: a planeswalker or battle attacked (506.3, 508.1b)
                    perm.attacking_object = a["attacked"]
        defenders = [a["defender"] for a in attackers]  # players' names: a comparison in C, no generator a player
        s.defending_players = [p for p in s.turn_order if p in defenders]
    for perm in s.each(e["tapped"]):
        perm.tapped = True
    spend(pool, e["mana_spent"])


class BlockersDeclaredFields(TypedDict):
    player: str
    blockers: list[dict[str, Any]]


class BlockersDeclared(GameEvent):
    """509.1: ``blockers`` maps each blocking creature to the attacker it blocks."""

    fields_type = BlockersDeclaredFields


@applies(BlockersDeclared)
def _blockers(s: GameState, e: BlockersDeclaredFields) -> None:
    s.blockers_declared_by.append(e["player"])
    for b in e["blockers"]:
        blocker = s.permanent(b["object"])
        attacker = s.permanent(b["attacker"])
        if blocker is not None and attacker is not None:
            blocker.blocking.append(attacker.object)
            attacker.blocked = True
            attacker.blocked_by.append(blocker.object)


class CombatDamageDealtFields(TypedDict):
    assignments: list[dict[str, Any]]
    first_strike: bool
    first_strikers: list[int]


class CombatDamageDealt(GameEvent):
    """510.1-510.2: every assignment, dealt simultaneously (from schema 5 an assignment from a source
    with deathtouch says ``deathtouch``, 704.5h). In the first of two combat damage
    steps (``first_strike``), ``first_strikers`` are the attacking and blocking creatures that had
    first strike or double strike as the step began (510.4)."""

    fields_type = CombatDamageDealtFields


@applies(CombatDamageDealt)
def _combat_damage(s: GameState, e: CombatDamageDealtFields) -> None:
    for a in e["assignments"]:
        deal(s, a["target"], a["amount"], a.get("deathtouch", False))
    s.combat_damage_dealt = True
    if e["first_strike"]:
        s.first_strikers = list(e["first_strikers"])


class RemovedFromCombatFields(TypedDict):
    permanents: list[int]


class RemovedFromCombat(GameEvent):
    """511.3."""

    fields_type = RemovedFromCombatFields


@applies(RemovedFromCombat)
def _removed_from_combat(s: GameState, e: RemovedFromCombatFields) -> None:
    for perm in s.each(e["permanents"]):
        perm.attacking = None
        perm.attacking_object = None
        perm.blocking = []
        perm.blocked = False
        perm.blocked_by = []
    s.defending_players = []
    s.declared_attackers = []
    s.first_strikers = []
