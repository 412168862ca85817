"""Priority (117), and what a player does with it: playing a land (305), activating mana abilities
(605), casting spells (601) and activating abilities (602)."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from mtg_ledger.core.events.base import GameEvent, applies
from mtg_ledger.core.events.changes import spend
from mtg_ledger.core.state import GameState, Permanent, StackObject


class LandPlayedFields(TypedDict):
    player: str
    card: str
    object: int


class LandPlayed(GameEvent):
    """505.6b, 305.1: a special action; the land is a new object on the battlefield."""

    fields_type = LandPlayedFields


@applies(LandPlayed)
def _land_played(s: GameState, e: LandPlayedFields) -> None:
    player = s.players[e["player"]]
    player.hand.remove(e["card"])
    player.lands_played += 1
    s.battlefield.append(Permanent.entering(e["object"], e["card"], e["player"], e["player"]))
    s.next_object = e["object"] + 1
    s.passes = []


class PriorityGivenFields(TypedDict):
    player: str


class PriorityGiven(GameEvent):
    """117.3."""

    fields_type = PriorityGivenFields


@applies(PriorityGiven)
def _priority_given(s: GameState, e: PriorityGivenFields) -> None:
    s.priority = e["player"]
    s.priority_given_this_step = True
    s.ordering = None


class PriorityPassedFields(TypedDict):
    player: str


class PriorityPassed(GameEvent):
    """117.3d."""

    fields_type = PriorityPassedFields


@applies(PriorityPassed)
def _priority_passed(s: GameState, e: PriorityPassedFields) -> None:
    s.priority = None
    s.passes.append(e["player"])


class ManaAbilityActivatedFields(TypedDict):
    player: str
    source: int
    card: str
    mana: str


class ManaAbilityActivated(GameEvent):
    """605: a mana ability taps its source and adds mana without using the stack."""

    fields_type = ManaAbilityActivatedFields


@applies(ManaAbilityActivated)
def _mana_ability(s: GameState, e: ManaAbilityActivatedFields) -> None:
    perm = s.permanent(e["source"])
    if perm is not None:
        perm.tapped = True
    pool = s.players[e["player"]].mana_pool
    pool[e["mana"]] = pool.get(e["mana"], 0) + 1
    s.passes = []  # 117.4: an action breaks a succession of passes


class SpellCastFields(TypedDict):
    player: str
    card: str
    object: int
    targets: list[Any]
    mana_spent: dict[str, int]
    paid_with: list[int]  # the mana sources tapped while casting (the ManaAbilityActivated just before)


class SpellCast(GameEvent):
    """601.2: the card moves from hand to the stack as a new object; its cost is paid from the pool."""

    fields_type = SpellCastFields


@applies(SpellCast)
def _spell_cast(s: GameState, e: SpellCastFields) -> None:
    player = s.players[e["player"]]
    player.hand.remove(e["card"])
    spend(player.mana_pool, e["mana_spent"])
    s.stack.append(StackObject(object=e["object"], card=e["card"], controller=e["player"], targets=list(e["targets"])))
    s.next_object = e["object"] + 1
    s.spells_cast_this_turn[e["player"]] = s.spells_cast_this_turn.get(e["player"], 0) + 1
    s.passes = []


class AbilityActivatedFields(TypedDict):
    player: str
    source: int
    card: str
    ability: int
    object: int
    targets: list[Any]
    mana_spent: dict[str, int]
    paid_with: list[int]


class AbilityActivated(GameEvent):
    """602.2: an activated ability goes on the stack as ``object``; its cost is paid from the pool."""

    fields_type = AbilityActivatedFields


@applies(AbilityActivated)
def _ability_activated(s: GameState, e: AbilityActivatedFields) -> None:
    spend(s.players[e["player"]].mana_pool, e["mana_spent"])
    s.stack.append(
        StackObject(
            object=e["object"], card=e["card"], controller=e["player"], kind="activated", targets=list(e["targets"]),
            source=e["source"], ability=e["ability"],
        )
    )
    s.next_object = e["object"] + 1
    s.passes = []
