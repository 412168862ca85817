"""Paying mana costs (601.2g-h, 508.1h): mana abilities activated while paying, then the pool pays."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import Ref
from mtg_ledger.core.errors import CannotPay, Phrase
from mtg_ledger.core.mana import ManaCost, Source, choose_colors, format_pool, pay_from_pool, plan_sources
from mtg_ledger.core.state import GameState


def and_all(phrases: list[Phrase]) -> Phrase:
    """Several things paid for as one phrase: "A and B and C"."""
    first, *rest = phrases
    return Phrase("rules.what_and", {"first": first, "rest": and_all(rest)}) if rest else first


def plan_payment(
    state: GameState,
    player: str,
    cost: ManaCost,
    pay: tuple[Ref, ...] | None,
    *,
    what: Phrase,
    rule: str,
    unavailable: frozenset[int] = frozenset(),
) -> tuple[list[Source], dict[str, int]]:
    """The mana sources to tap and the mana to spend, or CannotPay naming ``rule``.

    ``pay`` names the permanents to tap; None lets the engine choose (core.mana.plan_sources).
    ``unavailable`` are sources that paying cannot use (attackers tapped by attacking, 508.1f).
    """
    pool = state.players[player].mana_pool
    available = [s for s in ch.mana_sources(state, player) if s[0] not in unavailable]
    if pay is None:
        planned = plan_sources(cost, pool, available)
        if planned is None:
            raise CannotPay(rule, "rules.player_cannot_pay_what", player=player, what=what, pool=_pool_said(pool), n=len({s[0] for s in available}))
        objects = [s[0] for s in planned]
    else:
        objects = []
        for ref in pay:
            perm = ch.find_permanent(state, ref, what=Phrase("rules.thing_mana_source"))
            if perm.object in objects or not any(s[0] == perm.object for s in available):
                raise CannotPay("605.3a", "rules.card_object_n_cannot_be_tapped_for", card=perm.card, n=perm.object, player=player)
            objects.append(perm.object)
    # 106.1: what each adds, chosen the same way whether the engine or the player named the sources
    taps = choose_colors(cost, pool, [[s for s in available if s[0] == obj] for obj in objects])
    after = dict(pool)
    for _, _, color in taps:
        after[color] = after.get(color, 0) + 1
    spent = pay_from_pool(cost, after)
    if spent is None:
        raise CannotPay(rule, "rules.pool_cannot_pay_what", pool=_pool_said(after), what=what)
    return taps, spent


def _pool_said(pool: dict[str, int]) -> str | Phrase:
    """A mana pool in an error: its symbols, or the word for none (a message, said in each language)."""
    return format_pool(pool) or Phrase("rules.no_mana")
