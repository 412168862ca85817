"""``core.walks.RunWalks``: the findings of a battlefield list's runs are given back to the next look at the same
list only for the runs none of whose records was written since (``core.written``'s order of the writes)."""

from __future__ import annotations

from mtg_ledger.core import written
from mtg_ledger.core.state import Permanent
from mtg_ledger.core.walks import RunWalks


def _lands(n: int) -> list[Permanent]:
    return [Permanent(i, "Forest", "alice", "alice") for i in range(1, n + 1)]


def _look(walks: RunWalks[str], records: list[Permanent]) -> list[str | None]:
    place, kept = walks.since(records)
    walks.found(records, place, [f"run {r}" for r in range((len(records) + walks.size - 1) // walks.size)])
    return kept


def test_the_runs_not_written_since_are_given_back_and_the_last_run_never_is() -> None:
    walks: RunWalks[str] = RunWalks(4)
    lands = _lands(10)  # runs of 4, 4 and 2
    assert _look(walks, lands) == []  # not looked at before
    assert _look(walks, lands) == ["run 0", "run 1", None]
    lands[5].tapped = True  # 701.26a
    lands.append(Permanent(11, "Forest", "alice", "alice"))  # enters, at the list's end
    assert _look(walks, lands) == ["run 0", None, None]
    assert _look(walks, list(lands)) == []  # another list


def test_a_record_at_two_places_of_a_list_gives_no_finding() -> None:
    walks: RunWalks[str] = RunWalks(4)
    lands = _lands(8)
    lands[6] = lands[1]  # as no applier makes it: a write to it would be noted at one place only
    _look(walks, lands)
    lands[1].tapped = True
    assert _look(walks, lands) == []


def test_more_writes_since_than_the_list_has_records_give_no_finding() -> None:
    walks: RunWalks[str] = RunWalks(4)
    lands, others = _lands(8), _lands(9)
    _look(walks, lands)
    place = written.writes()
    for other in others:
        other.damage = 1  # 120.3e, another game's permanents
    assert written.written_after(place, 8) is None and len(written.written_after(place) or []) == 9
    assert _look(walks, lands) == []
