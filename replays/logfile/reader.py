"""How a log file holds its header and its events (docs/log-file-format.md; for users, docs/log-file-format.md),
in the three forms this engine reads. Every form is read, and the current one written, a piece at a
time, in constant memory whatever the log's length.

**Schema 4** (what this version writes): events in blocks, each its own checked zstd frame, so that a
damaged byte costs the events of its block and nothing before it:

1. the *lead*, 27 bytes of msgpack, ``{"format": "mtg-ledger", "schema": 4}``: an engine of schema 3 or
   older reads it as a header and refuses the file by its schema number;
2. the header frame, one zstd frame of three msgpack items: the header map (``format``, ``schema``,
   ``rules``, ``engine``, ``game``, ``events``, ``hash`` (the last event's, in hex),
   ``event_versions``); the block index, ``[events, bytes]`` a block (block *k* holds the events after
   those of the blocks before it, its frame follows theirs); the table of event shapes, an array of
   ``[type, [key, ...]]`` in the order they first appear;
3. a zstd frame a block of ``BLOCK`` events: one array an event, ``[shape, hash, value, ...]``: its
   shape's index in the table, its chain hash as 32 raw bytes, then the value of each key of its shape.

An event's contract map is ``{"v": v, "type": type, key: value, ..., "hash": hash in hex}``, ``v`` one
more than the event before it. The hashes are the ones recorded, never recomputed. A damaged log
written as it is (``export --forensic``) keeps what it recorded: an event whose ``v`` is not implied
has ``"v"`` as the first key of its shape, one whose hash is not a sha256 in hex has ``"hash"`` as the
last key of its shape and ``nil`` in place of the 32 bytes.

The header's count, final hash and class versions (and the shapes and the index) are known only after
the last event: the writer compresses each block as it fills into a spool (in memory up to 32 MiB, on
disk beyond) and writes lead, header frame and spool at the end. The same events give the same bytes:
a fixed level, one thread, no content size, no timestamps. A reader checks a whole block's checksum
before it hands on any of its events.

**Schema 3** (still read): one zstd frame (the file starts with zstd's magic ``28 b5 2f fd``) of the
header map, the table and the event arrays, without lead, index or blocks. **Schemas 1 and 2** (still
read): no compression; the header map, then each event's contract map, msgpack one after another.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO

import msgpack
import zstandard

from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.schema import SchemaError, check_schema
from mtg_ledger.core.versions import SCHEMA_VERSION

FORMAT = "mtg-ledger"
MAGIC = b"\x28\xb5\x2f\xfd"  # every zstd frame starts with it; a msgpack header map never does
Map = dict[str, Any]

_LEAD = len(msgpack.packb({"format": FORMAT, "schema": 4}))  # 27: the schema is a one-byte integer up to 127
CHUNK = 1 << 20  # bytes handed to zstd or msgpack at a time
_COMPRESSED_CHUNK = 1 << 10  # compressed bytes decompressed at a time: at most 32 MiB come out of them
_ITEM = 64 << 20  # the largest msgpack item (header, table or event) read from a local file
_WINDOW = 1 << 23  # zstd window a reader allows (level 9 writes 4 MiB): a file cannot make it allocate more
# what msgpack raises on bytes that are not msgpack, or not within limits (TypeError: a map key that is a map or an array)
_MSGPACK_ERRORS = (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, msgpack.BufferFull, ValueError, TypeError)


def _english(message_id: str, params: Mapping[str, Any]) -> str:
    from mtg_ledger.replays.messages import say  # the catalogues (TOML), read when a file cannot be

    return say(message_id, params)


class UnreadableLog(ValueError):
    """Not a log file this engine can read (exit status 2): ``why`` says why (a message, ``reason`` its
    English), ``file`` names it; ``code`` and ``params`` are the whole sentence's message id and holes."""

    def __init__(self, why: Phrase, file: str | None = None) -> None:
        self.why, self.file = why, file
        self.reason = _english(why.id, why.params)
        self.code: str = "read.whole_file" if file else why.id
        self.params: Map = {"file": file, "reason": why} if file else dict(why.params)
        super().__init__(_english(self.code, self.params))

    def named(self, file: str) -> UnreadableLog:
        return UnreadableLog(self.why, file)


