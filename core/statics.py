"""Static abilities (604): what a permanent does simply by being on the battlefield, as data.

Each is named by the vocabulary (``core.vocabulary.ABILITY_KINDS``); the rules read them through the
card's definition (``CardDef.statics``) where the rule they change is applied: ``core.characteristics``
applies those that change characteristics (613: layer 6 for abilities, layer 7c for power and toughness).
"""

from __future__ import annotations

from mtg_ledger.core.when_used import frozen_dataclass


@frozen_dataclass
class AttackTax:
    """"Creatures can't attack you unless their controller pays {N} for each creature they control
    that's attacking you." (508.1d, 508.1h)"""

    amount: int


@frozen_dataclass
class NoMaximumHandSize:
    """"You have no maximum hand size." (402.2)"""


@frozen_dataclass
class DoesntUntap:
    """"<This permanent> doesn't untap during your untap step." (502.3)"""


@frozen_dataclass
class GrantKeyword:
    """"<Subtypes> you control have <keyword>." (604.1, layer 6)"""

    keyword: str
    subtypes: tuple[str, ...]


@frozen_dataclass
class AttachedGets:
    """"Enchanted creature gets +P/+T [and has K]" or "Equipped creature ..." (303.4, 301.5; 613.1f, 613.4c)."""

    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()


@frozen_dataclass
class CreaturesYouControlGet:
    """"[Other] creatures you control get +P/+T [and have K]" (an anthem; 613.1f, 613.4c)."""

    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    other: bool = False  # "Other creatures you control ..."


@frozen_dataclass
class CantBlock:
    """"This creature can't block." (509.1a)"""


@frozen_dataclass
class AttachedCantAttackOrBlock:
    """"Enchanted creature can't attack or block." (303.4, 508.1a, 509.1a)"""


@frozen_dataclass
class EntersTapped:
    """"<This permanent> enters tapped." (614.1c)"""


@frozen_dataclass
class YouHaveHexproof:
    """"You have hexproof." (702.11c): its controller can't be the target of spells or abilities their
    opponents control."""


@frozen_dataclass
class OpponentsCantGainLife:
    """"Your opponents can't gain life." (119.7)"""


@frozen_dataclass
class PowerToughnessEqualToLife:
    """"This token's power and toughness are each equal to your life total.": a characteristic-defining
    ability (604.3; a token has it when the effect that created it gave it, 604.3a), applied in layer 7a
    (613.4a): its controller's life total as it is now."""


Static = (
    AttackTax
    | NoMaximumHandSize
    | DoesntUntap
    | GrantKeyword
    | AttachedGets
    | CreaturesYouControlGet
    | CantBlock
    | AttachedCantAttackOrBlock
    | EntersTapped
    | YouHaveHexproof
    | OpponentsCantGainLife
    | PowerToughnessEqualToLife
)
