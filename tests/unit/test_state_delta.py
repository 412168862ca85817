"""A writer's snapshot delta made without the plain map of every permanent (replays.stores.state_delta)
is the node ``snapshot_delta.diff`` makes from the whole plain state, for every pair of states: the
stored bytes of a snapshot never depend on which way it was made."""

from __future__ import annotations

from typing import Any, NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState, Permanent, Player
from mtg_ledger.core.written import moment
from mtg_ledger.replays.stores import snapshot_delta as delta
from mtg_ledger.replays.stores.state_delta import Unchanged, state_node
from tests.conftest import examples
from tests.log_tools import demo_log


def plain_of(state: GameState) -> dict[str, Any]:
    plain = state.to_dict()
    plain.pop("cards", None)
    return plain


Source = tuple[int, list[Permanent]]


def keyframe_of(state: GameState) -> dict[str, Any]:
    """The plain state as a writer keeps its keyframe: through msgpack (lists, fresh objects)."""
    return delta.unpack(delta.pack(plain_of(state)))


class Taken(NamedTuple):
    """A keyframe as a writer takes it from the state it holds: with the moment it was read and the
    permanents it was made of, which later deltas vouch for by identity while they are not written, and
    its ``Unchanged`` made then (a writer makes it at its first delta and keeps it for the next ones)."""

    source: Source
    unchanged: Unchanged


def keyframe_taken(state: GameState) -> tuple[dict[str, Any], Taken]:
    since = moment()
    old = keyframe_of(state)
    source = (since, list(state.battlefield))
    return old, Taken(source, Unchanged(old.get("battlefield"), source))


def same_node(old: dict[str, Any], state: GameState, taken: Taken | None = None) -> None:
    """The node is diff's, whether the keyframe was read from the store or taken from a state in memory."""
    expected = delta.diff(old, plain_of(state))
    ways = [Unchanged(old.get("battlefield"))]
    if taken is not None:
        ways += [Unchanged(old.get("battlefield"), taken.source), taken.unchanged]
    for unchanged in ways:
        node = state_node(old, state, unchanged)
        assert node == expected
        assert delta.pack(node) == delta.pack(expected)


@settings(max_examples=examples(30), deadline=None)
@given(st.data())
def test_the_delta_between_any_two_states_of_a_game_is_the_node_diff_makes(data: st.DataObject) -> None:
    events = demo_log()
    first = data.draw(st.integers(1, len(events) - 1))
    later = data.draw(st.integers(first, len(events)))
    state = GameState()
    for e in events[:first]:
        apply_event(state, e)
    old, taken = keyframe_taken(state)
    for e in events[first:later]:
        apply_event(state, e)
    same_node(old, state, taken)


EDITS = st.sampled_from([
    ("tapped", True), ("damage", 2), ("fresh", False), ("counters", {"+1/+1": 1}), ("blocking", [3]),
    ("blocking", (3,)),  # a tuple where the keyframe holds a list: not equal (diff: an array node)
    ("deathtouched", True), ("deathtouched", 0),  # 0 is not False: visible keeps it
    ("loyalty_turn", 3), ("loyalty_turn", False), ("loyalty_turn", 0.0), ("attached_to", 2), ("attached_to", None),
    ("damage", False), ("tapped", 0),  # equal to what the keyframe holds, of another type: not the same (diff: a node)
    ("extra", 1),  # an attribute beyond the dataclass's fields
    ("delete", "damage"), ("delete", "deathtouched"),
    ("in place", "counters"), ("in place", "blocking"),  # a list or a map changed without a write of the permanent
])


def changed_in_place(p: Permanent, name: str) -> None:
    held = vars(p).get(name)
    if isinstance(held, dict):
        held["+1/+1"] = held.get("+1/+1", 0) + 1  # 122.1
    elif isinstance(held, list):
        held.append(7)  # 509.1h


@st.composite
def board_and_edits(draw: st.DrawFn) -> tuple[GameState, dict[str, Any], Taken]:
    """A battlefield as a keyframe holds it (some sparse fields set, some at a default of another
    type), then permanents edited in any of those ways, removed, added and moved."""
    count = draw(st.integers(1, 12))
    state = GameState(players={"alice": Player("alice", library=["Forest"] * 5)})
    state.battlefield = [Permanent(i, "Forest", "alice", "alice") for i in range(1, count + 1)]
    for p in state.battlefield:
        if draw(st.integers(0, 4)) == 0:
            name, value = draw(EDITS.filter(lambda e: e[0] not in ("extra", "delete", "in place")))
            setattr(p, name, value)
    old, taken = keyframe_taken(state)
    for p in list(state.battlefield):
        for name, value in draw(st.lists(EDITS, max_size=2)):
            if name == "delete":
                vars(p).pop(value, None)  # the class's default shows through: p.damage is still 0
                p.other = 1  # the same number of attributes, not the same ones
            elif name == "in place":
                changed_in_place(p, value)
            else:
                setattr(p, name, value)
        if draw(st.integers(0, 6)) == 0:
            state.battlefield.remove(p)
    state.battlefield += [Permanent(100 + i, "Island", "alice", "alice") for i in range(draw(st.integers(0, 3)))]
    if draw(st.booleans()) and len(state.battlefield) > 1:
        state.battlefield.append(state.battlefield.pop(0))
    if draw(st.integers(0, 5)) == 0:
        state.turn = True if old["turn"] == 1 else 1  # equal to the keyframe's, of another type
    return state, old, taken


@settings(max_examples=examples(300), deadline=None)
@given(board_and_edits())
def test_a_permanent_is_taken_as_unchanged_only_when_its_map_is_the_keyframes(case: tuple[GameState, dict[str, Any], Taken]) -> None:
    state, old, taken = case
    same_node(old, state, taken)


