"""502.3: in the untap step the active player untaps their permanents. The tapped permanents are found from
the last walk of the same battlefield list (``core.tapped``): those tapped then, those written since and those
entered since, in the battlefield's order; any other list, or writes no longer kept, is walked whole."""

from __future__ import annotations

from mtg_ledger.core import written
from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.tapped import tapped


def _board(n: int) -> GameState:
    s = GameState()
    s.battlefield = [Permanent(i, "Forest", "alice" if i % 2 else "bob", "alice" if i % 2 else "bob") for i in range(1, n + 1)]
    return s


def _objects(s: GameState) -> list[int]:
    return [p.object for p in tapped(s)]


def test_permanents_tapped_written_or_entered_since_the_last_walk_are_found_in_battlefield_order_502_3() -> None:
    s = _board(10)
    s.battlefield[6].tapped = True  # 701.26a: tapped for mana
    assert _objects(s) == [7]
    s.battlefield[2].tapped = True  # written since the walk
    s.battlefield.append(Permanent(11, "Forest", "alice", "alice", tapped=True))  # enters tapped, at the list's end
    s.battlefield[6].controller = "bob"  # another controller now; still tapped
    assert _objects(s) == [3, 7, 11]
    s.battlefield[6].tapped = False  # 502.3: untapped
    assert _objects(s) == [3, 11]
    assert _objects(s) == [p.object for p in s.battlefield if p.tapped]


def test_only_the_permanents_tapped_written_or_entered_since_are_looked_at_again_502_3() -> None:
    s = _board(6)
    assert _objects(s) == []
    vars(s.battlefield[1])["tapped"] = True  # not a noted write: no applier does this
    assert _objects(s) == []  # the walk did not look at it again: it was neither tapped, written nor entered since
    s.battlefield = list(s.battlefield)  # a new list (a permanent leaving makes one): walked whole
    assert _objects(s) == [2]


def test_a_list_changed_otherwise_or_writes_no_longer_kept_is_walked_whole_502_3(monkeypatch) -> None:
    s = _board(6)
    assert _objects(s) == []
    vars(s.battlefield[5])["tapped"] = True
    s.battlefield[5] = Permanent(6, "Forest", "bob", "bob", tapped=True)  # the walk's last permanent moved
    assert _objects(s) == [6]
    monkeypatch.setattr(written, "_LOG_LIMIT", 1)
    vars(s.battlefield[0])["tapped"] = True
    s.battlefield[3].damage = 0
    s.battlefield[4].damage = 0  # the order starts again: the walk's place is void
    assert _objects(s) == [1, 6]
