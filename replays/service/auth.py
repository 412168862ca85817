"""Who is calling: one dependency per kind of route, reading ``Authorization: Bearer TOKEN``.

A token is looked up by its sha256 (``replays.access``): unknown or missing, 401; a token of another
game, a player's on a judge's route or the judge's on a player's, 403. The admin token, when
``MTG_LEDGER_ADMIN_TOKEN`` is set, is compared in constant time.
"""

from __future__ import annotations

import hmac
from typing import Annotated
from uuid import UUID

from fastapi import Depends, Path
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from mtg_ledger.replays.ledger.access import JUDGE_HOLDER, Holder
from mtg_ledger.replays.service.deps import Service, SettingsOf
from mtg_ledger.replays.service.errors import Forbidden, Unauthorized

bearer = HTTPBearer(auto_error=False, scheme_name="GameToken", description="a game's token (a player's or the judge's), as POST /games returned it")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
# The routes that make a game name a scheme of their own in the OpenAPI description: a game's token is no use there.
admin_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="AdminToken",
    description="the server's MTG_LEDGER_ADMIN_TOKEN, when it has one (then only its holder creates games); when it has none, any token or none at all",
)
AdminCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(admin_bearer)]
GameId = Annotated[UUID, Path(description="the game's id")]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str:
    if credentials is None or not credentials.credentials:
        raise Unauthorized("this route needs Authorization: Bearer TOKEN (a token of this game)")
    return credentials.credentials


async def member(games: Service, id: GameId, credentials: Credentials) -> Holder:
    """A player of this game or its judge. A token this process has seen is known at once, on the event
    loop; one not seen yet is looked up in the store, in the threadpool (as a plain ``def`` would be: a
    known token then costs no hop to a thread and back)."""
    book = games.tokens
    token = _token(credentials)
    found = book.known(token) or await run_in_threadpool(book.holder, token)
    if found is None:
        raise Unauthorized("unknown token")
    if found.game != str(id):
        raise Forbidden("this token belongs to another game")
    return found


async def judge(holder: Annotated[Holder, Depends(member)]) -> Holder:
    if holder.holder != JUDGE_HOLDER:
        raise Forbidden("only the judge's token may use this route")
    return holder


async def player(holder: Annotated[Holder, Depends(member)]) -> Holder:
    if holder.holder == JUDGE_HOLDER:
        raise Forbidden("the judge sees everything and may not act")
    return holder


async def creator(settings: SettingsOf, credentials: AdminCredentials) -> None:
    """Anyone, unless ``MTG_LEDGER_ADMIN_TOKEN`` is set: then only its holder."""
    admin = settings.admin_token
    if not admin:
        return
    token = _token(credentials)
    if not hmac.compare_digest(token.encode("utf-8", "surrogatepass"), admin.encode("utf-8", "surrogatepass")):
        raise Unauthorized("only the holder of the admin token may create games on this server")


Member = Annotated[Holder, Depends(member)]
Judge = Annotated[Holder, Depends(judge)]
Player = Annotated[Holder, Depends(player)]
Creator = Depends(creator)
