"""Looking cards up by name: the card pool (``core.pool``), its tokens and back faces, by English name.

The registries are filled here, explicitly, from the pool's tuples; the pool knows nothing of them.
"""

from __future__ import annotations

from mtg_ledger.core import pool
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.errors import UnknownCard

CARDS: dict[str, CardDef] = {c.name: c for c in pool.CARD_POOL}
TOKENS: dict[str, CardDef] = {t.name: t for t in pool.TOKEN_POOL}
BACK_FACES: dict[str, CardDef] = {c.back.name: c for c in CARDS.values() if c.back is not None}  # back face name -> the card (712)


def card(name: str) -> CardDef:
    """The definition of a card by its English name, or UnknownCard."""
    try:
        return CARDS[name]
    except KeyError:
        raise UnknownCard("108.1", "rules.unknown_card_card_no_such_card_in", card=name) from None


def require_known(name: str) -> None:
    """Raise UnknownCard unless ``name`` names a card, a back face or a token the engine knows."""
    if name not in CARDS and name not in TOKENS and name not in BACK_FACES:
        card(name)


__all__ = ["BACK_FACES", "CARDS", "TOKENS", "CardDef", "card", "require_known"]