def test_a_keyframe_map_no_permanent_gives_is_never_taken_as_unchanged() -> None:
    state = GameState(battlefield=[Permanent(1, "Forest", "alice", "alice"), Permanent(2, "Forest", "alice", "alice")])
    old = keyframe_of(state)
    old["battlefield"][0]["deathtouched"] = False  # visible never writes a sparse field at its default
    old["battlefield"][1]["unknown"] = 1
    unchanged = Unchanged(old["battlefield"])
    assert list(unchanged.expected.values()) == [None, None]
    same_node(old, state)


def test_an_empty_battlefield_on_either_side_is_diffed_the_plain_way() -> None:
    empty = GameState()
    full = GameState(battlefield=[Permanent(1, "Forest", "alice", "alice")])
    same_node(keyframe_of(empty), full)
    same_node(keyframe_of(full), empty)


@st.composite
def large_board_and_edits(draw: st.DrawFn) -> tuple[GameState, dict[str, Any], Taken]:
    """A battlefield of several runs of 64 permanents, most left as the keyframe took them, a few edited
    in any of the ways above, some removed, new ones added, and sometimes a permanent sharing the
    ``object`` id of another (as no applier makes one: the delta is then made the plain way)."""
    count = draw(st.integers(65, 260))
    state = GameState(players={"alice": Player("alice")})
    state.battlefield = [Permanent(i, "Forest", "alice", "alice", fresh=False) for i in range(1, count + 1)]
    old, taken = keyframe_taken(state)
    for place in draw(st.lists(st.integers(0, count - 1), max_size=4)):
        p = state.battlefield[place]
        name, value = draw(EDITS)
        if name == "in place":
            changed_in_place(p, value)
        elif name != "delete":
            setattr(p, name, value)
    if draw(st.integers(0, 3)) == 0:
        state.battlefield = [p for p in state.battlefield if p.object != draw(st.integers(1, count))]  # 704.5: one leaves
    state.battlefield += [Permanent(1000 + i, "Island", "alice", "alice") for i in range(draw(st.integers(0, 70)))]
    if draw(st.integers(0, 4)) == 0:
        twin = draw(st.integers(1, count))
        state.battlefield.append(Permanent(twin, "Island", "alice", "alice"))  # an object id twice
    return state, old, taken


@settings(max_examples=examples(150), deadline=None)
@given(large_board_and_edits())
def test_runs_of_permanents_vouched_for_whole_give_the_node_diff_makes(case: tuple[GameState, dict[str, Any], Taken]) -> None:
    state, old, taken = case
    same_node(old, state, taken)


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_deltas_one_after_another_against_one_keyframe_give_the_node_diff_makes(data: st.DataObject) -> None:
    """A writer makes a delta at each snapshot against the same keyframe, on the same battlefield list as it grows:
    a run known whole at one delta and not written since is known whole at the next without a look at each of its
    permanents (``core.walks.RunWalks``); written to, changed in place, or the list replaced, it is looked at."""
    count = data.draw(st.integers(65, 200))
    state = GameState(players={"alice": Player("alice")})
    state.battlefield = [Permanent(i, "Forest", "alice", "alice", fresh=False) for i in range(1, count + 1)]
    old, taken = keyframe_taken(state)
    for _ in range(data.draw(st.integers(1, 4))):
        for place in data.draw(st.lists(st.integers(0, len(state.battlefield) - 1), max_size=2)):
            name, value = data.draw(EDITS.filter(lambda e: e[0] not in ("extra", "delete")))
            if name == "in place":
                changed_in_place(state.battlefield[place], value)
            else:
                setattr(state.battlefield[place], name, value)
        if data.draw(st.integers(0, 4)) == 0:
            state.battlefield = [p for p in state.battlefield if p.object != data.draw(st.integers(1, count))]  # 704.5: one leaves
        state.battlefield += [Permanent(1000 + len(state.battlefield), "Island", "alice", "alice") for _ in range(data.draw(st.integers(0, 2)))]
        node = state_node(old, state, taken.unchanged)
        assert node == delta.diff(old, plain_of(state))


def test_a_run_known_whole_at_the_last_delta_and_not_written_since_is_not_looked_at_again(monkeypatch: Any) -> None:
    from mtg_ledger.replays.stores import state_delta

    state = GameState(players={"alice": Player("alice")})
    state.battlefield = [Permanent(i, "Forest", "alice", "alice", fresh=False) for i in range(1, 201)]  # runs of 64, 64, 64, 8
    old, taken = keyframe_taken(state)
    looked: list[int] = []
    known_run = state_delta._known_run
    monkeypatch.setattr(state_delta, "_known_run", lambda run, start, unchanged: looked.append(start // 64) or known_run(run, start, unchanged))

    def delta_looked() -> list[int]:
        looked.clear()
        assert state_node(old, state, taken.unchanged) == delta.diff(old, plain_of(state))
        return looked

    assert delta_looked() == [0, 1, 2, 3]
    assert delta_looked() == [3]  # the last run, not a whole one, is always looked at
    state.battlefield[70].tapped = True  # 701.26a
    assert delta_looked() == [1, 3]
    assert delta_looked() == [1, 3]  # not the keyframe's as it was: not known whole
    state.battlefield[70].tapped = False  # written since the keyframe: its run is looked at from now on
    assert delta_looked() == [1, 3]
    state.battlefield[5].counters["+1/+1"] = 1  # 122.1, in place: no run is vouched for by identity
    assert delta_looked() == []
    del state.battlefield[5].counters["+1/+1"]  # empty again, as the keyframe holds it
    assert delta_looked() == [1, 3]
    state.battlefield = list(state.battlefield)  # another list (a permanent leaving makes one): every run looked at
    assert delta_looked() == [0, 1, 2, 3]