class UnreadableEvents(UnreadableLog):
    """A log file whose header reads, but not all of its events: every event before ``first`` was read
    whole; ``first`` to ``last`` (None: to the end of the file) cannot be."""

    def __init__(self, why: Phrase, first: int, last: int | None, file: str | None = None) -> None:
        which = "read.from_event" if last is None else "read.event" if last == first else "read.events"
        self.code, self.params = which + ("" if file else "_unnamed"), {"v": first, "w": last, "file": file, "reason": why}
        ValueError.__init__(self, _english(self.code, self.params))
        self.why, self.reason, self.file, self.first, self.last = why, _english(why.id, why.params), file, first, last

    def named(self, file: str) -> UnreadableEvents:
        return UnreadableEvents(_why(self), self.first, self.last, file)


def _why(e: UnreadableLog) -> Phrase:
    """Why the reader could not read on."""
    return e.why


def _damaged(e: zstandard.ZstdError) -> Phrase:
    said = str(e).removeprefix("zstd decompressor error: ")
    if "checksum" in said:
        return Phrase("read.checksum")
    return Phrase("read.corrupt") if "corruption" in said else Phrase("read.zstd", {"error": said})


def _lead(data: bytes) -> Map | None:
    """The lead of a file of schema 4 or later, ``{"format": FORMAT, "schema": N}``; None if ``data`` is not one."""
    try:
        lead = msgpack.unpackb(data)
    except _MSGPACK_ERRORS:
        return None
    return lead if isinstance(lead, dict) and lead == {"format": FORMAT, "schema": lead.get("schema")} and type(lead["schema"]) is int else None


