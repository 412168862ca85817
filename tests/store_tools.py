"""A person with the SQLite file: edit, delete, duplicate and swap the rows of a stored game, change
their topics, write garbage into them, and edit its snapshots. Every change is plain msgpack a tool
could write; nothing here uses the ledger's own code, as a forger would not need to.

Rows are found through the compact SQLite layout (``replays.stores.sqlite``): a game's id is in
``games`` (16 bytes), an event's name in ``topics``; ``events`` and ``snapshots`` refer to both by id."""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack

Fields = dict[str, Any]
EVENTS, SNAPSHOTS = "events", "snapshots"
GAME_STATE_EXT = 4  # replays.transcoder.EXT_CODES["game_state"]


def _key(game: str) -> bytes:
    return UUID(game).bytes


WHERE = "key = (SELECT id FROM games WHERE uuid = ?) * 4294967296 + ?"  # one row of a game: its key is games.id * 2^32 + version


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=msgpack.ExtType, raw=False, strict_map_key=False)


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def row(db: Path, game: str, version: int, table: str = EVENTS) -> tuple[str, bytes]:
    with sqlite3.connect(db) as con:
        found = con.execute(f"SELECT t.name, e.state FROM {table} AS e JOIN topics AS t ON t.id = e.topic WHERE e.{WHERE}", (_key(game), version)).fetchone()
    assert found is not None, f"no row {version} in {table}"
    return found[0], found[1]


def set_row(db: Path, game: str, version: int, *, state: bytes | None = None, topic: str | None = None, table: str = EVENTS) -> None:
    with sqlite3.connect(db) as con:
        if state is not None:
            con.execute(f"UPDATE {table} SET state=? WHERE {WHERE}", (state, _key(game), version))
        if topic is not None:
            con.execute("INSERT OR IGNORE INTO topics (name) VALUES (?)", (topic,))
            con.execute(f"UPDATE {table} SET topic=(SELECT id FROM topics WHERE name=?) WHERE {WHERE}", (topic, _key(game), version))


EVENT_ROW = b"\x03"  # schema 3: an event row is 0x03, its 32-byte chain hash, then msgpack of its fields


def fields(db: Path, game: str, version: int) -> Fields:
    """An event row's stored map with its hash in hex (msgpack ext values kept as they are), whichever
    form the row is in: schema 3's (0x03, the hash, the fields) or an older one (one msgpack map)."""
    state = row(db, game, version)[1]
    if state[:1] != EVENT_ROW:
        return dict(_unpack(state))
    return {**_unpack(state[33:]), "hash": state[1:33].hex()}


def edit_event(db: Path, game: str, version: int, **changes: Any) -> None:
    """Change fields of an event row, keeping its form (a forger needs nothing but msgpack)."""
    old = row(db, game, version)[1]
    stored = fields(db, game, version)
    stored.update(changes)
    if old[:1] != EVENT_ROW:
        set_row(db, game, version, state=pack(stored))
        return
    digest = bytes.fromhex(stored.pop("hash"))
    set_row(db, game, version, state=EVENT_ROW + digest + pack(dict(sorted(stored.items()))))


def delete_event(db: Path, game: str, version: int) -> None:
    with sqlite3.connect(db) as con:
        con.execute(f"DELETE FROM {EVENTS} WHERE {WHERE}", (_key(game), version))


def delete_from(db: Path, game: str, version: int) -> None:
    """Truncate the tail: every event from ``version`` on."""
    with sqlite3.connect(db) as con:
        con.execute(f"DELETE FROM {EVENTS} WHERE key >= (SELECT id FROM games WHERE uuid = ?) * 4294967296 + ? AND key < ((SELECT id FROM games WHERE uuid = ?) + 1) * 4294967296",
                    (_key(game), version, _key(game)))


def copy_row(db: Path, game: str, source: int, target: int) -> None:
    """Row ``target`` becomes a copy of row ``source`` (topic and content)."""
    topic, state = row(db, game, source)
    set_row(db, game, target, state=state, topic=topic)


