"""Browsing a stored game a window at a time (the viewer's routes): the timeline around a version,
the steps of one turn as they happened, and where the next step, decision or event of a kind is.

Nothing here reads a whole log: each function reads a bounded window of events from the store.
``redact`` is the viewer's redaction (core.redact through the service), applied to each event map.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.text import describe

Map = dict[str, Any]
Redact = Callable[[Map], Map]
WINDOW = 500  # events read from the store at a time
MAX_SCAN = 200_000  # how far a search looks before it says "not found"
MAX_ROWS = 500  # timeline rows in one answer
DECISIONS = frozenset({"PriorityPassed", "LandPlayed", "SpellCast", "AbilityActivated", "ManaAbilityActivated",
                       "AttackersDeclared", "BlockersDeclared", "DefendingPlayerChosen", "CardsDiscarded",
                       "TriggeredAbilitiesStacked", "PlayerLost"})


def _plain(e: Map) -> Map:
    return e


def timeline(ledger: Ledger, game: UUID, first: int, last: int, redact: Redact = _plain) -> list[Map]:
    """Events ``first`` to ``last`` (at most MAX_ROWS), each with its text line, its rule, and the turn
    and step it happened in."""
    first = max(1, first)
    last = min(last, first + MAX_ROWS - 1)
    before = ledger.state(game, first - 1) if first > 1 else None
    turn = before.turn if before is not None else 0
    step = before.step if before is not None else None
    rows = []
    for e in ledger.event_maps(game, first=first, last=last):
        if e["type"] == "TurnBegan":
            turn, step = e["turn"], None
        elif e["type"] == "StepBegan":
            turn, step = e["turn"], e["step"]
        seen = redact(e)
        rows.append({"v": e["v"], "type": e["type"], "text": describe(seen).strip(), "rule": e.get("rule"),
                     "turn": turn, "step": step, "player": seen.get("player")})
    return rows


def _backwards(ledger: Ledger, game: UUID, before: int) -> Iterator[Map]:
    """Events from ``before`` down to 1, newest first, a window at a time (bounded by MAX_SCAN)."""
    last = before
    while last >= 1 and before - last < MAX_SCAN:
        first = max(1, last - WINDOW + 1)
        yield from reversed(list(ledger.event_maps(game, first=first, last=last)))
        last = first - 1


def _forwards(ledger: Ledger, game: UUID, after: int) -> Iterator[Map]:
    first = after + 1
    while first - after < MAX_SCAN:
        window = list(ledger.event_maps(game, first=first, last=first + WINDOW - 1))
        yield from window
        if len(window) < WINDOW:
            return
        first += WINDOW


@dataclass(frozen=True)
class TurnOutline:
    turn: int
    began: int  # version of its TurnBegan (0 before the first turn)
    steps: list[Map]  # {"v", "phase", "step", "first_strike", "extra"} in order
    skipped: list[str]  # phases skipped this turn (500.10)
    complete: bool  # the turn has ended (its steps are all known)
    outcome: str | None = None  # the game ended in this turn: how ("game over: bob wins: ..."); its steps after that were never played
    ended_at: int | None = None  # the version of that GameEnded

    def to_json(self) -> Map:
        return {"turn": self.turn, "began": self.began, "steps": self.steps, "skipped": self.skipped, "complete": self.complete,
                "outcome": self.outcome, "ended_at": self.ended_at}


def turn_outline(ledger: Ledger, game: UUID, at: int) -> TurnOutline:
    """The steps of the turn that version ``at`` belongs to, as they happened (extra and skipped phases,
    a second combat damage step, a second cleanup step included)."""
    began = next((e for e in _backwards(ledger, game, at) if e["type"] == "TurnBegan"), None)
    if began is None:
        return TurnOutline(0, 0, [], [], False)
    steps: list[Map] = []
    skipped: list[str] = []
    extra: set[str] = set()
    complete = False
    for e in _forwards(ledger, game, began["v"]):
        if e["type"] == "GameEnded":  # 104: the rest of the turn is never played
            return TurnOutline(began["turn"], began["v"], steps, skipped, True, describe(e).strip(), e["v"])
        if e["type"] == "TurnBegan":
            complete = True
            break
        if e["type"] == "PhaseSkipped":
            skipped.append(e["phase"])
        elif e["type"] == "ExtraPhaseAdded":
            extra.add(e["phase"])
        elif e["type"] == "StepBegan":
            again = any(s["phase"] == e["phase"] and s["step"] == e["step"] for s in steps)
            steps.append({"v": e["v"], "phase": e["phase"], "step": e["step"], "first_strike": bool(e.get("first_strike")),
                          "extra": e["phase"] in extra and again})
    return TurnOutline(began["turn"], began["v"], steps, skipped, complete)


def find(ledger: Ledger, game: UUID, after: int, *, back: bool = False, step_boundary: bool = False,
         turn: int | None = None, step: str | None = None, player: str | None = None, kind: str | None = None) -> int | None:
    """The version of the first event after (or, ``back``, before) ``after`` that matches: a step's
    beginning (``step_boundary``), turn ``turn``'s step ``step``, a decision of ``player``, or an
    event of type ``kind``. None when no such event is within MAX_SCAN events."""
    if turn is not None:  # a turn and step: search from the start, forwards
        after, back = 0, False
    events = _backwards(ledger, game, after - 1) if back else _forwards(ledger, game, after)
    current_turn = 0
    for e in events:
        if e["type"] == "TurnBegan":
            current_turn = e["turn"]
        if step_boundary and e["type"] == "StepBegan":
            return int(e["v"])
        if turn is not None and e["type"] == "StepBegan" and e["turn"] == turn and (step is None or e["step"] == step):
            return int(e["v"])
        if turn is not None and current_turn > turn:
            return None
        if player is not None and e["type"] in DECISIONS and e.get("player") == player:
            return int(e["v"])
        if kind is not None and e["type"] == kind:
            return int(e["v"])
    return None
