"""State-based actions (704) and the end of the game (104): checked whenever a player would
receive priority, performed simultaneously, repeated until none apply (704.3)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import events as ev
from mtg_ledger.core import teams
from mtg_ledger.core.outcome import Outcome, Reason
from mtg_ledger.core import sba_permanents
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.sba_permanents import PermanentChecks


def state_based_checks(s: Any) -> tuple[list[tuple[str, str, str]], list[Any], list[Any], list[Any], bool, PermanentChecks]:
    """704.5: what state-based actions would do now: losers (704.5a/b), creatures with 0 toughness
    (704.5f) or lethal damage (704.5g; not an indestructible one, 702.12b), Sagas past their last
    chapter (714.4, 704.5s), a scheme whose abilities are done (904.10), and the permanents'
    checks of ``core.sba_permanents`` (704.5h-j, 704.5m-n, 704.5q, 704.5v-w)."""
    losers: list[tuple[str, str, str]] = []
    for name in s.live_players():
        p = s.players[name]
        if p.life <= 0:
            losers.append((name, f"{name} has {p.life} life", "704.5a"))
        elif p.drew_from_empty_library:
            losers.append((name, f"{name} attempted to draw from an empty library", "704.5b"))
    busy = {t.source for t in s.pending_triggers} | {o.source for o in s.stack if o.kind == "triggered"}
    scheme_done = s.scheme_in_motion is not None and not any(
        t.source is None and t.card == s.scheme_in_motion for t in [*s.pending_triggers, *(o for o in s.stack if o.kind == "triggered")]
    )
    zero, lethal, sagas = [], [], []
    more = PermanentChecks()
    legendary: list[tuple[Any, str]] = []
    for p in ch.watched(s):  # the permanents 704 may look at, remembered: this runs before every priority
        if p.phased_out:
            continue
        face = ch.face(s, p)
        if face.final_chapter and p.counters.get("lore", 0) >= face.final_chapter and p.object not in busy:
            sagas.append(p)
        dies = False
        if "Creature" in face.types:
            toughness = ch.toughness(s, p)
            if toughness <= 0:
                zero.append(p)
                dies = True
            elif p.damage > 0 and p.damage >= toughness and not ch.has_keyword(s, p, "indestructible"):
                lethal.append(p)
                dies = True
        sba_permanents.check(s, p, face, dies, more)
        if "Legendary" in face.supertypes:
            legendary.append((p, face.name))
    if len(legendary) > 1:
        doomed = {p.object for p in zero + lethal} | {p.object for p, _ in more.dying}
        more.dying.extend((p, rule) for p, rule in sba_permanents.legend_rule(legendary) if p.object not in doomed)
    return losers, zero, lethal, sagas, scheme_done, more


def state_based_actions(table: Table) -> None:
    """704.3: check all at once, perform them simultaneously, repeat until none apply."""
    while True:
        s = table.state
        daybound = s.cards.daybound
        if s.day_night is None and daybound and any(p.card in daybound and not p.phased_out for p in s.battlefield):
            emit(table, ev.DayNightChanged, to="day", rule="726.2", transformed=[])  # it becomes day
        losers, zero, lethal, sagas, scheme_done, more = state_based_checks(s)
        if not (losers or zero or lethal or sagas or scheme_done or more):
            return
        if scheme_done:  # 904.10: a scheme that isn't ongoing goes to the bottom of its deck
            emit(table, ev.SchemePutOnBottom, player=s.archenemy, scheme=s.scheme_in_motion)
        for name, reason, rule in losers:
            emit(table, ev.PlayerLost, player=name, reason=reason, rule=rule)
        for group, rule in ((zero, "704.5f"), (lethal, "704.5g"), (sagas, "714.4")):
            if group:
                gone = [{"object": p.object, "card": p.card, "owner": p.owner} for p in group]
                emit(table, ev.PermanentsPutIntoGraveyard, permanents=gone, rule=rule)
        _perform(table, more)
        if check_game_end(table):
            return


def _perform(table: Table, more: PermanentChecks) -> None:
    """The schema-5 actions, after the older ones: each rule's permanents to the graveyard (704.5h-j,
    704.5m, 704.5v-w), Equipment unattached (704.5n), counters removed in pairs (704.5q)."""
    for rule in ("704.5h", "704.5i", "704.5j", "704.5m", "704.5v", "704.5w"):
        group = [p for p, r in more.dying if r == rule]
        if group:
            gone = [{"object": p.object, "card": p.card, "owner": p.owner} for p in group]
            emit(table, ev.PermanentsPutIntoGraveyard, permanents=gone, rule=rule)
    for perm in more.unattach:
        emit(table, ev.Attached, object=perm.object, to=None, rule="704.5n")
    for perm, n in more.annihilate:
        emit(table, ev.CountersRemoved, object=perm.object, kind="+1/+1", count=n, rule="704.5q")
        emit(table, ev.CountersRemoved, object=perm.object, kind="-1/-1", count=n, rule="704.5q")


def check_game_end(table: Table, reason: Reason = Reason.LAST_PLAYER_STANDING) -> bool:
    """104.2a: the last player in the game wins; 104.2c (808, 904): a team wins when every opposing
    player has left the game, and the whole team is named; 104.4a: if all lost at once, it's a draw.
    ``reason`` is why the last opponent left: a state-based loss, or a concession (104.3a)."""
    s = table.state
    left = teams.live_teams(s)
    if len(left) > 1 or s.ended:
        return s.ended
    if not left:
        outcome = Outcome(Reason.ALL_PLAYERS_LOST)
    else:
        team = left[0]
        outcome = Outcome(reason, teams.live_members(s, team)[0], tuple(team))
    emit(table, ev.GameEnded, **outcome.fields())
    return True
