"""Static abilities (604): what a permanent's text says while it is on the battlefield, as data.

``core.characteristics`` applies them (613: layer 6 for abilities, layer 7c for power and toughness).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AttachedGets:
    """"Enchanted creature gets +P/+T [and has K]" or "Equipped creature ..." (303.4, 301.5; 613.1f, 613.4c)."""

    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class CreaturesYouControlGet:
    """"[Other] creatures you control get +P/+T [and have K]" (an anthem; 613.1f, 613.4c)."""

    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    other: bool = False  # "Other creatures you control ..."


Static = AttachedGets | CreaturesYouControlGet
