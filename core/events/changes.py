"""Changes that appliers of several concerns make the same way. Like every applier, they only assign."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.state import GameState, Permanent


def spend(pool: dict[str, int], spent: dict[str, int]) -> None:
    """Mana leaves a mana pool (601.2h, 602.2b, 508.1h)."""
    for color, n in spent.items():
        pool[color] -= n
        if not pool[color]:
            del pool[color]


def deal(s: GameState, target: Any, amount: int, deathtouch: bool = False) -> None:
    """Damage to a player lowers their life (120.3a); to a planeswalker, it removes that many loyalty
    counters (120.3c), to a battle that many defense counters (120.3h): the permanents that have them;
    to a creature, it is marked on it (120.3e), and remembered if its source had deathtouch (704.5h)."""
    if isinstance(target, str):
        s.players[target].life -= amount  # 120.3a
    else:
        perm = s.permanent(target)
        if perm is None:
            return
        counters = perm.counters
        if "loyalty" in counters:  # 120.3c (306.5b: a planeswalker enters with its loyalty counters)
            counters["loyalty"] = max(0, counters["loyalty"] - amount)
        elif "defense" in counters:  # 120.3h (310.4b)
            counters["defense"] = max(0, counters["defense"] - amount)
        else:
            perm.damage += amount  # 120.3e
            if deathtouch and amount > 0:
                perm.deathtouched = True


def leave_battlefield(state: GameState, objects: set[int]) -> list[Permanent]:
    """Permanents leave: they leave combat (506.4) and effects on them have nothing to apply to."""
    gone = [p for p in state.battlefield if p.object in objects]
    state.battlefield = [p for p in state.battlefield if p.object not in objects]
    for other in state.battlefield:  # a permanent that blocked or was blocked by none of them is left unwritten
        if other.blocked_by and not objects.isdisjoint(other.blocked_by):
            other.blocked_by = [o for o in other.blocked_by if o not in objects]
        if other.blocking and not objects.isdisjoint(other.blocking):
            other.blocking = [o for o in other.blocking if o not in objects]
    state.effects = [eff for eff in state.effects if eff.object not in objects]
    return gone
