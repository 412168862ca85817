"""The routes of CONTRACT section 6, thin: parse (the models), authorise (one dependency), call
``Games``, answer. Errors are mapped in ``errors.py``; what a viewer sees is ``core.redact.view``'s.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

from mtg_ledger.replays.service.auth import Creator, GameId, Judge, Member, Player
from mtg_ledger.replays.service.errors import StoreUnavailable, Unprocessable
from mtg_ledger.replays.service.games import Games, viewer_of
from mtg_ledger.replays.service.models import Action, ActionTaken, DecisionOut, ErrorOut, GameCreated, Health, NewGame
from mtg_ledger.replays.service.sse import follow

async def reachable(request: Request) -> None:
    """While this process's LISTEN session is lost (PostgreSQL restarting, say), every route of the store
    answers 503 with Retry-After at once, rather than wait for the pool to reconnect. Without a
    listener (SQLite), there is nothing to lose."""
    listener = request.app.state.listener
    if listener is not None and not listener.listening.is_set():
        raise StoreUnavailable("the store is unavailable; try again")


router = APIRouter(dependencies=[Depends(reachable)])

_E: dict[str, Any] = {"model": ErrorOut}
_503: dict[str, Any] = {
    "model": ErrorOut,
    "description": "the store is unavailable (PostgreSQL restarting, say): nothing was done; try again",
    "headers": {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}},
}
READ: dict[int | str, dict[str, Any]] = {401: _E, 403: _E, 404: _E, 422: _E, 503: _503}
WRITE: dict[int | str, dict[str, Any]] = {**READ, 409: _E, 413: _E}
BINARY = {"schema": {"type": "string", "format": "binary"}}
LOG_FILE = "application/vnd.mtg-ledger"
SSE_EVENT = {
    "type": "object",
    "description": "one server-sent event: id is the event's version, event its type, data its JSON map as the viewer may see it",
    "properties": {"id": {"type": "string"}, "event": {"type": "string"}, "data": {"type": "string"}},
    "required": ["data"],
}
Version = Annotated[int, Query(ge=1, le=2**62, description="an event version")]
Key = Annotated[str | None, Header(alias="Idempotency-Key", max_length=1024, description="a retry with the same key and body returns the first response and stores nothing more")]


def games(request: Request) -> Games:
    found: Games = request.app.state.games
    return found


async def run(function: Any, *args: Any) -> Any:
    """The store and the rules are synchronous: off the event loop."""
    return await to_thread.run_sync(function, *args)


@router.get("/healthz", response_model=Health, responses={503: _503}, tags=["service"])
async def healthz(request: Request) -> Any:
    """200 once the store answers."""
    ledger = games(request).ledger
    await run(ledger.recorder.max_notification_id)
    listener = request.app.state.listener
    streams = "poll" if listener is None else "listen"  # (while a listener reconnects, ``reachable`` answers 503)
    return {"ok": True, "store": type(ledger.recorder).__name__, "streams": streams}


@router.post("/games", status_code=201, response_model=GameCreated, responses={401: _E, 413: _E, 422: _E, 503: _503}, dependencies=[Creator], tags=["games"])
async def create_game(request: Request, body: NewGame) -> Any:
    """Start a game from a scenario without actions; one token per player and the judge's, shown once."""
    return await run(games(request).create, body)


@router.post(
    "/logs",
    status_code=201,
    response_model=GameCreated,
    responses={401: _E, 413: _E, 422: _E, 503: _503},
    response_model_exclude_none=True,
    dependencies=[Creator],
    openapi_extra={"requestBody": {"required": True, "content": {LOG_FILE: BINARY, "application/octet-stream": BINARY}}},
    tags=["games"],
)
async def import_log(request: Request) -> Any:
    """Import a log file (CONTRACT section 5) as a new game: refused whole (422) unless it reads, its hash
    chain holds and it replays identically."""
    data = await request.body()
    return await run(games(request).import_log, data)


