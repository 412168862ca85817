"""What happens as a permanent enters the battlefield (resolving as a spell, 608.3, or there as the game
starts): a Saga's first lore counter (714.3a), a daybound permanent at night (702.145), a planeswalker's
loyalty counters (306.5b), a battle's protector and defense counters (310.11a, 310.4b), an Aura
attached to what its spell targeted (303.4a, 608.3), tapped if it says so (614.1c)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import events as ev
from mtg_ledger.core import teams
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.characteristics import face
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.statics import EntersTapped


def entered(table: Table, obj: int, definition: CardDef, controller: str, targets: list[Any] | None = None) -> None:
    s = table.state
    if "Saga" in definition.subtypes:
        emit(table, ev.LoreCounterAdded, saga=obj, count=1, total=1)
    if definition.daybound and s.day_night == "night":
        emit(table, ev.PermanentsTransformed, permanents=[obj], rule="702.145")
    if definition.loyalty is not None:  # 306.5b
        emit(table, ev.CountersAdded, object=obj, kind="loyalty", count=definition.loyalty)
    if definition.defense is not None:
        # 310.11a: as a Siege enters, its controller chooses an opponent to protect it; the engine chooses
        # the first of them in turn order (the choice is not yet asked of the player)
        opponents = teams.opponents(s, controller)
        if opponents:
            emit(table, ev.ProtectorChosen, object=obj, player=opponents[0])
        emit(table, ev.CountersAdded, object=obj, kind="defense", count=definition.defense)  # 310.4b
    if any(isinstance(st, EntersTapped) for st in definition.statics):  # 614.1c
        emit(table, ev.PermanentsTapped, permanents=[obj], rule="614.1c")
    if definition.enchant is not None and targets:  # 303.4a, 608.3: it enters attached to its target
        emit(table, ev.Attached, object=obj, to=targets[0], rule="303.4a")


def starting_permanents(table: Table) -> None:
    """The permanents on the battlefield as the game starts enter with their counters (306.5b, 310.4b)."""
    for perm in list(table.state.battlefield):
        definition = face(table.state, perm)
        if definition.loyalty is not None or definition.defense is not None:
            entered(table, perm.object, definition, perm.controller)
