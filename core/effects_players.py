"""The resolvers of the effects on players (608.2c): cards drawn, milled, revealed and discarded, life lost and
gained. Each is an entry of ``core.effect_table.EFFECTS``, which dispatches on the effect's type; the effects on
permanents and the stack are there.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import effects as fx
from mtg_ledger.core import events as ev
from mtg_ledger.core import record
from mtg_ledger.core import teams
from mtg_ledger.core.record import Table, draw, emit
from mtg_ledger.core.state import StackObject


def source_of(top: StackObject) -> int:
    """The source of a resolving object: its ability's source, or the spell itself."""
    return top.source if top.source is not None else top.object


def each_player_draws(table: Table, top: StackObject, effect: fx.EachPlayerDraws, targets: list[Any]) -> None:
    """121.2, in APNAP order (101.4)."""
    for player in teams.apnap(table.state):
        for _ in range(effect.count):
            draw(table, player)


def target_player_draws(table: Table, top: StackObject, effect: fx.TargetPlayerDraws, targets: list[Any]) -> None:
    """121.2."""
    for player in targets:
        for _ in range(effect.count):
            draw(table, player)


def target_player_mills(table: Table, top: StackObject, effect: fx.TargetPlayerMills, targets: list[Any]) -> None:
    """701.17: as many as the library holds."""
    for player in targets:
        milled = table.state.players[player].library[: effect.count]
        if milled:
            emit(table, ev.CardsMilled, player=player, cards=list(milled))


def reveal_top_land_to_hand(table: Table, top: StackObject, effect: fx.RevealTopLandToHand, targets: list[Any]) -> None:
    """701.20a: the defending player (508.5, as the trigger saw them) reveals the top card of their library,
    to every player; a land card goes to their hand. A player who left, or an empty library, reveals nothing."""
    s = table.state
    player = top.context.get("defending_player")
    if player is None or player not in s.players or s.players[player].lost or not s.players[player].library:
        return
    card = s.players[player].library[0]
    emit(table, ev.TopCardRevealed, player=player, card=card, to_hand=s.cards.card(card).is_type("Land"), rule="701.20a")


def draw_cards(table: Table, top: StackObject, effect: fx.DrawCards, targets: list[Any]) -> None:
    """121.2."""
    for _ in range(effect.count):
        draw(table, top.controller)


def lose_life(table: Table, top: StackObject, effect: fx.LoseLife, targets: list[Any]) -> None:
    """119.3: you, each opponent, or the target players."""
    me = top.controller
    if effect.who == "target":
        losers = [t for t in targets if isinstance(t, str)]
    else:
        losers = [me] if effect.who == "you" else teams.opponents(table.state, me)
    for player in losers:
        emit(table, ev.LifeLost, player=player, amount=effect.amount, source=source_of(top))


def gain_life(table: Table, top: StackObject, effect: fx.GainLife, targets: list[Any]) -> None:
    """119.3."""
    record.gain_life(table, top.controller, effect.amount, source_of(top))  # 119.7


def draw_greatest_power(table: Table, top: StackObject, effect: fx.DrawCardsEqualToGreatestPower, targets: list[Any]) -> None:
    """121.2; 608.2h: the greatest power among the creatures its controller controls as it resolves (107.1b: at least 0)."""
    s = table.state
    count = max((ch.power(s, p) for p in ch.on_battlefield(s) if p.controller == top.controller and ch.is_creature(s, p)), default=0)
    for _ in range(max(0, count)):
        draw(table, top.controller)


def discard_cards(table: Table, top: StackObject, effect: fx.DiscardCards, targets: list[Any]) -> None:
    """608.2d, 701.9b: no real choice (the whole hand, or identical cards): they are discarded."""
    hand = table.state.players[top.controller].hand
    if hand:
        emit(table, ev.CardsDiscarded, player=top.controller, cards=hand[: effect.count], max_hand_size=None, rule="608.2d")


def discarders(table: Table, top: StackObject, effect: fx.DiscardCards | fx.PlayerDiscards, targets: list[Any]) -> list[str]:
    """Who discards: "you" (the controller), the target players still in the game, or, for a trigger,
    "that player" (701.9b: each chooses the cards they discard)."""
    if isinstance(effect, fx.DiscardCards):
        return [top.controller]
    chosen = [top.context.get("player")] if effect.who == "that_player" else targets
    return [p for p in chosen if isinstance(p, str) and p in table.state.players and not table.state.players[p].lost]  # 800.4a


def player_discards(table: Table, top: StackObject, effect: fx.PlayerDiscards, targets: list[Any]) -> None:
    """701.9b, 608.2d: no real choice (the whole hand, or identical cards): they are discarded."""
    for player in discarders(table, top, effect, targets):
        hand = table.state.players[player].hand
        if hand:
            emit(table, ev.CardsDiscarded, player=player, cards=hand[: effect.count], max_hand_size=None, rule="608.2d")