@router.get("/games/{id}/state", responses=READ, tags=["reading"])
async def state(request: Request, id: GameId, holder: Member, at: Version | None = None) -> dict[str, Any]:
    """The state (CONTRACT section 4) after event ``at`` (default: now), as the token's holder may see it."""
    out: dict[str, Any] = await run(games(request).state, id, viewer_of(holder.holder), at)
    return out


@router.get("/games/{id}/decision", response_model=DecisionOut, responses=READ, tags=["reading"])
async def decision(request: Request, id: GameId, holder: Member) -> Any:
    """The pending decision; its legal actions for the player who must decide, and for the judge."""
    return await run(games(request).decision, id, viewer_of(holder.holder))


@router.post("/games/{id}/actions", response_model=ActionTaken, responses=WRITE, tags=["playing"])
async def act(request: Request, id: GameId, holder: Player, action: Annotated[Action, Body()], idempotency_key: Key = None) -> Any:
    """One decision, as the token's player (section 2's action without ``player``). Illegal: 422 with the
    rule; ``expected_version`` not the game's: 409; nothing stored either way."""
    answer = await run(games(request).act, id, holder.holder, action, idempotency_key)
    return JSONResponse(answer)  # already the documented shape: no second validation on the hot path


@router.get(
    "/games/{id}/events",
    response_class=StreamingResponse,
    responses={**READ, 200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}, "description": "one event a line"}},
    tags=["reading"],
)
async def events(request: Request, id: GameId, holder: Member, from_: Annotated[Version | None, Query(alias="from")] = None) -> StreamingResponse:
    """The log as JSON lines from version ``from``, redacted for a player."""
    found = await run(lambda: [json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in games(request).events(id, viewer_of(holder.holder), from_)])
    return StreamingResponse(iter(found), media_type="application/x-ndjson")


@router.get(
    "/games/{id}/stream",
    response_class=StreamingResponse,
    responses={**READ, 200: {"content": {"text/event-stream": {"schema": SSE_EVENT}}, "description": "server-sent events; id is the version"}},
    tags=["reading"],
)
async def stream(
    request: Request,
    id: GameId,
    holder: Member,
    from_: Annotated[Version | None, Query(alias="from")] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=32)] = None,
) -> StreamingResponse:
    """The events live, as server-sent events (``id:`` is the version; ``Last-Event-ID`` resumes after it)."""
    first = from_ or 1
    if last_event_id is not None:
        if not last_event_id.strip().isdigit():
            raise Unprocessable("Last-Event-ID must be an event version", field="header.Last-Event-ID")
        first = int(last_event_id) + 1
    await run(games(request).version, id)  # 404 before the stream starts
    app = request.app.state
    body = follow(games(request).ledger, id, viewer_of(holder.holder), first, app.stopping, app.stream_seconds, app.wakeups)
    return StreamingResponse(body, media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/games/{id}/audit", responses=READ, tags=["judging"])
async def audit(request: Request, id: GameId, holder: Judge, lang: Literal["en", "fr"] = "en") -> dict[str, Any]:
    """The audit report (integrity and legality), as ``mtg-ledger audit --json``."""
    out: dict[str, Any] = await run(games(request).audit, id, lang)
    return out


@router.get("/games/{id}/export", response_class=Response, responses={**READ, 200: {"content": {LOG_FILE: BINARY}, "description": "the log file"}}, tags=["judging"])
async def export(request: Request, id: GameId, holder: Judge) -> Response:
    """The log file (CONTRACT section 5)."""
    data = await run(games(request).export, id)
    return Response(data, media_type=LOG_FILE, headers={"Content-Disposition": f'attachment; filename="{id}.mtgl"'})


@router.post("/games/{id}/branch", status_code=201, response_model=GameCreated, response_model_exclude_none=True, responses=WRITE, tags=["judging"])
async def branch(request: Request, id: GameId, holder: Judge, at: Version) -> Any:
    """A new game from the first ``at`` events, with tokens of its own."""
    return await run(games(request).branch, id, at)
