"""State-based actions about permanents that arrived with schema 5 (704.5h-j, 704.5m-n, 704.5q,
704.5v-w): what ``core.sba`` performs along with the older ones, found in one pass."""

from __future__ import annotations

from dataclasses import dataclass, field

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import targeting
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.state import GameState, Permanent


@dataclass
class PermanentChecks:
    """What would happen: permanents put into their owners' graveyards (each with its rule),
    Equipment to unattach (704.5n), and +1/+1 and -1/-1 counters to remove in pairs (704.5q)."""

    dying: list[tuple[Permanent, str]] = field(default_factory=list)
    unattach: list[Permanent] = field(default_factory=list)
    annihilate: list[tuple[Permanent, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.dying or self.unattach or self.annihilate)


def attached_legally(state: GameState, perm: Permanent) -> bool:
    """303.4d, 301.5c: an Aura is attached to an object its enchant allows; an Equipment to a creature."""
    host = state.permanent(perm.attached_to) if perm.attached_to is not None else None
    if host is None or host.phased_out or host.object == perm.object:
        return False
    enchant = ch.face(state, perm).enchant
    return targeting.kind_fits(state, enchant if enchant is not None else "creature", host, perm.controller)


def check(state: GameState, perm: Permanent, face: CardDef, already: bool, out: PermanentChecks) -> None:
    """The schema-5 state-based actions one permanent (showing ``face``) calls for, added to ``out``;
    ``already``: it dies by 704.5f-g."""
    plus, minus = perm.counters.get("+1/+1", 0), perm.counters.get("-1/-1", 0)
    if plus and minus:  # 704.5q
        out.annihilate.append((perm, min(plus, minus)))
    if already:
        return
    if perm.deathtouched and "Creature" in face.types and not ch.has_keyword(state, perm, "indestructible"):
        out.dying.append((perm, "704.5h"))
    elif "Planeswalker" in face.types and ch.loyalty(perm) <= 0:
        out.dying.append((perm, "704.5i"))
    elif "Battle" in face.types and ch.defense(perm) <= 0 and not source_of_waiting_trigger(state, perm):  # 704.5v
        out.dying.append((perm, "704.5v"))
    elif "Battle" in face.types and (perm.protector is None or state.players[perm.protector].lost):  # 704.5w
        out.dying.append((perm, "704.5w"))
    elif "Aura" in face.subtypes and not attached_legally(state, perm):
        out.dying.append((perm, "704.5m"))
    elif "Equipment" in face.subtypes and perm.attached_to is not None and not attached_legally(state, perm):
        out.unattach.append(perm)


def source_of_waiting_trigger(state: GameState, perm: Permanent) -> bool:
    """704.5v: whether the permanent is the source of an ability that has triggered but not yet left the
    stack (waiting to be put on it, 603.3, or on it)."""
    return any(t.source == perm.object for t in state.pending_triggers) or any(
        o.kind == "triggered" and o.source == perm.object for o in state.stack
    )


def legend_rule(legendary: list[tuple[Permanent, str]]) -> list[tuple[Permanent, str]]:
    """704.5j: a player who controls two or more legendary permanents with the same name keeps one;
    the rest go to their owners' graveyards. ``legendary``: each legendary permanent on the battlefield
    with its name, in battlefield order. The engine keeps the newest (the choice is not yet asked of
    the player)."""
    seen: dict[tuple[str, str], Permanent] = {}
    out: list[tuple[Permanent, str]] = []
    for perm, name in legendary:
        key = (perm.controller, name)
        if key in seen:
            out.append((seen[key], "704.5j"))
        seen[key] = perm
    return out
