"""Log files in today's form (replays.logcodec): compressed in blocks, every event with its chain hash
as 32 bytes, written and read a piece at a time; the same events give the same bytes; a file that is
not one (cut, garbage, damaged, too large once decompressed) is one clear error naming the file: exit
2, HTTP 422 (the audit of a file whose header reads checks what reads: tests/unit/test_log_blocks.py).
Files in schema 3's form (one zstd frame) are built here by hand: they must keep reading."""

from __future__ import annotations

import hashlib
import io
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.core.hashing import GENESIS_HASH
from mtg_ledger.replays.logfile import reader as logcodec
from mtg_ledger.replays import logfile
from mtg_ledger.replays.logfile import writer as logwrite
from mtg_ledger.replays.audit import audit
from tests.log_tools import Event, demo_log, header_of, rehash, run
from tests.conftest import examples

GAME = "00000000-0000-0000-0000-00000000c0de"
MAGIC = b"\x28\xb5\x2f\xfd"


def written(events: list[Event], versions: dict[str, int] | None = None) -> bytes:
    out = io.BytesIO()
    logfile.write_to(out, GAME, iter(events), versions)
    return out.getvalue()


def compressed(*items: Any) -> bytes:
    return zstandard.ZstdCompressor().compress(b"".join(msgpack.packb(i, use_bin_type=True) for i in items))


def frames(data: bytes) -> list[bytes]:
    """What each zstd frame of a log file of today's form decompresses to (after its 27-byte lead)."""
    out, rest = [], data[27:]
    while rest:
        frame = zstandard.ZstdDecompressor().decompressobj()
        out.append(frame.decompress(rest))
        rest = frame.unused_data
    return out


def test_a_log_file_says_today_s_schema_in_its_lead_is_zstd_compressed_and_takes_under_40_bytes_an_event() -> None:
    log = demo_log()
    data = written(log)
    header, events = logfile.read_bytes(data)
    assert msgpack.unpackb(data[:27]) == {"format": "mtg-ledger", "schema": SCHEMA_VERSION} and data[27:31] == MAGIC
    assert header["schema"] == SCHEMA_VERSION and header["event_versions"]["GameEnded"] == 2
    assert header == header_of(log) and events == log
    definitions = len(compressed(log[0]["cards"]))  # once a game, in its GameStarted (schema 5)
    assert (len(data) - definitions) / len(log) <= 40


def test_every_event_keeps_its_chain_hash_in_the_file_as_32_bytes() -> None:
    log = demo_log()
    blocks = frames(written(log))[1:]
    items = [item for block in blocks for item in msgpack.Unpacker(io.BytesIO(block), raw=False)]
    assert [item[1] for item in items] == [bytes.fromhex(e["hash"]) for e in log]


def test_the_same_events_give_the_same_bytes_whether_listed_or_streamed(tmp_path: Path) -> None:
    log = demo_log()
    logfile.write(tmp_path / "a.mtgl", GAME, log)
    logfile.write(tmp_path / "b.mtgl", GAME, (e for e in demo_log()))
    assert (tmp_path / "a.mtgl").read_bytes() == (tmp_path / "b.mtgl").read_bytes() == written(log)


def test_a_log_file_is_read_one_event_at_a_time(tmp_path: Path) -> None:
    log = demo_log()
    logfile.write(tmp_path / "a.mtgl", GAME, log)
    with logfile.open_log(tmp_path / "a.mtgl") as opened:
        assert opened.header["events"] == len(log)
        events = iter(opened)
        assert next(events) == log[0] and next(events) == log[1]


def test_writing_reads_its_events_once_from_any_iterator() -> None:
    """A generator of events, consumed once: nothing asks for their count or a second pass."""
    seen = 0

    def events() -> Iterator[Event]:
        nonlocal seen
        for e in demo_log():
            seen += 1
            yield e

    header = logfile.write_to(io.BytesIO(), GAME, events())
    assert seen == header["events"] == len(demo_log())


def test_a_log_recorded_in_older_class_versions_keeps_them_in_event_versions() -> None:
    log = demo_log()
    versions = {"GameEnded": 1}
    header, events = logfile.read_bytes(written(log, versions))
    assert header["schema"] == SCHEMA_VERSION and header["event_versions"]["GameEnded"] == 1
    assert logfile.recorded_versions(header)["GameEnded"] == 1 and events == log


def test_an_old_uncompressed_log_file_still_reads_as_recorded() -> None:
    log = demo_log()
    header = {**header_of(log), "schema": 2}
    plain = msgpack.packb(header, use_bin_type=True) + b"".join(msgpack.packb(e, use_bin_type=True) for e in log)
    assert logfile.read_bytes(plain) == (header, log)


