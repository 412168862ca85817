"""How an event of a game's log is stored in a row's ``state`` (schema 3), and how older rows read.

Schema 3 stores an event in ``1 + 32 + n`` bytes::

    0x03 | the chain hash, 32 bytes | msgpack of the event's fields, keys sorted at every level

- the first byte says the form: an older row (schemas 1 and 2) is one msgpack map (first byte
  ``0x80``-``0x8f``, ``0xde`` or ``0xdf``), never ``0x03``;
- the hash is the event's chain hash (docs/reference/events.md) as bytes, not 64 hex characters;
- the fields are the contract fields (no ``v``: the row's version; no ``type``: the row's topic),
  plus the library's ``class_version`` when the event was recorded in a class version above 1 and
  ``originator_topic`` in a ``GameStarted``. No timestamp: when an event was stored is outside the
  chain and the game (a domain event read back carries ``NO_TIME``).

Keys sorted at every level make the fields' bytes the canonical bytes the chain hashes (``core.hashing``)
but for ``type`` and ``v``, so checking a row's hash rarely has to encode anything (``canonical_bytes``).

Rows of other aggregates (lineage, access tokens) stay msgpack maps, as the library's mapper writes them.
An older event row (a msgpack map with the hash in hex and an ISO timestamp) reads as it was: the
upcaster is ``decode``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Final

import msgpack

from mtg_ledger.core.hashing import sort_keys
from mtg_ledger.core.state_hash import map_header

Map = dict[str, Any]
EVENT_ROW: Final = 0x03  # the first byte of a schema-3 event row
HASH_BYTES: Final = 32
BODY: Final = 1 + HASH_BYTES  # where the fields' msgpack starts
NO_TIME: Final = datetime(1970, 1, 1, tzinfo=timezone.utc)  # the timestamp of an event read from a schema-3 row
STORAGE_ONLY: Final = frozenset({"timestamp", "originator_topic", "class_version"})  # the library's, outside the chain
_packb = msgpack.Packer(use_bin_type=True).pack


class RowError(ValueError):
    """A stored event row that is not in any form a schema wrote."""


def encode(state: Map, pack: Any = _packb) -> bytes:
    """The schema-3 row of an event's stored state (its fields with ``hash``; ``timestamp`` dropped).

    ``pack`` encodes the fields (the ledger's transcoder, for values beyond plain data)."""
    fields = {k: v for k, v in state.items() if k != "hash" and k != "timestamp"}
    return row(bytes.fromhex(state["hash"]), pack(sort_keys(fields)))


def row(digest: bytes, body: bytes) -> bytes:
    """The schema-3 row of an event whose chain hash is ``digest`` and whose fields (``class_version``
    among them when above 1) encode as ``body``, keys sorted at every level."""
    if len(digest) != HASH_BYTES:
        raise RowError(f"an event's hash is {len(digest)} bytes, not {HASH_BYTES}")
    return _ROW_HEAD + digest + body


_ROW_HEAD: Final = bytes((EVENT_ROW,))


def is_event_row(data: bytes) -> bool:
    """Whether ``data`` is a schema-3 event row (else an older row, or another aggregate's)."""
    return len(data) > BODY and data[0] == EVENT_ROW


def decode(data: bytes, unpack: Any) -> Map:
    """An event row's stored state, whatever its schema: ``{"hash": hex, **fields}`` (plus the
    timestamp an older row kept). ``unpack`` decodes msgpack (the ledger's transcoder)."""
    if not is_event_row(data):
        state = unpack(data)
        if not isinstance(state, dict):
            raise RowError("the stored bytes are not an event's")
        return state
    fields = unpack(data[BODY:])
    if not isinstance(fields, dict):
        raise RowError("the stored fields are not a map")
    fields["hash"] = data[1:BODY].hex()
    return fields


def upcast(cls: type, state: Map) -> None:
    """Bring a stored event's fields from the class version they were recorded in (``class_version``,
    taken out; 1 when absent) to ``cls``'s, with its upcasters (``core.schema``), as the library's mapper does."""
    version, current = state.pop("class_version", 1), getattr(cls, "class_version", 1)
    while version < current:
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
        version += 1


# --- the canonical bytes of a row, for its chain hash ---------------------------------------------


_TYPE_KEY = _packb("type")
_V_KEY = _packb("v")
_TAILS: dict[str, bytes] = {}


def canonical_bytes(kind: str, version: int, fields: Map, body: bytes) -> bytes | None:
    """``core.hashing.canonical`` of the event ``{"v": version, "type": kind, **fields}`` from the
    row's stored fields bytes ``body`` without encoding them again, when it can: every field key sorts
    before ``type`` and none is storage-only (almost every event). None when it cannot."""
    n = len(fields)
    if n == 0 or n > 0xFFF0 or not next(reversed(fields)) < "type" or not STORAGE_ONLY.isdisjoint(fields):
        return None
    return map_header(n + 2) + body[1 if n < 16 else 3 :] + tail(kind) + _packb(version)


def tail(kind: str) -> bytes:
    """The canonical bytes of an event of type ``kind`` after its fields, but for its version's value:
    the keys ``type`` (and its value) and ``v``, which sort after every field of the hot path's events."""
    found = _TAILS.get(kind)
    if found is None:
        found = _TAILS[kind] = _TYPE_KEY + _packb(kind) + _V_KEY
    return found
