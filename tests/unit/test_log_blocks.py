"""A damaged log file costs only the events of its own block (replays.logcodec, schema 4): the audit
checks every event before the damaged block, hash chain and replay, and reports one integrity finding
naming the file, the first event that cannot be read and the last of its block; a damaged header is a
bad file whose error names the file. The same in JSON and in French. Files of the older forms keep
reading, and their errors name the file too."""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path
from typing import Any

import msgpack
import pytest
import zstandard

from mtg_ledger.core.versions import SCHEMA_VERSION
from mtg_ledger.replays.logfile import reader as logcodec
from mtg_ledger.replays import logfile
from mtg_ledger.replays.logfile import writer as logwrite
from mtg_ledger.core.errors import Phrase
from mtg_ledger.replays.messages import catalogue, say
from tests.log_tools import Event, demo_game, demo_log, header_of, run

pytestmark = pytest.mark.usefixtures("cli_env")

ROOT = Path(__file__).parents[2]
FIXTURES = Path(__file__).parents[1] / "fixtures"
BLOCK = 100  # events a block in these tests: the demo log (seed 3) makes ten of them


def blocked(events: list[Event], block: int = BLOCK) -> bytes:
    out = io.BytesIO()
    logwrite.write_blocks(out, events, lambda _: header_of(events), block)
    return out.getvalue()


def block_spans(data: bytes) -> list[tuple[int, int]]:
    """Where each frame of a file of today's form starts and ends: the header frame, then each block."""
    spans, start = [], 27
    while start < len(data):
        frame = zstandard.ZstdDecompressor().decompressobj()
        frame.decompress(data[start:])
        end = len(data) - len(frame.unused_data)
        spans.append((start, end))
        start = end
    return spans