def test_a_damaged_log_written_as_it_is_keeps_its_versions_and_hashes_as_recorded() -> None:
    """A forensic copy: a missing event, a duplicated one, a hash that is no sha256; the audit finds them."""
    log = demo_log()
    damaged = [*log[:10], log[11], log[11], {**log[12], "hash": "not a hash"}, {**log[13], "hash": "AB" * 32}, *log[14:]]
    _, events = logfile.read_bytes(written(damaged))
    assert events == damaged
    assert audit(GAME, events).findings[0].version == 11


def test_an_empty_log_reads_back_empty() -> None:
    header, events = logfile.read_bytes(written([]))
    assert (header["events"], header["hash"], events) == (0, GENESIS_HASH, [])


# --- round trips of any events ----------------------------------------------------------------------------

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False) | st.text(max_size=6) | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=5,
)
_FIELDS = st.dictionaries(st.text(max_size=5).filter(lambda k: k not in ("v", "type", "hash")), _VALUES, max_size=4)
_KINDS = st.sampled_from(["PriorityPassed", "CardDrawn", "StepBegan", "NoSuchEvent"])


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=st.lists(st.tuples(_KINDS, _FIELDS), max_size=12), gap=st.integers(0, 12))
def test_any_events_written_read_back_as_they_were_and_rewrite_to_the_same_bytes(events: list[tuple[str, dict[str, Any]]], gap: int) -> None:
    log = rehash([{"v": 0, "type": kind, **fields} for kind, fields in events])
    if gap < len(log):
        log = [*log[:gap], {**log[gap], "v": log[gap]["v"] + 7}, *log[gap + 1 :]]  # versions as a damaged log records them
    data = written(log)
    header, again = logfile.read_bytes(data)
    assert again == log and header["events"] == len(log)
    assert written(again) == data


# --- files that are not logs: one clear error ---------------------------------------------------------------


