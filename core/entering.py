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

PROTECTOR_RULE = "310.11a"


def entered(table: Table, obj: int, definition: CardDef, controller: str, targets: list[Any] | None = None, ask: bool = True) -> bool:
    """The permanent ``obj`` enters. False when it waits for its controller's choice of protector
    (310.11a): ``protector_chosen`` then goes on with the rest of its entering."""
    s = table.state
    if "Saga" in definition.subtypes:
        emit(table, ev.LoreCounterAdded, saga=obj, count=1, total=1)
    if definition.daybound and s.day_night == "night":
        emit(table, ev.PermanentsTransformed, permanents=[obj], rule="702.145")
    if definition.loyalty is not None:  # 306.5b
        emit(table, ev.CountersAdded, object=obj, kind="loyalty", count=definition.loyalty)
    if definition.defense is not None:
        # 310.11a: as a Siege enters, its controller chooses an opponent to protect it: asked when there is
        # more than one to choose from; the only one is chosen at once
        opponents = teams.opponents(s, controller)
        if len(opponents) > 1 and ask:
            emit(table, ev.ProtectorAsked, object=obj, player=controller, rule=PROTECTOR_RULE)
            return False
        if opponents:
            emit(table, ev.ProtectorChosen, object=obj, player=opponents[0])
    _after_protector(table, obj, definition, targets)
    return True


def protector_chosen(table: Table, obj: int, definition: CardDef, protector: str) -> None:
    """310.11a: the protector its controller chose, recorded; the Siege goes on entering."""
    emit(table, ev.ProtectorChosen, object=obj, player=protector)
    _after_protector(table, obj, definition, None)


def _after_protector(table: Table, obj: int, definition: CardDef, targets: list[Any] | None) -> None:
    if definition.defense is not None:
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
            # 310.11a: a Siege there as the game starts protected by the first of its controller's opponents
            # in turn order: nobody is asked before the game has begun
            entered(table, perm.object, definition, perm.controller, ask=False)
