"""Who may read or act on a game, and which requests were already answered: both kept in the store.

``AccessToken``: one aggregate per token, keyed by the token's sha256, holding the game and the holder
(a player's name, or the judge). The token itself is shown once, when it is issued, and never stored.
Looking a token up by its digest tells an unknown token (401) from another game's (403).

``IdempotencyRecord``: the first response to a request sent with an ``Idempotency-Key``, saved in the
same transaction as the decision it answers, so that a retry (to this process, another one, or after a
restart) finds it and gets the same answer without storing anything more.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.domain import event as recorded_as

from mtg_ledger.core.topics import stored_as

TOKENS = UUID("0b8f2a4e-5d1c-4f7a-9a63-2f4c1e8b7d90")
IDEMPOTENCY = UUID("7c3e9d12-4b6a-4e8f-8d21-5a9f0c3b6e47")
JUDGE_HOLDER = "judge"  # the holder of the judge's token; no player may take this name


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@stored_as("AccessToken")
class AccessToken(Aggregate):
    """A token's digest, and whom it lets in where."""

    @recorded_as("AccessTokenIssued")
    def __init__(self, digest: str, game: str, holder: str) -> None:
        self.digest = digest
        self.game = game
        self.holder = holder

    @staticmethod
    def create_id(digest: str, game: str, holder: str) -> UUID:
        return uuid5(TOKENS, digest)


stored_as("AccessTokenIssued")(AccessToken.AccessTokenIssued)  # type: ignore[attr-defined]  # made by @event


@stored_as("IdempotencyRecord")
class IdempotencyRecord(Aggregate):
    """The first answer to one client's request sent with one key."""

    @recorded_as("RequestAnswered")
    def __init__(self, game: str, holder: str, key: str, fingerprint: str, status: int, response: dict[str, Any]) -> None:
        self.game = game
        self.holder = holder
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.response = response

    @staticmethod
    def create_id(game: str, holder: str, key: str, fingerprint: str, status: int, response: dict[str, Any]) -> UUID:
        return record_id(game, holder, key)


stored_as("RequestAnswered")(IdempotencyRecord.RequestAnswered)  # type: ignore[attr-defined]  # made by @event


def record_id(game: str, holder: str, key: str) -> UUID:
    """A key is the client's own: it is scoped to the game and the token's holder."""
    return uuid5(IDEMPOTENCY, json.dumps([game, holder, key]))


def fingerprint(body: Any) -> str:
    """The same request, whatever the order of its keys."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


@dataclass(frozen=True)
class Holder:
    game: str
    holder: str  # a player's name, or JUDGE_HOLDER


def issue(game: str, holders: list[str]) -> tuple[dict[str, str], list[AccessToken]]:
    """New tokens for these holders of a game: the tokens (to show once) and the records to store."""
    tokens: dict[str, str] = {}
    records = []
    for holder in holders:
        token = "mtgl_" + secrets.token_urlsafe(32)
        tokens[holder] = token
        records.append(AccessToken(digest=digest_of(token), game=game, holder=holder))
    return tokens, records


class TokenBook:
    """Looks tokens up in the store. Tokens never change once issued, so what was found is kept."""

    def __init__(self, app: Application[UUID], keep: int = 10_000) -> None:
        self.app = app
        self.keep = keep
        self._found: dict[str, Holder] = {}

    def known(self, token: str) -> Holder | None:
        """A token already found by this process (no store access)."""
        return self._found.get(digest_of(token))

    def holder(self, token: str) -> Holder | None:
        digest = digest_of(token)
        found = self._found.get(digest)
        if found is None:
            try:
                record: Any = self.app.repository.get(uuid5(TOKENS, digest))
            except AggregateNotFoundError:
                return None
            if not isinstance(record, AccessToken) or not hmac.compare_digest(record.digest, digest):
                return None
            found = Holder(record.game, record.holder)
            if len(self._found) >= self.keep:
                self._found.clear()
            self._found[digest] = found
        return found


def answered(app: Application[UUID], game: str, holder: str, key: str) -> IdempotencyRecord | None:
    try:
        record: Any = app.repository.get(record_id(game, holder, key))
    except AggregateNotFoundError:
        return None
    return record if isinstance(record, IdempotencyRecord) else None
