"""The bytes of a PostgreSQL save row (``replays.stores.pg_saves``): its events as one msgpack array of
``[topic, state]`` pairs (a snapshot's row: one pair), compressed by zstd with a dictionary shipped in the
package.

A save of the ledger is a few events of a few dozen bytes each, too short for zstd to find much to share
within it; a dictionary of what games' rows hold (event names, field names, the shapes of their maps)
gives it that (on the demo game, 47 KB of rows against 90 KB). A row's first byte names its form:

- ``0x01``: a zstd frame (its content size written, no checksum: every event's chain hash checks what it
  holds) made with dictionary 1, ``dictionaries/rows-1.zdict``.

A dictionary is part of the stored format: rows made with it are read with it forever, so its bytes never
change (``DICTIONARIES`` pins each one's SHA-256, checked when it is loaded). A better one would be
dictionary 2, with a form byte of its own, beside this one. Dictionary 1 was trained by
``python -m benchmarks.pg_layouts --train`` on 90 demo games (seeds 100 to 129, of 2, 3 and 4 players),
none of them the game the storage figures are measured on.
"""

from __future__ import annotations

import hashlib
import threading
from functools import cache
from importlib import resources
from typing import Any, Final

import msgpack
import zstandard

ZSTD_DICT_1: Final = 0x01
DICTIONARIES: Final = {ZSTD_DICT_1: ("rows-1.zdict", "0eeff93e11f44fff086ed1f3632b33e67c688e4c9f1d1e6207dbb283f5d8748a")}  # form byte -> (file, its SHA-256)
# How hard a row is compressed (any level reads back with the same dictionary). The demo game's 317 saves, with
# this dictionary: level 3, 49,227 bytes; 9, 50,370; 11 and 12, 46,842 (the same work: callgrind counts the same
# instructions at either, 2026-12-04). Below 11 the demo game's rows take a heap page more in PostgreSQL.
LEVEL: Final = 12
MAX_ROW_BYTES: Final = 1 << 30  # what a row may decompress to at most (PostgreSQL's largest value)


class RowFormError(ValueError):
    """Bytes that are not a save row of a form this engine reads."""


@cache
def _dictionary(form: int) -> zstandard.ZstdCompressionDict:
    name, digest = DICTIONARIES[form]
    data = resources.files("mtg_ledger.replays.stores").joinpath("dictionaries", name).read_bytes()
    if hashlib.sha256(data).hexdigest() != digest:  # a row's bytes depend on these: never another file
        raise RowFormError(f"dictionaries/{name}: not the dictionary of row form {form} (its SHA-256 differs)")
    return zstandard.ZstdCompressionDict(data, dict_type=zstandard.DICT_TYPE_FULLDICT)


_PREPARING = threading.Lock()
_PREPARED: dict[int, zstandard.ZstdCompressionDict] = {}


def _prepared(form: int) -> zstandard.ZstdCompressionDict:
    """The dictionary, its compression tables made once (then shared by the threads, which only read them)."""
    found = _PREPARED.get(form)
    if found is None:
        with _PREPARING:
            found = _PREPARED.get(form)
            if found is None:
                found = _dictionary(form)
                found.precompute_compress(level=LEVEL)
                _PREPARED[form] = found
    return found


_mine = threading.local()  # zstd's compressors and decompressors are not to be shared by threads: one each a thread


def _compressor() -> zstandard.ZstdCompressor:
    found: zstandard.ZstdCompressor | None = getattr(_mine, "compressor", None)
    if found is None:
        found = _mine.compressor = zstandard.ZstdCompressor(
            dict_data=_prepared(ZSTD_DICT_1), write_content_size=True, write_checksum=False, write_dict_id=False
        )
    return found


def _decompressor(form: int) -> zstandard.ZstdDecompressor:
    found: dict[int, zstandard.ZstdDecompressor] | None = getattr(_mine, "decompressors", None)
    if found is None:
        found = _mine.decompressors = {}
    if form not in found:
        found[form] = zstandard.ZstdDecompressor(dict_data=_prepared(form))
    return found[form]


def pack(value: Any) -> bytes:
    """A row's bytes for ``value`` (a list of [topic, state] pairs, or one pair): the form byte, then the frame."""
    return bytes((ZSTD_DICT_1,)) + _compressor().compress(msgpack.packb(value, use_bin_type=True))


def unpack(data: bytes) -> Any:
    """The value a row's bytes hold; ``RowFormError`` if they are not a row of a known form."""
    if not data or data[0] not in DICTIONARIES:
        raise RowFormError(f"a save row of form {data[0] if data else None!r}: this engine reads form(s) {sorted(DICTIONARIES)}")
    try:
        return msgpack.unpackb(_decompressor(data[0]).decompress(data[1:], max_output_size=MAX_ROW_BYTES), raw=False)
    except (zstandard.ZstdError, ValueError, msgpack.UnpackException) as e:
        raise RowFormError(f"a save row that does not decompress or decode ({type(e).__name__}: {e})") from None
