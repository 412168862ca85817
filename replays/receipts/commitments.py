"""The salted commitments of the public chain (docs/receipts.md), and its heads.

Each game has a secret of 32 random bytes that only the store (and a judge's copy of the log file) holds.
From it, HKDF-SHA256 (no salt, ``info`` = ``mtg-ledger commitments``, a zero byte and the game's id) derives
the game's salt key; the salt of the value at ``path`` of event ``v`` is ``HMAC-SHA256(salt key, "<v>:<path>")``, and its
commitment is ``sha256(salt + msgpack(value))``, the value's keys sorted as the log's canonical form. A
salt tells nothing of any other salt, so a player may be given the salts of what they already see.

An imported game keeps the secret of the file for the versions the file holds, and has a secret of its own
for the versions played after it (``Secrets``): two copies of one file played on never share a salt.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import msgpack
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mtg_ledger.core.hashing import sort_keys
from mtg_ledger.core.public import GENESIS, link, next_head, seen_and_hidden, with_commitments

SECRET_BYTES = 32
Map = dict[str, Any]
Secrets = list[tuple[int, bytes]]  # (first version, secret), in order: each salts its versions up to the next, the first from 1


def new_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


def commitment(salt: bytes, value: Any) -> bytes:
    """``sha256(salt + msgpack(value))``, the value's map keys sorted at every level."""
    return hashlib.sha256(salt + msgpack.packb(sort_keys(value), use_bin_type=True)).digest()


def salt_key(game: str, secret: bytes) -> bytes:
    """The salt key of ``game`` from one of its secrets: HKDF-SHA256, ``info`` binding the game's id."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"mtg-ledger commitments\0" + game.encode()).derive(secret)


class Salts:
    """One game's salts, derived from its secrets and its id."""

    def __init__(self, game: str, secrets: Secrets) -> None:
        self._keys = [(first, salt_key(game, secret)) for first, secret in sorted(secrets)]

    def salt(self, version: int, path: str) -> bytes:
        key = self._keys[0][1]
        for first, later in self._keys[1:]:
            if first <= version:
                key = later
        mac = hmac.HMAC(key, hashes.SHA256())
        mac.update(f"{version}:{path}".encode())
        return mac.finalize()

    def commit(self, version: int) -> Any:
        """The ``commit(path, value)`` of ``core.public`` for event ``version``."""
        return lambda path, value: commitment(self.salt(version, path), value)

    def head(self, previous: bytes, event: Mapping[str, Any]) -> bytes:
        return next_head(previous, event, self.commit(int(event["v"])))

    def heads(self, events: Iterable[Mapping[str, Any]], start: bytes = GENESIS) -> Iterator[tuple[int, bytes]]:
        """``(version, public head after it)`` for each event, in order."""
        head = start
        for event in events:
            head = self.head(head, event)
            yield int(event["v"]), head

    def openings(self, event: Mapping[str, Any]) -> list[tuple[str, Any, bytes, bytes]]:
        """``(path, value, salt, commitment)`` of each hidden value of ``event``."""
        return self.opened(event)[1]

    def opened(self, event: Mapping[str, Any]) -> tuple[Map, list[tuple[str, Any, bytes, bytes]]]:
        """Nobody's view of ``event`` and the openings of what it hides (``openings``)."""
        v = int(event["v"])
        seen, hidden = seen_and_hidden(event)
        out = []
        for path, value in hidden:
            salt = self.salt(v, path)
            out.append((path, value, salt, commitment(salt, value)))
        return seen, out

    def head_of_opened(self, previous: bytes, seen: Map, openings: list[tuple[str, Any, bytes, bytes]]) -> bytes:
        """The next head from what ``opened`` gave (``seen`` is changed in place)."""
        return link(previous, with_commitments(seen, {path: c for path, _, _, c in openings}))


def head_at(salts: Salts, events: Iterable[Mapping[str, Any]], version: int) -> bytes | None:
    """The public head after event ``version`` (None: the log holds fewer events)."""
    for v, head in salts.heads(events):
        if v == version:
            return head
    return None
