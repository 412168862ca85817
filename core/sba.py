"""State-based actions (704) and the end of the game (104): checked whenever a player would
receive priority, performed simultaneously, repeated until none apply (704.3)."""

from __future__ import annotations

from typing import Any

from core import characteristics as ch
from core import events as ev
from core import teams
from core.record import Table, emit


def state_based_checks(s: Any) -> tuple[list[tuple[str, str, str]], list[Any], list[Any], list[Any], bool]:
    """704.5: what state-based actions would do now: losers (704.5a/b), creatures with 0 toughness
    (704.5f) or lethal damage (704.5g), Sagas past their last chapter (714.4, 704.5s), and a
    scheme whose abilities are done (904.10)."""
    losers: list[tuple[str, str, str]] = []
    for name in s.live_players():
        p = s.players[name]
        if p.life <= 0:
            losers.append((name, f"{name} has {p.life} life", "704.5a"))
        elif p.drew_from_empty_library:
            losers.append((name, f"{name} attempted to draw from an empty library", "704.5b"))
    creatures = [p for p in ch.on_battlefield(s) if ch.is_creature(p)]
    zero = [p for p in creatures if ch.toughness(s, p) <= 0]
    lethal = [p for p in creatures if p not in zero and p.damage > 0 and p.damage >= ch.toughness(s, p)]
    busy = {t.source for t in s.pending_triggers} | {o.source for o in s.stack if o.kind == "triggered"}
    scheme_done = s.scheme_in_motion is not None and not any(
        t.source is None and t.card == s.scheme_in_motion for t in [*s.pending_triggers, *(o for o in s.stack if o.kind == "triggered")]
    )
    sagas = [
        p
        for p in ch.on_battlefield(s)
        if ch.face(p).final_chapter and p.counters.get("lore", 0) >= ch.face(p).final_chapter and p.object not in busy
    ]
    return losers, zero, lethal, sagas, scheme_done


def state_based_actions(table: Table) -> None:
    """704.3: check all at once, perform them simultaneously, repeat until none apply."""
    while True:
        s = table.state
        if s.day_night is None and any(ch.face(p).daybound for p in ch.on_battlefield(s)):
            emit(table, ev.DayNightChanged, to="day", rule="726.2", transformed=[])  # it becomes day
        losers, zero, lethal, sagas, scheme_done = state_based_checks(s)
        if not (losers or zero or lethal or sagas or scheme_done):
            return
        if scheme_done:  # 904.10: a scheme that isn't ongoing goes to the bottom of its deck
            emit(table, ev.SchemePutOnBottom, player=s.archenemy, scheme=s.scheme_in_motion)
        for name, reason, rule in losers:
            emit(table, ev.PlayerLost, player=name, reason=reason, rule=rule)
        for group, rule in ((zero, "704.5f"), (lethal, "704.5g"), (sagas, "714.4")):
            if group:
                gone = [{"object": p.object, "card": p.card, "owner": p.owner} for p in group]
                emit(table, ev.PermanentsPutIntoGraveyard, permanents=gone, rule=rule)
        if check_game_end(table):
            return


def check_game_end(table: Table) -> bool:
    """104.2a: the last player in the game wins; 104.2c (808, 904): a team wins when every opposing
    player has left the game; 104.4a: if all lost at once, it's a draw."""
    s = table.state
    left = teams.live_teams(s)
    if len(left) > 1 or s.ended:
        return s.ended
    if not left:
        emit(table, ev.GameEnded, winner=None, winners=[], reason="all players lost simultaneously")
        return True
    team = left[0]
    winner = teams.live_members(s, team)[0]
    if len(team) == 1:
        reason = f"{winner} is the only player left in the game"
    else:
        reason = f"every opponent of the team of {', '.join(team)} has left the game"
    emit(table, ev.GameEnded, winner=winner, winners=list(team), reason=reason)
    return True
