"""The sha256 of the chain hashes a decision makes and an audit checks (``core.hashing.short_sha256``, the
interpreter's own) is the sha256 ``hashlib`` gives, on messages of every length an event's chain message can
have and more."""

from __future__ import annotations

import hashlib

from mtg_ledger.core.hashing import short_sha256


def test_the_chain_s_sha256_gives_hashlib_s_digest_at_every_length_up_to_five_blocks() -> None:
    data = b"".join(hashlib.sha256(bytes((i,))).digest() for i in range(12))  # 384 bytes that are not all alike
    for n in range(len(data) - 63):
        assert short_sha256(data[:n]).digest() == hashlib.sha256(data[:n]).digest(), n
