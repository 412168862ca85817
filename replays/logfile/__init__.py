"""The self-describing log file (docs/log-file-format.md): a header, then every event, in the forms of
``replays.logcodec`` (schema 4: compressed blocks of events, each with its own checksum; schema 3: one
compressed frame; schemas 1 and 2: plain msgpack maps). Reading checks the header and the hash chain
before anything is trusted; nothing is imported from a file that fails a check. Every form is read,
and the current one written, a piece at a time; a damaged block costs its own events, and the audit
checks every event before it (``read_readable``).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO
from uuid import UUID

from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.hashing import GENESIS_HASH, chain_digest
from mtg_ledger.core.schema import class_versions
from mtg_ledger.core.versions import RULES_EDITION, SCHEMA_VERSION
from mtg_ledger.replays.version import ENGINE_VERSION
from mtg_ledger.replays.logfile.reader import FORMAT, LogReader, UnreadableEvents, UnreadableLog
from mtg_ledger.replays.logfile.writer import Encoder, write_blocks

Map = dict[str, Any]
__all__ = [
    "FORMAT", "UPLOAD_LIMITS", "Finding", "LogReader", "UnreadableEvents", "UnreadableLog", "header_findings", "header_for",
    "integrity", "LogEvents", "open_log", "read", "read_bytes", "read_readable", "recorded_versions", "write", "write_items", "write_to",
]


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a log, at an event version (0: the file as a whole)."""

    version: int
    kind: str  # integrity | legality | divergence
    message: str
    rule: str | None = None
    recorded: Map | None = None
    derived: Map | None = None
    allowed: tuple[Map, ...] = ()  # what the rules allowed there, each in the scenario's action form
    message_id: str | None = None  # ``message`` is this message of the audit's catalogues, said in English
    params: Map = field(default_factory=dict)

    @classmethod
    def of(cls, version: int, kind: str, message_id: str, params: Map, **rest: Any) -> Finding:
        """A finding saying the catalogue's message ``message_id`` (replays.audit.catalogue) with ``params``."""
        from mtg_ledger.replays.messages import say  # the catalogues (TOML), read when a finding is made

        return cls(version, kind, say(message_id, params), message_id=message_id, params=params, **rest)

    @property
    def where(self) -> Phrase:
        """Where the finding is, as a message: the header, or an event."""
        return Phrase("finding.at_header") if self.version == 0 else Phrase("finding.at_event", {"v": self.version})

    @property
    def said(self) -> Phrase | str:
        """The finding's sentence as a message (one without an id: its English sentence)."""
        return self.message if self.message_id is None else Phrase(self.message_id, self.params)

    @property
    def place(self) -> str:
        from mtg_ledger.replays.messages import say  # the catalogues (TOML), read when a finding is said

        return say(self.where.id, self.where.params)


def _header(game_id: str, count: int, final: Any, first: Map | None, versions: dict[str, int] | None, receipts: Map | None = None) -> Map:
    kept = {"receipts": receipts} if receipts else {}  # schema 5: the public chain's secret, players' keys and signed decisions
    return {
        "format": FORMAT,
        "schema": SCHEMA_VERSION,  # the form of the file; the events' own forms are in event_versions
        "rules": first.get("rules", RULES_EDITION) if first else RULES_EDITION,
        "engine": ENGINE_VERSION,
        "game": game_id,
        "events": count,
        "hash": final if count else GENESIS_HASH,
        "event_versions": {**class_versions(), **(versions or {})},
        **kept,
    }


def header_for(game_id: str, events: Sequence[Map], versions: dict[str, int] | None = None) -> Map:
    """The header of a log of ``events`` recorded in the class ``versions`` (default: this engine's)."""
    return _header(game_id, len(events), events[-1]["hash"] if events else None, events[0] if events else None, versions)


def recorded_versions(header: Map) -> dict[str, int]:
    """The class versions a log file's events were recorded in (a header without them: schema 1)."""
    versions = header.get("event_versions")
    return dict(versions) if isinstance(versions, dict) else {}


def write(path: str | Path, game_id: str, events: Iterable[Map], versions: dict[str, int] | None = None, receipts: Map | None = None) -> Map:
    """Write the log file, the events as recorded in the class ``versions``; returns its header.
    ``events`` are read once, one at a time; ``versions`` is read after the last of them (a source
    that learns the class versions as it reads may fill it meanwhile). Nothing is left at ``path``
    when reading the events fails. ``receipts``: what the header keeps for receipts (docs/receipts.md): the
    game's commitment secret, its players' keys and their signed decisions."""
    with _replacing(path) as out:
        return write_to(out, game_id, events, versions, receipts)


def write_to(out: BinaryIO, game_id: str, events: Iterable[Map], versions: dict[str, int] | None = None, receipts: Map | None = None) -> Map:
    """``write`` to a binary stream."""

    def header(seen: Encoder) -> Map:
        return _header(game_id, seen.count, seen.last_hash, seen.first, versions, receipts)

    return write_blocks(out, events, header)


