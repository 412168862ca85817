"""302.6 on the appliers: a permanent is "fresh" until a turn of its controller (of their team, 805.4)
begins. TurnBegan walks the battlefield from where its last walk of the same list found every permanent
settled (core.events.turn); whatever the order of entering, leaving and turns, in one game or in two
played by turns, and even with a permanent taken out of the list in place, the walk finds what the rule
says."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.events import APPLIERS
from mtg_ledger.core.state import GameState, Player
from tests.conftest import examples

PLAYERS = ("alice", "bob", "carol")
Step = tuple[str, int, str]  # (what, which game, player)


def new_game(teams: list[list[str]]) -> GameState:
    state = GameState(turn_order=list(PLAYERS), teams=[list(t) for t in teams])
    state.players = {p: Player(name=p, hand=["Forest"] * 50) for p in PLAYERS}
    return state


def apply(state: GameState, kind: str, **fields: Any) -> None:
    APPLIERS[kind](state, fields)


steps = st.lists(
    st.tuples(st.sampled_from(("enters", "enters", "turn", "leaves", "taken_out")), st.integers(0, 1), st.sampled_from(PLAYERS)),
    max_size=60,
)


@settings(settings.get_profile("ci"), max_examples=examples(200))  # cheap examples: enough to meet every order
@given(steps, st.booleans())
def test_a_permanent_is_fresh_until_a_turn_of_its_controllers_team_begins_302_6_805_4(plan: list[Step], shared: bool) -> None:
    teams = [["alice", "carol"], ["bob"]] if shared else []
    games = [new_game(teams), new_game(teams)]
    turns = [0, 0]
    entered: list[dict[int, tuple[str, int]]] = [{}, {}]  # object -> (controller, step it entered at)
    began: list[dict[str, int]] = [{}, {}]  # player -> the last step a turn of theirs began at
    for at, (what, g, player) in enumerate(plan):
        state = games[g]
        if what == "enters":
            obj = state.next_object
            apply(state, "LandPlayed", player=player, card="Forest", object=obj)
            entered[g][obj] = (player, at)
        elif what == "turn":
            turns[g] += 1
            apply(state, "TurnBegan", turn=turns[g], active_player=player, state_hash="")
            for member in next((t for t in teams if player in t), [player]):
                began[g][member] = at
        elif what == "leaves" and entered[g]:  # the oldest permanent still there leaves: a new battlefield list
            obj = min(entered[g])
            apply(state, "PermanentsPutIntoGraveyard", permanents=[{"object": obj}], rule="701.7")
            del entered[g][obj]
        elif entered[g]:  # no applier does this, but the walk must not count on it: one taken out of the list itself
            obj = min(entered[g])
            state.battlefield.remove(next(p for p in state.battlefield if p.object == obj))
            del entered[g][obj]
        for game, board, turn_began in zip(games, entered, began, strict=True):
            expected = {obj: turn_began.get(controller, -1) < since for obj, (controller, since) in board.items()}
            assert {p.object: p.fresh for p in game.battlefield} == expected
