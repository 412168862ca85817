"""Mana costs, mana pools and deterministic payment (106, 107.4, 202, 601.2g-h)."""

from __future__ import annotations

import re
from itertools import product
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

    ``sources`` are (object, card, color) in the order the engine prefers to tap them; a source that adds
    one of several colours (106.1) is listed once for each, and is tapped once. Colored requirements not
    met by the pool are met first, each by a source of that color, those that add only that color first
    (a source with a choice is kept for where it is needed), another being tried where a choice leaves a
    later requirement unmet; generic is then paid by the remaining sources in order. None when it cannot
    be paid. The colours the chosen sources add are then ``choose_colors``'s.
    """
    options: dict[int, list[Source]] = {}
    for source in sources:
        options.setdefault(source[0], []).append(source)
    pool_left = dict(pool)
    needs: list[str] = []
    for color, n in cost.colored:
        from_pool = min(n, pool_left.get(color, 0))
        pool_left[color] = pool_left.get(color, 0) - from_pool
        needs.extend([color] * (n - from_pool))
    chosen = _match(needs, options, [])
    if chosen is None:
        return None
    used = {s[0] for s in chosen}
    free = [entries[0] for obj, entries in options.items() if obj not in used]
    generic = cost.generic - min(cost.generic, pool_total(pool_left))
    if generic > len(free):
        return None
    return chosen + free[:generic]


def _match(needs: list[str], options: dict[int, list[Source]], chosen: list[Source]) -> list[Source] | None:
    """A different source for each colored symbol of ``needs``, in order (None if there is none). Sources
    that add the same colours are alike: only the first of them is tried."""
    if not needs:
        return chosen
    used = {s[0] for s in chosen}
    fits = [entries for obj, entries in options.items() if obj not in used and any(s[2] == needs[0] for s in entries)]
    tried: set[tuple[str, ...]] = set()
    for entries in sorted(fits, key=len):  # stable: in the engine's order among sources with as many colours
        colors = tuple(s[2] for s in entries)
        if colors in tried:
            continue
        tried.add(colors)
        found = _match(needs[1:], options, [*chosen, next(s for s in entries if s[2] == needs[0])])
        if found is not None:
            return found
    return None


def choose_colors(cost: ManaCost, pool: dict[str, int], tapped: list[list[Source]]) -> list[Source]:
    """The mana each tapped source adds (106.1): for each, one of its entries (a source with one colour has
    one). The first choice, in the order of the sources and of their colours, with which pool and mana pay
    ``cost``; the first colours when none does (and then paying fails)."""
    for picked in product(*tapped):
        after = dict(pool)
        for _, _, color in picked:
            after[color] = after.get(color, 0) + 1
        if pay_from_pool(cost, after) is not None:
            return list(picked)
    return [entries[0] for entries in tapped]


def format_pool(pool: dict[str, int], empty: str = "") -> str:
    """Mana in its symbols, colours in a fixed order (``{G}{G}{R}``); ``empty`` when there is none."""
    return "".join(f"{{{c}}}" * n for c, n in sorted(pool.items())) or empty
