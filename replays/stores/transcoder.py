"""A msgpack transcoder for the eventsourcing library, which ships only ``JSONTranscoder``.

Plain data (None, bool, int, float, str, bytes, list, dict) is packed natively by msgpack's C
packer. Any other type must have a registered ``Transcoding``: it travels as a msgpack
``ExtType`` whose code comes from ``EXT_CODES`` below, an explicit table, so a stored event
decodes the same way in every process and every release. Codes are never reused or renumbered;
a new transcoding takes the next free code.

Two kinds of transcoding are understood:

* a ``BytesTranscoding`` encodes to ``bytes``, which become the ext payload as they are
  (``uuid.UUID`` as its 16 bytes, ``datetime`` as its ISO string in UTF-8): the hot path,
  since every event carries a UUID and a timestamp;
* any other ``Transcoding`` (the library's own included) encodes to plain data, which is
  msgpack-packed into the ext payload, and may itself hold registered types.

Round-trip caveats, by design of msgpack: tuples come back as lists, and map keys keep their
type (``strict_map_key=False``), so ``{1: "x"}`` comes back with the int key ``1``.
Integers must fit in 64 bits.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Callable, Mapping
from datetime import datetime
from decimal import Decimal
from functools import partial
from types import MappingProxyType
from typing import Any, Final
from uuid import UUID

import msgpack
from eventsourcing.persistence import Transcoder, Transcoding, TranscodingNotRegisteredError

from mtg_ledger.core.state import GameState

EXT_CODES: Final[Mapping[str, int]] = MappingProxyType(
    {
        # transcoding name -> msgpack ext code (0..127). Append only; never renumber.
        "uuid_bytes": 1,
        "datetime_iso": 2,
        "decimal_str": 3,
        "game_state": 4,
    }
)

_Encode = Callable[[Any], bytes]
_Decode = Callable[[bytes], Any]


class BytesTranscoding(Transcoding):
    """A transcoding whose encoded form is ``bytes``, stored as the ext payload unchanged."""

    @abstractmethod
    def encode(self, obj: Any) -> bytes:
        """Encodes the given object as bytes."""

    @abstractmethod
    def decode(self, data: bytes) -> Any:
        """Decodes bytes made by ``encode``."""


class UUIDAsBytes(BytesTranscoding):
    """A ``UUID`` as its 16 bytes."""

    type = UUID
    name = "uuid_bytes"

    def encode(self, obj: UUID) -> bytes:
        return obj.bytes

    def decode(self, data: bytes) -> UUID:
        return UUID(bytes=data)


class DatetimeAsISO(BytesTranscoding):
    """A ``datetime`` as its ISO 8601 string; the UTC offset of an aware datetime survives."""

    type = datetime
    name = "datetime_iso"

    def encode(self, obj: datetime) -> bytes:
        return obj.isoformat().encode()

    def decode(self, data: bytes) -> datetime:
        return datetime.fromisoformat(data.decode())


class DecimalAsStr(BytesTranscoding):
    """A ``Decimal`` as its exact string form (the library's default transcoder has it too)."""

    type = Decimal
    name = "decimal_str"

    def encode(self, obj: Decimal) -> bytes:
        return str(obj).encode()

    def decode(self, data: bytes) -> Decimal:
        return Decimal(data.decode())


class GameStateAsDict(Transcoding):
    """A ``GameState`` as its ``to_dict()`` form, so aggregate snapshots round-trip."""

    type = GameState
    name = "game_state"

    def encode(self, obj: GameState) -> dict[str, Any]:
        return obj.to_dict()

    def decode(self, data: dict[str, Any]) -> GameState:
        return GameState.from_dict(data)


class MsgpackTranscoder(Transcoder):
    """Encodes event and snapshot state as msgpack; see the module docstring.

    Constructible without arguments, so ``TRANSCODER_TOPIC=mtg_ledger.replays.stores.transcoder:MsgpackTranscoder``
    works too; the built-in transcodings are registered on construction. Safe to share between
    threads: each thread packs with its own ``Packer``.
    """

    def __init__(self) -> None:
        self.types: dict[type, Transcoding] = {}
        self.names: dict[str, Transcoding] = {}
        self._encoders: dict[type, tuple[int, _Encode]] = {}
        self._decoders: dict[int, _Decode] = {}
        self._names_by_code: dict[int, str] = {}
        self._local = threading.local()
        self._unpackb: Callable[[bytes], Any] = partial(
            msgpack.unpackb,
            ext_hook=self._ext_hook,
            raw=False,
            strict_map_key=False,
            use_list=True,
        )
        for transcoding in (UUIDAsBytes(), DatetimeAsISO(), DecimalAsStr(), GameStateAsDict()):
            self.register(transcoding)

    def register(self, transcoding: Transcoding, code: int | None = None) -> None:
        """Registers ``transcoding`` under its ext code: ``code`` if given, else ``EXT_CODES``.

        Registering a name again replaces the earlier transcoding of that name.
        """
        name = transcoding.name
        if code is None:
            if name not in EXT_CODES:
                msg = (
                    f"No msgpack ext code for transcoding {name!r}: add it to "
                    "replays.transcoder.EXT_CODES (append only) or pass code=."
                )
                raise ValueError(msg)
            code = EXT_CODES[name]
        if not 0 <= code <= 127:
            msg = f"msgpack ext code for {name!r} must be in 0..127, not {code}"
            raise ValueError(msg)
        holder = self._names_by_code.get(code)
        if holder is not None and holder != name:
            msg = f"msgpack ext code {code} is already taken by transcoding {holder!r}"
            raise ValueError(msg)

        encode: _Encode
        decode: _Decode
        if isinstance(transcoding, BytesTranscoding):
            encode, decode = transcoding.encode, transcoding.decode
        else:
            encode = partial(_pack_encoded, transcoding.encode, self._default)
            decode = partial(_unpack_decoded, transcoding.decode, self._unpackb)

        self.types[transcoding.type] = transcoding
        self.names[name] = transcoding
        self._encoders[transcoding.type] = (code, encode)
        self._decoders[code] = decode
        self._names_by_code[code] = name

    def encode(self, obj: Any) -> bytes:
        """Encodes ``obj`` as msgpack bytes."""
        try:
            packer: msgpack.Packer = self._local.packer
        except AttributeError:
            packer = self._local.packer = msgpack.Packer(default=self._default, use_bin_type=True)
        return packer.pack(obj)

    def decode(self, data: bytes) -> Any:
        """Decodes msgpack bytes made by ``encode``."""
        return self._unpackb(data)

    def _default(self, obj: Any) -> msgpack.ExtType:
        try:
            code, encode = self._encoders[type(obj)]
        except KeyError:
            msg = (
                f"Object of type {type(obj).__module__}.{type(obj).__qualname__} is not "
                "serializable by MsgpackTranscoder. Register a Transcoding for this type "
                "(and give its name an ext code in mtg_ledger.replays.stores.transcoder.EXT_CODES)."
            )
            raise TranscodingNotRegisteredError(msg) from None
        return msgpack.ExtType(code, encode(obj))

    def _ext_hook(self, code: int, data: bytes) -> Any:
        try:
            decode = self._decoders[code]
        except KeyError:
            msg = (
                f"Data was serialized with msgpack ext code {code}, which has no registered "
                "transcoding. Register the Transcoding whose name EXT_CODES maps to this code."
            )
            raise TranscodingNotRegisteredError(msg) from None
        return decode(data)


def _pack_encoded(encode: Callable[[Any], Any], default: Callable[[Any], Any], obj: Any) -> bytes:
    # A fresh packer: the calling thread's Packer is mid-pack and is not re-entrant.
    packed: bytes = msgpack.packb(encode(obj), default=default, use_bin_type=True)
    return packed


def _unpack_decoded(decode: Callable[[Any], Any], unpackb: Callable[[bytes], Any], data: bytes) -> Any:
    return decode(unpackb(data))
