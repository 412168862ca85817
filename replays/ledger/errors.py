"""What the ledger raises, by name: the CLI maps each to its exit status and the service to its HTTP status.

A refused log file is ``replays.ledger.imports.LogRefused`` (an ``UnreadableLog``, with the log files): a
reader of the store loads no log file machinery."""

from __future__ import annotations

from mtg_ledger.replays.stores.errors import StreamNotEmpty  # a decision's ``absent`` stream written meanwhile


class GameNotFound(LookupError):
    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id} in this store")


class GameExists(ValueError):
    def __init__(self, game_id: object) -> None:
        super().__init__(f"game {game_id} is already in this store (import it under a new id with --new-id)")


class NotADecisionPoint(ValueError):
    """A branch must start where a player is being asked for a decision."""


class VersionConflict(Exception):
    """Another writer stored the game's next event first: the game moved on, nothing of this decision
    was stored, and it may be taken again against the new state (the HTTP service answers 409)."""

    def __init__(self, game_id: object, version: int) -> None:
        super().__init__(
            f"game {game_id} moved on: another writer stored event {version} first; nothing of this decision was stored, "
            "try it again against the game as it is now"
        )
        self.game_id = game_id
        self.version = version


class WriteConflict(VersionConflict):
    """A write that stated the version it expected (the service's ``expected_version``) found another:
    nothing of it was stored (HTTP 409, as for a race lost at the store)."""

    def __init__(self, game_id: object, expected: int, found: int) -> None:
        Exception.__init__(self, f"game {game_id} is at version {found}, not the expected {expected}: nothing was stored; "
                                 "read the game again and decide anew")
        self.game_id = game_id
        self.version = found + 1
        self.expected = expected
        self.found = found


__all__ = ["GameExists", "GameNotFound", "NotADecisionPoint", "StreamNotEmpty", "VersionConflict", "WriteConflict"]