def _bad_files() -> dict[str, bytes]:
    log = demo_log()[:50]
    good = written(log)
    header = header_of(log)
    table = [["GameStarted", []]]
    return {
        "cut in its last bytes": good[:-3],
        "cut in the middle": good[: len(good) // 2],
        "cut after the magic bytes": good[:6],
        "garbage": b"\xc1 this is not a log file at all",
        "garbage after the magic bytes": MAGIC + b"\x00" * 40,
        "a map keyed by a map": b"\x81\x80\x00",
        "a byte of it changed": good[:200] + bytes([good[200] ^ 0xFF]) + good[201:],
        "bytes appended": good + b"more",
        "a second frame appended": good + compressed(header),
        "a zstd frame of non-msgpack": zstandard.ZstdCompressor().compress(b"\xc1\xc1\xc1 plain text"),
        "a zstd frame of another format": compressed({"format": "something else"}),
        "no table of shapes": compressed(header),
        "a shape that is not one": compressed(header, [["GameStarted"]]),
        "a hash of 31 bytes": compressed(header, table, [0, b"\x01" * 31]),
        "a hash of 33 bytes": compressed(header, table, [0, b"\x01" * 33]),
        "a hash in hex": compressed(header, table, [0, "ab" * 32]),
        "an event of an unknown shape": compressed(header, table, [3, b"\x01" * 32]),
        "an event with a value too many": compressed(header, table, [0, b"\x01" * 32, 7]),
        "an event that is not an array": compressed(header, table, {"v": 1}),
        "a schema newer than the engine's": compressed({**header, "schema": 99}, table),
    }


BAD = list(_bad_files())


@pytest.mark.parametrize("case", BAD)
def test_a_file_that_is_not_a_readable_log_is_one_clear_error(case: str) -> None:
    with pytest.raises(logfile.UnreadableLog):
        logfile.read_bytes(_bad_files()[case])


def _header_reads(data: bytes) -> bool:
    try:
        logfile.LogReader(io.BytesIO(data))
    except logfile.UnreadableLog:
        return False
    return True


@pytest.mark.parametrize("case", BAD)
def test_the_cli_refuses_a_file_that_is_not_a_readable_log_with_exit_2_and_one_line_naming_it(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``audit`` reports on a file whose header reads (exit 1, a finding naming the file); the other
    verbs, and the audit of a file whose header does not read, refuse it as a bad file."""
    path = tmp_path / "bad.mtgl"
    data = _bad_files()[case]
    path.write_bytes(data)
    for verb in ("import", "audit", "replay"):
        code, out, err = run(capsys, verb, str(path), "--db", str(tmp_path / "s.sqlite"))
        if verb == "audit" and _header_reads(data):
            assert (code, err) == (1, "") and f"the log file {path}" in out, out
            continue
        assert (code, out) == (2, ""), (verb, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and str(path) in err, err
    assert not (tmp_path / "s.sqlite").exists() or run(capsys, "games", "--db", str(tmp_path / "s.sqlite"))[1] == ""


def test_a_log_larger_than_the_limit_once_decompressed_is_refused() -> None:
    data = written(demo_log())
    with pytest.raises(logfile.UnreadableLog, match="more than 10,000 bytes once decompressed"):
        logfile.read_bytes(data, {**logfile.UPLOAD_LIMITS, "max_decompressed": 10_000})


def test_a_decompression_bomb_is_refused_before_it_is_decompressed_whole() -> None:
    """A header, then 66 MiB of one repeated event: a few hundred kilobytes of zstd. The reader stops at the
    limit it is given: the service's (64 MiB) is checked first; reading to a 4 MiB one keeps the test quick."""
    assert logfile.UPLOAD_LIMITS["max_decompressed"] == 64 << 20
    log = demo_log()[:1]
    event = msgpack.packb([0, bytes.fromhex(log[0]["hash"]), *(v for k, v in log[0].items() if k not in ("v", "type", "hash"))])
    head = msgpack.packb(header_of(log)) + msgpack.packb([["GameStarted", [k for k in log[0] if k not in ("v", "type", "hash")]]])
    out = io.BytesIO()
    with zstandard.ZstdCompressor(level=1).stream_writer(out, closefd=False) as writer:
        writer.write(head)
        block = event * ((1 << 20) // len(event))
        for _ in range(66):
            writer.write(block)
    bomb = out.getvalue()
    assert len(bomb) < 1 << 20
    with pytest.raises(logfile.UnreadableLog, match="once decompressed"):
        logfile.read_bytes(bomb, {**logfile.UPLOAD_LIMITS, "max_decompressed": 4 << 20})


def test_the_service_refuses_a_bad_log_file_with_422_and_stores_nothing(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from mtg_ledger.replays.ledger.logs import configure_logging
    from mtg_ledger.replays.service.app import create_app

    configure_logging(io.StringIO(), level="warning")  # the service's log of each refusal: here, not to a stream an earlier test closed
    app = create_app({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "s.sqlite")}, settings={})
    with TestClient(app) as client:
        for case, data in _bad_files().items():
            r = client.post("/logs", content=data, headers={"Content-Type": "application/vnd.mtg-ledger"})
            assert r.status_code == 422 and r.json()["error"], (case, r.text)
        good = client.post("/logs", content=written(demo_log()), headers={"Content-Type": "application/vnd.mtg-ledger"})
        assert good.status_code == 201, good.text


def test_an_export_through_the_cli_reads_back_as_the_game_was_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.log_tools import demo_game

    db = tmp_path / "s.sqlite"
    game = demo_game(capsys, db)
    assert run(capsys, "export", game, "-o", str(tmp_path / "a.mtgl"), "--db", str(db))[0] == 0
    header, events = logfile.read(tmp_path / "a.mtgl")
    assert events == demo_log() and header["game"] == game
    assert ((tmp_path / "a.mtgl").stat().st_size - len(compressed(events[0]["cards"]))) / len(events) <= 40
    assert not (tmp_path / "a.mtgl.part").exists()



def _many(count: int) -> Iterator[Event]:
    for v in range(1, count + 1):
        yield {"v": v, "type": "PriorityPassed", "player": ("alice", "bob")[v % 2], "hash": hashlib.sha256(v.to_bytes(4, "big")).hexdigest()}


def _peak(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_writing_and_reading_a_log_take_the_same_memory_for_eight_times_the_events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spool of event arrays goes to disk beyond its memory, and bytes go through in chunks (here 64
    and 16 KiB; 32 and 1 MiB in use); the reader holds one chunk and one event at a time."""
    monkeypatch.setattr(logwrite, "_SPOOL", 64 << 10)
    monkeypatch.setattr(logwrite, "CHUNK", 16 << 10)
    monkeypatch.setattr(logcodec, "CHUNK", 16 << 10)

    def write(count: int) -> Callable[[], object]:
        return lambda: logfile.write(tmp_path / f"{count}.mtgl", GAME, _many(count))

    def read(count: int) -> Callable[[], object]:
        def each() -> int:
            with logfile.open_log(tmp_path / f"{count}.mtgl") as log:
                return sum(1 for _ in log)

        return each

    small, large = _peak(write(5_000)), _peak(write(40_000))
    assert large < small * 1.5 + (256 << 10), (small, large)
    small, large = _peak(read(5_000)), _peak(read(40_000))
    assert large < small * 1.5 + (256 << 10), (small, large)
