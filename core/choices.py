"""Every legal answer to the pending decision, or, where the choice is too large to list, its shape.

The legal actions (core.legal) of the pending decision, conceding included (104.3a), with the
shape of each choice too large to list (core.candidates): what may be chosen from, in the action's
own terms. Actions are listed up to the choice of mana sources: a spell or attack cost is listed
once, paid as the engine pays when ``pay`` is left out (601.2g-h).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtg_ledger.core.commands import Command
from mtg_ledger.core.legal import accepted, options
from mtg_ledger.core.decision import Decision, pending_decision
from mtg_ledger.core.state import GameState


@dataclass(frozen=True)
class Choices:
    """The pending decision, its legal actions, and the shape of any choice too large to list."""

    decision: Decision | None
    actions: list[Command] = field(default_factory=list)
    shapes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when ``actions`` is every legal action (up to the choice of mana sources)."""
        return not self.shapes


def choices(state: GameState) -> Choices:
    decision = pending_decision(state)
    if decision is None:
        return Choices(None)
    found = options(state, decision)
    return Choices(decision, list(accepted(state, found)), [o.shape for o in found if o.shape is not None])
