"""``POST /games/{id}/actions``, the route every decision takes, answered without FastAPI's work per
request (routing, solving the route's dependencies one by one, the handler's wrappers): a plain ASGI
middleware that makes the same checks with the same functions, then calls ``Games.act`` as the route does.

It answers only a request that passes every check of the route (``routes.act``): the store reachable,
one ``Authorization: Bearer`` header with a token this process has seen, of this game and of a player,
a JSON body that the route's own body field validates, its headers within their limits. Anything else
(no token, a token not seen yet, the judge's, a malformed body, ...) goes on to the route itself, with
the body as read, so that every refusal (401, 403, 422, 503) keeps its status, its JSON and its wording.
``Games.act`` runs in a thread of the app's own (``deciders.py``, as many threads as the store's pool
keeps connections: ``app.decider_count``; the hand-off there and back costs a third of FastAPI's through
anyio). What it raises is answered by
the same table (``errors.respond``); an error nobody expected is answered as the app's handler of
defects answers it (logged, 500), then raised on to the server, as from the route.
"""

from __future__ import annotations

import json
import re
from contextvars import copy_context
from functools import partial
from typing import Any
from uuid import UUID

import orjson
from annotated_types import MaxLen
from fastapi.routing import APIRoute
from fastapi.security.utils import get_authorization_scheme_param

from mtg_ledger.replays.ledger.access import JUDGE_HOLDER
from mtg_ledger.replays.service.errors import respond, status_of
from mtg_ledger.replays.service.limits import BODY_LIMIT, ASGIApp, Message, Receive, Scope, Send
from mtg_ledger.replays.service.routes import router

ACTIONS = re.compile(r"/games/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/actions")
ROUTE = "act"  # the name of the route answered here (routes.act)
# What the route depends on, all of which is checked here: another dependency or parameter stops the app
# from starting until this module checks it too.
DEPENDENCIES = ["reachable", "games", "player", "body_bytes"]
HEADER_PARAMS = {"Idempotency-Key", "Signature"}  # each checked for its max_length, its only constraint
_JSON = (b"content-type", b"application/json")
Map = dict[str, Any]


def _route_headers(route: APIRoute) -> dict[bytes, int | None]:
    """The headers read here (lower-case, as ASGI gives them), and the longest each may be."""
    dependant = route.dependant
    if (
        [d.call.__name__ for d in dependant.dependencies] != DEPENDENCIES  # type: ignore[union-attr]
        or [p.alias for p in dependant.path_params] != ["id"]
        or dependant.query_params or dependant.cookie_params or len(dependant.body_params) != 1
        or {p.alias for p in dependant.header_params} != HEADER_PARAMS
    ):
        raise TypeError("routes.act's parameters changed: fast_actions.py must check them as the route does")
    headers: dict[bytes, int | None] = {b"authorization": None, b"content-type": None}
    for param in dependant.header_params:
        (limit,) = param.field_info.metadata  # one MaxLen, or the TypeError below
        if not isinstance(limit, MaxLen):
            raise TypeError(f"routes.act's header {param.alias} has a constraint fast_actions.py does not check")
        headers[param.alias.lower().encode()] = limit.max_length
    return headers


class FastActions:
    """Around the app's whole middleware stack (``app.Service``): answers a plain decision itself, hands
    anything else on, with what it read of the body."""

    def __init__(self, app: ASGIApp, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit  # ``BodyLimit``'s, which answers a body over it (413) once handed on
        (route,) = [r for r in router.routes if isinstance(r, APIRoute) and r.name == ROUTE]
        self.body_field: Any = route.body_field  # the route's body (its pydantic validator)
        self.headers = _route_headers(route)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path") or (match := ACTIONS.fullmatch(scope["path"])) is None:
            await self.app(scope, receive, send)
            return
        read: list[Message] = []
        body = await self._body(scope, receive, read)
        try:
            checked = None if body is None else self._checked(scope, match.group(1), body)
        except Exception:  # noqa: BLE001 - a body too deep to parse, say: the route reads it again and answers
            checked = None
        if body is None or checked is None:  # not a plain decision: the app decides what to answer
            await self.app(scope, _again(read, receive), send)
            return
        state, games, game_id, player, action, key, signature = checked
        decide = partial(copy_context().run, games.act, game_id, player, action, key, (body, signature))
        try:
            sent = _encoded(await state.deciders.run(decide))
        except Exception as error:  # noqa: BLE001 - the route's table, and the app's handler of defects
            await respond(error)(scope, receive, send)  # a defect: logged, 500 (as the app's ServerErrorMiddleware does)
            if status_of(error) is None:
                raise  # on up to the server, which logs it, as from the app
            return
        # JSONResponse's own two messages and headers, without making one
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", str(len(sent)).encode()), _JSON]})
        await send({"type": "http.response.body", "body": sent})

    async def _body(self, scope: Scope, receive: Receive, read: list[Message]) -> bytes | None:
        """The whole body, each message read kept in ``read``; None for a body over the limit (declared or
        sent: ``BodyLimit`` reads the rest and answers 413) or a client gone meanwhile."""
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                return None
        size = 0
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                return None
            size += len(message.get("body", b""))
            if size > self.limit:
                return None
            if not message.get("more_body"):
                break
        return read[0].get("body", b"") if len(read) == 1 else b"".join(m.get("body", b"") for m in read)

    def _checked(self, scope: Scope, id_text: str, body: bytes) -> tuple[Any, Any, UUID, str, Any, str | None, str | None] | None:
        """What the route's dependencies would give it, when every one of them passes; else None."""
        state = scope["app"].state
        listener = state.listener
        if listener is not None and not listener.listening.is_set():  # routes.reachable: 503
            return None
        headers: dict[bytes, str] = {}
        limits = self.headers
        for name, value in scope["headers"]:
            if name in limits:
                if name in headers:  # a header given twice: the route's reading of it stands
                    return None
                text = value.decode("latin-1")
                longest = limits[name]
                if longest is not None and len(text) > longest:
                    return None
                headers[name] = text
        if headers.get(b"content-type") != "application/json" or not body:
            return None
        scheme, token = get_authorization_scheme_param(headers.get(b"authorization"))  # as HTTPBearer reads it
        if not token or scheme.lower() != "bearer":
            return None
        games = state.games
        holder = games.tokens.known(token)  # auth.member: a token this process has seen
        game_id = UUID(id_text)
        if holder is None or holder.game != str(game_id) or holder.holder == JUDGE_HOLDER:  # auth.member, auth.player
            return None
        value = json.loads(body)  # as FastAPI reads a JSON body (what it cannot read, the route refuses)
        if value is None:
            return None
        action, errors = self.body_field.validate(value, {}, loc=("body",))  # the route's own validation
        if errors:
            return None
        return state, games, game_id, holder.holder, action, headers.get(b"idempotency-key"), headers.get(b"signature")


def _encoded(answer: Map) -> bytes:
    """An answer's JSON as ``JSONResponse`` renders it (``json.dumps`` compact, ``ensure_ascii=False``): the
    same bytes from orjson for what an answer holds (strings, ints, bools, None, lists and maps with string
    keys; never a float, where orjson would write NaN as null rather than refuse it)."""
    return orjson.dumps(answer)


def _again(read: list[Message], receive: Receive) -> Receive:
    """``receive`` with the messages already read given once more, first."""
    given = iter(read)

    async def replay() -> Message:
        for message in given:
            return message
        return await receive()

    return replay
