"""Static abilities that apply to players (604.1; a planeswalker's among them, 113.3d): read where the
rule they change is applied. A permanent's static abilities work only while it is on the battlefield
(113.6) and not phased out (702.26b).
"""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import statics as st
from mtg_ledger.core import teams
from mtg_ledger.core.state import GameState


def _controlled_statics(state: GameState, kind: type) -> list[tuple[str, object]]:
    """(controller, static) for each static ability of ``kind`` on the battlefield."""
    found: list[tuple[str, object]] = []
    for perm in ch.on_battlefield(state):
        if perm.card in state.cards.without_statics and not perm.token and not perm.transformed:
            continue
        found.extend((perm.controller, s) for s in ch.face(state, perm).statics if isinstance(s, kind))
    return found


def has_hexproof(state: GameState, player: str) -> bool:
    """702.11c: "You have hexproof" (Teyo, the Shieldmage)."""
    return any(controller == player for controller, _ in _controlled_statics(state, st.YouHaveHexproof))


def hexproof_from(state: GameState, player: str, controller: str) -> bool:
    """702.11c: a player with hexproof can't be the target of spells or abilities their opponents
    control (``controller``: the spell's or ability's); their own and their teammates' may target them."""
    return not teams.teammates(state, player, controller) and has_hexproof(state, player)


def can_gain_life(state: GameState, player: str) -> bool:
    """119.7: not while a permanent of one of their opponents says "Your opponents can't gain life."
    (Tibalt, Rakish Instigator)."""
    return all(teams.teammates(state, controller, player) for controller, _ in _controlled_statics(state, st.OpponentsCantGainLife))
