"""Players' and the service's Ed25519 public keys (docs/receipts.md): a key under which a signature can be
made without a private key is refused wherever a key is taken in."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from mtg_ledger.replays.receipts.decisions import signed_by
from mtg_ledger.replays.receipts.signing import SigningKey, b64, public_key, raw_public, receipt_message, weak

# The points of order 1, 2, 4 and 8 of edwards25519 (each also with the sign bit of x set), and y = p, p + 1
# (second encodings of the points y = 0 and y = 1).
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
]
IDENTITY = bytes.fromhex(SMALL_ORDER[0])
FORGED = IDENTITY + bytes(32)  # R = the identity, S = 0


@pytest.mark.parametrize("encoded", SMALL_ORDER)
def test_a_public_key_of_small_order_is_refused(encoded: str) -> None:
    assert weak(bytes.fromhex(encoded))
    assert public_key(b64(bytes.fromhex(encoded))) is None


def test_generated_keys_are_accepted() -> None:
    for _ in range(50):
        raw = raw_public(Ed25519PrivateKey.generate().public_key())
        assert not weak(raw)
        assert public_key(b64(raw)) is not None


def test_the_identity_key_would_take_one_signature_for_every_decision_and_is_refused() -> None:
    assert public_key(b64(IDENTITY)) is None
    assert not signed_by(b64(IDENTITY), base64.b64encode(FORGED).decode(), "g", 3, '{"action":"pass"}')


@given(seed=st.binary(min_size=32, max_size=32), message=st.binary(max_size=300))
def test_the_service_signs_the_same_bytes_as_cryptography_would(seed: bytes, message: bytes) -> None:
    """The service signs with libsodium (``SigningKey.sign``) what it holds as cryptography's key: Ed25519 is
    deterministic (RFC 8032 5.1.6), so every receipt ever signed is the same bytes either way."""
    private = Ed25519PrivateKey.from_private_bytes(seed)
    key = SigningKey.of(private)
    assert key.sign(message) == private.sign(message)
    assert key.receipt("g", 3, bytes(32))["signature"] == b64(private.sign(receipt_message("g", 3, bytes(32).hex())))
