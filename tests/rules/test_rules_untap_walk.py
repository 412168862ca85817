"""502.3: in the untap step the active player untaps their permanents. The tapped permanents are found from
the last look at the same battlefield list (``core.tapped``): a run of it none of whose permanents was written
since has the tapped permanents it had; the others, and any other list, or when writes are no longer kept, are
looked at again."""

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


def test_permanents_tapped_untapped_or_entered_since_the_last_look_are_found_in_battlefield_order_502_3() -> None:
    s = _board(150)  # runs of 64, 64 and 22
    s.battlefield[70].tapped = True  # 701.26a: tapped for mana
    assert _objects(s) == [71]
    s.battlefield[2].tapped = True  # written since the last look
    s.battlefield.append(Permanent(151, "Forest", "alice", "alice", tapped=True))  # enters tapped, at the list's end
    s.battlefield[70].controller = "bob"  # another controller now; still tapped
    assert _objects(s) == [3, 71, 151]
    s.battlefield[70].tapped = False  # 502.3: untapped
    assert _objects(s) == [3, 151]
    assert _objects(s) == [p.object for p in s.battlefield if p.tapped]


def test_a_run_none_of_whose_permanents_was_written_since_is_not_looked_at_again_502_3() -> None:
    s = _board(150)
    assert _objects(s) == []
    vars(s.battlefield[1])["tapped"] = True  # not a noted write: no applier does this
    vars(s.battlefield[140])["tapped"] = True
    assert _objects(s) == [141]  # the first run was not looked at again, none of it written since; the last one is
    s.battlefield[5].damage = 0  # a write in the first run
    assert _objects(s) == [2, 141]
    vars(s.battlefield[100])["tapped"] = True
    s.battlefield = list(s.battlefield)  # a new list (a permanent leaving makes one): looked at whole
    assert _objects(s) == [2, 101, 141]


def test_a_list_changed_otherwise_or_writes_no_longer_kept_is_looked_at_whole_502_3(monkeypatch) -> None:
    s = _board(150)
    assert _objects(s) == []
    vars(s.battlefield[10])["tapped"] = True
    s.battlefield[149] = Permanent(150, "Forest", "bob", "bob")  # the last permanent looked at moved
    assert _objects(s) == [11]
    vars(s.battlefield[20])["tapped"] = True
    monkeypatch.setattr(written, "_LOG_LIMIT", 1)
    s.battlefield[130].damage = 0
    s.battlefield[131].damage = 0  # the order starts again: the last look's place is void
    assert _objects(s) == [11, 21]