# --- writing ------------------------------------------------------------------------------------------
class LogReader:
    """A log file's header, then its events one at a time, read from ``source`` (any form).

    ``limits``: what msgpack may unpack (``max_str_len``, ...) and ``max_decompressed``, the most
    bytes the file may decompress to; a file from someone else gets ``logfile.UPLOAD_LIMITS``.
    ``name``: the file's name, for the errors (``UnreadableLog``, and ``UnreadableEvents`` once the
    header is read)."""

    def __init__(self, source: BinaryIO, limits: dict[str, Any] | None = None, name: str | None = None) -> None:
        self._limits = dict(limits or {})
        self._max = self._limits.pop("max_decompressed", None)
        self._source, self._name, self._fed = source, name, 0
        self._index: list[tuple[int, int]] = []
        try:
            start = source.read(len(MAGIC))
            self.compact = start == MAGIC
            if not self.compact:
                start += source.read(_LEAD + len(MAGIC) - len(start))
            self.blocks = start[_LEAD : _LEAD + len(MAGIC)] == MAGIC or _lead(start[:_LEAD]) is not None
            if self.blocks:
                self.header, self._table, self._pending = self._read_header_frame(start)
                return
            self._chunks = self._decompressed(start) if self.compact else self._plain(start)
            self._unpacker = self._new_unpacker()
            self._items = self._unpacked()
            self.header = self._read_header()
            self._table = self._read_table() if self.compact else []
        except UnreadableLog as e:
            raise (e.named(name) if name else e) from None

    def __iter__(self) -> Iterator[Map]:
        read = 0
        try:
            if self.blocks:
                yield from self._block_events()
                return
            for event in self._compact_events() if self.compact else self._plain_events():
                read += 1
                yield event
        except UnreadableEvents as e:
            raise (e.named(self._name) if self._name else e) from None
        except UnreadableLog as e:  # the older forms: everything from the event it met on
            raise UnreadableEvents(_why(e), read + 1, None, self._name) from None

    def _new_unpacker(self) -> msgpack.Unpacker:
        return msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=_ITEM + CHUNK, **self._limits)

    def _count(self, size: int) -> None:
        self._fed += size
        if self._max is not None and self._fed > self._max:
            raise UnreadableLog(Phrase("read.too_large", {"n": self._max}))

    def _check_header(self, header: Any) -> Map:
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise UnreadableLog(Phrase("read.not_log_file"))
        schema = header.get("schema")
        try:
            check_schema(schema)
        except SchemaError:
            newer = isinstance(schema, int) and schema >= 1
            raise UnreadableLog(Phrase("read.schema_newer", {"n": schema, "count": SCHEMA_VERSION}) if newer else Phrase("read.not_schema_version", {"n": schema})) from None
        return header

    def _check_table(self, table: Any) -> list[tuple[Any, list[Any]]]:
        shapes: list[Any] = table if isinstance(table, list) else [None]
        if any(not (isinstance(s, list) and len(s) == 2 and isinstance(s[1], list)) for s in shapes):
            raise UnreadableLog(Phrase("read.no_table"))
        return [(kind, keys) for kind, keys in shapes]

    # schema 4: the lead, the header frame, then a frame a block

    def _frame(self, pending: bytes, length: int | None) -> tuple[bytes, bytes]:
        """One zstd frame, whole and checked: ``length`` compressed bytes (None: up to its end, then the
        bytes after it); what it decompresses to, and the compressed bytes read past it."""
        part = Phrase("read.part_header" if length is None else "read.part_block")
        frame = zstandard.ZstdDecompressor(max_window_size=_WINDOW).decompressobj()
        out, left = bytearray(), length
        while not frame.eof:
            if left == 0:
                raise UnreadableLog(Phrase("read.damaged", {"part": part, "damage": Phrase("read.frame_not_end")}))
            want = _COMPRESSED_CHUNK if left is None else min(_COMPRESSED_CHUNK, left)
            compressed, pending = (pending[:want], pending[want:]) if pending else (self._source.read(want), b"")
            if not compressed:
                raise UnreadableLog(Phrase("read.cut_in_part", {"part": part}))
            left = None if left is None else left - len(compressed)
            try:
                piece = frame.decompress(compressed)
            except zstandard.ZstdError as e:
                raise UnreadableLog(Phrase("read.damaged", {"part": part, "damage": _damaged(e)})) from None
            self._count(len(piece))
            out += piece
        if left:
            raise UnreadableLog(Phrase("read.damaged", {"part": part, "damage": Phrase("read.frame_ends_before")}))
        return bytes(out), frame.unused_data + pending

    def _read_header_frame(self, start: bytes) -> tuple[Map, list[tuple[Any, list[Any]]], bytes]:
        lead = _lead(start[:_LEAD])
        if lead is None:
            raise UnreadableLog(Phrase("read.damaged", {"part": Phrase("read.part_header"), "damage": Phrase("read.not_lead")}))
        self._check_header(lead)  # a newer schema is refused before anything else is read
        data, pending = self._frame(start[_LEAD:], None)
        unpacker = self._new_unpacker()
        unpacker.feed(data)
        try:
            items = list(unpacker)
        except _MSGPACK_ERRORS as e:
            raise UnreadableLog(Phrase("read.header_not_msgpack", {"error": type(e).__name__})) from None
        if len(items) != 3 or unpacker.tell() != len(data):
            raise UnreadableLog(Phrase("read.header_frame"))
        header, index, table = items
        if self._check_header(header).get("schema") != lead["schema"]:
            raise UnreadableLog(Phrase("read.damaged", {"part": Phrase("read.part_header"), "damage": Phrase("read.schemas_differ")}))
        if not isinstance(index, list) or any(
            not (isinstance(b, list) and len(b) == 2 and all(type(n) is int and n > 0 for n in b)) for b in index
        ):
            raise UnreadableLog(Phrase("read.block_index"))
        self._index = [(count, length) for count, length in index]
        return header, self._check_table(table), pending

    def _block_events(self) -> Iterator[Map]:
        decoder, pending, before = _Decoder(self._table), self._pending, 0
        for count, length in self._index:
            try:
                data, pending = self._frame(pending, length)
                unpacker = self._new_unpacker()
                unpacker.feed(data)
                try:
                    items = list(unpacker)
                except _MSGPACK_ERRORS as e:
                    raise UnreadableLog(Phrase("read.block_not_msgpack", {"error": type(e).__name__})) from None
                if len(items) != count or unpacker.tell() != len(data):
                    raise UnreadableLog(Phrase("read.block_items", {"n": len(items), "count": count}))
                events = decoder.decode_all(items, before)
            except UnreadableLog as e:
                raise UnreadableEvents(_why(e), before + 1, before + count) from None
            yield from events
            before += count
        if pending or self._source.read(1):
            raise UnreadableEvents(Phrase("read.appended_after_block"), before + 1, None)

    # schema 3: one frame; schemas 1 and 2: plain msgpack

    def _plain(self, start: bytes) -> Iterator[bytes]:
        yield start
        while chunk := self._source.read(CHUNK):
            yield chunk

    def _decompressed(self, start: bytes) -> Iterator[bytes]:
        frame = zstandard.ZstdDecompressor(max_window_size=_WINDOW).decompressobj()
        pending = start
        while True:
            compressed = pending or self._source.read(_COMPRESSED_CHUNK)
            pending = b""
            if not compressed:
                if not frame.eof:
                    raise UnreadableLog(Phrase("read.zstd_cut"))
                return
            if frame.eof:
                raise UnreadableLog(Phrase("read.zstd_appended"))
            try:
                out = frame.decompress(compressed)
            except zstandard.ZstdError as e:
                raise UnreadableLog(Phrase("read.compressed_damaged", {"damage": _damaged(e)})) from None
            if frame.eof and frame.unused_data:
                raise UnreadableLog(Phrase("read.zstd_appended"))
            for i in range(0, len(out), CHUNK):
                yield out[i : i + CHUNK]

    def _unpacked(self) -> Iterator[Any]:
        unpacker = self._unpacker
        count, fed = 0, 0
        try:
            for chunk in self._chunks:
                fed += len(chunk)
                self._count(len(chunk))
                unpacker.feed(chunk)
                for item in unpacker:
                    count += 1
                    yield item
        except _MSGPACK_ERRORS as e:
            if isinstance(e, UnreadableLog):
                raise
            raise UnreadableLog(Phrase("read.not_msgpack", {"error": f"{type(e).__name__}{': ' if str(e) else ''}{e}"})) from None
        if unpacker.tell() != fed:
            raise UnreadableLog(Phrase("read.cut_in_item", {"n": count + 1, "count": fed - unpacker.tell()}))

    def _read_header(self) -> Map:
        return self._check_header(next(self._items, None))

    def _read_table(self) -> list[tuple[Any, list[Any]]]:
        return self._check_table(next(self._items, None))

    def _plain_events(self) -> Iterator[Map]:
        for i, event in enumerate(self._items, start=1):
            if not isinstance(event, dict) or "type" not in event or "v" not in event or "hash" not in event:
                raise UnreadableLog(Phrase("read.item_not_event", {"n": i}))
            yield event

    def _compact_events(self) -> Iterator[Map]:
        decoder = _Decoder(self._table)
        for i, item in enumerate(self._items, start=1):
            yield from decoder.decode_all([item], i - 1)


