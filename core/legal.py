"""Legal actions as a lazy view, backed by the same predicate that validation uses (core.rules.check).

The candidates are the command table's: each command type answering the pending decision lists its
own (core.candidates), in the table's order. ``legal_actions`` is every legal action, up to the
choice of mana sources (a cost is listed once, paid as the engine pays when ``pay`` is left out,
601.2g-h), except where a choice is too large to list: there it holds the simplest actions, and
``core.choices.choices(state).shapes`` says exactly what is left out (a division of combat damage
other than the default, 510.1c-d; and, past ``candidates.LIMIT`` options, the other subsets of
attackers or blockers, orders of triggered abilities or discards).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mtg_ledger.core.candidates import Options
from mtg_ledger.core.command_table import answering
from mtg_ledger.core.commands import Command
from mtg_ledger.core.decision import Decision, pending_decision
from mtg_ledger.core.rules import is_legal
from mtg_ledger.core.state import GameState


def options(state: GameState, decision: Decision, *, anytime: bool = True) -> list[Options[Any]]:
    """Each answering command type's candidates for ``decision``; ``anytime=False`` leaves out the
    actions a player may take at any time (conceding, 104.3a)."""
    return [spec.candidates(state, decision) for spec in answering(decision.kind) if anytime or spec.answers is not None]


def legal_actions(state: GameState, *, allow_concede: bool = False) -> Iterator[Command]:
    """The candidates the rules accept, lazily, each once."""
    decision = pending_decision(state)
    if decision is not None:
        yield from accepted(state, options(state, decision, anytime=allow_concede))


def accepted(state: GameState, found: list[Options[Any]]) -> Iterator[Command]:
    """The listed candidates that ``rules.check`` accepts, in order, each once."""
    seen: dict[Command, None] = {}
    for listed in found:
        for command in listed.listed:
            if command not in seen and is_legal(state, command):
                seen[command] = None
                yield command
