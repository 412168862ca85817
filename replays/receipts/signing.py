"""Receipts and the keys that sign them (docs/receipts.md), with Ed25519 from ``cryptography`` (keys,
verification) and libsodium's (PyNaCl: the service's signing, which makes the same bytes in half the work).

A receipt is ``{"game", "version", "head", "key", "signature"}``: the service's signature (base64) over
the UTF-8 bytes of ``mtg-ledger receipt\\n<game>\\n<version>\\n<head>`` (the game id as in URLs, the
version in decimal, the public head in lowercase hex, no newline at the end); ``key`` is the id of the
key that signed: the first 16 hex digits of the sha256 of its 32-byte public key.

The service's key is made on first start and kept by the store (``records.ServiceKeys``), or read from a
PEM file (``MTG_LEDGER_SIGNING_KEY``), whose public half is then kept in the store too. ``rotate`` makes
a new signing key; the older ones stay published, so that their receipts stay verifiable.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from mtg_ledger.replays.receipts.records import SERVICE_KEYS_ID, ServiceKeys, find

SIGNING_KEY_ENV = "MTG_LEDGER_SIGNING_KEY"
ALG = "Ed25519"
RECEIPT_KEYS = ("game", "version", "head", "key", "signature")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def unb64(text: Any) -> bytes | None:
    if not isinstance(text, str):
        return None
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:16]


def receipt_message(game: str, version: int, head: str) -> bytes:
    """The exact bytes a receipt's signature covers."""
    return f"mtg-ledger receipt\n{game}\n{version}\n{head}".encode()


def public_key(text: Any) -> Ed25519PublicKey | None:
    """An Ed25519 public key from its 32 bytes in base64, or None: also for a weak key (``weak``), under
    which a signature can be made without any private key."""
    raw = unb64(text)
    if raw is None or len(raw) != 32 or weak(raw):
        return None
    try:
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        return None


_P = 2**255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def weak(raw: bytes) -> bool:
    """Whether 32 bytes are no usable Ed25519 public key (RFC 8032, 5.1.3): not a point of the curve, a
    y not below p (a second encoding), or a point of small order (8P is the identity: with the identity,
    R = identity and S = 0 is a signature of every message)."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    if y >= _P:
        return True
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if v * x * x % _P != u:
        x = x * _SQRT_M1 % _P
        if v * x * x % _P != u:
            return True  # no point has this y
    point = (x, y)
    for _ in range(3):
        point = _add(point, point)
    return point == (0, 1)


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Two points of edwards25519 added (affine coordinates)."""
    (x1, y1), (x2, y2) = a, b
    t = _D * x1 * x2 * y1 * y2 % _P
    x = (x1 * y2 + x2 * y1) * pow(1 + t, _P - 2, _P) % _P
    y = (y1 * y2 + x1 * x2) * pow(1 - t, _P - 2, _P) % _P
    return x, y


@dataclass(frozen=True)
class SigningKey:
    private: Ed25519PrivateKey
    id: str
    _sodium: bytes = field(init=False, repr=False, compare=False)  # the same key as libsodium holds it (seed, public half)

    def __post_init__(self) -> None:
        seed = self.private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
        object.__setattr__(self, "_sodium", crypto_sign_seed_keypair(seed)[1])

    @classmethod
    def of(cls, private: Ed25519PrivateKey) -> SigningKey:
        return cls(private, key_id(raw_public(private.public_key())))

    def sign(self, message: bytes) -> bytes:
        """``private.sign(message)``, the same 64 bytes (Ed25519 is deterministic), by libsodium: signed while
        a player waits (every decision's receipt), in about half the instructions of cryptography's build."""
        return crypto_sign(message, self._sodium)[:64]  # the signature, then the message

    def receipt(self, game: str, version: int, head: bytes) -> dict[str, Any]:
        hexhead = head.hex()
        signature = self.sign(receipt_message(game, version, hexhead))
        return {"game": game, "version": version, "head": hexhead, "key": self.id, "signature": b64(signature)}


def _private_b64(private: Ed25519PrivateKey) -> str:
    return b64(private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()))


def _record(private: Ed25519PrivateKey | None, public: bytes) -> tuple[str, str, str | None]:
    return key_id(public), b64(public), None if private is None else _private_b64(private)


