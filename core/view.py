"""The judge's view of a state (docs/reference/http.md, StateOut): everything, hidden information included."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.state import GameState, Permanent


KEYWORDS = (
    "flying", "reach", "vigilance", "trample", "first strike", "double strike",
    "deathtouch", "defender", "hexproof", "indestructible", "lifelink", "menace", "prowess", "ward",
)


def _schema5(p: Permanent) -> dict[str, Any]:
    """What an Aura or Equipment is attached to, the planeswalker or battle a creature attacks, a battle's
    protector: shown only where there is something to show, so every older view stays as it was."""
    out: dict[str, Any] = {}
    if p.attached_to is not None:
        out["attached_to"] = p.attached_to
    if p.attacking_object is not None:
        out["attacking_object"] = p.attacking_object
    if p.protector is not None:
        out["protector"] = p.protector
    return out


def _keywords(state: GameState, perm: Permanent) -> list[str]:
    held = ch.keywords(state, perm)
    return [k for k in KEYWORDS if k in held]


def state_view(state: GameState, *, with_state_hash: bool = True) -> dict[str, Any]:
    """The state as docs/reference/http.md, StateOut shows it. ``with_state_hash=False`` leaves ``state_hash`` null
    (as every viewer but the judge sees it) without finding it."""
    return {
        "version": state.version,
        "hash": state.last_hash,
        "turn": state.turn,
        "phase": state.phase,
        "step": state.step,
        "active_player": state.active_player,
        "priority": state.priority,
        "stack": [
            {"object": s.object, "card": s.card, "controller": s.controller, "kind": s.kind, "targets": list(s.targets)}
            for s in state.stack
        ],
        "day_night": state.day_night,
        "defending_players": list(state.defending_players),
        "teams": [list(t) for t in state.teams],
        "archenemy": state.archenemy,
        "schemes": list(state.schemes),
        "scheme_in_motion": state.scheme_in_motion,
        "phases_to_come": list(state.phase_plan),
        "waiting_triggers": [
            {"object": t.object, "card": t.card, "controller": t.player, "source": t.source} for t in state.pending_triggers
        ],
        "players": {
            name: {
                "life": p.life,
                "hand": list(p.hand),
                "library": len(p.library),
                "graveyard": list(p.graveyard),
                "max_hand_size": ch.max_hand_size(state, name),
                "mana_pool": dict(p.mana_pool),
                "lands_played": p.lands_played,
                "lost": p.lost,
                "loss_reason": p.loss_reason,
                **({"exile": list(p.exile)} if p.exile else {}),
            }
            for name, p in state.players.items()
        },
        "battlefield": [
            {
                "object": p.object,
                "card": ch.name(state, p),
                "owner": p.owner,
                "token": p.token,
                "transformed": p.transformed,
                "controller": p.controller,
                "tapped": p.tapped,
                "damage": p.damage,
                "power": ch.power(state, p) if ch.is_creature(state, p) else None,
                "toughness": ch.toughness(state, p) if ch.is_creature(state, p) else None,
                "summoning_sick": ch.sick(state, p),
                "keywords": _keywords(state, p),
                "attacking": p.attacking,
                "blocking": list(p.blocking),
                "blocked_by": list(p.blocked_by),
                "phased_out": p.phased_out,
                "counters": dict(p.counters),
                **_schema5(p),
            }
            for p in state.battlefield
        ],
        "effects": [
            {
                "id": e.id,
                "kind": e.kind,
                "object": e.object,
                "power": e.power,
                "toughness": e.toughness,
                "keywords": list(e.keywords),
                "until": e.until,
            }
            for e in state.effects
        ],
        "ended": state.ended,
        "winner": state.winner,
        "winners": list(state.winners),
        "state_hash": state.state_hash() if with_state_hash else None,
    }
