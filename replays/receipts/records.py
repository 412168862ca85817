"""What receipts keep in the store (SQLite or PostgreSQL, as every other record of the ledger), each an
aggregate of its own beside the games, so that no game event changes shape:

- ``GameSecret``: a game's commitment secret (``replays.receipts.commitments``), 32 bytes a game;
- ``ServiceKeys``: the service's Ed25519 keys, the signing one last; a rotated key stays, public only,
  so that the receipts it signed stay verifiable;
- ``PlayerKey``: a player's Ed25519 public key, once registered;
- ``DecisionSigned``: a player's signature of one decision, stored with it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.domain import event as recorded_as
from eventsourcing.persistence import IntegrityError

from mtg_ledger.core.topics import stored_as
from mtg_ledger.replays.receipts.commitments import Secrets, new_secret

SECRETS = UUID("3d6a1f0e-7b52-4c8e-a1d9-5e2f8c4b0a71")
KEYS = UUID("9a4e2c71-0d3b-4f6a-8e15-c7b2d9f3a602")
PLAYER_KEYS = UUID("c51f8e20-3a7d-4b96-9d0e-2f6b1a8c7e43")
SIGNATURES = UUID("e2b7c9d4-6f18-4a3e-b0c5-8d1a7f2e9b56")


@stored_as("GameSecret")
class GameSecret(Aggregate):
    """The secret a game's commitments are salted from (hex)."""

    @recorded_as("GameSecretCreated")
    def __init__(self, game: str, secret: str, later: list[list[Any]] | None = None) -> None:
        self.game = game
        self.secret = secret
        self.later = later or []  # [first version, secret (hex)]: an imported game's own secret after the file's events

    @staticmethod
    def create_id(game: str, secret: str, later: list[list[Any]] | None = None) -> UUID:
        return uuid5(SECRETS, game)

    def secrets(self) -> Secrets:
        return [(1, bytes.fromhex(self.secret)), *((int(first), bytes.fromhex(s)) for first, s in self.later)]


stored_as("GameSecretCreated")(GameSecret.GameSecretCreated)  # type: ignore[attr-defined]  # made by @event


@stored_as("ServiceKeys")
class ServiceKeys(Aggregate):
    """The service's signing keys: ``[id, public (base64), private (base64, or None once rotated out)]``."""

    @recorded_as("ServiceKeysCreated")
    def __init__(self, key: str, public: str, private: str | None) -> None:
        self.keys: list[list[Any]] = [[key, public, private]]

    @staticmethod
    def create_id(key: str, public: str, private: str | None) -> UUID:
        return uuid5(KEYS, "service")

    @recorded_as("ServiceKeyAdded")
    def add(self, key: str, public: str, private: str | None) -> None:
        """A new key; with its private half it becomes the signing key, and the one before keeps only its public half."""
        if private is not None:
            for k in self.keys:
                k[2] = None
        self.keys.append([key, public, private])


stored_as("ServiceKeysCreated")(ServiceKeys.ServiceKeysCreated)  # type: ignore[attr-defined]  # made by @event
stored_as("ServiceKeyAdded")(ServiceKeys.ServiceKeyAdded)  # type: ignore[attr-defined]  # made by @event

SERVICE_KEYS_ID = uuid5(KEYS, "service")


@stored_as("PlayerKey")
class PlayerKey(Aggregate):
    """A player's Ed25519 public key (base64): from then on their decisions must be signed with it."""

    @recorded_as("PlayerKeyRegistered")
    def __init__(self, game: str, player: str, public: str, since: int, proof: str | None = None) -> None:
        self.game = game
        self.player = player
        self.public = public
        self.since = since  # the game's version when it was registered: the decisions after it are signed
        self.proof = proof  # the key's own signature of its registration (decisions.key_message)

    @staticmethod
    def create_id(game: str, player: str, public: str, since: int, proof: str | None = None) -> UUID:
        return player_key_id(game, player)


stored_as("PlayerKeyRegistered")(PlayerKey.PlayerKeyRegistered)  # type: ignore[attr-defined]  # made by @event


@lru_cache(maxsize=4096)  # asked at every decision of a game, and always the same
def player_key_id(game: str, player: str) -> UUID:
    return uuid5(PLAYER_KEYS, json.dumps([game, player]))


