"""The classic catalog: the definitions of schema 4 (``core.classic_cards``), compiled.

A game's cards are read from its own catalog (``GameState.cards``, filled by its ``GameStarted``);
``CLASSIC`` is the catalog of the games recorded before games recorded their cards, and of a setup that
names no definitions of its own. The card pool players choose from today is read from its files outside
core (``replays.cards``).
"""

from __future__ import annotations

from mtg_ledger.core.catalog import Catalog
from mtg_ledger.core.classic_cards import DEFINITIONS

CLASSIC = Catalog.of(DEFINITIONS)

__all__ = ["CLASSIC"]
