"""Hidden information (rules 400.2, 401.2, 402.3): what ``core.redact.view`` lets each viewer see.

The property: over random games, at every version, no player's copy of the state or of any event
names a card that player may not know: only cards that have been public (battlefield, graveyards,
the stack, triggers, a scheme set in motion) and cards that have been in their own hand. Each player's
cards have names no other player's have, so a leak of an opponent's hand, of a library (even their
own), or of an opponent's drawn card would show. The judge's copy is the state and the log unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.commands import ActivateAbility, Concede, PassPriority
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.redact import JUDGE, view
from mtg_ledger.core.table import LocalTable
from tests.conftest import examples
from tests.redaction import check_every_view, names_in

NAMES = frozenset(CLASSIC.names())
CARDS, card = CLASSIC.cards, CLASSIC.card
LANDS = {"alice": "Forest", "bob": "Mountain", "carol": "Plains"}
SPELLS = sorted(n for n in CARDS if not card(n).is_type("Land") and not card(n).is_type("Scheme"))
SCHEMES = sorted(n for n in CARDS if card(n).is_type("Scheme"))


def card_names(value: Any) -> set[str]:
    return names_in(value, NAMES)


def setup(seed: int, players: int) -> dict[str, Any]:
    """Each player's spells are theirs alone (the pool dealt out), with a land of their own."""
    names = ["alice", "bob", "carol"][:players]
    rng = random.Random(seed)
    spells = SPELLS[:]
    rng.shuffle(spells)
    archenemy = players == 3 and seed % 2 == 0
    seats = []
    for i, name in enumerate(names):
        mine = spells[i::players]
        library = [LANDS[name]] * 14 + [c for c in mine for _ in range(2)]
        rng.shuffle(library)
        seats.append({"name": name, "library": library, **({"schemes": SCHEMES * 2} if archenemy and i == 0 else {})})
    fmt = "archenemy" if archenemy else ("two-player" if players == 2 else "free-for-all")
    return {"format": fmt, "seed": seed, "shuffle": True, "starting_player": "alice", "players": seats}


def play(seed: int, players: int, decisions: int) -> LocalTable:
    table = LocalTable.start(setup(seed, players))
    choices = random.Random(seed)
    for _ in range(decisions):
        if table.state.ended:
            break
        legal = list(legal_actions(table.state))
        acting = [c for c in legal if not isinstance(c, (PassPriority, ActivateAbility, Concede))]
        table.handle(choices.choice(acting) if acting and choices.random() < 0.6 else choices.choice(legal))
    return table


@settings(max_examples=examples(12))
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 2, 3]))
def test_no_player_ever_sees_a_card_they_may_not_know_and_the_judge_sees_everything(seed: int, players: int) -> None:
    check_every_view(play(seed, players, 250).events, NAMES)


def test_an_opponent_s_hand_and_drawn_card_are_null_but_counted_rule_402_3() -> None:
    table = LocalTable.start(
        {
            "starting_player": "alice",
            "players": [
                {"name": "alice", "library": ["Forest"] * 5, "hand": ["Llanowar Elves"]},
                {"name": "bob", "library": ["Lightning Bolt", "Mountain"], "hand": ["Hill Giant", "Island"]},
            ],
        }
    )
    while table.state.turn < 2 or table.state.step != "draw":
        table.handle(PassPriority(table.state.priority or ""))
    drawn = [e for e in table.events if e["type"] == "CardDrawn"][-1]
    assert (drawn["player"], drawn["card"]) == ("bob", "Lightning Bolt")
    assert view(drawn, "alice")["card"] is None and view(drawn, "bob")["card"] == "Lightning Bolt"
    alice_sees = view(table.state, "alice")
    assert alice_sees["players"]["bob"]["hand"] == [None, None, None]
    assert alice_sees["players"]["alice"]["hand"] == ["Llanowar Elves"]  # 103.8a: no draw on turn 1
    assert alice_sees["players"]["bob"]["library"] == 1
    started = view(table.events[0], "alice")
    assert started["players"][1]["hand"] == [None, None] and started["players"][0]["library"] == [None] * 5
    assert started["seed"] is None and "hash" not in started


def test_no_library_order_reaches_any_player_rule_401_2() -> None:
    table = LocalTable.start(setup(3, 2))
    shuffled = [e for e in table.events if e["type"] == "LibraryShuffled"]
    assert shuffled
    for e in shuffled:
        for viewer in ("alice", "bob"):
            assert set(view(e, viewer)["order"]) == {None}
        assert view(e, JUDGE)["order"] == e["order"]
    turn = next(e for e in table.events if e["type"] == "TurnBegan")
    assert view(turn, "alice")["state_hash"] is None  # a hash of every hidden card could be tested against guesses
