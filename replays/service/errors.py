"""One table from what went wrong to what the client is told: every error is JSON ``{"error": ...}``
(``rule`` for an illegal action, ``field`` for a malformed request), never a traceback.

A 5xx is a defect: only an exception nobody expected gets one, logged here with its traceback.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from mtg_ledger.core.errors import RulesError
from mtg_ledger.core.schema import SchemaError
from mtg_ledger.replays.ledger.application import GameExists, GameNotFound, NotADecisionPoint, VersionConflict
from mtg_ledger.replays.logfile import UnreadableLog
from mtg_ledger.replays.messages import say
from mtg_ledger.replays.ledger.logs import get_logger
from mtg_ledger.replays.scenario import ScenarioError
from mtg_ledger.replays.scenario.schema import describe
from mtg_ledger.replays.stores.verify import StoreDamage


class Unauthorized(Exception):
    """401: no token, or a token this store never issued."""


class Forbidden(Exception):
    """403: a token of another game, or a route its holder may not use."""


class Unprocessable(ValueError):
    """422: a request the service understood and refuses (a reused idempotency key, a bad parameter)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Conflict(Exception):
    """409: a request that would change what may not change (a player's key, once registered)."""


class TooLarge(Exception):
    """413: a body over the limit."""


class CardNotFound(Exception):
    """404: no card of the pool has this name; ``nearest``, the names it has nearest the one asked for."""

    def __init__(self, name: str, nearest: list[str]) -> None:
        super().__init__(say("card.none_match", {"query": name, "nearest": ", ".join(nearest) or "-"}))
        self.nearest = nearest


class StoreUnavailable(Exception):
    """503 at once: this process has lost its session with the database (PostgreSQL restarting, say)."""


STATUS: dict[type[Exception], int] = {
    Unauthorized: 401,
    Forbidden: 403,
    GameNotFound: 404,
    CardNotFound: 404,
    VersionConflict: 409,  # the game moved on (a stale expected_version, or a race lost at the store)
    GameExists: 409,
    Conflict: 409,
    TooLarge: 413,
    RulesError: 422,  # an illegal action: nothing stored (733)
    ScenarioError: 422,
    NotADecisionPoint: 422,
    UnreadableLog: 422,
    StoreDamage: 422,  # the stored game fails its checks (an altered or unreadable row): named, never served
    SchemaError: 422,
    Unprocessable: 422,
    PersistenceError: 503,  # the store is down or busy: not the client's fault, nor a defect of ours
    StoreUnavailable: 503,
}
RETRY_AFTER_S = 1  # a 503's Retry-After: a restart of PostgreSQL takes a few seconds


def _store_driver_errors() -> None:
    """psycopg's errors of the connection (a pool timeout among them), should one reach us without the
    library's translation: 503 too. psycopg is the optional PostgreSQL extra."""
    try:
        import psycopg
    except ImportError:
        return
    STATUS[psycopg.OperationalError] = STATUS[psycopg.InterfaceError] = 503


_store_driver_errors()


def status_of(error: BaseException) -> int | None:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return None


def body_of(error: BaseException) -> dict[str, Any]:
    if isinstance(error, RulesError):
        return {"error": error.message, "rule": error.rule}
    if isinstance(error, Unprocessable) and error.field:
        return {"error": str(error), "field": error.field}
    if isinstance(error, CardNotFound):
        return {"error": str(error), "nearest": error.nearest}
    if status_of(error) == 503:
        return {"error": "the store is unavailable; try again"}
    return {"error": str(error)}


def respond(error: BaseException) -> JSONResponse:
    status = status_of(error)
    if status is None:
        get_logger().error("internal error", error=type(error).__name__, exc_info=error)
        return JSONResponse({"error": "internal error: this is a defect of mtg-ledger, logged on the server"}, status_code=500)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if status == 503:
        if not isinstance(error, StoreUnavailable):  # that one is logged once, by the listener that lost its session
            get_logger().warning("store unavailable", error=f"{type(error).__name__}: {error}")
        headers = {"Retry-After": str(RETRY_AFTER_S)}
    return JSONResponse(body_of(error), status_code=status, headers=headers)


def _field(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def install(app: FastAPI) -> None:
    """The handlers: domain errors by the table, malformed requests naming their field, the rest 500."""

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        where, message = _malformed(list(error.errors()), error.body)
        return JSONResponse({"error": message, "field": where}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http(request: Request, error: HTTPException) -> JSONResponse:
        if error.status_code == 400:  # FastAPI's word for a body it could not decode: malformed, so 422
            return JSONResponse({"error": f"body: {error.detail}", "field": "body"}, status_code=422)
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code, headers=getattr(error, "headers", None))

    async def known(request: Request, error: Exception) -> JSONResponse:
        return respond(error)

    for cls in STATUS:
        app.add_exception_handler(cls, known)
    app.add_exception_handler(Exception, known)  # a defect: logged, answered 500 without a traceback


def _malformed(errors: list[Any], body: Any) -> tuple[str, str]:
    """The field and the one-line message of a malformed request: a body in the CLI's words for a
    scenario (``scenario.schema.describe``: the path, the problem, "did you mean" for a misspelt key)."""
    if not errors:
        return "", "malformed request"
    first = errors[0]
    loc = tuple(first.get("loc", ()))
    if loc[:1] == ("body",) and first.get("type") != "json_invalid":
        body_errors = [{**e, "loc": tuple(e["loc"])[1:]} for e in errors if tuple(e.get("loc", ()))[:1] == ("body",)]
        return describe(body_errors, body, "body")
    where = _field(loc)
    return where, f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