@stored_as("DecisionSigned")
class DecisionSigned(Aggregate):
    """A player's signature of the decision stored after ``expected`` (the game's version then)."""

    @recorded_as("DecisionSignatureRecorded")
    def __init__(self, game: str, expected: int, player: str, body: str, signature: str) -> None:
        self.game = game
        self.expected = expected
        self.player = player
        self.body = body  # the canonical body that was signed
        self.signature = signature

    @staticmethod
    def create_id(game: str, expected: int, player: str, body: str, signature: str) -> UUID:
        return signature_id(game, expected)


stored_as("DecisionSignatureRecorded")(DecisionSigned.DecisionSignatureRecorded)  # type: ignore[attr-defined]  # made by @event


def signature_id(game: str, expected: int) -> UUID:
    return uuid5(SIGNATURES, json.dumps([game, expected]))


def find(app: Application[UUID], aggregate_id: UUID) -> Any:
    """The stored aggregate, or None."""
    try:
        return app.repository.get(aggregate_id)
    except AggregateNotFoundError:
        return None


def game_secret(app: Application[UUID], game: str, create: bool = True) -> Secrets | None:
    """The game's commitment secrets; made and stored the first time it is asked for (``create``)."""

    secret_id = uuid5(SECRETS, game)
    found = find(app, secret_id)
    if found is None and create:
        try:
            app.save(GameSecret(game=game, secret=new_secret().hex()))
        except IntegrityError:  # another process made it first: theirs stands
            pass
        found = find(app, secret_id)
    return found.secrets() if isinstance(found, GameSecret) else None


def players_of(ledger: Any, game: UUID) -> list[str]:
    """The players' names as the game's first row records them, read unchecked (a damaged game has none:
    what receipts keep of it matters no more than the rest of it)."""
    try:
        events, _, _ = ledger.recorded_rows(game, last=1)
    except Exception:  # noqa: BLE001 - a game that cannot be read: its own checks say why
        return []
    players = events[0].get("players") if events and isinstance(events[0], dict) else None
    return [p["name"] for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)] if isinstance(players, list) else []


def kept_for_log(app: Application[UUID], game: str, players: list[str], last: int) -> dict[str, Any]:
    """What a log file's header keeps of a game's receipts (``receipts``): its commitment secret, its players'
    keys and their signed decisions (looked up at each version, for a game whose players have keys)."""
    out: dict[str, Any] = {}
    found = find(app, uuid5(SECRETS, game))
    if isinstance(found, GameSecret):
        out["secret"] = found.secret
        if found.later:
            out["later"] = [list(x) for x in found.later]
    keys = player_keys(app, game, players)
    if keys:
        out["players"] = {name: {"public": k.public, "since": k.since, **({"proof": k.proof} if k.proof else {})} for name, k in keys.items()}
        signed = (find(app, signature_id(game, v)) for v in range(min(k.since for k in keys.values()), last))
        out["decisions"] = [[s.expected, s.player, s.body, s.signature] for s in signed if isinstance(s, DecisionSigned)]
    return out


def from_log(kept: Any, game: str, count: int) -> list[Aggregate]:
    """The records a log file's ``receipts`` stand for, for the game it is imported as (``count`` events):
    the file's secrets salt the versions it holds, and a new secret of this game's own every one after."""
    if not isinstance(kept, dict):
        return []
    records: list[Aggregate] = []
    if isinstance(kept.get("secret"), str):
        later = [[int(first), s] for first, s in kept.get("later") or [] if first <= count]
        records.append(GameSecret(game=game, secret=kept["secret"], later=[*later, [count + 1, new_secret().hex()]]))
    for name, key in (kept.get("players") or {}).items():
        records.append(PlayerKey(game=game, player=name, public=key["public"], since=key["since"], proof=key.get("proof")))
    for v, name, body, signature in kept.get("decisions") or []:
        records.append(DecisionSigned(game=game, expected=v, player=name, body=body, signature=signature))
    return records


def player_keys(app: Application[UUID], game: str, players: list[str]) -> dict[str, PlayerKey]:
    """The registered keys of these players of ``game``, by name."""
    out = {}
    for name in players:
        found = find(app, player_key_id(game, name))
        if isinstance(found, PlayerKey):
            out[name] = found
    return out