def swap_rows(db: Path, game: str, a: int, b: int) -> None:
    (ta, sa), (tb, sb) = row(db, game, a), row(db, game, b)
    set_row(db, game, a, state=sb, topic=tb)
    set_row(db, game, b, state=sa, topic=ta)


def versions(db: Path, game: str, table: str = EVENTS) -> list[int]:
    with sqlite3.connect(db) as con:
        return [k % 4294967296 for (k,) in con.execute(f"SELECT key FROM {table} WHERE key / 4294967296 = (SELECT id FROM games WHERE uuid = ?) ORDER BY 1", (_key(game),))]


def snapshot_versions(db: Path, game: str) -> list[int]:
    return versions(db, game, SNAPSHOTS)


def edit_snapshot(db: Path, game: str, version: int, change: Callable[[Fields], None], *, rehash: bool = False, drop_hash: bool = False) -> None:
    """Change the game state inside a stored snapshot (``change`` edits its plain map). ``rehash``:
    recompute the state hash stored beside it, as a forger who read the code would; ``drop_hash``:
    store it without one, as the snapshots written before the hashes were. A delta is rewritten as
    one that replaces the whole state (its keyframe stays as it is)."""
    snapshot = _unpack(row(db, game, version, SNAPSHOTS)[1])
    fields = snapshot["state"]
    state = snapshot_state(db, game, version)
    change(state)
    if "keyframe" in fields:
        fields["keyframe"] = zlib.compress(pack(state))
    elif "delta" in fields:
        fields["delta"] = zlib.compress(pack([0, state]))
    else:  # the whole state in the game_state ext, as schemas 1 and 2 stored it
        fields["state"] = msgpack.ExtType(GAME_STATE_EXT, pack(state))
    if rehash:
        fields["state_hash"] = state_hash(state)
    if drop_hash:
        fields.pop("state_hash", None)
    set_row(db, game, version, state=pack(snapshot), table=SNAPSHOTS)


def snapshot_form(db: Path, game: str, version: int) -> str:
    """``keyframe``, ``delta`` or ``whole`` (the form of schemas 1 and 2)."""
    fields = _unpack(row(db, game, version, SNAPSHOTS)[1])["state"]
    return "keyframe" if "keyframe" in fields else "delta" if "delta" in fields else "whole"


def snapshot_state(db: Path, game: str, version: int) -> Fields:
    """The plain game state a stored snapshot holds, read as the README's description of the forms says."""
    fields = _unpack(row(db, game, version, SNAPSHOTS)[1])["state"]
    if "keyframe" in fields:
        return dict(_unpack(zlib.decompress(fields["keyframe"])))
    if "delta" in fields:
        keyframe = _unpack(row(db, game, fields["base"], SNAPSHOTS)[1])["state"]
        return dict(_patched(_unpack(zlib.decompress(keyframe["keyframe"])), _unpack(zlib.decompress(fields["delta"]))))
    return dict(_unpack(fields["state"].data))


def _patched(old: Any, node: list[Any]) -> Any:
    if node[0] == 0:
        return node[1]
    if node[0] == 1:
        new = {k: v for k, v in old.items() if k not in node[2]}
        new.update({k: _patched(old.get(k), n) for k, n in node[1].items()})
        return new
    out: list[Any] = []
    for segment in node[1]:
        out.extend(old[segment[1] : segment[2]] if segment[0] == 0 else [_patched(old[segment[1]], segment[2])] if segment[0] == 1 else segment[1])
    return out


def state_hash(state: Fields) -> str:
    """GameState.state_hash, computed the way its docstring says (msgpack, keys sorted at every level;
    the game's card definitions, ``cards``, left out: GameStarted's hash vouches for them)."""
    state = {k: v for k, v in state.items() if k != "cards"}

    def sort(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: sort(value[k]) for k in sorted(value)}
        if isinstance(value, list):
            return [sort(v) for v in value]
        return value

    return hashlib.sha256(pack(sort(state))).hexdigest()


def dump(db: Path) -> list[tuple[Any, ...]]:
    """Every row of every table, to compare a store before and after a verb."""
    with sqlite3.connect(db) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return [(t, *r) for t in tables for r in con.execute(f"SELECT * FROM {t} ORDER BY 1, 2")]
