"""What attackers may attack (506.2-506.3, 508.1b, 310.8), and what an attacker deals its damage to
when unblocked (510.1a-b, 506.4c): players, the planeswalkers they control and the battles they protect."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import teams
from mtg_ledger.core.state import GameState, Permanent


def attackable_players(state: GameState) -> list[str]:
    """506.2, 507.1, 802.2: the players the active player's creatures may attack."""
    opponents = teams.opponents(state, state.active_player) if state.active_player else []
    if state.game_format == "single-defender":
        return [state.defender_chosen] if state.defender_chosen in opponents else []
    return opponents


def attackable_objects(state: GameState) -> list[Permanent]:
    """506.3, 508.1b: the planeswalkers the attackable players control, and the battles they protect
    (310.8: a battle can be attacked by the players other than its protector), in battlefield order."""
    players = attackable_players(state)
    return [
        p
        for p in ch.on_battlefield(state)
        if (ch.is_type(state, p, "Planeswalker") and p.controller in players) or (ch.is_type(state, p, "Battle") and p.protector in players)
    ]


def defending_player_of(state: GameState, perm: Permanent) -> str:
    """506.2: the defending player of a creature attacking a planeswalker is its controller; of one
    attacking a battle, its protector (310.8)."""
    return perm.protector if perm.protector is not None and ch.is_type(state, perm, "Battle") else perm.controller


def attacked(state: GameState, attacker: Permanent) -> Any:
    """What an attacking creature deals its combat damage to when unblocked (510.1a-b): the player it
    attacks, or the planeswalker or battle it attacks; None if that permanent has left the battlefield
    (506.4c: the creature still attacks, but attacks nothing)."""
    if attacker.attacking_object is None:
        return attacker.attacking
    target = state.permanent(attacker.attacking_object)
    return None if target is None or target.phased_out else target.object
