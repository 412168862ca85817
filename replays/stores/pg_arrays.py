"""The streams recorder's insert parameters (``pg_feed.FeedStatements.insert``), and the ids its read of
versions asks for (``StreamsRecorder.last_versions``), as PostgreSQL's binary arrays, built here in one
pass: the same values psycopg's list dumpers send, without their work at every execute (finding each
list's element type, then its dumper, element by element: half of the insert's Python time). Each
array's type is fixed by its class: ``Uuids`` (``uuid[]``; ``TextUuids``, ``text[]``, on a table whose ids
are text), ``Int8s`` (``bigint[]``), ``Int4s`` (``integer[]``), ``Int2s`` (``smallint[]``), ``Texts`` (``text[]``) and ``Byteas`` (``bytea[]``).

The format (``array_recv``): dimensions (1), a has-nulls flag (0), the element type's oid, then the one
dimension's length and lower bound (1), then each element as its length (4 bytes) and its binary form.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import psycopg
from psycopg import pq
from psycopg._encodings import conn_encoding
from psycopg.adapt import Dumper

UUID_OID, INT8_OID, INT4_OID, INT2_OID, TEXT_OID, BYTEA_OID = 2950, 20, 23, 21, 25, 17
ARRAY_OID = {UUID_OID: 2951, INT8_OID: 1016, INT4_OID: 1007, INT2_OID: 1005, TEXT_OID: 1009, BYTEA_OID: 1001}

_HEAD = struct.Struct("!iiIii")  # dimensions, has nulls, element oid, length, lower bound
_EMPTY = struct.Struct("!iiI")  # an empty array has no dimensions
_INT8 = struct.Struct("!iq")  # an element's length (8), then the bigint
_INT4 = struct.Struct("!ii")  # an element's length (4), then the integer
_INT2 = struct.Struct("!ih")  # an element's length (2), then the smallint
_UUID = b"\x00\x00\x00\x10"  # a uuid element's length (16)


def _array(element_oid: int, elements: Sequence[bytes]) -> bytes:
    if not elements:
        return _EMPTY.pack(0, 0, element_oid)
    parts = [_HEAD.pack(1, 0, element_oid, len(elements), 1)]
    for data in elements:
        parts += (len(data).to_bytes(4, "big"), data)
    return b"".join(parts)


class Uuids(list):  # type: ignore[type-arg]
    """Originator ids, for a ``uuid[]`` parameter."""


class TextUuids(list):  # type: ignore[type-arg]
    """Originator ids, for a ``text[]`` parameter (a table whose ids are text)."""


class Int8s(list):  # type: ignore[type-arg]
    """Versions, for a ``bigint[]`` parameter."""


class Int4s(list):  # type: ignore[type-arg]
    """Versions, for an ``integer[]`` parameter (the save rows' table)."""


class Int2s(list):  # type: ignore[type-arg]
    """Small counts and flags, for a ``smallint[]`` parameter (the save rows' table)."""


class Texts(list):  # type: ignore[type-arg]
    """Topics, for a ``text[]`` parameter."""


class Byteas(list):  # type: ignore[type-arg]
    """States, for a ``bytea[]`` parameter."""


class _Binary(Dumper):
    format = pq.Format.BINARY

    def dump(self, obj: Any) -> bytes:
        try:
            return self.pack(obj)
        except (ValueError, TypeError, AttributeError, struct.error) as e:  # as the server would refuse them: a DataError
            raise psycopg.DataError(f"{type(obj).__name__}: a value PostgreSQL's {self.oid} array cannot hold ({e})") from e

    def pack(self, obj: Any) -> bytes:
        raise NotImplementedError


class UuidsDumper(_Binary):
    oid = ARRAY_OID[UUID_OID]

    def pack(self, obj: Uuids) -> bytes:
        if not obj:
            return _EMPTY.pack(0, 0, UUID_OID)
        parts = [_HEAD.pack(1, 0, UUID_OID, len(obj), 1)]
        for i in obj:
            parts += (_UUID, (i if isinstance(i, UUID) else UUID(str(i))).bytes)
        return b"".join(parts)


class _Encoded(_Binary):
    def __init__(self, cls: type, context: Any = None) -> None:
        super().__init__(cls, context)
        encoding = conn_encoding(self.connection)
        self.encoding = encoding if encoding != "ascii" else "utf-8"  # as psycopg's own str dumpers


class TextUuidsDumper(_Encoded):
    oid = ARRAY_OID[TEXT_OID]

    def pack(self, obj: TextUuids) -> bytes:
        return _array(TEXT_OID, [str(i).encode(self.encoding) for i in obj])


class TextsDumper(_Encoded):
    oid = ARRAY_OID[TEXT_OID]

    def pack(self, obj: Texts) -> bytes:
        return _array(TEXT_OID, [t.encode(self.encoding) for t in obj])


class _IntegersDumper(_Binary):
    """An array of integers of one width: each element its length, then the integer (``element``)."""

    element_oid: int
    element: struct.Struct

    def pack(self, obj: list[int]) -> bytes:
        if not obj:
            return _EMPTY.pack(0, 0, self.element_oid)
        width, element = self.element.size - 4, self.element.pack
        return _HEAD.pack(1, 0, self.element_oid, len(obj), 1) + b"".join([element(width, v) for v in obj])


class Int8sDumper(_IntegersDumper):
    oid, element_oid, element = ARRAY_OID[INT8_OID], INT8_OID, _INT8


class Int4sDumper(_IntegersDumper):
    oid, element_oid, element = ARRAY_OID[INT4_OID], INT4_OID, _INT4


class Int2sDumper(_IntegersDumper):
    oid, element_oid, element = ARRAY_OID[INT2_OID], INT2_OID, _INT2


class ByteasDumper(_Binary):
    oid = ARRAY_OID[BYTEA_OID]

    def pack(self, obj: Byteas) -> bytes:
        return _array(BYTEA_OID, [bytes(s) for s in obj])


# Our own classes only: no other value's dumper changes.
for _cls, _dumper in ((Uuids, UuidsDumper), (TextUuids, TextUuidsDumper), (Int8s, Int8sDumper), (Int4s, Int4sDumper), (Int2s, Int2sDumper), (Texts, TextsDumper), (Byteas, ByteasDumper)):
    psycopg.adapters.register_dumper(_cls, _dumper)
