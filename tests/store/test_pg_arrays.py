"""The streams recorder's insert arrays, built by ``replays.stores.pg_arrays``: PostgreSQL reads from them
exactly the values psycopg's own list dumpers send, in either client encoding, empty or not."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest

from mtg_ledger.replays.stores.pg_arrays import Byteas, Int2s, Int4s, Int8s, Texts, TextUuids, Uuids
from tests.conftest import POSTGRES

pytestmark = pytest.mark.postgres

IDS = [uuid4(), UUID(int=0), UUID(int=(1 << 128) - 1)]
VERSIONS = [1, 2**40, -(2**63), 2**63 - 1]
STATES = [b"\x80", b"", bytes(range(256)) * 40]
BOTH = "SELECT %b::uuid[], %b::bigint[], %b::text[], %b::bytea[], %b::text[]"


def _connect() -> psycopg.Connection[Any]:
    return psycopg.connect(
        dbname=POSTGRES["POSTGRES_DBNAME"], host=POSTGRES["POSTGRES_HOST"], port=int(POSTGRES["POSTGRES_PORT"]),
        user=POSTGRES["POSTGRES_USER"], password=POSTGRES["POSTGRES_PASSWORD"], connect_timeout=5, autocommit=True,
    )  # fmt: skip


@pytest.mark.parametrize(("encoding", "topics"), [("UTF8", ["PriorityPassed", "é✓ topic", ""]), ("LATIN9", ["StepBegan", "é topic", ""])])
def test_the_insert_arrays_reach_the_server_as_psycopgs_own_lists_do(encoding: str, topics: list[str]) -> None:
    with _connect() as conn:
        conn.execute(f"SET client_encoding = '{encoding}'")
        theirs = conn.execute(BOTH, (IDS, VERSIONS, topics, STATES, [str(i) for i in IDS])).fetchone()
        ours = conn.execute(BOTH, (Uuids(IDS), Int8s(VERSIONS), Texts(topics), Byteas(STATES), TextUuids(IDS))).fetchone()
    assert ours == theirs
    assert ours is not None and ours[0] == IDS and ours[1] == VERSIONS and ours[2] == topics and ours[3] == STATES


def test_the_save_rows_integer_arrays_reach_the_server_as_psycopgs_own_lists_do() -> None:
    first_versions, sizes = [0, 1, 2**31 - 1, -(2**31)], [1, 128, 2**15 - 1, -(2**15)]
    with _connect() as conn:
        theirs = conn.execute("SELECT %s::int4[], %s::int2[], %b::int4[], %b::int2[]", (first_versions, sizes, Int4s(), Int2s())).fetchone()
        ours = conn.execute("SELECT %b::int4[], %b::int2[], %b::int4[], %b::int2[]", (Int4s(first_versions), Int2s(sizes), Int4s(), Int2s())).fetchone()
    assert ours == theirs == (first_versions, sizes, [], [])


def test_empty_arrays_and_ids_given_as_text_are_read_as_psycopg_sends_them() -> None:
    with _connect() as conn:
        empty = conn.execute("SELECT %b::uuid[], %b::bigint[], %b::text[], %b::bytea[], %b::text[]", (Uuids(), Int8s(), Texts(), Byteas(), TextUuids())).fetchone()
        as_text = conn.execute("SELECT %b::uuid[]", (Uuids([str(i) for i in IDS]),)).fetchone()
    assert empty == ([], [], [], [], [])
    assert as_text == (IDS,)


@pytest.mark.parametrize("value", [Uuids(["not a uuid"]), Int8s([2**63]), Int4s([2**31]), Int2s([2**15]), Texts([None]), Byteas([None])])
def test_a_value_an_array_cannot_hold_is_refused_as_a_data_error_and_the_connection_still_serves(value: list[Any]) -> None:
    with _connect() as conn:
        with pytest.raises(psycopg.DataError):
            conn.execute("SELECT %b", (value,))
        assert conn.execute("SELECT 1").fetchone() == (1,)
