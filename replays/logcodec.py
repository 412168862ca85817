"""How a log file holds its header and its events (CONTRACT section 5), in the two forms this engine
reads; both are read and written a piece at a time, in constant memory whatever the log's length.

**Schema 3** (what this version writes) is one zstd frame (the file starts with zstd's magic bytes
``28 b5 2f fd``), level 9, with zstd's checksum and without the content size, which decompresses to
a msgpack stream of:

1. the header map: ``format``, ``schema``, ``rules``, ``engine``, ``game``, ``events`` (their
   count), ``hash`` (the last event's, in hex), ``event_versions`` (the class version of each event
   type, as recorded);
2. the table of event shapes, an array of ``[type, [key, ...]]``: each event type with the keys of
   its fields, in the order they first appear in the log;
3. one array per event, in log order: ``[shape, hash, value, ...]``: the index of its shape in the
   table, its chain hash as 32 raw bytes, then the value of each key of its shape, in that order.

The event's contract map is ``{"v": v, "type": type, key: value, ..., "hash": hash in hex}``. ``v``
is implied: the version of the event before it plus one (1 for the first). The hashes are the ones
recorded, never recomputed. A damaged log written as it is (``export --forensic``) keeps what it
recorded: an event whose ``v`` is not implied has ``"v"`` as the first key of its shape, and one whose
hash is not a sha256 in hex has ``"hash"`` as the last key of its shape and ``nil`` in place of
the 32 bytes.

The header comes first, but its count, final hash and class versions (and the shapes) are known only
after the last event: the writer keeps the event arrays in a temporary spool (in memory up to 32 MiB,
on disk beyond) and compresses header, table and spool in one pass at the end. The same events give
the same bytes: a fixed level, one thread, no content size, no timestamps.

**Schemas 1 and 2** (older files, still read): no compression; the header map, then each event's
contract map, its hash in hex, msgpack-encoded one after another.
"""

from __future__ import annotations

import operator
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO

import msgpack
import zstandard

from mtg_ledger.core.schema import SchemaError, check_schema

FORMAT = "mtg-ledger"
MAGIC = b"\x28\xb5\x2f\xfd"  # every zstd frame starts with it; a msgpack header map never does
# Measured (bytes an event on the demo game / on 100,000 events of benchmarks/timetravel.py, and the seconds
# to write those): level 3 38.1 / 35.2, 0.27 s; 6 37.9 / 35.2, 0.27 s; 9 37.8 / 35.1, 0.30 s; 12 37.7 / 35.0,
# 0.45 s; 19 37.4 / 34.8, 1.9 s. The 32 bytes of each hash do not compress: beyond 9, time for nothing.
LEVEL = 9
Map = dict[str, Any]

_IMPLIED = ("v", "type", "hash")
_SPOOL = 32 << 20  # event arrays kept in memory before the spool goes to a temporary file
_CHUNK = 1 << 20  # bytes handed to zstd or msgpack at a time
_COMPRESSED_CHUNK = 1 << 10  # compressed bytes decompressed at a time: at most 32 MiB come out of them
_ITEM = 64 << 20  # the largest msgpack item (header, table or event) read from a local file
_WINDOW = 1 << 23  # zstd window a reader allows (level 9 writes 4 MiB): a file cannot make it allocate more


class UnreadableLog(ValueError):
    """Not a log file this engine can read (exit status 2)."""


def _compressor() -> zstandard.ZstdCompressor:
    return zstandard.ZstdCompressor(level=LEVEL, write_checksum=True, write_content_size=False, threads=0)


# --- writing ------------------------------------------------------------------------------------------


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


def write_compact(out: BinaryIO, events: Iterable[Map], header: Callable[[Encoder], Map]) -> Map:
    """Write ``events`` to ``out`` in the form of schema 3; ``header`` makes the header from what the
    encoder saw, once the last event is read. Returns the header."""
    encoder = Encoder()
    packer = msgpack.Packer(use_bin_type=True)
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL) as spool:
        body = bytearray()
        for event in events:
            body += packer.pack(encoder.encode(event))
            if len(body) >= _CHUNK:
                spool.write(body)
                body.clear()
        spool.write(body)
        made = header(encoder)
        spool.seek(0)
        writer = _compressor().stream_writer(out, closefd=False)
        writer.write(packer.pack(made) + packer.pack(encoder.table))
        while chunk := spool.read(_CHUNK):
            writer.write(chunk)
        writer.flush(zstandard.FLUSH_FRAME)
    return made


# --- reading ------------------------------------------------------------------------------------------