def flipped(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def middle(span: tuple[int, int]) -> int:
    return (span[0] + span[1]) // 2


def test_a_log_in_blocks_reads_back_as_written_and_its_index_counts_the_events_of_each_block() -> None:
    log = demo_log()
    data = blocked(log)
    assert logfile.read_bytes(data) == (header_of(log), log)
    header_frame = zstandard.ZstdDecompressor().decompressobj().decompress(data[27:])
    header, index, _table = msgpack.Unpacker(io.BytesIO(header_frame), raw=False)
    spans = block_spans(data)[1:]
    assert [count for count, _ in index] == [BLOCK] * (len(log) // BLOCK) + [len(log) % BLOCK]
    assert [length for _, length in index] == [end - start for start, end in spans]


def test_the_same_events_give_the_same_blocks_byte_for_byte() -> None:
    assert blocked(demo_log()) == blocked(demo_log())
    assert blocked(demo_log()) != blocked(demo_log(), BLOCK + 1)


def test_an_engine_of_an_older_schema_reads_the_lead_as_a_header_naming_today_s_schema() -> None:
    """Engines of schemas 1 to 3 read a file that does not start with zstd's magic bytes as plain
    msgpack, its first item the header: they refuse this one by its schema number."""
    data = blocked(demo_log())
    assert data[:4] != logcodec.MAGIC
    assert next(msgpack.Unpacker(io.BytesIO(data), raw=False)) == {"format": "mtg-ledger", "schema": SCHEMA_VERSION}


def test_a_lead_naming_a_newer_schema_is_refused_by_its_number_before_anything_else_is_read() -> None:
    data = blocked(demo_log())
    newer = msgpack.packb({"format": "mtg-ledger", "schema": SCHEMA_VERSION + 1}) + data[27:]
    with pytest.raises(logfile.UnreadableLog, match=f"schema {SCHEMA_VERSION + 1} is newer than this engine's schema {SCHEMA_VERSION}"):
        logfile.read_bytes(newer)


# --- a damaged block: the events before it are checked, one finding names the rest --------------------------

DAMAGE = {  # where the file is damaged -> (which block, how)
    "a byte of block 1 flipped": (0, "flip"),
    "a byte of a middle block flipped": (4, "flip"),
    "a byte of the last block flipped": (-1, "flip"),
    "the file cut in a middle block": (4, "cut"),
}


def damaged(tmp_path: Path, case: str) -> tuple[Path, int, int]:
    """A log file damaged as ``case`` says; the first and last event of the damaged block."""
    log = demo_log()
    data = blocked(log)
    k, how = DAMAGE[case]
    k = k % (len(block_spans(data)) - 1)
    span = block_spans(data)[1 + k]
    path = tmp_path / "damaged.mtgl"
    path.write_bytes(flipped(data, middle(span)) if how == "flip" else data[: middle(span)])
    return path, k * BLOCK + 1, min((k + 1) * BLOCK, len(log))


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_block_costs_its_own_events_and_the_audit_checks_every_event_before_it(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, first, last = damaged(tmp_path, case)
    code, out, err = run(capsys, "audit", str(path))
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[1] == f"first bad event: {first} (integrity)"
    what = "the file was cut" if "cut" in case else "their block is damaged"
    assert lines[2].startswith(f"  events {first} to {last} of the log file {path} cannot be read: {what}"), out
    if first > 1:
        assert f"  events 1 to {first - 1} verified: the hash chain holds and every decision is legal" in lines
    assert len(lines) == 3 + (first > 1)  # one finding, nothing more


@pytest.mark.parametrize("case", list(DAMAGE))
def test_the_audit_of_a_damaged_block_in_json_is_one_finding_at_the_first_event_that_cannot_be_read(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, first, last = damaged(tmp_path, case)
    code, out, _ = run(capsys, "audit", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and (report["clean"], report["first"], report["events"], report["verified"]) == (False, first, first - 1, first - 1)
    [finding] = report["findings"]
    assert (finding["version"], finding["kind"]) == (first, "integrity")
    assert finding["message"].startswith(f"events {first} to {last} of the log file {path} cannot be read: ")


def test_the_audit_of_a_damaged_block_in_french_says_it_all_in_french(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, first, last = damaged(tmp_path, "a byte of a middle block flipped")
    code, out, _ = run(capsys, "audit", str(path), "--lang", "fr")
    assert code == 1 and "(en anglais)" not in out
    assert f"premier événement fautif : {first} (intégrité)" in out
    assert f"les événements {first} à {last} du fichier journal {path} sont illisibles : leur bloc est endommagé" in out
    assert f"événements 1 à {first - 1} vérifiés : la chaîne de hachage tient et chaque décision est légale" in out
    code, out, _ = run(capsys, "audit", str(path), "--lang", "fr", "--json")
    assert code == 1 and json.loads(out)["findings"][0]["message"].startswith(f"les événements {first} à {last} du fichier journal {path}")


def test_a_damaged_block_is_refused_by_import_and_replay_with_one_line_naming_the_file_and_nothing_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, first, last = damaged(tmp_path, "a byte of a middle block flipped")
    db = str(tmp_path / "s.sqlite")
    for verb in ("import", "replay"):
        code, out, err = run(capsys, verb, str(path), "--db", db)
        assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert err.startswith(f"mtg-ledger: events {first} to {last} of the log file {path} cannot be read: their block is damaged ("), err
    assert not Path(db).exists() or run(capsys, "games", "--db", db)[:2] == (0, "")


def test_a_game_exported_by_the_cli_loses_only_its_damaged_block_of_the_default_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite"
    game = demo_game(capsys, db)
    path = tmp_path / "game.mtgl"
    assert run(capsys, "export", game, "-o", str(path), "--db", str(db))[0] == 0
    data = path.read_bytes()
    spans = block_spans(data)
    count = logfile.read(path)[0]["events"]
    assert len(spans) == 1 + -(-count // logwrite.BLOCK) > 2  # the header frame, then blocks of 512 events
    path.write_bytes(flipped(data, middle(spans[2])))
    code, out, _ = run(capsys, "audit", str(path), "--json")
    report = json.loads(out)
    last = min(2 * logwrite.BLOCK, count)
    assert (code, report["first"], report["verified"]) == (1, logwrite.BLOCK + 1, logwrite.BLOCK)
    assert report["findings"][0]["message"].startswith(f"events {logwrite.BLOCK + 1} to {last} of the log file {path} cannot be read")


# --- a damaged header: a bad file, named ------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["lead", "header frame"])
def test_a_damaged_header_is_a_bad_file_named_in_one_line_in_json_and_in_french(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = blocked(demo_log())
    path = tmp_path / "damaged.mtgl"
    path.write_bytes(flipped(data, 10 if where == "lead" else middle(block_spans(data)[0])))
    code, out, err = run(capsys, "audit", str(path))
    assert (code, out) == (2, "") and err.startswith(f"mtg-ledger: the log file {path} cannot be read: its header is damaged (")
    assert len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "audit", str(path), "--json")
    report = json.loads(out)
    assert (code, report["clean"], report["first"], report["events"]) == (2, False, 0, 0)
    assert report["findings"][0]["message"].startswith(f"the log file {path} cannot be read: its header is damaged (")
    code, out, err = run(capsys, "audit", str(path), "--lang", "fr")
    assert (code, out) == (2, "") and err.startswith(f"mtg-ledger: le fichier journal {path} est illisible : son en-tête est endommagé (")
    assert "(en anglais)" not in err
    code, out, err = run(capsys, "import", str(path), "--db", str(tmp_path / "s.sqlite"))
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1 and str(path) in err


# --- the older forms ---------------------------------------------------------------------------------------------


def test_a_plain_file_of_schema_2_cut_in_the_middle_is_named_and_audited_as_far_as_it_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "schema2.mtgl"
    data = (FIXTURES / "schema2-store-demo.mtgl").read_bytes()
    path.write_bytes(data[: len(data) // 2])
    _, events, unread = logfile.read_readable(path)
    assert unread is not None and (unread.first, unread.last) == (len(events) + 1, None) and len(events) > 400
    code, out, _ = run(capsys, "audit", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and (report["first"], report["verified"]) == (len(events) + 1, len(events))
    assert report["findings"][0]["message"] == f"the log file {path} cannot be read from event {len(events) + 1} on: " + unread.reason
    code, out, _ = run(capsys, "audit", str(path), "--lang", "fr")
    assert code == 1 and f"le fichier journal {path} est illisible à partir de l'événement {len(events) + 1} : " in out
    assert "(en anglais)" not in out
    code, out, err = run(capsys, "import", str(path), "--db", str(tmp_path / "s.sqlite"))
    assert (code, out) == (2, "") and err.startswith(f"mtg-ledger: the log file {path} cannot be read from event {len(events) + 1} on: ")


def test_a_damaged_file_of_schema_3_is_a_bad_file_named_in_its_error_in_json_and_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One zstd frame: a damaged byte anywhere costs the whole file."""
    path = tmp_path / "schema3.mtgl"
    data = (FIXTURES / "schema3-store-demo.mtgl").read_bytes()
    path.write_bytes(flipped(data, len(data) // 2))
    code, out, err = run(capsys, "audit", str(path))
    assert (code, out) == (2, "") and err.startswith(f"mtg-ledger: the log file {path} cannot be read: its compressed data is damaged (")
    code, out, _ = run(capsys, "audit", str(path), "--json")
    assert code == 2 and json.loads(out)["findings"][0]["message"].startswith(f"the log file {path} cannot be read: ")
    code, out, err = run(capsys, "audit", str(path), "--lang", "fr")
    assert (code, out) == (2, "") and err.startswith(f"mtg-ledger: le fichier journal {path} est illisible : ses données compressées sont endommagées (")
    assert "(en anglais)" not in err


def test_a_file_that_is_no_log_is_named_in_its_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "junk.mtgl"
    path.write_bytes(b"\xc1 not a log")
    code, out, err = run(capsys, "audit", str(path), "--lang", "fr")
    assert (code, out) == (2, "") and err.startswith(f"mtg-ledger: le fichier journal {path} est illisible : ce n'est pas un fichier journal msgpack")


# --- every reason a reader gives has its French ---------------------------------------------------------------


def _reasons() -> list[str]:
    """The message id of each reason the reader raises an ``UnreadableLog`` with (replays/logfile/reader.py)."""
    found = []
    for node in ast.walk(ast.parse((ROOT / "replays" / "logfile" / "reader.py").read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Phrase" and node.args:
            first: Any = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(first.value)
    return found


def test_every_reason_a_log_file_cannot_be_read_for_has_its_french() -> None:
    reasons = _reasons()
    assert len(reasons) > 20
    english, french = catalogue("en"), catalogue("fr")
    assert [r for r in reasons if r not in english or r not in french] == []
    why = Phrase("read.damaged", {"part": Phrase("read.part_block"), "damage": Phrase("read.checksum")})
    said = say("read.events", {"v": 3, "w": 9, "file": "a.mtgl", "reason": why}, "fr")
    assert said == "les événements 3 à 9 du fichier journal a.mtgl sont illisibles : leur bloc est endommagé (sa somme de contrôle ne correspond pas à son contenu)"
