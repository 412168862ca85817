"""The time-travel viewer (docs/reference/http.md, ``GET /games/{id}/viewer``) and the routes it reads.

The page is static (``replays/viewer/``: HTML, one vanilla JS module, CSS, shipped in the package, no
CDN, no build step). It takes its token from the URL fragment, so the token never reaches a server
log, and reads only API routes. Besides those of section 6 it reads a game's summary and, a window at
a time, its timeline, the steps of a turn as they happened and where the next step, decision or event
of a kind is (``replays.browse``): nothing loads a whole log, so a 1,000,000-event game stays fast.
Every route answers through ``core.redact.view``, as the others do.
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from mtg_ledger.core.events import EVENT_TYPES
from mtg_ledger.core.redact import Judge, Viewer, view_of_event
from mtg_ledger.replays.viewer import browse
from mtg_ledger.replays.service.auth import GameId, Judge as JudgeHolder, Member
from mtg_ledger.replays.service.errors import Forbidden, Unprocessable
from mtg_ledger.replays.scenario.forms import Step as StepName
from mtg_ledger.replays.service.deps import Service
from mtg_ledger.replays.service.games import Games, viewer_of
from mtg_ledger.replays.service.routes import READ, Version
from mtg_ledger.replays.text import describe

router = APIRouter()
ASSETS = {"viewer.js": "text/javascript", "viewer.css": "text/css"}


def _asset(name: str) -> bytes:
    return resources.files("mtg_ledger.replays.viewer").joinpath(name).read_bytes()


@router.get("/games/{id}/viewer", response_class=HTMLResponse, tags=["viewer"])
def viewer_page(id: GameId) -> HTMLResponse:
    """The viewer page; it reads the API with the token of its URL fragment: ``#token=TOKEN[&v=VERSION]``."""
    return HTMLResponse(_asset("index.html"), headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


@router.get(
    "/viewer/{name}",
    response_class=Response,
    responses={200: {"content": {t: {"schema": {"type": "string"}} for t in ASSETS.values()}, "description": "the asset"}, 404: {"description": "no such asset"}},
    tags=["viewer"],
)
def viewer_asset(name: Literal["viewer.js", "viewer.css"]) -> Response:
    """The viewer's script and style sheet."""
    return Response(_asset(name), media_type=ASSETS[name])


class Summary(BaseModel):
    game: str
    version: int
    format: str
    players: list[str]
    viewer: str = Field(description="the token's holder: a player's name, or judge")
    ended: bool
    event_types: list[str]


@router.get("/games/{id}", response_model=Summary, responses=READ, tags=["reading"])
def get_summary(found: Service, id: GameId, holder: Member) -> Any:
    """Who the token is for, and what the game is: format, players, how many events."""
    version = found.version(id)
    state = found.ledger.state(id, 1)
    now = found.ledger.state(id, version)
    return {"game": str(id), "version": version, "format": state.game_format, "players": list(state.turn_order),
            "viewer": holder.holder, "ended": now.ended, "event_types": sorted(EVENT_TYPES)}


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid")
    v: int
    type: str
    text: str = Field(description="the event in the words of `mtg-ledger events --format text`")
    rule: str | None
    turn: int
    step: str | None
    player: str | None


class Timeline(BaseModel):
    total: int
    events: list[Row]


def _redactor(viewer: Viewer) -> browse.Redact:
    return (lambda e: e) if isinstance(viewer, Judge) else (lambda e: view_of_event(e, viewer))


@router.get("/games/{id}/timeline", response_model=Timeline, responses=READ, tags=["reading"])
def get_timeline(
    found: Service, id: GameId, holder: Member, from_: Annotated[Version, Query(alias="from")] = 1, to: Version | None = None,
) -> Any:
    """Events ``from`` to ``to`` (at most 500), each in the words of the text log with its rule, turn and step."""
    total = found.version(id)
    last = min(total, to if to is not None else from_ + browse.MAX_ROWS - 1)
    rows = [] if from_ > total else browse.timeline(found.ledger, id, from_, last, _redactor(viewer_of(holder.holder)))
    return {"total": total, "events": rows}


class Step(BaseModel):
    v: int
    phase: str
    step: str
    first_strike: bool
    extra: bool


class TurnOut(BaseModel):
    turn: int
    began: int
    steps: list[Step]
    skipped: list[str]
    complete: bool
    outcome: str | None = Field(None, description="when the game ended in this turn, how (the winner and the reason); the steps after it were never played")
    ended_at: int | None = Field(None, description="the version of the event that ended the game, when it ended in this turn")


@router.get("/games/{id}/turn", response_model=TurnOut, responses=READ, tags=["reading"])
def get_turn(found: Service, id: GameId, holder: Member, at: Version) -> Any:
    """The steps of the turn that event ``at`` belongs to, as they happened (500.8 extra and 500.10 skipped
    phases, 510.4's first-strike damage step, 514.3a's second cleanup)."""
    _within(found, id, at)
    outline = browse.turn_outline(found.ledger, id, at)
    return outline.to_json()


class Found(BaseModel):
    v: int | None = Field(description="the version found, or null when nothing matches")


@router.get("/games/{id}/find", response_model=Found, responses=READ, tags=["reading"])
def find_version(
    found: Service, id: GameId, holder: Member, after: Annotated[int, Query(ge=0, le=2**62)] = 0, back: bool = False,
    step_boundary: bool = False, turn: Annotated[int | None, Query(ge=1, le=2**31)] = None, step: StepName | None = None,
    player: Annotated[str | None, Query(max_length=100)] = None, type: Annotated[str | None, Query(max_length=100)] = None,
) -> Any:
    """Where to jump: the next (``back``: previous) step, a turn's step, a player's next decision, the next
    event of a type."""
    if not (step_boundary or turn is not None or player is not None or type is not None):
        raise Unprocessable("say what to find: step_boundary, turn, player or type", field="query")
    if type is not None and type not in EVENT_TYPES:
        raise Unprocessable(f"type {type!r} is not an event type", field="query.type")
    found.version(id)  # 404 first
    v = browse.find(found.ledger, id, after, back=back, step_boundary=step_boundary, turn=turn, step=step, player=player, kind=type)
    return {"v": v}


class DiffIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    other: UUID = Field(description="the other game's id")
    token: str = Field(max_length=200, description="the other game's judge token")


class DiffOut(BaseModel):
    first: int | None = Field(description="the first version where the logs differ, or null when identical")
    rows: list[dict[str, Any]]


@router.post("/games/{id}/diff", response_model=DiffOut, responses=READ, tags=["judging"])
def diff_games(found: Service, id: GameId, holder: JudgeHolder, body: DiffIn) -> Any:
    """Two games side by side from their first divergence (the judge of both)."""
    other = found.tokens.holder(body.token)
    if other is None or other.game != str(body.other) or other.holder != "judge":
        raise Forbidden("the other game's judge token is needed to compare with it")
    return _diff(found, id, body.other)


def _diff(found: Games, a: UUID, b: UUID) -> dict[str, Any]:
    left, right = list(found.ledger.event_maps(a)), list(found.ledger.event_maps(b))
    first = next((i for i in range(max(len(left), len(right)))
                  if (left[i] if i < len(left) else None) != (right[i] if i < len(right) else None)), None)
    if first is None:
        return {"first": None, "rows": []}
    start = max(0, first - 3)

    def row(events: list[dict[str, Any]], i: int) -> dict[str, Any] | None:
        return {"v": i + 1, "text": describe(events[i]).strip()} if i < len(events) else None

    rows = [{"same": i < first, "a": row(left, i), "b": row(right, i)} for i in range(start, min(first + 8, max(len(left), len(right))))]
    return {"first": first + 1, "rows": rows}


def _within(found: Games, game: UUID, at: int) -> None:
    latest = found.version(game)
    if not 1 <= at <= latest:
        raise Unprocessable(f"at={at}: game {game} has events 1 to {latest}", field="query.at")
