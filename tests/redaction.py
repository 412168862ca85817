"""The check the hidden-information property tests share (400.2, 401.2, 402.3): at every version of a game,
each player's copy of the state and of the event names only cards that player may know, and the judge's copy
is the state and the log unchanged.

A player may know the cards that have been public (the battlefield, the stack, waiting triggers, graveyards,
exile, a scheme set in motion, a card revealed: 701.20a) and those that have been in their own hand. The tests give each player cards
of names no other player has, so that a leak of an opponent's hand or of a library names a card the viewer
was never allowed to see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.redact import JUDGE, view
from mtg_ledger.core.state import GameState
from mtg_ledger.core.view import state_view


def names_in(value: Any, names: frozenset[str]) -> set[str]:
    """The card names among ``names`` that ``value`` holds, at any depth."""
    if isinstance(value, str):
        return {value} if value in names else set()
    if isinstance(value, dict):
        return set().union(*(names_in(v, names) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(names_in(v, names) for v in value)) if value else set()
    return set()


def public_names(shown: Mapping[str, Any], names: frozenset[str]) -> set[str]:
    """What the judge's copy of the state shows in public zones."""
    found = {p["card"] for p in shown["battlefield"]} | {s["card"] for s in shown["stack"]}
    found |= {t["card"] for t in shown["waiting_triggers"]}
    for p in shown["players"].values():
        found |= set(p["graveyard"]) | set(p.get("exile", ()))
    if shown.get("scheme_in_motion"):
        found.add(shown["scheme_in_motion"])
    return found | names_in(shown["battlefield"], names)


def check_every_view(events: Iterable[Mapping[str, Any]], names: frozenset[str]) -> GameState:
    """Fold ``events`` and check every player's and the judge's copy after each; the state folded."""
    state = GameState()
    seen_public: set[str] = set()
    seen_in_hand: dict[str, set[str]] = {}
    for e in events:
        apply_event(state, e)
        judge_copy = state_view(state)
        assert view(state, JUDGE) == judge_copy and view(e, JUDGE) == e
        seen_public |= public_names(judge_copy, names)
        if e["type"] == "TopCardRevealed":  # 701.20a: a revealed card is shown to every player
            seen_public.add(e["card"])
        for name, p in judge_copy["players"].items():
            seen_in_hand.setdefault(name, set()).update(p["hand"])
        for viewer in state.players:
            allowed = seen_public | seen_in_hand[viewer]
            shown_state, shown_event = view(state, viewer), view(e, viewer)
            assert names_in(shown_state, names) <= allowed, f"{viewer} sees {names_in(shown_state, names) - allowed} at version {e['v']}"
            assert names_in(shown_event, names) <= allowed, f"{viewer} sees {names_in(shown_event, names) - allowed} in {e}"
            assert "hash" not in shown_event and "hash" not in shown_state
    return state
