"""The state hash found from remembered pieces is the canonical hash of the state, byte for byte
(TurnBegan records it, so it is part of the log's schema): after random legal play, after every
event, and after each way an applier changes a permanent (a field assigned, a list or a map changed
in place)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState, Permanent, Player
from mtg_ledger.core import hash_walks, state_hash
from mtg_ledger.core.state_hash import array_header, map_header, reference_state_hash
from tests.store_tools import state_hash as hash_of_fields
from tests.rules.test_random_play import play_randomly
from tests.conftest import examples


def canonical(state: GameState) -> str:
    """The hash as the contract defines it, computed afresh (and checked against the test tools' own)."""
    reference = reference_state_hash(state)
    assert reference == hash_of_fields(msgpack.unpackb(msgpack.packb(state.to_dict(), use_bin_type=True), raw=False))
    return reference


@settings(settings.get_profile("ci"), max_examples=examples(settings.get_profile("ci").max_examples))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_the_state_hash_is_the_canonical_hash_after_every_event_of_random_legal_play(seed: int, choice_seed: int) -> None:
    table = play_randomly(seed, random.Random(choice_seed), 400)
    assert table.state.state_hash() == canonical(table.state)
    state = GameState()
    turns = 0
    for e in table.events:
        if e["type"] == "TurnBegan":  # 500.1: recorded as the turn begins, before the event applies
            assert e["state_hash"] == state.state_hash() == canonical(state)
            turns += 1
        apply_event(state, e)
        assert state.state_hash() == canonical(state), f"after event {e['v']} ({e['type']})"
    assert turns >= 1


def board(lands: int = 40) -> GameState:
    """A two-player board of lands and one creature, its hash already found once (so remembered)."""
    s = GameState(turn_order=["alice", "bob"], turn=3, active_player="alice")
    s.players = {"bob": Player("bob", library=["Mountain"] * 5), "alice": Player("alice", library=["Forest"] * 5, hand=["Forest"])}
    for i in range(lands):
        owner = ("alice", "bob")[i % 2]
        s.battlefield.append(Permanent(object=i + 1, card=("Forest", "Mountain")[i % 2], owner=owner, controller=owner, fresh=False))
    s.battlefield.append(Permanent(object=lands + 1, card="Grizzly Bears", owner="alice", controller="alice"))
    s.battlefield.append(Permanent(object=lands + 2, card="Hill Giant", owner="bob", controller="bob"))
    s.next_object = lands + 3
    assert s.state_hash() == canonical(s)
    return s


def _tap(s: GameState) -> None:
    s.battlefield[0].tapped = True  # 701.26a


def _damage(s: GameState) -> None:
    s.battlefield[-1].damage += 2  # 120.3e


def _counters(s: GameState) -> None:
    s.battlefield[-2].counters["+1/+1"] = 1  # 122.1, in place


def _more_counters(s: GameState) -> None:
    counters = s.battlefield[-2].counters
    counters["lore"] = 1
    counters["+1/+1"] = 2  # inserted out of order: the canonical encoding sorts the keys


def _block(s: GameState) -> None:
    bear, giant = s.battlefield[-2], s.battlefield[-1]
    giant.attacking = "alice"
    giant.blocked = True
    giant.blocked_by.append(bear.object)  # 509.1h, in place
    bear.blocking.append(giant.object)


def _int_for_bool(s: GameState) -> None:
    s.battlefield[0].tapped = 0  # type: ignore[assignment]  # == False, but msgpack encodes it otherwise


def _leaves(s: GameState) -> None:
    s.battlefield.pop(3)


def _enters(s: GameState) -> None:
    s.battlefield.append(Permanent(object=s.next_object, card="Forest", owner="alice", controller="alice"))
    s.next_object += 1


def _extra_attribute(s: GameState) -> None:
    s.battlefield[0].label = "x"  # type: ignore[attr-defined]  # vars() shows it, so the hash covers it


CHANGES: dict[str, Callable[[GameState], None]] = {
    "a permanent tapped": _tap,
    "damage marked": _damage,
    "counters added in place": _counters,
    "counters added out of order": _more_counters,
    "blockers listed in place": _block,
    "an int where a bool was": _int_for_bool,
    "a permanent leaving": _leaves,
    "a permanent entering": _enters,
    "an attribute beyond the fields": _extra_attribute,
}


@pytest.mark.parametrize("lands", [40, 200], ids=["one run of permanents", "several runs"])  # looked up 64 at a time
@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_permanent_changed_in_any_way_changes_the_hash_to_the_canonical_one(change: Callable[[GameState], None], lands: int) -> None:
    s = board(lands)
    before = s.state_hash()
    change(s)
    assert s.state_hash() == canonical(s) != before
    s.battlefield[len(s.battlefield) // 2].damage += 1  # 120.3e: a permanent of a run in the middle changes too
    assert s.state_hash() == canonical(s)


def test_a_permanent_tapped_then_untapped_hashes_as_before() -> None:
    s = board()
    before = s.state_hash()
    s.battlefield[0].tapped = True
    tapped = s.state_hash()
    s.battlefield[0].tapped = False  # 502.3: back to values already remembered
    assert s.state_hash() == canonical(s) == before != tapped


def test_two_boards_with_the_same_values_hash_alike_whatever_was_remembered_before() -> None:
    a, b = board(), board()
    _block(a)
    assert a.state_hash() != b.state_hash()
    _block(b)
    assert a.state_hash() == b.state_hash() == canonical(b)


def test_a_run_with_a_few_permanents_written_since_encodes_those_alone_and_hashes_canonically(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run remembered by identity with one permanent in four or fewer written since, or one entered at its
    end, keeps the others' encodings: only those are encoded again, and the hash is the canonical one."""
    s = board(200)  # runs of 64, 64, 64 and 10 permanents
    encoded: list[int] = []
    one_by_one = state_hash._remembered_one_by_one
    monkeypatch.setattr(state_hash, "_remembered_one_by_one", lambda objs, pack: encoded.append(len(objs)) or one_by_one(objs, pack))

    def tap_one_in_each_of_two_runs() -> None:
        s.battlefield[5].tapped = True  # 701.26a
        s.battlefield[70].damage = 1  # 120.3e

    def untap_and_enter() -> None:
        s.battlefield[5].tapped = False  # 502.3
        s.battlefield[-1].fresh = False  # 302.6: the last to enter, under its controller's control since the turn began
        _enters(s)

    for step, again in ((tap_one_in_each_of_two_runs, 2), (partial(_enters, s), 1), (untap_and_enter, 3)):
        encoded.clear()
        step()
        assert s.state_hash() == canonical(s)
        assert sum(encoded) == again


def test_the_runs_of_a_battlefield_list_not_written_since_its_last_hash_are_not_looked_at_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next hash of the same battlefield list takes again the runs none of whose permanents was written
    since, while the lists and maps they hold are empty (``core.hash_walks``): only the others are looked up."""
    s = board(200)  # runs of 64, 64, 64 and 10 permanents
    looked: list[int] = []  # the first permanent of each run looked up
    chunk = state_hash._remembered_chunk
    monkeypatch.setattr(state_hash, "_remembered_chunk", lambda objs, *rest: looked.append(objs[0].object) or chunk(objs, *rest))
    first = [s.battlefield[i].object for i in (0, 64, 128, 192)]

    def hashed() -> list[int]:
        looked.clear()
        assert s.state_hash() == canonical(s)
        return [first.index(o) for o in looked]

    assert hashed() == [3]  # the last run, not a whole one, is always looked up
    s.battlefield[70].tapped = True  # 701.26a
    assert hashed() == [1, 3]
    s.battlefield[130].blocking.append(1)  # a list changed in place: no noted write, but no longer empty
    assert hashed() == [2, 3]
    assert hashed() == [2, 3]  # a run holding a list that is not empty is not remembered
    s.battlefield[130].blocking.clear()
    s.battlefield = list(s.battlefield)  # another list (a permanent leaving makes one): every run looked up
    assert hashed() == [0, 1, 2, 3]
    assert hashed() == [3]


def test_a_battlefield_list_whose_permanent_is_replaced_in_place_hashes_canonically() -> None:
    """No applier replaces a permanent of a battlefield list in place (a permanent leaving makes a new list), but
    a hash's bytes do not rest on it: a run is taken again only while it holds the same permanents."""
    s = board(200)
    s.battlefield[10] = Permanent(object=11, card="Island", owner="alice", controller="alice", tapped=True)
    assert s.state_hash() == canonical(s)


def test_a_map_assigned_to_a_permanent_then_changed_in_place_hashes_canonically() -> None:
    """The map a permanent holds after a noted write is the one looked at for changes in place, not the one
    it held when its run was first remembered."""
    s = board(200)
    bear = s.battlefield[-2]
    bear.counters = {}  # 122.1: a new map, assigned (a noted write)
    assert s.state_hash() == canonical(s)
    bear.counters["+1/+1"] = 1  # the new map changed in place: no noted write
    assert s.state_hash() == canonical(s)
    bear.counters.clear()
    bear.tapped = True
    assert s.state_hash() == canonical(s)


@pytest.mark.parametrize("n", [0, 1, 15, 16, 255, 256, 65535, 65536, 70000])
def test_the_msgpack_headers_are_the_ones_msgpack_writes(n: int) -> None:
    assert map_header(n) == msgpack.packb({i: None for i in range(n)})[: len(map_header(n))]
    assert array_header(n) == msgpack.packb([None] * n)[: len(array_header(n))]
    assert msgpack.packb([None] * n) == array_header(n) + b"\xc0" * n


class Named(str):
    """A string of another class: packed as its characters, but never taken as remembered bytes."""


LIBRARY_CHANGES: dict[str, Callable[[list[str]], None]] = {
    "a card drawn (121.1)": lambda library: library.pop(0),
    "three cards milled (701.17)": lambda library: library.__delitem__(slice(0, 3)),
    "a card put on the bottom": lambda library: library.append("Island"),
    "cards put on the bottom in place of one drawn": lambda library: library.__setitem__(slice(0, 1), []) or library.extend(["Swamp", "Plains"]),
    "shuffled (701.24)": lambda library: random.Random(7).shuffle(library),
    "a card of the middle changed in place": lambda library: library.__setitem__(40, "Plains"),
    "the top card changed in place": lambda library: library.__setitem__(0, "Plains"),
    "an int put on the bottom": lambda library: library.append(3),  # type: ignore[arg-type]
    "a bool where a card was": lambda library: library.__setitem__(5, True),  # type: ignore[call-overload]
    "a string of another class drawn to": lambda library: library.__setitem__(1, Named("Forest")),
    "every card drawn but the last sixty": lambda library: library.__delitem__(slice(0, len(library) - 60)),
    "emptied": lambda library: library.clear(),
}


@pytest.mark.parametrize("change", LIBRARY_CHANGES.values(), ids=LIBRARY_CHANGES.keys())
def test_a_library_changed_in_any_way_hashes_to_the_canonical_hash(change: Callable[[list[str]], None]) -> None:
    s = board()
    s.players["alice"].library = [("Forest", "Llanowar Elves", "Giant Growth")[i % 3] + str(i % 7) for i in range(120)]
    assert s.state_hash() == canonical(s)  # remembered as it is now
    for _ in range(3):  # changed once, twice, three times over what was remembered of it
        change(s.players["alice"].library)
        assert s.state_hash() == canonical(s)


def test_a_library_replaced_by_an_equal_list_or_another_hashes_to_the_canonical_hash() -> None:
    s = board()
    library = ["Forest"] * 70 + ["Mountain"] * 30
    s.players["alice"].library = library
    before = s.state_hash()
    s.players["alice"].library = list(library)  # another list, the same cards: the same hash
    assert s.state_hash() == before == canonical(s)
    s.players["alice"].library = library[::-1]
    assert s.state_hash() == canonical(s) != before


def test_a_library_holding_true_then_one_hashes_each_as_msgpack_writes_it() -> None:
    s = board()
    library: list[object] = ["Forest"] * 80
    s.players["alice"].library = library  # type: ignore[assignment]
    library[7] = True
    assert s.state_hash() == canonical(s)
    library[7] = 1  # == True, but msgpack writes it otherwise
    assert s.state_hash() == canonical(s)


def test_the_remembered_libraries_hold_at_most_their_bound_of_cards_and_hash_canonically_past_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long lists are remembered for the next hash (a library a card shorter each turn) within a bound on
    their cards in all: past it, the memo starts again, and every hash is still the canonical one."""
    monkeypatch.setattr(state_hash, "_STRINGS_ITEMS", 500)
    monkeypatch.setattr(state_hash, "_STRINGS", {})
    monkeypatch.setattr(state_hash, "_held", [0])
    for n in range(12):
        s = board()
        s.players["alice"].library = [f"Forest{i % 5}" for i in range(100 + n)]
        s.players["bob"].library = [f"Island{i % 3}" for i in range(90)]
        assert s.state_hash() == canonical(s)
        held = sum(len(kept.items) for kept in state_hash._STRINGS.values())
        assert held == state_hash._held[0] <= 500


def test_a_state_read_to_be_checked_once_hashes_canonically_and_leaves_nothing_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot's state is hashed once, to be vouched for (its lists and permanents, a keyframe's, are new at
    every read): ``remember=False`` hashes it as always, keeps no copy of its lists and remembers no run of its
    permanents by identity (which would keep them alive)."""
    monkeypatch.setattr(state_hash, "_STRINGS", {})
    monkeypatch.setattr(state_hash, "_held", [0])
    monkeypatch.setattr(state_hash._shape(Permanent), "seen", {})
    s = GameState(turn_order=["alice", "bob"], turn=3, active_player="alice")
    s.players = {"alice": Player("alice", library=[f"Forest{i % 5}" for i in range(300)]), "bob": Player("bob")}
    s.battlefield = [Permanent(object=i, card="Forest", owner="alice", controller="alice") for i in range(1, 100)]
    assert s.state_hash(remember=False) == canonical(s)
    assert state_hash._STRINGS == {} and state_hash._held == [0] and state_hash._shape(Permanent).seen == {}
    assert hash_walks._RUNS._walks.get(s.battlefield) is None
    assert s.state_hash() == canonical(s) and len(state_hash._STRINGS) == 1 and len(state_hash._shape(Permanent).seen) == 2
