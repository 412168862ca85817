"""The routes of docs/reference/http.md, thin: parse (the models), authorise (one dependency), call
``Games``, answer. Errors are mapped in ``errors.py``; what a viewer sees is ``core.redact.view``'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import chain, islice
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

from mtg_ledger.replays.service.auth import Creator, GameId, Judge, Member, Player
from mtg_ledger.replays.service.deps import LiveOf, Service, SettingsOf
from mtg_ledger.replays.service.errors import StoreUnavailable, Unprocessable
from mtg_ledger.replays.service.games import viewer_of
from mtg_ledger.replays.service.models import (
    Action, ActionTaken, AuditOut, DecisionOut, ErrorOut, GameCreated, Health, Keys, NewGame, PlayerKeyIn, PlayerKeyOut, Receipt,
    Openings, ReceiptsIn, StateOut,
)
from mtg_ledger.replays.service.sse import follow


async def reachable(live: LiveOf) -> None:
    """While this process's LISTEN session is lost (PostgreSQL restarting, say), every route of the store
    answers 503 with Retry-After at once, rather than wait for the pool to reconnect. Without a
    listener (SQLite), there is nothing to lose."""
    if live.listener is not None and not live.listener.listening.is_set():
        raise StoreUnavailable("the store is unavailable; try again")


async def body_bytes(request: Request) -> bytes:
    """The raw body (a log file), read before a plain ``def`` route runs."""
    return await request.body()


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
FIRST_PAGE = 500  # events of /events read before the answer starts
Version = Annotated[int, Query(ge=1, le=2**62, description="an event version")]
Key = Annotated[str | None, Header(alias="Idempotency-Key", max_length=1024, description="a retry with the same key and body returns the first response and stores nothing more")]

# The routes that read or write the store are plain ``def``: FastAPI runs them in its threadpool.


@router.get("/healthz", response_model=Health, responses={503: _503}, tags=["service"])
def get_health(games: Service, live: LiveOf) -> Any:
    """200 once the store answers."""
    games.ledger.recorder.max_notification_id()
    streams = "poll" if live.listener is None else "listen"  # (while a listener reconnects, ``reachable`` answers 503)
    return {"ok": True, "store": type(games.ledger.recorder).__name__, "streams": streams}


@router.post("/games", status_code=201, response_model=GameCreated, responses={401: _E, 413: _E, 422: _E, 503: _503}, dependencies=[Creator], tags=["games"])
def create_game(games: Service, body: NewGame) -> Any:
    """Start a game from a scenario without actions; one token per player and the judge's, shown once."""
    return games.create(body)


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
def import_log(games: Service, data: Annotated[bytes, Depends(body_bytes)]) -> Any:
    """Import a log file (docs/log-file-format.md) as a new game: refused whole (422) unless it reads, its hash
    chain holds and it replays identically."""
    return games.import_log(data)


@router.get("/games/{id}/state", response_model=StateOut, responses=READ, tags=["reading"])
def get_state(games: Service, id: GameId, holder: Member, at: Version | None = None) -> Any:
    """The state (docs/reference/http.md, StateOut) after event ``at`` (default: now), as the token's holder may see it."""
    return games.state(id, viewer_of(holder.holder), at)


@router.get("/games/{id}/decision", response_model=DecisionOut, response_model_exclude_unset=True, responses=READ, tags=["reading"])
def get_decision(games: Service, id: GameId, holder: Member) -> Any:
    """The pending decision; its legal actions for the player who must decide, and for the judge."""
    return games.decision(id, viewer_of(holder.holder))


# A decision that passes every check below is answered by fast_actions.py, with the same checks (it refuses to
# start if this route's parameters change); anything else by this route.
@router.post("/games/{id}/actions", response_model=ActionTaken, responses=WRITE, tags=["playing"])
def act(
    games: Service,
    id: GameId,
    holder: Player,
    action: Annotated[Action, Body()],
    raw: Annotated[bytes, Depends(body_bytes)],
    idempotency_key: Key = None,
    signature: Annotated[str | None, Header(alias="Signature", max_length=200, description="a player with a key: their Ed25519 signature (base64) of the decision (docs/receipts.md)")] = None,
) -> Any:
    """One decision, as the token's player (section 2's action without ``player``). Illegal: 422 with the
    rule; ``expected_version`` not the game's: 409; nothing stored either way. A player who registered a
    key signs each decision (``Signature``): without a valid one, 401."""
    return JSONResponse(games.act(id, holder.holder, action, idempotency_key, (raw, signature)))  # already the documented shape


