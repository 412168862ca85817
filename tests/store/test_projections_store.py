"""The views in each store: caught up on demand, once, atomically with their tracking record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, Tracking, Transcoder
from eventsourcing.projection import ProjectionRunner

from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import used_names
from mtg_ledger.core import events as ev
from mtg_ledger.core.state import GameState
from mtg_ledger.projections.recorders import LedgerViews, POPOLedgerViews, ProjectionConflict
from mtg_ledger.projections import runner as runner_module
from mtg_ledger.projections import views as views_module
from mtg_ledger.projections.runner import LedgerProjection, catch_up, make_view, tracking_name
from mtg_ledger.projections.folds import project
from mtg_ledger.projections.views import cleanup_row, hand_size_rows, phase_step_row, stack_rows
from mtg_ledger.replays.stores.transcoder import MsgpackTranscoder

NO_HASH = "0" * 64
STORES = ["popo_env", "sqlite_env", pytest.param("postgres_env", marks=pytest.mark.postgres)]
PERSISTENT_STORES = ["sqlite_env", pytest.param("postgres_env", marks=pytest.mark.postgres)]


class Table(Aggregate):
    """A bare game stream: core events triggered by hand, applied to a GameState."""

    def __init__(self) -> None:
        self.state = GameState()


class LedgerApp(Application[UUID]):
    name = "Ledger"

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()


class Game:
    """A game being written to an application, with the contract maps it has saved."""

    def __init__(self, app: LedgerApp, game_id: UUID) -> None:
        self.app = app
        hand = ["Forest", "Forest", "Lightning Bolt", "Grizzly Bears", "Hill Giant", "Giant Growth", "Forest"]
        players = [
            {"name": name, "life": 20, "library": ["Forest"] * 5, "hand": list(hand), "battlefield": []}
            for name in ("alice", "bob")
        ]
        self.table = Table._create(
            ev.GameStarted,
            id=game_id,
            players=players,
            format="two-player",
            seed=1,
            starting_player="alice",
            rules="2025-11-14",
            shuffle=False,
            teams=[],
            archenemy=None,
            cards=CLASSIC.pinned(used_names(players)),
            hash=NO_HASH,
        )
        self.maps: list[dict[str, Any]] = []

    @property
    def id(self) -> str:
        return str(self.table.id)

    def then(self, event_class: type[ev.GameEvent], **fields: Any) -> Game:
        self.table.trigger_event(event_class, hash=NO_HASH, **fields)
        return self

    def step(self, step: str, phase: str, turn: int = 1) -> Game:
        return self.then(ev.StepBegan, turn=turn, phase=phase, step=step, first_strike=False)

    def save(self) -> None:
        self.maps.extend(e.to_map() for e in self.table.pending_events)  # type: ignore[attr-defined]
        self.app.save(self.table)


def main_phase_with_a_bolt_on_the_stack(game: Game) -> None:
    (
        game.then(ev.TurnBegan, turn=1, active_player="alice", state_hash="0" * 64)
        .step("upkeep", "beginning")
        .then(ev.PriorityGiven, player="alice")
        .then(ev.CardDrawn, player="alice", card="Forest")
        .then(ev.CardDrawn, player="alice", card="Forest")
        .then(ev.CardDrawn, player="alice", card="Forest")
        .step("precombat_main", "precombat_main")
        .then(ev.PriorityGiven, player="alice")
        .then(ev.SpellCast, player="alice", card="Lightning Bolt", object=1, targets=["bob"], mana_spent={}, paid_with=[])
        .then(ev.PriorityPassed, player="alice")
        .then(ev.PriorityGiven, player="bob")
        .save()
    )


def resolved_and_into_cleanup(game: Game) -> None:
    (
        game.then(ev.PriorityPassed, player="bob")
        .then(
            ev.ObjectResolved, object=1, card="Lightning Bolt", controller="alice", outcome="resolved", permanent=None
        )
        .then(ev.StepEnded, turn=1, step="precombat_main")
        .step("cleanup", "ending")
        .save()
    )


def discarded(game: Game) -> None:
    game.then(ev.CardsDiscarded, player="alice", cards=["Hill Giant", "Giant Growth"], max_hand_size=7, rule="514.1").save()


def assert_views_match_the_log(view: LedgerViews, *games: Game) -> None:
    for game in games:
        expected = project(game.id, game.maps)
        assert view.phase_step(game.id) == phase_step_row(expected.view)
        assert view.stack(game.id) == stack_rows(expected.view)
        assert view.hand_sizes(game.id) == hand_size_rows(expected.view)
        assert view.cleanups(game.id) == [cleanup_row(game.id, c) for c in expected.cleanups]


@pytest.fixture(params=STORES)
def env(request: pytest.FixtureRequest) -> dict[str, str]:
    env: dict[str, str] = request.getfixturevalue(request.param)
    return env


@pytest.fixture(params=PERSISTENT_STORES)
def persistent_env(request: pytest.FixtureRequest) -> dict[str, str]:
    env: dict[str, str] = request.getfixturevalue(request.param)
    return env


@pytest.fixture
def app(env: dict[str, str]) -> Iterator[LedgerApp]:
    app = LedgerApp(env=env)
    yield app
    app.close()


def test_catching_up_folds_each_stored_event_once(app: LedgerApp) -> None:
    game = Game(app, UUID(int=1))
    main_phase_with_a_bolt_on_the_stack(game)
    view = make_view(app)

    assert catch_up(app, view) == len(game.maps) == 12
    assert view.phase_step(game.id) == {
        "game_id": game.id,
        "turn": 1,
        "phase": "precombat_main",
        "step": "precombat_main",
        "active_player": "alice",
        "priority": "bob",
        "version": 12,
    }
    assert view.stack(game.id) == [
        {"game_id": game.id, "position": 0, "object": 1, "card": "Lightning Bolt", "controller": "alice"}
    ]
    assert [(r["player"], r["hand_size"], r["max_hand_size"]) for r in view.hand_sizes(game.id)] == [
        ("alice", 9, 7),
        ("bob", 7, 7),
    ]
    assert catch_up(app, view) == 0
    assert view.max_tracking_id(tracking_name(app)) == app.recorder.max_notification_id()

    resolved_and_into_cleanup(game)
    discarded(game)
    assert catch_up(app, view) == 5
    assert view.stack(game.id) == []
    assert view.cleanups(game.id) == [
        {
            "game_id": game.id,
            "version": 16,
            "turn": 1,
            "player": "alice",
            "hand_size": 9,
            "max_hand_size": 7,
            "required": 2,
            "discarded": ["Hill Giant", "Giant Growth"],
        }
    ]
    assert_views_match_the_log(view, game)


def test_games_caught_up_in_small_batches_come_out_as_in_one(app: LedgerApp) -> None:
    one, two = Game(app, UUID(int=1)), Game(app, UUID(int=2))
    main_phase_with_a_bolt_on_the_stack(one)
    main_phase_with_a_bolt_on_the_stack(two)
    resolved_and_into_cleanup(one)
    view = make_view(app)

    assert catch_up(app, view, batch_size=5) == len(one.maps) + len(two.maps)
    assert_views_match_the_log(view, one, two)


def test_views_of_an_older_layout_are_folded_again_from_the_first_event(
    persistent_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = LedgerApp(env=persistent_env)
    game = Game(app, UUID(int=8))
    main_phase_with_a_bolt_on_the_stack(game)
    assert catch_up(app, make_view(app)) == 12
    monkeypatch.setattr(views_module, "VIEW_SCHEMA", views_module.VIEW_SCHEMA + 1)
    monkeypatch.setattr(runner_module, "VIEW_SCHEMA", views_module.VIEW_SCHEMA)
    view = make_view(app)
    assert view.max_tracking_id(tracking_name(app)) is None
    assert catch_up(app, view) == 12  # the stored views of the older layout are not read, but rebuilt
    assert_views_match_the_log(view, game)
    app.close()


def test_views_continue_where_they_stopped_after_a_restart(persistent_env: dict[str, str]) -> None:
    game_id = UUID(int=7)
    app = LedgerApp(env=persistent_env)
    game = Game(app, game_id)
    main_phase_with_a_bolt_on_the_stack(game)
    assert catch_up(app, make_view(app)) == 12
    app.close()

    for step, position, new_events in ((resolved_and_into_cleanup, 12, 4), (discarded, 16, 1)):
        app = LedgerApp(env=persistent_env)  # a new process: new application, new view, same database
        game.app, game.table = app, app.repository.get(game_id)
        step(game)
        view = make_view(app)
        assert view.max_tracking_id(tracking_name(app)) == position
        assert catch_up(app, view, batch_size=1) == new_events
        assert catch_up(app, make_view(app)) == 0
        assert_views_match_the_log(view, game)
        app.close()


def test_a_batch_that_fails_leaves_neither_rows_nor_tracking(app: LedgerApp) -> None:
    game = Game(app, UUID(int=3))
    game.save()
    view = make_view(app)
    started = game.maps[0]
    broken = {"v": 2, "type": "SpellCast", "player": "alice", "hash": NO_HASH}  # no card, no object

    with pytest.raises(KeyError):
        view.project([(game.id, started), (game.id, broken)], Tracking(tracking_name(app), 2), after=None)

    assert view.max_tracking_id(tracking_name(app)) is None
    assert view.phase_step(game.id) is None
    assert view.hand_sizes(game.id) == []
    assert catch_up(app, view) == 1
    assert_views_match_the_log(view, game)


def test_a_batch_read_after_a_stale_position_is_refused_whole(app: LedgerApp) -> None:
    game = Game(app, UUID(int=4))
    main_phase_with_a_bolt_on_the_stack(game)
    view = make_view(app)
    assert catch_up(app, view) == 12

    for after in (None, 5):
        with pytest.raises(ProjectionConflict):
            view.project([(game.id, game.maps[-1])], Tracking(tracking_name(app), 99), after=after)
    assert view.max_tracking_id(tracking_name(app)) == 12
    assert_views_match_the_log(view, game)


class LateView(POPOLedgerViews):
    """Reports no position the first time it is asked, as a catch-up that lost a race would see it."""

    def __init__(self, real: LedgerViews) -> None:
        super().__init__()
        self.real = real
        self.asked = 0

    def max_tracking_id(self, application_name: str) -> int | None:
        self.asked += 1
        return None if self.asked == 1 else self.real.max_tracking_id(application_name)

    def project(self, events: Any, tracking: Tracking, *, after: int | None) -> None:
        self.real.project(events, tracking, after=after)


def test_a_catch_up_that_lost_a_race_resumes_without_folding_twice(persistent_env: dict[str, str]) -> None:
    app = LedgerApp(env=persistent_env)
    try:
        game = Game(app, UUID(int=5))
        main_phase_with_a_bolt_on_the_stack(game)
        assert catch_up(app, make_view(app)) == 12  # the other process

        late = LateView(make_view(app))
        assert catch_up(app, late) == 0
        assert late.asked == 2
        assert_views_match_the_log(late.real, game)
    finally:
        app.close()


def test_the_library_projection_runner_keeps_the_views_live() -> None:
    with ProjectionRunner(
        application_class=LedgerApp,
        projection_class=LedgerProjection,
        view_class=POPOLedgerViews,
        env={"PERSISTENCE_MODULE": "eventsourcing.popo"},
    ) as runner:
        game = Game(runner.app, UUID(int=6))
        main_phase_with_a_bolt_on_the_stack(game)
        runner.wait(runner.app.recorder.max_notification_id(), timeout=5)
        assert_views_match_the_log(runner.view, game)


def test_the_views_answer_the_library_tracking_api_from_their_own_table(app: LedgerApp) -> None:
    view = make_view(app)
    view.insert_tracking(Tracking("Elsewhere", 3))
    assert view.max_tracking_id("Elsewhere") == 3
    assert view.max_tracking_id(tracking_name(app)) is None
    with pytest.raises(IntegrityError):
        view.insert_tracking(Tracking("Elsewhere", 3))
