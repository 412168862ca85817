"""Mana costs, mana pools and deterministic payment (106, 107.4, 202, 601.2g-h)."""

from __future__ import annotations

import re
from dataclasses import dataclass

COLORS = ("W", "U", "B", "R", "G")
Source = tuple[int, str, str]  # (object, card, color of the mana it makes)
_SYMBOL = re.compile(r"\{([^}]*)\}")


@dataclass(frozen=True)
class ManaCost:
    """A mana cost: generic amount plus colored symbols (107.4)."""

    generic: int
    colored: tuple[tuple[str, int], ...]  # (color, count), in WUBRG order

    @property
    def mana_value(self) -> int:
        """202.3."""
        return self.generic + sum(n for _, n in self.colored)


def parse_cost(text: str) -> ManaCost:
    generic = 0
    counts: dict[str, int] = {}
    for symbol in _SYMBOL.findall(text):
        if symbol.isdigit():
            generic += int(symbol)
        elif symbol in COLORS:
            counts[symbol] = counts.get(symbol, 0) + 1
        else:
            raise ValueError(f"unsupported mana symbol {{{symbol}}} in {text!r}")
    return ManaCost(generic, tuple((c, counts[c]) for c in COLORS if c in counts))


def pool_total(pool: dict[str, int]) -> int:
    return sum(pool.values())


def pay_from_pool(cost: ManaCost, pool: dict[str, int]) -> dict[str, int] | None:
    """The mana to spend from ``pool`` for ``cost``, or None if the pool cannot pay it.

    Colored symbols take their own color; generic takes colorless first, then the colors the
    pool holds most of (ties in WUBRG order), so the choice is deterministic.
    """
    left = dict(pool)
    spent: dict[str, int] = {}
    for color, n in cost.colored:
        if left.get(color, 0) < n:
            return None
        left[color] -= n
        spent[color] = spent.get(color, 0) + n
    need = cost.generic
    for color in ("C", *sorted(COLORS, key=lambda c: (-left.get(c, 0), COLORS.index(c)))):
        take = min(need, left.get(color, 0))
        if take:
            left[color] -= take
            spent[color] = spent.get(color, 0) + take
            need -= take
    if need:
        return None
    return {k: v for k, v in spent.items() if v}


def plan_sources(cost: ManaCost, pool: dict[str, int], sources: list[Source]) -> list[Source] | None:
    """Which untapped mana sources to tap, so that pool plus their mana pays ``cost``.

    ``sources`` are (object, card, color) in the order the engine prefers to tap them. Colored
    requirements not met by the pool are met first, each by the first source of that color;
    generic is then paid by the remaining sources in order. None when it cannot be paid.
    """
    pool_left = dict(pool)
    chosen: list[Source] = []
    free = list(sources)
    for color, n in cost.colored:
        from_pool = min(n, pool_left.get(color, 0))
        pool_left[color] = pool_left.get(color, 0) - from_pool
        for _ in range(n - from_pool):
            match = next((s for s in free if s[2] == color), None)
            if match is None:
                return None
            free.remove(match)
            chosen.append(match)
    generic = cost.generic - min(cost.generic, pool_total(pool_left))
    if generic > len(free):
        return None
    chosen.extend(free[:generic])
    return chosen


def format_pool(pool: dict[str, int], empty: str = "") -> str:
    """Mana in its symbols, colours in a fixed order (``{G}{G}{R}``); ``empty`` when there is none."""
    return "".join(f"{{{c}}}" * n for c, n in sorted(pool.items())) or empty
