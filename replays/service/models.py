"""The service's bodies as pydantic models: requests are parsed by them and the OpenAPI description is
derived from them. They check shape and types (strictly: ``"5"`` is not a number), naming the field;
what a card or a player means is then checked by ``replays.scenario`` and the rules, as for the CLI.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from mtg_ledger.core.cards import BACK_FACES, CARDS, TOKENS
from mtg_ledger.replays.scenario import FORMATS

ZONE_CARDS = tuple(sorted(CARDS))
ANY_CARDS = tuple(sorted({*CARDS, *TOKENS, *BACK_FACES}))

CardInZone = Literal[ZONE_CARDS]  # type: ignore[valid-type]
CardName = Literal[ANY_CARDS]  # type: ignore[valid-type]
Format = Literal[FORMATS]  # type: ignore[valid-type]
Name = Annotated[str, Field(min_length=1, max_length=64)]
Small = Annotated[int, Field(ge=0, le=1_000_000)]
Zone = Annotated[list[CardInZone], Field(max_length=10_000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --- creating a game -----------------------------------------------------------------------


class PlayerSetup(Strict):
    name: Name
    life: Annotated[int, Field(ge=-1_000_000, le=1_000_000)] | None = None
    library: Zone = []
    hand: Zone | None = Field(None, description="the opening hand as given; left out, seven cards are drawn (103.5)")
    battlefield: Zone = []
    schemes: Zone | None = Field(None, description="the archenemy's scheme deck, top first")


class NewGame(Strict):
    """A scenario (CONTRACT section 2) without its actions."""

    format: Format = "two-player"
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] = 0
    shuffle: bool = False
    starting_player: Name | None = None
    players: Annotated[list[PlayerSetup], Field(min_length=2, max_length=8)]


class GameCreated(BaseModel):
    game: str
    version: int | None = None
    tokens: dict[str, str] = Field(description="one token per player, and the judge's; shown once, never again")


# --- actions ---------------------------------------------------------------------------------


class CardPick(Strict):
    card: CardName
    index: Small = 0


class ObjectPick(Strict):
    object: Small


Ref = Union[CardName, CardPick, ObjectPick]
Target = Union[Name, CardPick, ObjectPick]  # a player's name, or a card


class Act(Strict):
    expected_version: Annotated[int, Field(ge=0)] | None = Field(None, description="409, nothing stored, unless the game is at this version")


class Pass(Act):
    action: Literal["pass"]


class Concede(Act):
    action: Literal["concede"]


class PlayLand(Act):
    action: Literal["play_land"]
    card: CardName
    index: Small = 0


class Cast(Act):
    action: Literal["cast"]
    card: CardName
    index: Small = 0
    targets: Annotated[list[Target], Field(max_length=16)] = []
    pay: Annotated[list[Ref], Field(max_length=64)] | None = None


class Activate(Act):
    action: Literal["activate"]
    card: Ref
    index: Small = 0
    ability: Small = 0


class ChooseDefender(Act):
    action: Literal["choose_defender"]
    defender: Name


class Attacker(Strict):
    card: CardName | None = None
    object: Small | None = None
    index: Small = 0
    defender: Name | None = None


class DeclareAttackers(Act):
    action: Literal["declare_attackers"]
    attackers: Annotated[list[Attacker], Field(max_length=256)] = []
    pay: Annotated[list[Ref], Field(max_length=64)] | None = None


class Blocker(Strict):
    card: CardName | None = None
    object: Small | None = None
    index: Small = 0
    attacker: Ref


class DeclareBlockers(Act):
    action: Literal["declare_blockers"]
    blockers: Annotated[list[Blocker], Field(max_length=256)] = []


class Damage(Strict):
    target: Target
    amount: Small


class Assignment(Strict):
    attacker: Ref
    damage: Annotated[list[Damage], Field(max_length=64)] = []


class AssignDamage(Act):
    action: Literal["assign_damage"]
    assignments: Annotated[list[Assignment], Field(max_length=256)] = []


class Discard(Act):
    action: Literal["discard"]
    cards: Annotated[list[CardInZone], Field(max_length=1000)] = []


class Trigger(Strict):
    card: CardName | None = None
    object: Small | None = None
    index: Small = 0
    targets: Annotated[list[Target], Field(max_length=16)] | None = None


class OrderTriggers(Act):
    action: Literal["order_triggers"]
    order: Annotated[list[Trigger], Field(max_length=256)] = []


Action = Annotated[
    Union[Pass, Concede, PlayLand, Cast, Activate, ChooseDefender, DeclareAttackers, DeclareBlockers, AssignDamage, Discard, OrderTriggers],
    Field(discriminator="action"),
]


def action_map(action: BaseModel, player: str) -> dict[str, Any]:
    """The section-2 action for ``player``: what ``scenario.parse_action`` reads."""
    body = action.model_dump(exclude_none=True, exclude_unset=True, exclude={"expected_version"})  # not {"object": 3, "index": 0}
    return {**body, "player": player}


class ActionTaken(BaseModel):
    version: int
    events: list[dict[str, Any]] = Field(description="the events the decision caused, as this player may see them")


# --- reading -------------------------------------------------------------------------------


class DecisionOut(BaseModel):
    version: int
    player: str | None = Field(description="who must decide; null once the game is over")
    kind: str | None = Field(description="priority, declare_attackers, declare_blockers, assign_damage, discard, order_triggers, choose_defender")
    rule: str | None = None
    legal: list[dict[str, Any]] | None = Field(
        description="every legal action (the body of POST /games/{id}/actions), for the player who must decide and the judge; null for others"
    )
    complete: bool | None = Field(None, description="false where a choice is too large to list: `shapes` describes it")
    shapes: list[dict[str, Any]] | None = None


class ErrorOut(BaseModel):
    error: str
    rule: str | None = None
    field: str | None = None


class Health(BaseModel):
    ok: bool
    store: str
    streams: Literal["listen", "poll"] = Field(
        description="how live streams learn of new decisions: listen (PostgreSQL's NOTIFY), poll (every 50 ms: SQLite)"
    )
