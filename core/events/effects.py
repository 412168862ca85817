"""What resolving spells and abilities, and state-based actions, do to the game: damage, life,
counters, tokens, untapping, continuous effects (611), the turn's extra and skipped phases (500.8,
500.10), and permanents put into graveyards (701.8, 704.5)."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.events.changes import deal, leave_battlefield
from mtg_ledger.core.state import Effect, GameState, Permanent


class DamageDealtFields(TypedDict):
    source: int
    card: str
    target: Any
    amount: int


class DamageDealt(GameEvent):
    """120.3: noncombat damage from a resolving spell or ability."""

    fields_type = DamageDealtFields


@applies(DamageDealt)
def _damage_dealt(s: GameState, e: DamageDealtFields) -> None:
    deal(s, e["target"], e["amount"])


class LifeLostFields(TypedDict):
    player: str
    amount: int
    source: int | None


class LifeLost(GameEvent):
    """119.3: life loss that isn't damage."""

    fields_type = LifeLostFields


@applies(LifeLost)
def _life_lost(s: GameState, e: LifeLostFields) -> None:
    s.players[e["player"]].life -= e["amount"]


class LifeGainedFields(TypedDict):
    player: str
    amount: int
    source: int | None


class LifeGained(GameEvent):
    """119.3."""

    fields_type = LifeGainedFields


@applies(LifeGained)
def _life_gained(s: GameState, e: LifeGainedFields) -> None:
    s.players[e["player"]].life += e["amount"]


class CountersAddedFields(TypedDict):
    object: int
    kind: str
    count: int


class CountersAdded(GameEvent):
    """122.1."""

    fields_type = CountersAddedFields


@applies(CountersAdded)
def _counters(s: GameState, e: CountersAddedFields) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.counters[e["kind"]] = perm.counters.get(e["kind"], 0) + e["count"]


class TokenCreatedFields(TypedDict):
    player: str
    token: str
    object: int


class TokenCreated(GameEvent):
    """111.1: a token enters the battlefield as ``object``."""

    fields_type = TokenCreatedFields


@applies(TokenCreated)
def _token(s: GameState, e: TokenCreatedFields) -> None:
    s.battlefield.append(Permanent(object=e["object"], card=e["token"], owner=e["player"], controller=e["player"], token=True))
    s.next_object = e["object"] + 1


class PermanentsUntappedByEffectFields(TypedDict):
    permanents: list[int]
    source: int


class PermanentsUntappedByEffect(GameEvent):
    """701.21: permanents untapped by a resolving spell or ability."""

    fields_type = PermanentsUntappedByEffectFields


@applies(PermanentsUntappedByEffect)
def _untapped_by_effect(s: GameState, e: PermanentsUntappedByEffectFields) -> None:
    for perm in s.each(e["permanents"]):
        perm.tapped = False


class ExtraPhaseAddedFields(TypedDict):
    phase: str
    source: int
    position: int


class ExtraPhaseAdded(GameEvent):
    """500.8: an additional ``phase``, inserted at ``position`` in the phases still to come."""

    fields_type = ExtraPhaseAddedFields


@applies(ExtraPhaseAdded)
def _extra_phase(s: GameState, e: ExtraPhaseAddedFields) -> None:
    s.phase_plan.insert(e["position"], e["phase"])


class PhaseSkippedFields(TypedDict):
    phase: str
    source: int
    player: str
    effect: int


class PhaseSkipped(GameEvent):
    """500.10: ``player`` skips ``phase``; the effect that said so (``effect``) is used up."""

    fields_type = PhaseSkippedFields


@applies(PhaseSkipped)
def _phase_skipped(s: GameState, e: PhaseSkippedFields) -> None:
    if s.phase_plan and s.phase_plan[0] == e["phase"]:
        s.phase_plan.pop(0)
    s.effects = [eff for eff in s.effects if eff.id != e["effect"]]


class EffectsEndedFields(TypedDict):
    effects: list[int]
    rule: str


class EffectsEnded(GameEvent):
    """611.2a: effects that last "until your next turn" end as that turn begins."""

    fields_type = EffectsEndedFields


@applies(EffectsEnded)
def _effects_ended(s: GameState, e: EffectsEndedFields) -> None:
    ended = set(e["effects"])
    s.effects = [eff for eff in s.effects if eff.id not in ended]


class EffectCreatedFields(TypedDict):
    effect: dict[str, Any]


class EffectCreated(GameEvent):
    """611.2: a continuous effect from a resolved spell (for example +3/+3 until end of turn)."""

    fields_type = EffectCreatedFields


@applies(EffectCreated)
def _effect_created(s: GameState, e: EffectCreatedFields) -> None:
    s.effects.append(Effect(**e["effect"]))
    s.next_effect = e["effect"]["id"] + 1


class PermanentsPutIntoGraveyardFields(TypedDict):
    permanents: list[dict[str, Any]]
    rule: str


class PermanentsPutIntoGraveyard(GameEvent):
    """704.5f, 704.5g and destruction: permanents move to their owners' graveyards."""

    fields_type = PermanentsPutIntoGraveyardFields


@applies(PermanentsPutIntoGraveyard)
def _to_graveyard(s: GameState, e: PermanentsPutIntoGraveyardFields) -> None:
    for perm in leave_battlefield(s, {item["object"] for item in e["permanents"]}):
        if not perm.token:  # 111.7, 704.5d: a token that leaves the battlefield ceases to exist
            s.players[perm.owner].graveyard.append(perm.card)