def _save_key(app: Application[UUID], private: Ed25519PrivateKey | None, public: bytes) -> None:
    """Add a key to the store's ring (its first, or the next); a race lost to another process is retried on the ring it made."""
    for _ in range(5):
        ring = find(app, SERVICE_KEYS_ID)
        if isinstance(ring, ServiceKeys) and any(k[0] == key_id(public) for k in ring.keys):
            return  # another process added it meanwhile
        try:
            if ring is None:
                app.save(ServiceKeys(*_record(private, public)))
            else:
                ring.add(*_record(private, public))
                app.save(ring)
            return
        except IntegrityError:
            continue
    raise IntegrityError("the service's keys changed five times while a key was being added")


def load_file(path: str | Path) -> Ed25519PrivateKey:
    """An Ed25519 private key from a PEM (PKCS #8) file, as ``openssl genpkey -algorithm ed25519`` writes it."""
    data = Path(path).read_bytes()
    key = serialization.load_pem_private_key(data, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an Ed25519 private key")
    return key


def signing_key(app: Application[UUID], env: Mapping[str, str] | None = None) -> SigningKey:
    """The key this service signs with: the file ``MTG_LEDGER_SIGNING_KEY`` names (its public half kept in
    the store), else the store's, made now if the store has none. Every process of a store signs with
    the same key (a race to make the first one is won by one process; the others take its key)."""
    path = (env or {}).get(SIGNING_KEY_ENV)
    if path:
        private = load_file(path)
        key = SigningKey.of(private)
        if key.id not in published(app):
            _save_key(app, None, raw_public(private.public_key()))
        return key
    for _ in range(5):
        ring = find(app, SERVICE_KEYS_ID)
        if isinstance(ring, ServiceKeys):
            for kid, _public, private_b64 in reversed(ring.keys):
                raw = unb64(private_b64)
                if raw is not None:
                    return SigningKey(Ed25519PrivateKey.from_private_bytes(raw), kid)
        new = Ed25519PrivateKey.generate()
        try:
            if ring is None:
                app.save(ServiceKeys(*_record(new, raw_public(new.public_key()))))
            else:  # only public keys (from files): this one signs from now on
                ring.add(*_record(new, raw_public(new.public_key())))
                app.save(ring)
        except IntegrityError:  # another process made one first: read theirs
            continue
    raise IntegrityError("the service's keys changed five times while its signing key was being made")


def rotate(app: Application[UUID]) -> SigningKey:
    """A new signing key; the older ones are kept public only."""
    new = Ed25519PrivateKey.generate()
    _save_key(app, new, raw_public(new.public_key()))
    return SigningKey.of(new)


def published(app: Application[UUID]) -> dict[str, str]:
    """Every key the store knows, id -> public key (base64), newest last."""
    ring = find(app, SERVICE_KEYS_ID)
    return {kid: public for kid, public, _ in ring.keys} if isinstance(ring, ServiceKeys) else {}


def keys_document(keys: Mapping[str, str]) -> dict[str, Any]:
    """``GET /keys``: the newest first."""
    return {"keys": [{"id": kid, "alg": ALG, "public": public} for kid, public in reversed(list(keys.items()))]}


def receipt_problem(receipt: Any, keys: Mapping[str, str]) -> tuple[str, dict[str, Any]] | None:
    """Why a receipt cannot be trusted, as a message id and its parameters; None when its signature holds."""
    if not isinstance(receipt, Mapping):
        return "receipt.not_a_receipt", {}
    missing = [k for k in RECEIPT_KEYS if k not in receipt]
    if missing:
        return "receipt.missing", {"keys": ", ".join(missing)}
    game, version, head, kid, signature = (receipt[k] for k in RECEIPT_KEYS)
    if not isinstance(game, str) or type(version) is not int or version < 1 or not isinstance(head, str) or not _HEX64.fullmatch(head):
        return "receipt.malformed", {}
    public = keys.get(kid) if isinstance(kid, str) else None
    if public is None:
        return "receipt.unknown_key", {"key": str(kid)}
    if key_id(unb64(public) or b"") != kid:
        return "receipt.key_id_mismatch", {"key": kid}  # a key's id is the start of its own sha256: never taken on trust
    verifier = public_key(public)
    raw = unb64(signature)
    if verifier is None or raw is None:
        return "receipt.bad_signature", {"key": str(kid)}
    try:
        verifier.verify(raw, receipt_message(game, version, head))
    except InvalidSignature:
        return "receipt.bad_signature", {"key": str(kid)}
    return None
