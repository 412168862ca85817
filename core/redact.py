"""What a viewer may see (rules 400.2, 401.2, 402.3; docs/reference/http.md): one pure function, ``view``,
for states and events alike, used by every route of the service and by the command line.

A player sees everything public, their own hand, and how many cards each library and each other
hand holds; never another player's hand cards, any library's order or contents, the scheme deck's
order, or the card an opponent draws. Every hidden card becomes ``null`` where it stood, so counts
stay visible: an opponent's hand of three is ``[null, null, null]``. A revealed card (701.20a,
``TopCardRevealed``) is public: its event hides nothing, and the card is hidden again once in a hand.

Values that would let a player work hidden cards out are hidden too: the game's ``seed`` (it decides
every shuffle, 701.20), and the hashes of the whole state (``state_hash``) and of the chain (``hash``),
which a player could test guesses against. Only the judge's copy carries ``hash``.

The judge sees everything: the judge's copy is exactly ``state_view(state)`` or the event map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mtg_ledger.core.state import GameState
from mtg_ledger.core.view import state_view

Map = dict[str, Any]


@dataclass(frozen=True)
class Judge:
    """The judge: sees every hidden card, takes no decision."""

    def __str__(self) -> str:
        return "judge"


JUDGE: Final = Judge()


@dataclass(frozen=True)
class Public:
    """Nobody in particular: sees only what every player sees (the public chain's view, ``core.public``)."""

    def __str__(self) -> str:
        return "public"


PUBLIC: Final = Public()
Viewer = str | Judge | Public  # a player's name, the judge, or nobody; any other name sees only what is public


def view(item: GameState | Mapping[str, Any], viewer: Viewer) -> Map:
    """What ``viewer`` may see of a state (as docs/reference/http.md's StateOut) or of an event map (section 3)."""
    if isinstance(item, GameState):
        return view_of_state(state_view(item, with_state_hash=isinstance(viewer, Judge)), viewer)  # others see it null
    return view_of_event(item, viewer)


def view_of_state(state: Mapping[str, Any], viewer: Viewer) -> Map:
    """``view`` of a state already in its section-4 form (``core.view.state_view``)."""
    out = dict(state)
    if isinstance(viewer, Judge):
        return out
    out.pop("hash", None)
    out["state_hash"] = None
    out["schemes"] = _hidden(state.get("schemes"))  # 904: the scheme deck is face down, its order unknown
    out["players"] = {
        name: {**p, "hand": p["hand"] if name == viewer else _hidden(p["hand"])} for name, p in state["players"].items()
    }
    return out


def view_of_event(event: Mapping[str, Any], viewer: Viewer) -> Map:
    """``view`` of one event map: its ``v`` and ``type`` always, hidden values as ``null``."""
    out = dict(event)
    if isinstance(viewer, Judge):
        return out
    out.pop("hash", None)
    hide = _HIDDEN.get(str(event.get("type")))
    if hide is not None:
        hide(out, viewer)
    return out


def _hidden(cards: Any) -> Any:
    """Each hidden card as null: how many stays public (402.3), which ones does not."""
    return [None] * len(cards) if isinstance(cards, list) else None


def _game_started(e: Map, viewer: Viewer) -> None:
    e["seed"] = None  # 701.20: with the seed, every shuffle could be worked out
    e["players"] = [
        {
            **p,
            "library": _hidden(p.get("library")),  # 401.2: no library's order or contents
            "schemes": _hidden(p.get("schemes")),
            "hand": p.get("hand") if p.get("name") == viewer else _hidden(p.get("hand")),  # 402.3
        }
        for p in e.get("players") or []
        if isinstance(p, Mapping)
    ]
    cards = e.get("cards")
    if isinstance(cards, Mapping):  # the definitions of the cards the viewer sees: no more (a token's would tell its maker)
        seen = {n for p in e["players"] for n in [*(p["hand"] or []), *(b.get("card") for b in p.get("battlefield") or [] if isinstance(b, Mapping))]}
        e["cards"] = {n: d for n, d in cards.items() if n in seen}


def _shuffled(e: Map, viewer: Viewer) -> None:
    e["order"] = _hidden(e.get("order"))  # 701.20: the resulting order is nobody's to know


def _drawn(e: Map, viewer: Viewer) -> None:
    if e.get("player") != viewer:
        e["card"] = None  # 402.3: an opponent's hand is hidden, so is the card they draw


def _turn_began(e: Map, viewer: Viewer) -> None:
    e["state_hash"] = None  # a hash of the whole state, hidden cards included


_HIDDEN = {
    "GameStarted": _game_started,
    "LibraryShuffled": _shuffled,
    "SchemeDeckShuffled": _shuffled,
    "CardDrawn": _drawn,
    "TurnBegan": _turn_began,
}
HIDING: Final = frozenset(_HIDDEN)  # the event types that may hold a value some viewer may not see
