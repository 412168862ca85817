"""The hash chain of the log and the canonical encoding it rests on (CONTRACT section 3).

``h(n) = sha256(h(n-1) + canonical(event n))`` with ``h(0)`` thirty-two zero bytes, where
``canonical`` is ``msgpack.packb`` of the event map without ``hash``, keys sorted at every level.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

GENESIS_HASH = "00" * 32


_SCALARS = (str, int, bool, float, bytes, type(None))


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, _SCALARS) for v in value):
            return value  # nothing to sort inside (the common case: card names, object ids)
        return [_sorted(v) for v in value]
    return value


def canonical(mapping: dict[str, Any]) -> bytes:
    """msgpack bytes of ``mapping`` without its ``hash`` key, keys sorted at every level."""
    body = {k: v for k, v in mapping.items() if k != "hash"}
    return msgpack.packb(_sorted(body), use_bin_type=True)


def chain(previous_hex: str, mapping: dict[str, Any]) -> str:
    """The hash of an event given the hash of the one before it."""
    return hashlib.sha256(bytes.fromhex(previous_hex) + canonical(mapping)).hexdigest()


def digest(value: Any) -> str:
    """A canonical sha256 of any msgpack-able value (used for state hashes)."""
    return hashlib.sha256(msgpack.packb(_sorted(value), use_bin_type=True)).hexdigest()