@router.get(
    "/games/{id}/events",
    response_class=StreamingResponse,
    responses={**READ, 200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}, "description": "one event a line"}},
    tags=["reading"],
)
def get_events(games: Service, id: GameId, holder: Member, from_: Annotated[Version | None, Query(alias="from")] = None) -> StreamingResponse:
    """The log as JSON lines from version ``from``, redacted for a player, sent as the store is read (a page at a time)."""
    lines: Iterator[str] = (json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in games.events(id, viewer_of(holder.holder), from_))
    # The first page is read before the answer starts: an unknown game is a 404, a damaged row among them
    # a 422. A row found damaged later cuts the stream short (the client sees an unfinished answer).
    head = list(islice(lines, FIRST_PAGE))
    return StreamingResponse(chain(head, lines), media_type="application/x-ndjson")


@router.get(
    "/games/{id}/stream",
    response_class=StreamingResponse,
    responses={**READ, 200: {"content": {"text/event-stream": {"schema": SSE_EVENT}}, "description": "server-sent events; id is the version"}},
    tags=["reading"],
)
def stream_events(
    games: Service,
    settings: SettingsOf,
    live: LiveOf,
    id: GameId,
    holder: Member,
    from_: Annotated[Version | None, Query(alias="from")] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=32)] = None,
    receipts: Annotated[bool, Query(description="after each batch of events, the service's receipt of its last version (`event: receipt`, no `id:`)")] = False,
) -> StreamingResponse:
    """The events live, as server-sent events (``id:`` is the version; ``Last-Event-ID`` resumes after it);
    with ``receipts=true``, each batch followed by its receipt (docs/receipts.md)."""
    first = from_ or 1
    if last_event_id is not None:
        if not last_event_id.strip().isdigit():
            raise Unprocessable("Last-Event-ID must be an event version", field="header.Last-Event-ID")
        first = int(last_event_id) + 1
    games.version(id)  # 404 before the stream starts
    book = games.receipts
    body = follow(games.ledger, id, viewer_of(holder.holder), first, live.stopping, settings.stream_seconds, live.wakeups, book, book if receipts else None)
    return StreamingResponse(body, media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/games/{id}/audit", response_model=AuditOut, responses=READ, tags=["judging"])
def get_audit(games: Service, id: GameId, holder: Judge, lang: Literal["en", "fr"] = "en") -> Any:
    """The audit report (integrity and legality), as ``mtg-ledger audit --json``."""
    return games.audit(id, lang)


@router.post("/games/{id}/audit", response_model=AuditOut, responses=READ, tags=["judging"])
def audit_with_receipts(games: Service, id: GameId, holder: Judge, body: ReceiptsIn, lang: Literal["en", "fr"] = "en") -> Any:
    """The audit report, and each receipt a player kept checked against the game's log (docs/receipts.md)."""
    return games.audit(id, lang, body.receipts)


@router.get("/games/{id}/receipt", response_model=Receipt, responses=READ, tags=["reading"])
def get_receipt(games: Service, id: GameId, holder: Member) -> Any:
    """The service's signed receipt for the game's latest version (docs/receipts.md)."""
    return games.receipt(id)


@router.get("/games/{id}/openings", response_model=Openings, responses={**READ, 409: _E}, tags=["reading"])
def get_openings(games: Service, id: GameId, holder: Member) -> Any:
    """Once the game has ended, every hidden value with its salt, for every holder of the game: each
    player opens every commitment they were shown (docs/receipts.md). 409 while the game goes on."""
    return games.openings(id)


@router.put("/games/{id}/key", status_code=201, response_model=PlayerKeyOut, responses=WRITE, tags=["playing"])
def register_key(games: Service, id: GameId, holder: Player, body: PlayerKeyIn) -> Any:
    """Register the token's player's Ed25519 public key: every decision after it must be signed with it
    (docs/receipts.md). Once only: 409 if the player has one."""
    return games.register_key(id, holder.holder, body.public, body.since, body.proof)


@router.get("/keys", response_model=Keys, responses={503: _503}, tags=["service"])
def get_keys(games: Service) -> Any:
    """The service's public keys, which verify its receipts."""
    return games.receipts.keys()


@router.get("/games/{id}/export", response_class=Response, responses={**READ, 200: {"content": {LOG_FILE: BINARY}, "description": "the log file"}}, tags=["judging"])
def export_log(games: Service, id: GameId, holder: Judge) -> Response:
    """The log file (docs/log-file-format.md)."""
    return Response(games.export(id), media_type=LOG_FILE, headers={"Content-Disposition": f'attachment; filename="{id}.mtgl"'})


@router.post("/games/{id}/branch", status_code=201, response_model=GameCreated, response_model_exclude_none=True, responses=WRITE, tags=["judging"])
def branch_game(games: Service, id: GameId, holder: Judge, at: Version) -> Any:
    """A new game from the first ``at`` events, with tokens of its own."""
    return games.branch(id, at)
