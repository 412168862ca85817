"""Every event of the log, declared once, here (CONTRACT section 3, schema version 2).

Events are frozen facts named in the past tense. Each carries ``hash``, the chain hash over its
contract map (``core.hashing``). Their ``apply`` is the applier: it hands the contract map to
``core.apply``, which only assigns what the event says.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from eventsourcing.domain import Aggregate

from mtg_ledger.core.apply import apply_event
from mtg_ledger.core.topics import stored_as
from mtg_ledger.core.schema import stored_upcaster

SCHEMA_VERSION = 2  # 2: GameEnded.reason is a code, winners the whole winning team (core.schema upcasts 1)
_LIBRARY_FIELDS = frozenset({"originator_id", "originator_version", "timestamp", "originator_topic", "hash"})


class GameEvent(Aggregate.Event):
    hash: str

    field_names: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The stored topic is the event's contract type name; ``core.events:<type>`` is how the
        # stores written before the mtg_ledger namespace named it.
        stored_as(cls.__name__, f"core.events:{cls.__name__}")(cls)

    def to_map(self) -> dict[str, Any]:
        """The contract map of this event: ``{"v", "type", ...fields, "hash"}``."""
        names = type(self).field_names or _field_names(type(self))
        out: dict[str, Any] = {"v": self.originator_version, "type": type(self).__name__}
        for name in names:
            out[name] = getattr(self, name)
        out["hash"] = self.hash
        return out

    def apply(self, aggregate: Any) -> None:
        apply_event(aggregate.state, self.to_map())


def _field_names(cls: type) -> tuple[str, ...]:
    names = tuple(f.name for f in dataclasses.fields(cls) if f.name not in _LIBRARY_FIELDS)
    cls.field_names = names  # type: ignore[attr-defined]
    return names


class GameStarted(GameEvent, Aggregate.Created):
    """103: the game starts; players, their zones as given, format, seed and rules edition."""

    players: list[dict[str, Any]]
    format: str
    seed: int
    starting_player: str
    rules: str
    shuffle: bool
    teams: list[list[str]]  # 904.2, 805: teams sharing turns, in turn order; empty when every player is alone
    archenemy: str | None  # 904.2a


class LibraryShuffled(GameEvent):
    """701.20: the resulting order travels in the event."""

    player: str
    order: list[str]


class SchemeDeckShuffled(GameEvent):
    """904.4: the archenemy's scheme deck, shuffled; the resulting order travels in the event."""

    player: str
    order: list[str]


class TurnBegan(GameEvent):
    """500.1. ``state_hash`` is the canonical hash of the whole state as the turn begins (before this
    event), so a replay can prove it rebuilt the same game turn by turn."""

    turn: int
    active_player: str
    state_hash: str


class StepBegan(GameEvent):
    """500-514. A main phase is a step of its own name; ``first_strike`` marks 510.4's first step."""

    turn: int
    phase: str
    step: str
    first_strike: bool


class StepEnded(GameEvent):
    """500.2."""

    turn: int
    step: str


class PermanentsUntapped(GameEvent):
    """502.3."""

    player: str
    permanents: list[int]


class CardDrawn(GameEvent):
    """504.1, 121.2; also the opening hand (103.5)."""

    player: str
    card: str


class EmptyLibraryDrawAttempted(GameEvent):
    """121.4: a draw from an empty library; the player loses at the next check (704.5b)."""

    player: str


class DrawSkipped(GameEvent):
    """103.8a."""

    player: str
    rule: str


class PermanentsPhased(GameEvent):
    """502.1, 702.26: the active player's phasing permanents phase out, and those that phased out
    under their control phase in, simultaneously."""

    phased_in: list[int]
    phased_out: list[int]


class DayNightChanged(GameEvent):
    """502.2, 726.3 (and 726.2 as it first becomes day): ``transformed`` are the daybound and
    nightbound permanents that transform as it changes (702.145)."""

    to: str
    rule: str
    transformed: list[int]


class PermanentsTransformed(GameEvent):
    """712, 702.145: permanents turned to their other face (a daybound permanent entering at night)."""

    permanents: list[int]
    rule: str


class SchemeSetInMotion(GameEvent):
    """505.3, 904.9: the top scheme of the archenemy's scheme deck is set in motion."""

    player: str
    scheme: str


