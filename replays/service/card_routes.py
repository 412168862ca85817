"""The card pool over HTTP (docs/cards.md): ``GET /cards?q=`` and ``GET /cards/{name}``, the objects of
``mtg-ledger cards --json``. Anyone may read them: they name no game and touch no store."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from mtg_ledger.replays.cards import card_json, live_pool
from mtg_ledger.replays.service.errors import CardNotFound

router = APIRouter(tags=["cards"])


class CardOut(BaseModel):
    """A card of the pool: its printed facts, then the abilities the engine reads (docs/cards.md)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    mana_cost: str | None = Field(description='"{1}{W}{W}"; null for a card without one (a land)')
    colors: list[str]
    color_identity: list[str]
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]
    oracle: str = Field(description="the Oracle text, exactly as printed today")
    keywords: list[str]
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    enchant: str | None = Field(default=None, description="what an Aura enchants (303.4a)")
    ward: str | None = Field(default=None, description="a ward cost, \"{2}\" (702.21a)")
    token: bool | None = None
    spell: dict[str, Any] | None = Field(default=None, description="an instant's or sorcery's target and effects, in the card vocabulary")
    abilities: list[dict[str, Any]] = Field(description="its abilities in the card vocabulary, in Oracle-text order")
    back: CardOut | None = Field(default=None, description="the back face of a double-faced card (712)")


class CardNotFoundOut(BaseModel):
    error: str
    nearest: list[str] = Field(description="the names of the pool nearest the one asked for")


@router.get("/cards", response_model=list[CardOut], response_model_exclude_unset=True)
def list_cards(q: Annotated[str | None, Query(max_length=200, description="part of a card's name (case aside); the card named so comes first")] = None) -> Any:
    pool = live_pool()
    return [card_json(pool.definitions[name]) for name in pool.search(q)]


@router.get("/cards/{name}", response_model=CardOut, response_model_exclude_unset=True, responses={404: {"model": CardNotFoundOut}})
def get_card(name: str) -> Any:
    """A card by its name (case aside), or by its back face's (the whole card), or a token."""
    pool = live_pool()
    catalog = pool.catalog
    faces = {n.casefold(): n for n in [*pool.definitions, *catalog.back_faces]}
    found = faces.get(name.casefold())
    if found is None:
        raise CardNotFound(name, pool.nearest(name))
    front = catalog.back_faces[found].name if found in catalog.back_faces else found
    return card_json(pool.definitions[front])
