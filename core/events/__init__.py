"""Every event of the log, declared once beside its applier, grouped by concern (docs/reference/events.md,
schema version 2).

Events are frozen facts named in the past tense. Each carries ``hash``, the chain hash over its
contract map (``core.hashing``). The function right below each event class, marked ``@applies``, is
its applier: it only assigns what the event says (``base``).

  base          GameEvent, the registries EVENT_TYPES, APPLIERS, UPCASTERS and NEVER_IN (filled by the declarations), apply_event
  turn          the game's start; turns, steps and phases; untap, draws
  turn_actions  phasing, day and night, transforming, schemes, lore
  priority      priority; lands played, mana abilities, spells cast, abilities activated
  stack         triggered abilities waiting and stacked; resolution and its pauses
  effects       damage, life, counters, tokens, untapping, continuous effects, extra and skipped phases, graveyards
  combat        defending player, attackers, blockers, combat damage, removal from combat
  cleanup       discards, the cleanup step's damage removal, mana pools emptying
  outcome       players leaving the game, the game's end
  permanents    (schema 5) counters removed, loyalty costs, attachments, a battle's protector, milling, ward, countering, returning to hand, exile, tapping, revealing, deathtouch in noncombat damage
  sieges        a defeated Siege cast transformed from exile, or not (310.11b)
  changes       the few changes appliers of several concerns share (spending mana, dealing damage, leaving play)
  costs         an activated ability's cost waiting for its controller's choice (the cards it discards)
  protector     a Siege entering, waiting for its controller's choice of protector (310.11a)

The modules are imported in the order their events were first declared: the order of ``EVENT_TYPES``
is the order log headers list event types in, part of a log file's bytes.
"""

from __future__ import annotations

from mtg_ledger.core.events.base import APPLIERS, EVENT_TYPES, NEVER_IN, UPCASTERS, GameEvent, apply_event, applies, stored_upcaster
from mtg_ledger.core.events.turn import (
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
)
from mtg_ledger.core.events.turn_actions import (
    PermanentsPhased,
    DayNightChanged,
    PermanentsTransformed,
    SchemeSetInMotion,
    SchemePutOnBottom,
    LoreCounterAdded,
)
from mtg_ledger.core.events.priority import (
    LandPlayed,
    PriorityGiven,
    PriorityPassed,
    ManaAbilityActivated,
    SpellCast,
    AbilityActivated,
)
from mtg_ledger.core.events.stack import (
    AbilityTriggered,
    TriggerOrderAsked,
    TriggeredAbilitiesStacked,
    ResolutionPaused,
    ObjectResolved,
)
from mtg_ledger.core.events.effects import (
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
)
from mtg_ledger.core.events.combat import (
    DefendingPlayerChosen,
    AttackersDeclared,
    BlockersDeclared,
    CombatDamageDealt,
    RemovedFromCombat,
)
from mtg_ledger.core.events.cleanup import (
    CardsDiscarded,
    CleanupPerformed,
    ManaPoolEmptied,
)
from mtg_ledger.core.events.outcome import (
    PlayerLost,
    GameEnded,
)
from mtg_ledger.core.events.permanents import (
    CountersRemoved,
    LoyaltyCostPaid,
    Attached,
    ProtectorChosen,
    CardsMilled,
    ManaSpent,
    ObjectCountered,
    PermanentsReturnedToHand,
    PermanentsExiled,
    PermanentsTapped,
    TopCardRevealed,
    DeathtouchDamageMarked,
)
from mtg_ledger.core.events.sieges import SpellCastTransformed, CastDeclined
from mtg_ledger.core.events.costs import (
    ActivationPaused,
)
from mtg_ledger.core.events.protector import ProtectorAsked

__all__ = [
    "APPLIERS",
    "EVENT_TYPES",
    "UPCASTERS",
    "NEVER_IN",
    "GameEvent",
    "apply_event",
    "applies",
    "stored_upcaster",
    "GameStarted",
    "LibraryShuffled",
    "SchemeDeckShuffled",
    "TurnBegan",
    "StepBegan",
    "StepEnded",
    "PermanentsUntapped",
    "CardDrawn",
    "EmptyLibraryDrawAttempted",
    "DrawSkipped",
    "PermanentsPhased",
    "DayNightChanged",
    "PermanentsTransformed",
    "SchemeSetInMotion",
    "SchemePutOnBottom",
    "LoreCounterAdded",
    "LandPlayed",
    "PriorityGiven",
    "PriorityPassed",
    "ManaAbilityActivated",
    "SpellCast",
    "AbilityActivated",
    "AbilityTriggered",
    "TriggerOrderAsked",
    "TriggeredAbilitiesStacked",
    "ResolutionPaused",
    "ObjectResolved",
    "DamageDealt",
    "LifeLost",
    "LifeGained",
    "CountersAdded",
    "TokenCreated",
    "PermanentsUntappedByEffect",
    "ExtraPhaseAdded",
    "PhaseSkipped",
    "EffectsEnded",
    "EffectCreated",
    "PermanentsPutIntoGraveyard",
    "DefendingPlayerChosen",
    "AttackersDeclared",
    "BlockersDeclared",
    "CombatDamageDealt",
    "RemovedFromCombat",
    "CardsDiscarded",
    "CleanupPerformed",
    "ManaPoolEmptied",
    "PlayerLost",
    "GameEnded",
    "CountersRemoved",
    "LoyaltyCostPaid",
    "Attached",
    "ProtectorChosen",
    "CardsMilled",
    "ManaSpent",
    "ObjectCountered",
    "PermanentsReturnedToHand",
    "PermanentsExiled",
    "PermanentsTapped",
    "TopCardRevealed",
    "DeathtouchDamageMarked",
    "SpellCastTransformed",
    "CastDeclined",
    "ActivationPaused",
    "ProtectorAsked",
]