class SchemePutOnBottom(GameEvent):
    """904: a scheme that isn't ongoing is put on the bottom of its owner's scheme deck."""

    player: str
    scheme: str


class LoreCounterAdded(GameEvent):
    """714.3a (as a Saga enters) and 505.4 (the precombat main phase): ``total`` counters after ``count`` added."""

    saga: int
    count: int
    total: int


class LandPlayed(GameEvent):
    """505.6b, 305.1: a special action; the land is a new object on the battlefield."""

    player: str
    card: str
    object: int


class PriorityGiven(GameEvent):
    """117.3."""

    player: str


class PriorityPassed(GameEvent):
    """117.3d."""

    player: str


class ManaAbilityActivated(GameEvent):
    """605: a mana ability taps its source and adds mana without using the stack."""

    player: str
    source: int
    card: str
    mana: str


class SpellCast(GameEvent):
    """601.2: the card moves from hand to the stack as a new object; its cost is paid from the pool."""

    player: str
    card: str
    object: int
    targets: list[Any]
    mana_spent: dict[str, int]
    paid_with: list[int]  # the mana sources tapped while casting (the ManaAbilityActivated just before)


class AbilityActivated(GameEvent):
    """602.2: an activated ability goes on the stack as ``object``; its cost is paid from the pool."""

    player: str
    source: int
    card: str
    ability: int
    object: int
    targets: list[Any]
    mana_spent: dict[str, int]
    paid_with: list[int]


class AbilityTriggered(GameEvent):
    """603.2: an ability triggers; it waits, as ``object``, to be put on the stack the next time a
    player would receive priority (603.3). ``context`` is what it saw (a player, a chapter)."""

    player: str
    source: int | None
    card: str
    ability: int
    object: int
    context: dict[str, Any]


class TriggerOrderAsked(GameEvent):
    """603.3b-d: ``player`` must put their waiting triggered abilities on the stack in an order of
    their choice (and choose targets); ``priority_to`` receives priority afterwards."""

    player: str
    priority_to: str


class TriggeredAbilitiesStacked(GameEvent):
    """603.3b: ``player``'s triggered abilities go on the stack, ``objects`` bottom first, with their
    ``targets``; those in ``removed`` had no legal target and are removed (603.3d)."""

    player: str
    objects: list[int]
    targets: dict[str, list[Any]]
    removed: list[int]


class ResolutionPaused(GameEvent):
    """608.2d: a resolving object waits for its controller's choice (``choice``: discard ``count``)."""

    object: int
    player: str
    choice: str
    count: int
    effect: int


class ObjectResolved(GameEvent):
    """608.2: ``outcome`` is ``resolved``, or ``fizzled`` when every target became illegal (608.2b).

    A permanent spell becomes the permanent ``permanent`` (608.3); others go to the graveyard (608.2n).
    """

    object: int
    card: str
    controller: str
    outcome: str
    permanent: int | None


class DamageDealt(GameEvent):
    """120.3: noncombat damage from a resolving spell or ability."""

    source: int
    card: str
    target: Any
    amount: int


class LifeLost(GameEvent):
    """119.3: life loss that isn't damage."""

    player: str
    amount: int
    source: int | None


class LifeGained(GameEvent):
    """119.3."""

    player: str
    amount: int
    source: int | None


class CountersAdded(GameEvent):
    """122.1."""

    object: int
    kind: str
    count: int


class TokenCreated(GameEvent):
    """111.1: a token enters the battlefield as ``object``."""

    player: str
    token: str
    object: int


class PermanentsUntappedByEffect(GameEvent):
    """701.21: permanents untapped by a resolving spell or ability."""

    permanents: list[int]
    source: int


class ExtraPhaseAdded(GameEvent):
    """500.8: an additional ``phase``, inserted at ``position`` in the phases still to come."""

    phase: str
    source: int
    position: int


class PhaseSkipped(GameEvent):
    """500.10: ``player`` skips ``phase``; the effect that said so (``effect``) is used up."""

    phase: str
    source: int
    player: str
    effect: int


class EffectsEnded(GameEvent):
    """611.2a: effects that last "until your next turn" end as that turn begins."""

    effects: list[int]
    rule: str