class _Decoder:
    """Event arrays (schemas 3 and 4) back to contract maps, in log order."""

    def __init__(self, table: list[tuple[Any, list[Any]]]) -> None:
        # per shape: type, keys, the array's length, and whether v and the hash are the implied ones
        self._shapes = [(kind, keys, 2 + len(keys), not keys or (keys[0] != "v" and keys[-1] != "hash")) for kind, keys in table]
        self._next_v: Any = 1

    def decode_all(self, items: list[Any], before: int) -> list[Map]:
        """``decode`` of each of ``items``, the events after the ``before`` first. A sound log's every event
        is read here (a known shape, its values, a 32-byte hash, the next version); any other goes to ``decode``."""
        shapes, count = self._shapes, len(self._shapes)
        out: list[Map] = []
        append, pairs = out.append, zip
        for i, item in enumerate(items, start=before + 1):
            v = self._next_v
            if type(item) is list and len(item) >= 2 and type(item[0]) is int and 0 <= item[0] < count and type(v) is int:
                kind, keys, size, implied = shapes[item[0]]
                recorded_hash = item[1]
                if implied and len(item) == size and type(recorded_hash) is bytes and len(recorded_hash) == 32:
                    event: Map = {"v": v, "type": kind}
                    event.update(pairs(keys, item[2:]))  # as many as the shape has keys: checked above
                    event["hash"] = recorded_hash.hex()
                    self._next_v = v + 1
                    append(event)
                    continue
            append(self.decode(item, i))
        return out

    def decode(self, item: Any, i: int) -> Map:
        """Event ``i`` (from 1), whatever it holds: its map, or ``UnreadableLog`` saying what is wrong with it."""
        shapes = self._shapes
        if type(item) is not list or len(item) < 2 or type(item[0]) is not int or not 0 <= item[0] < len(shapes):
            raise UnreadableLog(Phrase("read.event_not_shape", {"n": i}))
        kind, keys, size, implied = shapes[item[0]]
        if len(item) != size:
            raise UnreadableLog(Phrase("read.event_values", {"n": i, "count": len(item) - 2, "other": len(keys)}))
        recorded_hash = item[1]
        if isinstance(recorded_hash, bytes) and len(recorded_hash) != 32:
            raise UnreadableLog(Phrase("read.hash_length", {"n": i, "count": len(recorded_hash)}))
        if not isinstance(recorded_hash, bytes) and not (recorded_hash is None and keys and keys[-1] == "hash"):
            raise UnreadableLog(Phrase("read.hash_not_32", {"n": i}))
        event = {"v": self._next_v, "type": kind}
        event.update(zip(keys, item[2:], strict=True))
        if recorded_hash is not None:
            event["hash"] = recorded_hash.hex()
        v = event["v"]
        self._next_v = v + 1 if type(v) is int else None
        return event
