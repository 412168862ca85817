"""Writing a log file in the form ``replays.logcodec`` reads (schema 4): the lead, the header frame with
the block index and the shape table, then a checked zstd frame a block of ``BLOCK`` events. The same
events give the same bytes: a fixed level, one thread, no content size, no timestamps."""

from __future__ import annotations

import operator
import tempfile
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO

import msgpack
import zstandard

from mtg_ledger.replays.logfile.reader import CHUNK, FORMAT, Map

# Measured (bytes an event on the demo game / on 100,000 events of benchmarks/timetravel.py, and the seconds
# to write those), one frame for the whole log: level 3 38.1 / 35.2, 0.27 s; 6 37.9 / 35.2, 0.27 s; 9 37.8 / 35.1,
# 0.30 s; 12 37.7 / 35.0, 0.45 s; 19 37.4 / 34.8, 1.9 s. The 32 bytes of each hash do not compress: beyond 9, time for nothing.
LEVEL = 9
# Events a block, measured at level 9 (bytes an event, the whole file, on the demo game / on the 1,003,256 events
# of benchmarks/timetravel.py): one frame (schema 3) 37.8 / 35.0; blocks of 128: 40.5 / 38.0; 256: 39.1 / 36.6;
# 384: 38.5 / 36.1; 512: 38.3 / 35.9; 768: 38.0 / 35.6; 1024: 37.8 / 35.5. A block compresses without the history
# of the blocks before it; 512 is the smallest that stays within 1 byte an event of one frame on both.
BLOCK = 512
_IMPLIED = ("v", "type", "hash")
_SPOOL = 32 << 20  # compressed blocks kept in memory before the spool goes to a temporary file


def _compressor() -> zstandard.ZstdCompressor:
    return zstandard.ZstdCompressor(level=LEVEL, write_checksum=True, write_content_size=False, threads=0)


class Encoder:
    """Turns contract maps into event arrays, collecting the shape table and what the header says."""

    def __init__(self) -> None:
        self.shapes: dict[Any, int] = {}
        self.table: list[list[Any]] = []
        self.count = 0
        self.first: Map | None = None
        self.last_hash: Any = None
        self._next_v: int | None = 1
        self._plain: dict[Any, tuple[int, Callable[[Map], tuple[Any, ...]]]] = {}  # (type, every key) -> shape, values

    def encode(self, event: Map) -> list[Any]:
        try:
            v, recorded_hash = event["v"], event["hash"]
            kind = event["type"]
        except (TypeError, KeyError):
            raise ValueError(f"item {self.count + 1} is not an event map (v, type, hash): it cannot be written to a log file") from None
        raw = _raw_hash(recorded_hash)
        if raw is not None and v == self._next_v and type(v) is int:  # every event of a sound log
            try:
                key: Any = (kind, *event)
                shape = self._plain.get(key)
            except TypeError:  # a type that is not hashable (a damaged log)
                key, shape = None, None
            if shape is None:
                keys = [k for k in event if k not in _IMPLIED]
                shape = (self._shape(kind, keys), _values(keys))
                if key is not None:
                    self._plain[key] = shape
            record = [shape[0], raw, *shape[1](event)]
        else:  # a damaged log, written as it is: what is not implied is among its keys
            keys = [k for k in event if k not in _IMPLIED]
            if type(v) is not int or v != self._next_v:
                keys.insert(0, "v")
            if raw is None:
                keys.append("hash")
            record = [self._shape(kind, keys), raw, *(event[k] for k in keys)]
        self._next_v = v + 1 if type(v) is int else None
        self.count += 1
        if self.first is None:
            self.first = event
        self.last_hash = recorded_hash
        return record

    def _shape(self, kind: Any, keys: list[Any]) -> int:
        try:
            key: Any = (kind, *keys)
            found = self.shapes.get(key)
        except TypeError:  # a type that is not hashable (a damaged log): its msgpack bytes name it
            key = msgpack.packb([kind, keys], use_bin_type=True)
            found = self.shapes.get(key)
        if found is None:
            found = self.shapes[key] = len(self.table)
            self.table.append([kind, keys])
        return found


def _raw_hash(recorded: Any) -> bytes | None:
    """A sha256 in lowercase hex as its 32 bytes; anything else None."""
    if type(recorded) is not str or len(recorded) != 64:
        return None
    try:
        raw = bytes.fromhex(recorded)
    except ValueError:
        return None
    return raw if raw.hex() == recorded else None


def _values(keys: list[Any]) -> Callable[[Map], tuple[Any, ...]]:
    if not keys:
        return lambda event: ()
    if len(keys) == 1:
        only = keys[0]
        return lambda event: (event[only],)
    return operator.itemgetter(*keys)


def write_blocks(out: BinaryIO, events: Iterable[Map], header: Callable[[Encoder], Map], block: int = BLOCK) -> Map:
    """Write ``events`` to ``out`` in the form of schema 4, ``block`` events a block; ``header`` makes
    the header from what the encoder saw, once the last event is read. Returns the header."""
    encoder, compressor = Encoder(), _compressor()
    packer = msgpack.Packer(use_bin_type=True)
    index: list[list[int]] = []
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL) as spool:
        body, held = bytearray(), 0

        def close_block() -> None:
            frame = compressor.compress(bytes(body))
            spool.write(frame)
            index.append([held, len(frame)])
            body.clear()

        for event in events:
            body += packer.pack(encoder.encode(event))
            held += 1
            if held == block:
                close_block()
                held = 0
        if held:
            close_block()
        made = header(encoder)
        out.write(packer.pack({"format": FORMAT, "schema": made.get("schema")}))
        out.write(compressor.compress(packer.pack(made) + packer.pack(index) + packer.pack(encoder.table)))
        spool.seek(0)
        while chunk := spool.read(CHUNK):
            out.write(chunk)
    return made


# --- reading ------------------------------------------------------------------------------------------