class EffectCreated(GameEvent):
    """611.2: a continuous effect from a resolved spell (for example +3/+3 until end of turn)."""

    effect: dict[str, Any]


class PermanentsPutIntoGraveyard(GameEvent):
    """704.5f, 704.5g and destruction: permanents move to their owners' graveyards."""

    permanents: list[dict[str, Any]]
    rule: str


class DefendingPlayerChosen(GameEvent):
    """507.1: in the single-defender format, the active player chooses the defending player."""

    player: str
    chooser: str


class AttackersDeclared(GameEvent):
    """508.1: ``attackers`` maps each creature to the player it attacks; attackers without
    vigilance are ``tapped`` (508.1f); ``costs_paid`` lists the attack costs (508.1g-h), paid with
    ``mana_spent`` from the active player's pool."""

    player: str
    attackers: list[dict[str, Any]]
    tapped: list[int]
    costs_paid: list[dict[str, Any]]
    mana_spent: dict[str, int]
    paid_with: list[int]


class BlockersDeclared(GameEvent):
    """509.1: ``blockers`` maps each blocking creature to the attacker it blocks."""

    player: str
    blockers: list[dict[str, Any]]


class CombatDamageDealt(GameEvent):
    """510.1-510.2: every assignment, dealt simultaneously. In the first of two combat damage
    steps (``first_strike``), ``first_strikers`` are the attacking and blocking creatures that had
    first strike or double strike as the step began (510.4)."""

    assignments: list[dict[str, Any]]
    first_strike: bool
    first_strikers: list[int]


class RemovedFromCombat(GameEvent):
    """511.3."""

    permanents: list[int]


class CardsDiscarded(GameEvent):
    """514.1 (the cleanup discard, with the ``max_hand_size`` it met), or 608.2d (a discard a
    resolving ability asked for; ``rule`` says which)."""

    player: str
    cards: list[str]
    max_hand_size: int | None
    rule: str


class CleanupPerformed(GameEvent):
    """514.2: damage removal and the end of "until end of turn" effects, simultaneously."""

    damage_removed: list[int]
    effects_ended: list[int]


class ManaPoolEmptied(GameEvent):
    """500.4."""

    player: str
    mana: dict[str, int]


class PlayerLost(GameEvent):
    """104.3, 704.5."""

    player: str
    reason: str
    rule: str


class GameEnded(GameEvent):
    """104.2, 104.4: the game's outcome (core.outcome.Outcome). ``winner`` is null for a draw;
    ``winners`` names every winning player, a whole team with shared team turns (805); ``reason`` is
    an ``outcome.Reason`` code. Class version 2 (schema 2): version 1's ``reason`` was free text."""

    class_version = 2
    upcast_v1_v2 = stored_upcaster("GameEnded", 1)

    winner: str | None
    winners: list[str]
    reason: str


EVENT_TYPES: dict[str, type[GameEvent]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        LibraryShuffled,
        SchemeDeckShuffled,
        TurnBegan,
        StepBegan,
        StepEnded,
        PermanentsUntapped,
        CardDrawn,
        EmptyLibraryDrawAttempted,
        DrawSkipped,
        PermanentsPhased,
        DayNightChanged,
        PermanentsTransformed,
        SchemeSetInMotion,
        SchemePutOnBottom,
        LoreCounterAdded,
        LandPlayed,
        PriorityGiven,
        PriorityPassed,
        ManaAbilityActivated,
        SpellCast,
        AbilityActivated,
        AbilityTriggered,
        TriggerOrderAsked,
        TriggeredAbilitiesStacked,
        ResolutionPaused,
        ObjectResolved,
        DamageDealt,
        LifeLost,
        LifeGained,
        CountersAdded,
        TokenCreated,
        PermanentsUntappedByEffect,
        ExtraPhaseAdded,
        PhaseSkipped,
        EffectsEnded,
        EffectCreated,
        PermanentsPutIntoGraveyard,
        DefendingPlayerChosen,
        AttackersDeclared,
        BlockersDeclared,
        CombatDamageDealt,
        RemovedFromCombat,
        CardsDiscarded,
        CleanupPerformed,
        ManaPoolEmptied,
        PlayerLost,
        GameEnded,
    )
}
for _cls in EVENT_TYPES.values():
    _field_names(_cls)
