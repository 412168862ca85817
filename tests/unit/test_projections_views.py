"""The read models folded from hand-written event maps (projections.views)."""

from __future__ import annotations

import json
from typing import Any

from mtg_ledger.core.events import apply_event
from mtg_ledger.core.state import GameState
from mtg_ledger.projections.folds import fold, new_view, project
from mtg_ledger.projections.views import (
    GameView,
    hand_size_rows,
    phase_step_row,
    stack_rows,
)

GAME = "game-1"
NO_HASH = "0" * 64


class Log:
    """Builds a game's event maps with versions 1, 2, 3, ..."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def add(self, type_: str, **fields: Any) -> Log:
        self.events.append({"v": len(self.events) + 1, "type": type_, **fields, "hash": NO_HASH})
        return self

    def start(
        self,
        hands: dict[str, list[str]],
        battlefield: dict[str, list[dict[str, Any]]] | None = None,
        library: list[str] | None = None,
        teams: list[list[str]] | None = None,
    ) -> Log:
        players = [
            {
                "name": name,
                "life": 20,
                "library": list(library or ["Forest"] * 10),
                "hand": hand,
                "battlefield": (battlefield or {}).get(name, []),
            }
            for name, hand in hands.items()
        ]
        return self.add(
            "GameStarted",
            players=players,
            format="archenemy" if teams else "two-player",
            seed=1,
            starting_player=next(iter(hands)),
            rules="2025-11-14",
            shuffle=False,
            teams=teams or [],
            archenemy=None,
        )

    def step(self, turn: int, phase: str, step: str) -> Log:
        return self.add("StepBegan", turn=turn, phase=phase, step=step, first_strike=False)

    def cleanup(self, turn: int) -> Log:
        return self.add("StepEnded", turn=turn, step="end").step(turn, "ending", "cleanup")


def hand_of(view: GameView, player: str) -> dict[str, Any]:
    return next(r for r in hand_size_rows(view) if r["player"] == player)


def nine_cards() -> list[str]:
    return ["Forest"] * 5 + ["Grizzly Bears", "Lightning Bolt", "Giant Growth", "Hill Giant"]


def test_spell_cast_goes_on_the_stack_and_leaves_it_when_it_resolves_608() -> None:
    log = (
        Log()
        .start({"alice": ["Lightning Bolt", "Grizzly Bears"], "bob": ["Giant Growth"]})
        .add("TurnBegan", turn=1, active_player="alice")
        .step(1, "precombat_main", "precombat_main")
        .add("SpellCast", player="alice", card="Grizzly Bears", object=1, targets=[], mana_spent={})
        .add("SpellCast", player="bob", card="Giant Growth", object=2, targets=[1], mana_spent={})
    )
    view = project(GAME, log.events).view
    assert [(r["position"], r["object"], r["card"], r["controller"]) for r in stack_rows(view)] == [
        (0, 1, "Grizzly Bears", "alice"),
        (1, 2, "Giant Growth", "bob"),
    ]
    assert hand_of(view, "alice")["hand_size"] == 1
    assert hand_of(view, "bob")["hand_size"] == 0

    log.add("ObjectResolved", object=2, card="Giant Growth", controller="bob", outcome="fizzled", permanent=None)
    log.add("ObjectResolved", object=1, card="Grizzly Bears", controller="alice", outcome="resolved", permanent=3)
    view = project(GAME, log.events).view
    assert stack_rows(view) == []
    assert {"object": 3, "card": "Grizzly Bears", "controller": "alice"} in view.permanents


def test_priority_holder_follows_given_and_passed_events_117() -> None:
    log = (
        Log()
        .start({"alice": [], "bob": []})
        .add("TurnBegan", turn=1, active_player="alice")
        .step(1, "beginning", "upkeep")
        .add("PriorityGiven", player="alice")
    )
    row = phase_step_row(project(GAME, log.events).view)
    assert row == {
        "game_id": GAME,
        "turn": 1,
        "phase": "beginning",
        "step": "upkeep",
        "active_player": "alice",
        "priority": "alice",
        "version": 4,
    }
    log.add("PriorityPassed", player="alice")
    assert phase_step_row(project(GAME, log.events).view)["priority"] is None
    log.add("PriorityGiven", player="bob")
    assert phase_step_row(project(GAME, log.events).view)["priority"] == "bob"
    log.add("PriorityPassed", player="bob").add("StepEnded", turn=1, step="upkeep")
    row = phase_step_row(project(GAME, log.events).view)
    assert (row["priority"], row["step"], row["version"]) == (None, "upkeep", 8)


def test_cleanup_with_nine_cards_in_hand_requires_two_discards_514_1() -> None:
    log = (
        Log()
        .start({"alice": nine_cards()[:7], "bob": []})
        .add("TurnBegan", turn=2, active_player="alice")
        .add("CardDrawn", player="alice", card="Forest")
        .add("CardDrawn", player="alice", card="Forest")
        .cleanup(2)
    )
    projected = project(GAME, log.events)
    assert hand_of(projected.view, "alice") == {
        "game_id": GAME,
        "seat": 0,
        "player": "alice",
        "hand_size": 9,
        "max_hand_size": 7,
        "cards_to_discard": 2,
    }
    [row] = projected.cleanups
    assert (row.turn, row.player, row.hand_size, row.max_hand_size, row.required, row.discarded) == (
        2,
        "alice",
        9,
        7,
        2,
        (),
    )

    log.add("CardsDiscarded", player="alice", cards=["Hill Giant", "Forest"], max_hand_size=7, rule="514.1")
    projected = project(GAME, log.events)
    [row] = projected.cleanups
    assert (row.required, row.discarded) == (2, ("Hill Giant", "Forest"))
    assert hand_of(projected.view, "alice")["hand_size"] == 7
    assert hand_of(projected.view, "alice")["cards_to_discard"] == 0


def test_514_1_805_4_every_player_of_the_active_team_has_a_cleanup_row_with_their_own_discards() -> None:
    log = (
        Log()
        .start({"archie": [], "alice": nine_cards()[:8], "bob": nine_cards()[:8]}, teams=[["archie"], ["alice", "bob"]])
        .add("TurnBegan", turn=2, active_player="alice")
        .cleanup(2)
        .add("CardsDiscarded", player="alice", cards=["Forest"], max_hand_size=7, rule="514.1")
        .add("CardsDiscarded", player="bob", cards=["Hill Giant"], max_hand_size=7, rule="514.1")
    )
    rows = project(GAME, log.events).cleanups
    assert [(r.player, r.hand_size, r.required, r.discarded) for r in rows] == [
        ("alice", 8, 1, ("Forest",)),
        ("bob", 8, 1, ("Hill Giant",)),
    ]


def test_spellbook_means_no_maximum_hand_size_and_no_discard_402_2() -> None:
    log = (
        Log()
        .start({"alice": nine_cards(), "bob": []}, battlefield={"alice": [{"object": 1, "card": "Spellbook"}]})
        .add("TurnBegan", turn=1, active_player="alice")
        .cleanup(1)
    )
    projected = project(GAME, log.events)
    assert hand_of(projected.view, "alice")["max_hand_size"] is None
    assert hand_of(projected.view, "alice")["cards_to_discard"] == 0
    assert hand_of(projected.view, "bob")["max_hand_size"] == 7  # only its controller's hand
    [row] = projected.cleanups
    assert (row.hand_size, row.max_hand_size, row.required, row.discarded) == (9, None, 0, ())

    spellbook = {"object": 1, "card": "Spellbook", "owner": "alice"}
    log.add("PermanentsPutIntoGraveyard", permanents=[spellbook], rule="701.8")
    view = project(GAME, log.events).view
    assert (hand_of(view, "alice")["max_hand_size"], hand_of(view, "alice")["cards_to_discard"]) == (7, 2)


def test_a_resolved_spellbook_lifts_the_maximum_608_3() -> None:
    log = (
        Log()
        .start({"alice": [*nine_cards(), "Spellbook"], "bob": []})
        .add("TurnBegan", turn=1, active_player="alice")
        .step(1, "precombat_main", "precombat_main")
        .add("SpellCast", player="alice", card="Spellbook", object=1, targets=[], mana_spent={})
    )
    assert hand_of(project(GAME, log.events).view, "alice")["max_hand_size"] == 7
    log.add("ObjectResolved", object=1, card="Spellbook", controller="alice", outcome="resolved", permanent=2)
    assert hand_of(project(GAME, log.events).view, "alice")["max_hand_size"] is None


def test_a_second_cleanup_step_in_a_turn_is_a_row_of_its_own_514_3a() -> None:
    log = (
        Log()
        .start({"alice": nine_cards(), "bob": []})
        .add("TurnBegan", turn=1, active_player="alice")
        .cleanup(1)
        .add("CardsDiscarded", player="alice", cards=["Forest", "Forest"], max_hand_size=7, rule="514.1")
        .add("StepEnded", turn=1, step="cleanup")
        .step(1, "ending", "cleanup")
    )
    first, second = project(GAME, log.events).cleanups
    assert (first.turn, first.required, first.discarded) == (1, 2, ("Forest", "Forest"))
    assert (second.turn, second.hand_size, second.required, second.discarded) == (1, 7, 0, ())
    assert second.version > first.version


def test_a_player_who_loses_takes_their_spells_and_permanents_along_800_4a() -> None:
    log = (
        Log()
        .start(
            {"alice": ["Lightning Bolt"], "bob": ["Giant Growth"]},
            battlefield={"bob": [{"object": 1, "card": "Spellbook"}]},
        )
        .add("TurnBegan", turn=1, active_player="alice")
        .step(1, "precombat_main", "precombat_main")
        .add("SpellCast", player="alice", card="Lightning Bolt", object=2, targets=["bob"], mana_spent={})
        .add("SpellCast", player="bob", card="Giant Growth", object=3, targets=[], mana_spent={})
        .add("PriorityGiven", player="bob")
        .add("PlayerLost", player="bob", reason="conceded", rule="104.3a")
    )
    view = project(GAME, log.events).view
    assert [r["object"] for r in stack_rows(view)] == [2]
    assert view.permanents == []
    assert phase_step_row(view)["priority"] is None
    log.add("PriorityGiven", player="alice").add("GameEnded", winner="alice", winners=["alice"], reason="last player standing")
    row = phase_step_row(project(GAME, log.events).view)
    assert (row["priority"], row["version"]) == (None, 9)


def test_the_fold_agrees_with_the_state_appliers_after_every_event() -> None:
    log = (
        Log()
        .start({"alice": ["Forest", "Grizzly Bears", "Lightning Bolt"], "bob": ["Giant Growth"]})
        .add("TurnBegan", turn=1, active_player="alice")
        .step(1, "beginning", "upkeep")
        .add("PriorityGiven", player="alice")
        .add("PriorityPassed", player="alice")
        .add("PriorityGiven", player="bob")
        .add("PriorityPassed", player="bob")
        .add("StepEnded", turn=1, step="upkeep")
        .step(1, "precombat_main", "precombat_main")
        .add("PriorityGiven", player="alice")
        .add("LandPlayed", player="alice", card="Forest", object=1)
        .add("SpellCast", player="alice", card="Grizzly Bears", object=2, targets=[], mana_spent={})
        .add("PriorityPassed", player="alice")
        .add("PriorityGiven", player="bob")
        .add("SpellCast", player="bob", card="Giant Growth", object=3, targets=[], mana_spent={})
        .add("ObjectResolved", object=3, card="Giant Growth", controller="bob", outcome="fizzled", permanent=None)
        .add("ObjectResolved", object=2, card="Grizzly Bears", controller="alice", outcome="resolved", permanent=4)
        .add("CardDrawn", player="bob", card="Forest")
        .add("StepEnded", turn=1, step="precombat_main")
        .cleanup(1)
        .add("TurnBegan", turn=2, active_player="bob")
    )
    state, view = GameState(), new_view(GAME)
    for event in log.events:
        apply_event(state, event)
        fold(view, event)
        assert (view.version, view.turn, view.phase, view.step, view.active_player, view.priority) == (
            state.version,
            state.turn,
            state.phase,
            state.step,
            state.active_player,
            state.priority,
        )
        assert view.stack == [{"object": s.object, "card": s.card, "controller": s.controller} for s in state.stack]
        assert view.hands == {name: len(p.hand) for name, p in state.players.items()}
        assert view.permanents == [
            {"object": p.object, "card": p.card, "controller": p.controller} for p in state.battlefield
        ]


def test_a_view_stored_midway_continues_exactly_like_one_folded_straight_through() -> None:
    log = (
        Log()
        .start({"alice": nine_cards()[:7], "bob": []})
        .add("TurnBegan", turn=1, active_player="alice")
        .add("CardDrawn", player="alice", card="Forest")
        .add("CardDrawn", player="alice", card="Forest")
        .cleanup(1)
        .add("CardsDiscarded", player="alice", cards=["Forest", "Forest"], max_hand_size=7, rule="514.1")
    )
    straight = project(GAME, log.events).view
    for cut in range(len(log.events) + 1):
        view = new_view(GAME)
        for event in log.events[:cut]:
            fold(view, event)
        view = GameView.from_dict(json.loads(json.dumps(view.to_dict())))
        for event in log.events[cut:]:
            fold(view, event)
        assert view == straight