class LogReader:
    """A log file's header, then its events one at a time, read from ``source`` (either form).

    ``limits``: what msgpack may unpack (``max_str_len``, ...) and ``max_decompressed``, the most
    bytes the file may decompress to; a file from someone else gets ``logfile.UPLOAD_LIMITS``."""

    def __init__(self, source: BinaryIO, limits: dict[str, Any] | None = None) -> None:
        limits = dict(limits or {})
        self._max = limits.pop("max_decompressed", None)
        self._source = source
        start = source.read(len(MAGIC))
        self.compact = start == MAGIC
        self._chunks = self._decompressed(start) if self.compact else self._plain(start)
        self._unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=_ITEM + _CHUNK, **limits)
        self._fed = 0
        self._items = self._unpacked()
        self.header = self._read_header()
        self._table = self._read_table() if self.compact else []

    def __iter__(self) -> Iterator[Map]:
        return self._compact_events() if self.compact else self._plain_events()

    # the bytes, then msgpack items

    def _plain(self, start: bytes) -> Iterator[bytes]:
        yield start
        while chunk := self._source.read(_CHUNK):
            yield chunk

    def _decompressed(self, start: bytes) -> Iterator[bytes]:
        frame = zstandard.ZstdDecompressor(max_window_size=_WINDOW).decompressobj()
        pending = start
        while True:
            compressed = pending or self._source.read(_COMPRESSED_CHUNK)
            pending = b""
            if not compressed:
                if not frame.eof:
                    raise UnreadableLog("the file was cut: its compressed data ends before the end of its zstd frame")
                return
            if frame.eof:
                raise UnreadableLog("the file goes on after the end of its zstd frame: bytes were appended to it")
            try:
                out = frame.decompress(compressed)
            except zstandard.ZstdError as e:
                raise UnreadableLog(f"its compressed data is damaged ({e})") from None
            if frame.eof and frame.unused_data:
                raise UnreadableLog("the file goes on after the end of its zstd frame: bytes were appended to it")
            for i in range(0, len(out), _CHUNK):
                yield out[i : i + _CHUNK]

    def _unpacked(self) -> Iterator[Any]:
        unpacker = self._unpacker
        count = 0
        try:
            for chunk in self._chunks:
                self._fed += len(chunk)
                if self._max is not None and self._fed > self._max:
                    raise UnreadableLog(f"the log holds more than {self._max:,} bytes once decompressed: refused, nothing read")
                unpacker.feed(chunk)
                for item in unpacker:
                    count += 1
                    yield item
        except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, msgpack.BufferFull, ValueError) as e:
            if isinstance(e, UnreadableLog):
                raise
            raise UnreadableLog(f"not a msgpack log file ({type(e).__name__}{': ' if str(e) else ''}{e})") from None
        if unpacker.tell() != self._fed:
            raise UnreadableLog(f"the file ends in the middle of item {count + 1}: it was cut ({self._fed - unpacker.tell()} stray bytes)")

    def _read_header(self) -> Map:
        header = next(self._items, None)
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise UnreadableLog(f"not an {FORMAT} log file: the header is missing or of another format")
        try:
            check_schema(header.get("schema"))
        except SchemaError as e:
            raise UnreadableLog(str(e)) from None
        return header

    def _read_table(self) -> list[tuple[Any, list[Any]]]:
        table = next(self._items, None)
        shapes: list[Any] = table if isinstance(table, list) else [None]
        if any(not (isinstance(s, list) and len(s) == 2 and isinstance(s[1], list)) for s in shapes):
            raise UnreadableLog("the table of event shapes after the header is missing or not a list of [type, [key, ...]]")
        return [(kind, keys) for kind, keys in shapes]

    # the events

    def _plain_events(self) -> Iterator[Map]:
        for i, event in enumerate(self._items, start=1):
            if not isinstance(event, dict) or "type" not in event or "v" not in event or "hash" not in event:
                raise UnreadableLog(f"item {i} after the header is not an event map (v, type, hash)")
            yield event

    def _compact_events(self) -> Iterator[Map]:
        # per shape: type, keys, the array's length, and whether v and the hash are the implied ones
        shapes = [(kind, keys, 2 + len(keys), not keys or (keys[0] != "v" and keys[-1] != "hash")) for kind, keys in self._table]
        next_v: Any = 1
        for i, item in enumerate(self._items, start=1):
            if type(item) is not list or len(item) < 2 or type(item[0]) is not int or not 0 <= item[0] < len(shapes):
                raise UnreadableLog(f"event {i} is not [shape, hash, value, ...] with a shape of the table")
            kind, keys, size, implied = shapes[item[0]]
            if len(item) != size:
                raise UnreadableLog(f"event {i} holds {len(item) - 2} values, its shape {len(keys)}")
            recorded_hash = item[1]
            if implied and type(recorded_hash) is bytes and len(recorded_hash) == 32 and type(next_v) is int:  # a sound log's every event
                event: Map = {"v": next_v, "type": kind}
                event.update(zip(keys, item[2:], strict=False))  # as many as the shape has keys: checked above
                event["hash"] = recorded_hash.hex()
                next_v += 1
                yield event
                continue
            if isinstance(recorded_hash, bytes) and len(recorded_hash) != 32:
                raise UnreadableLog(f"event {i}'s hash is {len(recorded_hash)} bytes long, not the 32 of a sha256")
            if not isinstance(recorded_hash, bytes) and not (recorded_hash is None and keys and keys[-1] == "hash"):
                raise UnreadableLog(f"event {i}'s hash is not 32 bytes")
            event = {"v": next_v, "type": kind}
            event.update(zip(keys, item[2:], strict=True))
            if recorded_hash is not None:
                event["hash"] = recorded_hash.hex()
            v = event["v"]
            next_v = v + 1 if type(v) is int else None
            yield event
