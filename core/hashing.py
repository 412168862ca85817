"""The hash chain of the log and the canonical encoding it rests on (docs/reference/events.md).

``h(n) = sha256(h(n-1) + canonical(event n))`` with ``h(0)`` thirty-two zero bytes, where
``canonical`` is ``msgpack.packb`` of the event map without ``hash``, keys sorted at every level.
"""

from __future__ import annotations

import hashlib
import importlib
import threading
from collections.abc import Callable
from typing import Any

import msgpack
import msgspec

GENESIS_HASH = "00" * 32


SCALAR_TYPES = frozenset({str, int, bool, float, bytes, type(None)})  # taken as they are: nothing to sort inside


def _short_sha256() -> Callable[[bytes], Any]:
    """sha256 for messages of a block or two (an event's chain message: the hash before it, its canonical
    bytes, some 100 bytes in all): the interpreter's own implementation (``_sha2`` from CPython 3.12,
    ``_sha256`` before), the same function as ``hashlib.sha256``'s. OpenSSL's, which ``hashlib`` gives,
    sets up and tears down an algorithm and a context for each digest, and a copy of it for ``digest()``:
    on messages this short that can cost more than its faster compression saves, as the machine goes (see
    docs/explanation/performance.md; an audit took as long with either). Checked against ``hashlib.sha256``
    on a known input; that one where there is none."""
    for name in ("_sha2", "_sha256"):
        try:
            made: Callable[[bytes], Any] = importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            continue
        if made(b"abc").digest() == hashlib.sha256(b"abc").digest():
            return made
    return hashlib.sha256


short_sha256 = _short_sha256()


def sort_keys(value: Any) -> Any:
    """``value`` with every map's keys sorted, at every level (lists of scalars pass through as they are)."""
    if isinstance(value, dict):  # a scalar value is taken as it is, without a call (most of an event's fields)
        return {k: v if type(v) in SCALAR_TYPES else sort_keys(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        if value and type(value[0]) is str:  # card names: a library is thousands of them
            try:
                "".join(value)  # str.join looks at every item in C, four times faster than the check below
                return value
            except TypeError:  # an item that is not a string
                pass
        if SCALAR_TYPES.issuperset(map(type, value)):  # looked at in C
            return value  # nothing to sort inside (the common case: card names, object ids)
        return [sort_keys(v) for v in value]  # (a subclass of a scalar comes here, and out the same)
    return value


# msgpack of a value with every map's keys sorted, by msgspec: for a map of string keys whose values are of the
# exact types of SCALAR_TYPES, the bytes msgpack's packer writes for its sorted pairs (each value in its smallest
# form, a float in 64 bits; tests/unit/test_canonical_encoding.py compares them), in a third to a half of the time.
sorted_msgpack = msgspec.msgpack.Encoder(order="sorted").encode


def canonical(mapping: dict[str, Any]) -> bytes:
    """msgpack bytes of ``mapping`` without its ``hash`` key, keys sorted at every level."""
    if SCALAR_TYPES.issuperset(map(type, mapping.values())):  # most events: no map or list to sort inside
        if "hash" in mapping:
            mapping = mapping.copy()
            del mapping["hash"]
        try:
            return sorted_msgpack(mapping)
        except Exception:  # a key that is not a string, a value msgspec does not write: msgpack's packer says
            return pack_pairs(sorted(mapping.items()))
    items = sorted(mapping.items())
    body = {k: v if type(v) in SCALAR_TYPES else sort_keys(v) for k, v in items if k != "hash"}
    return bytes(thread_packer().pack(body))


_packers = threading.local()  # a Packer for each thread (one is not to be shared across threads)


def thread_packer() -> Any:
    """This thread's Packer: msgpack.packb's bytes, without making a Packer for each event (half of packb's time)."""
    try:
        return _packers.packer
    except AttributeError:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
        return packer


def pack_pairs(pairs: list[tuple[Any, Any]]) -> bytes:
    """The bytes of a map of ``pairs``, in their order, with no map made (this thread's packer). A packer's
    ``pack`` empties its buffer when it raises; its ``pack_map_pairs`` leaves there what it had written, which
    the thread's next pack would hand out before its own bytes: emptied here."""
    packer = thread_packer()
    try:
        return bytes(packer.pack_map_pairs(pairs))
    except BaseException:
        packer.reset()
        raise


_TAILS: dict[str, bytes] = {}


def tail(kind: str) -> bytes:
    """The canonical bytes of an event of type ``kind`` after its fields, but for its version's value:
    the keys ``type`` (and its value) and ``v``, which sort after the fields of almost every event."""
    found = _TAILS.get(kind)
    if found is None:
        pack = thread_packer().pack
        found = _TAILS[kind] = pack("type") + pack(kind) + pack("v")
    return found


def chain_fields(previous_hex: str, version: int, kind: str, fields: dict[str, Any]) -> tuple[str, bytes]:
    """The hash of the event ``{"v": version, "type": kind, **fields}`` after ``previous_hex`` (``chain``),
    and the msgpack of its fields alone, keys sorted at every level: the bytes a stored row keeps of them
    (``replays.stores.rows``), encoded once for both. When every field's key sorts before ``type`` (the
    fields of every event today), the canonical bytes are those fields' bytes under a map header of two
    more entries, then ``type`` and ``v`` (``tail``): the same bytes, the fields not encoded again."""
    pack = thread_packer().pack
    items = sorted(fields.items())
    body: bytes = pack({k: v if type(v) in SCALAR_TYPES else sort_keys(v) for k, v in items})
    n = len(items)
    if n and items[-1][0] < "type" and n < 0xFFF0:
        header = bytes((0x80 | n + 2,)) if n < 14 else b"\xde" + (n + 2).to_bytes(2, "big")
        message = header + body[1 if n < 16 else 3 :] + (_TAILS.get(kind) or tail(kind)) + pack(version)
    else:  # a field that sorts after "type": encoded whole
        message = canonical({"v": version, "type": kind, **fields})
    return short_sha256(bytes.fromhex(previous_hex) + message).hexdigest(), body


def chain(previous_hex: str, mapping: dict[str, Any]) -> str:
    """The hash of an event given the hash of the one before it."""
    found: str = short_sha256(bytes.fromhex(previous_hex) + canonical(mapping)).hexdigest()
    return found


def chain_digest(previous: bytes, mapping: dict[str, Any]) -> bytes:
    """``chain`` with the hashes as bytes: a reader of a whole chain keeps them so, with no conversion."""
    found: bytes = short_sha256(previous + canonical(mapping)).digest()
    return found


def digest(sorted_value: Any) -> str:
    """The sha256 of a value whose maps' keys are already sorted (``sort_keys``), as msgpack."""
    return hashlib.sha256(msgpack.packb(sorted_value, use_bin_type=True)).hexdigest()
