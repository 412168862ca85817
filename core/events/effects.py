"""What resolving spells and abilities, and state-based actions, do to the game: damage, life,
counters, tokens, untapping, continuous effects (611), the turn's extra and skipped phases (500.8,
500.10), and permanents put into graveyards (701.8, 704.5)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.events.base import Event, GameEvent, applies
from mtg_ledger.core.events.changes import deal, leave_battlefield
from mtg_ledger.core.state import Effect, GameState, Permanent


class DamageDealt(GameEvent):
    """120.3: noncombat damage from a resolving spell or ability."""

    source: int
    card: str
    target: Any
    amount: int


@applies(DamageDealt)
def _damage_dealt(s: GameState, e: Event) -> None:
    deal(s, e["target"], e["amount"])


class LifeLost(GameEvent):
    """119.3: life loss that isn't damage."""

    player: str
    amount: int
    source: int | None


@applies(LifeLost)
def _life_lost(s: GameState, e: Event) -> None:
    s.players[e["player"]].life -= e["amount"]


class LifeGained(GameEvent):
    """119.3."""

    player: str
    amount: int
    source: int | None


@applies(LifeGained)
def _life_gained(s: GameState, e: Event) -> None:
    s.players[e["player"]].life += e["amount"]


class CountersAdded(GameEvent):
    """122.1."""

    object: int
    kind: str
    count: int


@applies(CountersAdded)
def _counters(s: GameState, e: Event) -> None:
    perm = s.permanent(e["object"])
    if perm is not None:
        perm.counters[e["kind"]] = perm.counters.get(e["kind"], 0) + e["count"]


class TokenCreated(GameEvent):
    """111.1: a token enters the battlefield as ``object``."""

    player: str
    token: str
    object: int


@applies(TokenCreated)
def _token(s: GameState, e: Event) -> None:
    s.battlefield.append(Permanent(object=e["object"], card=e["token"], owner=e["player"], controller=e["player"], token=True))
    s.next_object = e["object"] + 1


class PermanentsUntappedByEffect(GameEvent):
    """701.21: permanents untapped by a resolving spell or ability."""

    permanents: list[int]
    source: int


@applies(PermanentsUntappedByEffect)
def _untapped_by_effect(s: GameState, e: Event) -> None:
    for perm in s.each(e["permanents"]):
        perm.tapped = False


class ExtraPhaseAdded(GameEvent):
    """500.8: an additional ``phase``, inserted at ``position`` in the phases still to come."""

    phase: str
    source: int
    position: int


@applies(ExtraPhaseAdded)
def _extra_phase(s: GameState, e: Event) -> None:
    s.phase_plan.insert(e["position"], e["phase"])


class PhaseSkipped(GameEvent):
    """500.10: ``player`` skips ``phase``; the effect that said so (``effect``) is used up."""

    phase: str
    source: int
    player: str
    effect: int


@applies(PhaseSkipped)
def _phase_skipped(s: GameState, e: Event) -> None:
    if s.phase_plan and s.phase_plan[0] == e["phase"]:
        s.phase_plan.pop(0)
    s.effects = [eff for eff in s.effects if eff.id != e["effect"]]


class EffectsEnded(GameEvent):
    """611.2a: effects that last "until your next turn" end as that turn begins."""

    effects: list[int]
    rule: str


@applies(EffectsEnded)
def _effects_ended(s: GameState, e: Event) -> None:
    ended = set(e["effects"])
    s.effects = [eff for eff in s.effects if eff.id not in ended]


class EffectCreated(GameEvent):
    """611.2: a continuous effect from a resolved spell (for example +3/+3 until end of turn)."""

    effect: dict[str, Any]


@applies(EffectCreated)
def _effect_created(s: GameState, e: Event) -> None:
    s.effects.append(Effect(**e["effect"]))
    s.next_effect = e["effect"]["id"] + 1


class PermanentsPutIntoGraveyard(GameEvent):
    """704.5f, 704.5g and destruction: permanents move to their owners' graveyards."""

    permanents: list[dict[str, Any]]
    rule: str


@applies(PermanentsPutIntoGraveyard)
def _to_graveyard(s: GameState, e: Event) -> None:
    for perm in leave_battlefield(s, {item["object"] for item in e["permanents"]}):
        if not perm.token:  # 111.7, 704.5d: a token that leaves the battlefield ceases to exist
            s.players[perm.owner].graveyard.append(perm.card)
