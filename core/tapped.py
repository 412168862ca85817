"""The tapped permanents of a battlefield (502.3: the untap step untaps them), found without looking at every
permanent again each turn.

A walk of a battlefield list is remembered (``core.walks.Walks``): how many of its first permanents it
looked at, the last of them, where the writes stood then (``core.written.writes``), and which of them were
tapped. A permanent becomes tapped only by a write (an applier assigns ``tapped``), or enters tapped at the
list's end (a battlefield list only grows at its end in place: ``core.walks.walked_on``). So the tapped ones
of the same list later are among those tapped then, those written since (``core.written.written_after``) and
those after the walk's end: each is looked at again, in the list's order, and nothing else is. A list not
walked yet, one changed otherwise, or writes no longer all kept: the list is walked whole. It changes how
long the walk takes, never what it finds. No I/O, no clock.
"""

from __future__ import annotations

from typing import NamedTuple

from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.walks import Walks, walked_on
from mtg_ledger.core.written import writes, written_after


class _Walk(NamedTuple):
    walked: int  # the list's first permanents looked at
    last: Permanent | None  # the last of them
    place: int  # ``writes()`` before they were looked at
    tapped: list[int]  # the places in the list of those that were tapped
    places_of: dict[int, int] | None  # id(permanent) -> its place in the list, for the first ``walked`` (made when first needed)


_WALKS: Walks[_Walk] = Walks()


def tapped(state: GameState) -> list[Permanent]:
    """The permanents on the battlefield that are tapped, phased out or not, in the battlefield's order."""
    battlefield = state.battlefield
    place = writes()  # before any permanent is looked at: a write after it is in the next walk's
    walk = _WALKS.get(battlefield)
    since = written_after(walk.place) if walk is not None and walked_on(battlefield, walk.walked, walk.last) else None
    if walk is None or since is None or len(since) > len(battlefield):  # (many writes since, most of other games')
        places = [i for i, p in enumerate(battlefield) if p.tapped]
        _WALKS.put(battlefield, _Walk(len(battlefield), battlefield[-1] if battlefield else None, place, places, None))
        return [battlefield[i] for i in places]
    count, index = walk.walked, walk.places_of
    if index is None:
        index = {id(p): i for i, p in enumerate(battlefield[:count])}
    looked = set(walk.tapped)
    looked.update(index[i] for i in since if i in index)
    places = [i for i in sorted(looked) if i < count and battlefield[i].tapped]
    if count < len(battlefield):  # permanents entered since, at the list's end
        index.update((id(p), i) for i, p in enumerate(battlefield[count:], start=count))  # the walk's own: it is replaced
        places += [i for i in range(count, len(battlefield)) if battlefield[i].tapped]
    _WALKS.put(battlefield, _Walk(len(battlefield), battlefield[-1] if battlefield else None, place, places, index))
    return [battlefield[i] for i in places]