def write_items(path: str | Path, header: Map, events: Iterable[Map]) -> None:
    """Exactly this header and these events, in the current form (no checks: a forger's tool for tests)."""
    with _replacing(path) as out:
        write_blocks(out, events, lambda _: header)


@contextmanager
def _replacing(path: str | Path) -> Iterator[BinaryIO]:
    """A file written whole or not at all: the new bytes go to a temporary file beside it, renamed over
    it once complete."""
    temporary = Path(f"{path}.part")
    try:
        with open(temporary, "wb") as out:
            yield out
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def open_log(path: str | Path) -> Iterator[LogReader]:
    """A log file opened for reading: ``.header`` (checked: format and schema), then its events one at
    a time by iterating (each an event map; whether they chain is ``integrity``'s to say). Every
    ``UnreadableLog`` it raises names the file."""
    try:
        stream = open(path, "rb")
    except OSError as e:
        raise UnreadableLog(Phrase("read.cannot_open", {"error": e.strerror}), str(path)) from None
    with stream:
        try:
            yield LogReader(stream, name=str(path))
        except OSError as e:
            raise UnreadableLog(Phrase("read.cannot_read", {"error": e.strerror}), str(path)) from None


class LogEvents:
    """A log file's events, read from the file again each time they are iterated, one block at a time:
    a log of any length in constant memory, for a reader that goes through it more than once (``import``
    checks the chain, then replays, then stores). ``header``: read (and checked) on opening; ``len``:
    the events it holds, read once whole, so that a file whose events cannot all be read raises
    ``UnreadableLog`` there, as ``read`` does."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        with open_log(path) as log:
            self.header: Map = log.header
        self._count: int | None = None

    def __iter__(self) -> Iterator[Map]:
        with open_log(self.path) as log:
            yield from log

    def __len__(self) -> int:
        if self._count is None:
            self._count = sum(1 for _ in self)
        return self._count


def read(path: str | Path) -> tuple[Map, list[Map]]:
    """The header and the events of a log file, as recorded (no checks beyond being readable)."""
    with open_log(path) as log:
        return log.header, list(log)


def read_readable(path: str | Path) -> tuple[Map, list[Map], UnreadableEvents | None]:
    """``read``, but a file whose header reads and whose events do not all read gives every event
    before the first that cannot be read, and what cannot be read (an audit checks those events)."""
    events: list[Map] = []
    with open_log(path) as log:
        try:
            events.extend(log)
        except UnreadableEvents as e:
            return log.header, events, e
        return log.header, events, None


# What a log file from someone else may hold, at most: msgpack allocates a container as its header
# announces, so a few bytes announcing millions of items must be refused before they cost any memory;
# and a few kilobytes of zstd may decompress to gigabytes (a decompression bomb): once decompressed, no
# more than the largest plain log the service takes (64 MiB, about 1,400,000 events of schema 3).
UPLOAD_LIMITS: dict[str, Any] = {
    "max_str_len": 1 << 20, "max_bin_len": 1 << 20, "max_array_len": 1 << 17, "max_map_len": 1 << 12, "max_ext_len": 0,
    "max_decompressed": 64 << 20,
}


def read_bytes(data: bytes, limits: dict[str, Any] | None = None) -> tuple[Map, list[Map]]:
    """``read`` of a log file's bytes; ``limits`` bounds what it may unpack (``UPLOAD_LIMITS`` for a
    file from someone else)."""
    log = LogReader(io.BytesIO(data), limits)
    return log.header, list(log)


def header_findings(header: Map) -> list[Finding]:
    """A header that does not describe a log as the format says (version 0: the file as a whole)."""
    wrong: list[Phrase] = []
    game = header.get("game")
    if not _is_game_id(game):
        wrong.append(Phrase("log.header_game", {"value": game}))
    count = header.get("events")
    if type(count) is not int or count < 0:
        wrong.append(Phrase("log.header_count", {"value": count}))
    final = header.get("hash")
    if not isinstance(final, str) or len(final) != 64 or any(c not in "0123456789abcdef" for c in final):
        wrong.append(Phrase("log.header_hash", {"value": final}))
    for key in ("rules", "engine"):
        if not isinstance(header.get(key), str):
            wrong.append(Phrase("log.header_string", {"key": key, "value": header.get(key)}))
    versions = header.get("event_versions", {})
    if not isinstance(versions, dict) or any(type(k) is not str or type(v) is not int for k, v in versions.items()):
        wrong.append(Phrase("log.header_versions"))
    if "receipts" in header and not _receipts_form(header["receipts"]):
        wrong.append(Phrase("log.header_receipts"))
    return [Finding.of(0, "integrity", "log.header_wrong", {"what": w}) for w in wrong]


def _receipts_form(receipts: Any) -> bool:
    """``receipts`` of a header: ``secret`` (32 bytes in hex), ``players`` (name -> ``{public, since, proof}``) and
    ``decisions`` (``[version, player, body, signature]`` each), every one optional; ``later`` (``[first
    version, secret]`` each, in order: an imported game's own secrets after the file's events) with ``secret``."""
    if not isinstance(receipts, dict) or set(receipts) - {"secret", "later", "players", "decisions"}:
        return False
    if "later" in receipts and ("secret" not in receipts or _later(receipts["later"]) is None):
        return False
    if "secret" in receipts and header_secret({"receipts": receipts}) is None:
        return False
    players = receipts.get("players", {})
    if not isinstance(players, dict) or not all(
        isinstance(k, dict) and isinstance(k.get("public"), str) and type(k.get("since")) is int and isinstance(k.get("proof", ""), str)
        and not set(k) - {"public", "since", "proof"}
        for k in players.values()
    ):
        return False
    decisions = receipts.get("decisions", [])
    return isinstance(decisions, list) and all(
        isinstance(d, list) and len(d) == 4 and type(d[0]) is int and all(isinstance(x, str) for x in d[1:]) for d in decisions
    )


def _hex32(text: Any) -> bytes | None:
    if not isinstance(text, str) or len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        return None
    return bytes.fromhex(text)


def _later(later: Any) -> list[tuple[int, bytes]] | None:
    """``receipts.later``: ``[first version, secret]`` each, versions from 2 and rising, or None."""
    if not isinstance(later, list):
        return None
    out: list[tuple[int, bytes]] = []
    for item in later:
        secret = _hex32(item[1]) if isinstance(item, list) and len(item) == 2 else None
        if secret is None or type(item[0]) is not int or item[0] <= (out[-1][0] if out else 1):
            return None
        out.append((item[0], secret))
    return out


def header_secret(header: Map) -> list[tuple[int, bytes]] | None:
    """The game's commitment secrets a header keeps (schema 5, ``receipts.secret``: 32 bytes in hex, and
    ``receipts.later``), as ``(first version, secret)``, or None."""
    receipts = header.get("receipts")
    secret = _hex32(receipts.get("secret")) if isinstance(receipts, dict) else None
    later = _later(receipts.get("later", [])) if isinstance(receipts, dict) else None
    if secret is None or later is None:
        return None
    return [(1, secret), *later]


def _is_game_id(value: Any) -> bool:
    try:
        UUID(value)
    except (TypeError, ValueError, AttributeError):
        return False
    return True


def integrity(events: Iterable[Map], header: Map | None = None, whole: bool = True) -> list[Finding]:
    """Hash chain, gaps, duplicates, reordering, truncation and appended events (findings, in order);
    with a header, the header's own shape first. ``whole``: ``events`` are every event of the file
    (not those before a part that cannot be read), so the header's count and final hash apply.
    ``events`` are read once, one at a time (a file's, as ``LogEvents`` reads them: constant memory);
    a fault stops the reading, except that a gap reads on to tell a missing event from a moved one."""
    findings: list[Finding] = header_findings(header) if header is not None else []
    promised = header.get("events") if header is not None else None
    appended: Map | None = None  # the first event beyond the header's count
    previous = bytes.fromhex(GENESIS_HASH)  # the chain's hashes as bytes (an event's is compared in hex)
    expected_version = 1
    rest = iter(events)
    for event in rest:
        v = event.get("v")
        if v != expected_version:
            if isinstance(v, int) and v < expected_version:
                what = "word.duplicated" if v == expected_version - 1 else "word.out_of_order"
                findings.append(Finding.of(expected_version, "integrity", "log.event_again", {"v": v, "again": Phrase(what)}, recorded=event))
            elif any(e.get("v") == expected_version for e in rest):  # the events after this one
                findings.append(
                    Finding.of(expected_version, "integrity", "log.out_of_order", {"v": expected_version, "w": v}, recorded=event)
                )
            else:
                findings.append(Finding.of(expected_version, "integrity", "log.missing", {"v": expected_version, "w": v}, recorded=event))
            return findings
        try:
            digest = chain_digest(previous, event)
            chains = digest.hex() == event["hash"]
        except Exception:  # a map that cannot be encoded canonically (keys of mixed types, ...) was never hashed so
            chains = False
        if not chains:
            findings.append(Finding.of(v, "integrity", "log.altered", {"v": v}, recorded=event))
            return findings
        if type(promised) is int and expected_version == promised + 1:
            appended = event
        previous = digest
        expected_version += 1
    held = expected_version - 1
    if header is not None and whole:
        count, final = header.get("events"), header.get("hash")
        if type(count) is not int or count < 0:
            pass  # a finding of the header's own
        elif count > held:
            findings.append(Finding.of(held + 1, "integrity", "log.truncated", {"count": count, "n": held}))
        elif count < held:
            findings.append(Finding.of(count + 1, "integrity", "log.appended", {"v": count + 1, "count": count}, recorded=appended))
        elif final != previous.hex():
            findings.append(Finding.of(held, "integrity", "log.last_hash", {}))
    return findings
