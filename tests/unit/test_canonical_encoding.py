"""The canonical encoding (``core.hashing.canonical``) of an event map is msgpack of the map without its hash,
keys sorted at every level, as msgpack's own packer writes it: every event's hash rests on those bytes. A map of
scalar values is written by msgspec's encoder, keys sorted; these pin that it writes the very bytes of msgpack's
packer for every key and every value such a map may hold, and that what msgspec refuses is written, or refused,
as msgpack's packer does."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.hashing import canonical, chain

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=300),
    st.binary(max_size=300),
)
KEYS = st.text(max_size=12)


def reference(mapping: dict[str, Any]) -> bytes:
    """The definition: msgpack's packer, the map's pairs in sorted order, without the hash."""
    return bytes(msgpack.packb(dict(sorted((k, v) for k, v in mapping.items() if k != "hash")), use_bin_type=True))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, SCALARS, max_size=12))
def test_a_map_of_scalar_values_is_written_as_msgpacks_packer_writes_it_keys_sorted(mapping: dict[str, Any]) -> None:
    assert canonical(mapping) == reference(mapping)
    assert canonical({**mapping, "hash": "00" * 32}) == reference(mapping)


@pytest.mark.parametrize(
    "value",
    [0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1, -1, -32, -33, -128, -129, -32768, -32769, -(2**31) - 1, -(2**63),
     0.0, -0.0, 1.5, float("inf"), float("-inf"), "", "é" * 20, "x" * 31, "x" * 32, "x" * 255, "x" * 256, "x" * 65536, b"", b"x" * 256, True, False, None],
)
def test_each_size_and_kind_of_a_scalar_value_is_written_in_msgpacks_own_form(value: Any) -> None:
    assert canonical({"type": "E", "v": 1, "n": value}) == reference({"type": "E", "v": 1, "n": value})


def test_keys_outside_the_basic_plane_sort_as_python_sorts_them() -> None:
    mapping = {"\U0001f600": 1, "\uff21": 2, "é": 3, "z": 4, "Z": 5, "": 6}
    assert canonical(mapping) == reference(mapping)


def test_a_map_whose_keys_are_not_all_strings_is_written_or_refused_as_msgpacks_packer_does() -> None:
    assert canonical({1: "a", 2: "b"}) == reference({1: "a", 2: "b"})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        canonical({1: "a", "b": 2})  # type: ignore[dict-item]


def test_an_integer_beyond_64_bits_is_refused_and_chain_says_so_as_before() -> None:
    with pytest.raises(OverflowError):
        msgpack.packb(2**64, use_bin_type=True)
    with pytest.raises(OverflowError):
        canonical({"n": 2**64})
    with pytest.raises(OverflowError):
        chain("00" * 32, {"n": 2**64})


def test_a_map_msgpack_cannot_write_leaves_the_next_encoding_of_the_thread_as_it_is() -> None:
    """msgpack's ``pack_map_pairs`` leaves what it wrote before a value it cannot write in its packer's buffer;
    the thread's next encoding (the next event's hash, a turn's state hash) must not begin with it."""
    from mtg_ledger.core.state_hash import map_items

    nested = {"a": 1, "b": [1, {"x": 2}]}
    before, items = canonical(nested), map_items([("a", 1), ("b", "x")])
    with pytest.raises(OverflowError):
        canonical({"a": 1, "n": 2**64})
    assert canonical(nested) == before
    with pytest.raises(OverflowError):
        map_items([("a", 1), ("n", 2**64)])
    assert map_items([("a", 1), ("b", "x")]) == items
    assert canonical({"n": 1}) == reference({"n": 1})
