"""Static abilities (604): what a permanent does simply by being on the battlefield, as data.

Each is named by the vocabulary (``core.vocabulary.ABILITY_KINDS``); the rules read them through the
card's definition (``CardDef.statics``) where the rule they change is applied.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AttackTax:
    """"Creatures can't attack you unless their controller pays {N} for each creature they control
    that's attacking you." (508.1d, 508.1h)"""

    amount: int


@dataclass(frozen=True)
class NoMaximumHandSize:
    """"You have no maximum hand size." (402.2)"""


@dataclass(frozen=True)
class DoesntUntap:
    """"<This permanent> doesn't untap during your untap step." (502.3)"""


@dataclass(frozen=True)
class GrantKeyword:
    """"<Subtypes> you control have <keyword>." (604.1, layer 6)"""

    keyword: str
    subtypes: tuple[str, ...]


Static = AttackTax | NoMaximumHandSize | DoesntUntap | GrantKeyword
