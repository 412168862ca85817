"""The bytes of a PostgreSQL save row (``replays.stores.row_dictionary``): what a row made today holds must
read back the same forever, with the dictionary it was made with."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

import pytest

from mtg_ledger.replays.stores import row_dictionary
from mtg_ledger.replays.stores.row_dictionary import RowFormError, pack, unpack

# A run of two events as the recorder of 2026-12-04 packed it: never rewrite; a change that cannot read it is a
# change of the stored format (a new form byte, this one kept).
GOLDEN_ROW = bytes.fromhex("0128b52ffd20629d0000209221030004c0561d42d6cc836b6225eeac08")


def test_the_dictionary_of_row_form_1_is_the_file_it_always_was() -> None:
    data = resources.files("mtg_ledger.replays.stores").joinpath("dictionaries", "rows-1.zdict").read_bytes()
    assert hashlib.sha256(data).hexdigest() == "0eeff93e11f44fff086ed1f3632b33e67c688e4c9f1d1e6207dbb283f5d8748a"
    assert row_dictionary.DICTIONARIES[1] == ("rows-1.zdict", hashlib.sha256(data).hexdigest())


def test_a_row_reads_back_as_the_pairs_it_was_made_of() -> None:
    value = [["CardDrawn", b"\x03" + bytes(range(32)) + b"\x81\xa6player\xa5alice"], ["PriorityPassed", b"\x03" + bytes(32)]]
    row = pack(value)
    assert row[0] == row_dictionary.ZSTD_DICT_1
    assert unpack(row) == value
    assert len(row) < len(b"".join(state for _, state in value)), "the dictionary makes a run smaller than its states"


def test_a_row_made_once_reads_back_the_same_forever() -> None:
    assert unpack(GOLDEN_ROW) == [["CardDrawn", b"\x03" + bytes(32)], ["PriorityPassed", b"\x03" + bytes(32)]]


def test_rows_packed_and_read_by_many_threads_at_once_come_back_each_as_it_was() -> None:
    """The service saves from a pool of threads: zstd's compressors must not be shared by them."""

    def work(n: int) -> bool:
        values = [[["CardDrawn", bytes([n, i % 256]) * (1 + i % 40)]] * (1 + i % 5) for i in range(300)]
        return all(unpack(pack(value)) == value for value in values)

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(work, range(8)))


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "form None"),
        (b"\x02" + GOLDEN_ROW[1:], "form 2"),
        (GOLDEN_ROW[:-9], "does not decompress"),
        (GOLDEN_ROW[:1] + bytes(len(GOLDEN_ROW) - 1), "does not decompress"),
    ],
    ids=["empty", "an unknown form", "cut short", "zeroed"],
)
def test_bytes_that_are_not_a_row_are_refused_saying_why(data: bytes, says: str) -> None:
    with pytest.raises(RowFormError, match=says):
        unpack(data)
