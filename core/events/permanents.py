"""Schema 5's events: counters removed (704.5q), loyalty costs paid (606.4), Auras and Equipment
attached or unattached (701.3, 704.5m-n), a battle's protector chosen (310.11), cards milled (701.17),
mana spent on a cost a resolving ability asks for (ward, 702.21a), a spell or ability countered, and
permanents returned to their owners' hands or exiled, permanents tapped (a {T} cost, an effect, entering tapped).
Declared after every older event, so older log headers keep their order."""

from __future__ import annotations

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from typing import Any

from mtg_ledger.core.events.changes import leave_battlefield, spend
from mtg_ledger.core.state import GameState


class CountersRemovedFields(TypedDict):
    object: int
    kind: str
    count: int
    rule: str


class CountersRemoved(GameEvent):
    """122.1: ``count`` counters of ``kind`` leave ``object`` (704.5q: +1/+1 and -1/-1 counters
    annihilate; 606.4: a negative loyalty cost)."""

    fields_type = CountersRemovedFields


@applies(CountersRemoved)
def _counters_removed(s: GameState, e: CountersRemovedFields) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.counters[e["kind"]] = max(0, perm.counters.get(e["kind"], 0) - e["count"])


class LoyaltyCostPaidFields(TypedDict):
    object: int
    change: int
    turn: int


class LoyaltyCostPaid(GameEvent):
    """606.4: a loyalty ability's cost, ``change`` loyalty counters put on (+N) or removed from (-N)
    the planeswalker ``object``, in ``turn``: no other loyalty ability of it this turn (606.3)."""

    fields_type = LoyaltyCostPaidFields


@applies(LoyaltyCostPaid)
def _loyalty_paid(s: GameState, e: LoyaltyCostPaidFields) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.counters["loyalty"] = perm.counters.get("loyalty", 0) + e["change"]
        perm.loyalty_turn = e["turn"]


class AttachedFields(TypedDict):
    object: int
    to: int | None
    rule: str


class Attached(GameEvent):
    """701.3: the Aura or Equipment ``object`` becomes attached to ``to`` (303.4f: an Aura spell
    resolving; 702.6a: equip); ``to`` null: it becomes unattached (704.5n)."""

    fields_type = AttachedFields


@applies(Attached)
def _attached(s: GameState, e: AttachedFields) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.attached_to = e["to"]


class ProtectorChosenFields(TypedDict):
    object: int
    player: str


class ProtectorChosen(GameEvent):
    """310.11a: as a Siege enters, its controller chooses an opponent to protect it (asked for by
    ProtectorAsked when there is more than one)."""

    fields_type = ProtectorChosenFields


@applies(ProtectorChosen)
def _protector(s: GameState, e: ProtectorChosenFields) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.protector = e["player"]
    if s.paused is not None and s.paused["choice"] == "choose_protector" and s.paused["object"] == e["object"]:
        s.paused = None  # the choice ProtectorAsked waited for (older games never recorded one)


class CardsMilledFields(TypedDict):
    player: str
    cards: list[str]


class CardsMilled(GameEvent):
    """701.17: the top ``cards`` of the player's library go to their graveyard."""

    fields_type = CardsMilledFields


@applies(CardsMilled)
def _milled(s: GameState, e: CardsMilledFields) -> None:
    player = s.players[e["player"]]
    del player.library[: len(e["cards"])]
    player.graveyard.extend(e["cards"])


class ManaSpentFields(TypedDict):
    player: str
    mana: dict[str, int]
    paid_with: list[int]
    rule: str


class ManaSpent(GameEvent):
    """``player`` pays a cost a resolving ability asks for (702.21a: ward's "unless that player pays")
    with ``mana`` from their pool, after tapping ``paid_with`` for it (the ManaAbilityActivated just before)."""

    fields_type = ManaSpentFields


@applies(ManaSpent)
def _mana_spent(s: GameState, e: ManaSpentFields) -> None:
    spend(s.players[e["player"]].mana_pool, e["mana"])


class ObjectCounteredFields(TypedDict):
    object: int
    card: str
    controller: str
    rule: str


class ObjectCountered(GameEvent):
    """701.6a: a spell or ability on the stack is countered: it leaves the stack, a spell to its
    owner's graveyard (``rule``: what countered it, 702.21a for ward)."""

    fields_type = ObjectCounteredFields


@applies(ObjectCountered)
def _countered(s: GameState, e: ObjectCounteredFields) -> None:
    gone = [o for o in s.stack if o.object == e["object"]]
    s.stack = [o for o in s.stack if o.object != e["object"]]
    for o in gone:
        if o.kind == "spell":
            s.players[o.controller].graveyard.append(o.card)


class PermanentsReturnedToHandFields(TypedDict):
    permanents: list[dict[str, Any]]
    source: int


class PermanentsReturnedToHand(GameEvent):
    """400.7: permanents return to their owners' hands as new objects (a token ceases to exist, 111.7)."""

    fields_type = PermanentsReturnedToHandFields


@applies(PermanentsReturnedToHand)
def _returned(s: GameState, e: PermanentsReturnedToHandFields) -> None:
    for perm in leave_battlefield(s, {item["object"] for item in e["permanents"]}):
        if not perm.token:
            s.players[perm.owner].hand.append(perm.card)


class PermanentsExiledFields(TypedDict):
    permanents: list[dict[str, Any]]
    source: int


class PermanentsExiled(GameEvent):
    """406.2: permanents move to the exile zone (a token ceases to exist, 111.7)."""

    fields_type = PermanentsExiledFields


@applies(PermanentsExiled)
def _exiled(s: GameState, e: PermanentsExiledFields) -> None:
    for perm in leave_battlefield(s, {item["object"] for item in e["permanents"]}):
        if not perm.token:
            s.players[perm.owner].exile.append(perm.card)


class PermanentsTappedFields(TypedDict):
    permanents: list[int]
    rule: str


class PermanentsTapped(GameEvent):
    """701.26a: permanents turned sideways: the source of an ability whose cost has {T} (107.5, 602.2b),
    the targets of a tap effect (701.26), a permanent that enters tapped (614.1c)."""

    fields_type = PermanentsTappedFields


@applies(PermanentsTapped)
def _tapped(s: GameState, e: PermanentsTappedFields) -> None:
    for perm in s.each(e["permanents"]):
        perm.tapped = True


class TopCardRevealedFields(TypedDict):
    player: str
    card: str
    to_hand: bool
    rule: str


class TopCardRevealed(GameEvent):
    """701.20a: the top card of ``player``'s library, revealed to every player (so ``card`` is public); with
    ``to_hand``, that player puts it into their hand ("If it's a land card, that player puts it into their
    hand."), else it stays on top."""

    fields_type = TopCardRevealedFields


@applies(TopCardRevealed)
def _revealed(s: GameState, e: TopCardRevealedFields) -> None:
    if e["to_hand"]:
        player = s.players[e["player"]]
        player.hand.append(player.library.pop(0))


class DeathtouchDamageMarkedFields(TypedDict):
    object: int
    source: int


class DeathtouchDamageMarked(GameEvent):
    """704.5h, 702.2b: ``object``, a creature, was just dealt noncombat damage (the ``DamageDealt`` before
    this event) by ``source``, which has deathtouch: the next check of state-based actions destroys it.
    (Combat damage says so in its assignments.)"""

    fields_type = DeathtouchDamageMarkedFields


@applies(DeathtouchDamageMarked)
def _deathtouch_marked(s: GameState, e: DeathtouchDamageMarkedFields) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.deathtouched = True
