"""The card pool, read from its files (docs/cards.md): one TOML file a card in ``pool/``, checked against
the vocabulary (``core.vocabulary``) and handed to the engine as plain data, never compiled from code.

A file the vocabulary cannot read is one ``CardFileError`` naming the file, the line and the field
(tomllib gives no line numbers for a value: the line is found in the text by the field's path, its
table header and its key). ``live_pool()`` reads the pool once; a game pins the definitions it uses in
its ``GameStarted`` (``pin``), so a later correction of a file never changes a recorded game.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from mtg_ledger.core.catalog import Catalog
from mtg_ledger.core.errors import Phrase
from mtg_ledger.core.card_values import CardDataError, Path, dotted
from mtg_ledger.core.vocabulary import compile_card
from mtg_ledger.replays.cards.writer import file_name

PACKAGE = "mtg_ledger.replays.cards"
NEAREST = 3  # names suggested for an unknown one


class CardFileError(ValueError):
    """A card file the engine cannot read: ``file``, ``line`` (from 1), ``field`` (its dotted path,
    empty for the whole file) and ``why``, a message (section ``card`` of the catalogues)."""

    def __init__(self, file: str, line: int, field: str, why: Phrase) -> None:
        self.file, self.line, self.field, self.why = file, line, field, why
        super().__init__(f"{file}:{line}: {field}: {why.id} {dict(why.params)}")

    @property
    def phrase(self) -> Phrase:
        """The whole sentence, to be said in a language (``replays.messages.say``)."""
        return Phrase("card.file_error", {"file": self.file, "line": self.line, "field": self.field or "-", "why": self.why})


def read_card(file: str, text: str) -> dict[str, Any]:
    """A card file's definition, checked: the TOML parses and the vocabulary compiles it."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        found = re.search(r"line (\d+)", str(e))
        raise CardFileError(file, int(found.group(1)) if found else 1, "", Phrase("card.not_toml", {"why": str(e)})) from None
    try:
        compile_card(data)
    except CardDataError as e:
        raise CardFileError(file, line_of(text, e.path), dotted(e.path), Phrase(e.code, e.params)) from None
    return data


_HEADER = re.compile(r"^\s*\[")


def line_of(text: str, path: Path) -> int:
    """The line (from 1) of a card file that holds the field at ``path``: its key, or the header of
    the table it is in (or would be in) when the key is not written."""
    lines = text.splitlines()
    start, end, prefix = 0, _section_end(lines, 0), ""
    i = 0
    while i < len(path):
        key = path[i]
        if isinstance(key, int):
            i += 1
            continue
        name = f"{prefix}.{key}" if prefix else key
        arrays = [n for n, line in enumerate(lines) if line.strip() == f"[[{name}]]"]
        if arrays and i + 1 < len(path) and isinstance(path[i + 1], int) and int(path[i + 1]) < len(arrays):
            start = arrays[int(path[i + 1])]
            end, prefix, i = _section_end(lines, start + 1), name, i + 2
            continue
        tables = [n for n, line in enumerate(lines) if line.strip() == f"[{name}]"]
        if tables:
            start = tables[0]
            end, prefix, i = _section_end(lines, start + 1), name, i + 1
            continue
        at = _key_line(lines, key, start, end)
        if at is None:
            return start + 1
        for deeper in path[i + 1 :]:  # a field of an inline table: its key, from there on
            if isinstance(deeper, str):
                found = _key_line(lines, deeper, at, end, anywhere=True)
                at = found if found is not None else at
        return at + 1
    return start + 1


def _section_end(lines: list[str], start: int) -> int:
    return next((n for n in range(start, len(lines)) if _HEADER.match(lines[n])), len(lines))


def _key_line(lines: list[str], key: str, start: int, end: int, anywhere: bool = False) -> int | None:
    pattern = re.compile((r"(^|[{,\s])" if anywhere else r"^\s*") + re.escape(key) + r"\s*=")
    return next((n for n in range(start, end) if pattern.search(lines[n])), None)


@dataclass(frozen=True)
class Pool:
    """The cards players may choose from: definitions by name, the file of each, and their catalog."""

    definitions: dict[str, dict[str, Any]]
    files: dict[str, str]

    @cached_property
    def catalog(self) -> Catalog:
        """Looked up once a pool (a pool is not changed once read): ``Catalog.of`` keys its memo by the
        definitions' JSON, which for the whole pool costs more than starting the game that asks."""
        return Catalog.of(self.definitions)

    def names(self) -> list[str]:
        """The cards (not the tokens), by name in alphabetical order."""
        return sorted(n for n, d in self.definitions.items() if not d.get("token"))

    def search(self, query: str | None) -> list[str]:
        """The card named ``query`` first (case aside), then the cards whose name contains it; every card without one."""
        names = self.names()
        if not query:
            return names
        q = query.casefold()
        exact = [n for n in names if n.casefold() == q]
        return exact + [n for n in names if q in n.casefold() and n not in exact]

    def nearest(self, name: str) -> list[str]:
        """The names of the pool nearest ``name``, closest first."""
        names = self.names()
        by_case = {n.casefold(): n for n in names}
        close = difflib.get_close_matches(name.casefold(), list(by_case), n=NEAREST, cutoff=0.5)
        inside = [n for n in names if name.casefold() in n.casefold() or n.casefold() in name.casefold()]
        return list(dict.fromkeys([*(by_case[c] for c in close), *inside]))[:NEAREST]

    def unknown(self, names: Iterable[str]) -> dict[str, list[str]]:
        """Each name the pool lacks (once, in order) with the nearest names it holds."""
        known = set(self.definitions)
        return {n: self.nearest(n) for n in dict.fromkeys(names) if n not in known}


def read_pool(files: Mapping[str, str]) -> Pool:
    """A pool from card files (file name -> text): each file checked, each name once."""
    definitions: dict[str, dict[str, Any]] = {}
    where: dict[str, str] = {}
    for file in sorted(files):
        data = read_card(file, files[file])
        name = data["name"]
        if name in where:
            raise CardFileError(file, line_of(files[file], ("name",)), "name", Phrase("card.duplicate_name", {"name": name, "other": where[name]}))
        definitions[name], where[name] = data, file
    return Pool(definitions, where)


@cache
def live_pool() -> Pool:
    """The card pool as its files (package data, ``pool/*.toml``) say today; read once."""
    folder = resources.files(PACKAGE).joinpath("pool")
    files = {f"pool/{entry.name}": entry.read_text(encoding="utf-8") for entry in folder.iterdir() if entry.name.endswith(".toml")}
    return read_pool(files)


_FILES_POOL = live_pool


def pin(setup: dict[str, Any], pool: Pool | None = None) -> dict[str, Any]:
    """The setup with the pool's definitions (``cards``) a new game records in its GameStarted; a
    setup that already names definitions (a recorded game's) keeps them."""
    if "cards" in setup:
        return setup
    return {**setup, "cards": (pool or live_pool()).definitions}


def definitions_today(names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The pool's definitions today of the cards ``names``, each read (and checked) from the file its name
    gives it (``writer.file_name``), not the whole pool: an audit compares a game's few cards. The whole
    pool (read once, ``live_pool``) when it is read already, or when a name's file is not there or holds
    another card (then the pool says whether it holds the card at all), or when another pool stands in
    for the files' (a test's)."""
    if live_pool is not _FILES_POOL or _FILES_POOL.cache_info().currsize:
        return live_pool().definitions
    folder = resources.files(PACKAGE).joinpath("pool")
    found: dict[str, dict[str, Any]] = {}
    for name in names:
        file = file_name(name) if isinstance(name, str) else ""
        try:
            text = folder.joinpath(file).read_text(encoding="utf-8") if file else None
        except OSError:
            text = None
        data = None if text is None else read_card(f"pool/{file}", text)
        if data is None or data.get("name") != name:
            return live_pool().definitions
        found[name] = data
    return found


_PRINTED = ("power", "toughness", "loyalty", "defense", "enchant", "ward")


def card_json(definition: Mapping[str, Any]) -> dict[str, Any]:
    """A card as ``mtg-ledger cards --json`` and ``GET /cards`` show it (docs/cards.md): its printed
    facts (``mana_cost`` null when it has none, as a land), then its parsed abilities."""
    out: dict[str, Any] = {
        "name": definition["name"],
        "mana_cost": definition.get("mana_cost"),
        "colors": list(definition.get("colors", [])),
        "color_identity": list(definition.get("color_identity", [])),
        "supertypes": list(definition.get("supertypes", [])),
        "types": list(definition["types"]),
        "subtypes": list(definition.get("subtypes", [])),
        "oracle": definition["oracle"],
        "keywords": list(definition.get("keywords", [])),
    }
    out.update({k: definition[k] for k in _PRINTED if k in definition})
    if definition.get("token"):
        out["token"] = True
    if "spell" in definition:
        out["spell"] = definition["spell"]
    out["abilities"] = list(definition.get("abilities", []))
    if "back" in definition:
        out["back"] = card_json(definition["back"])
    return out


def changed_since(recorded: Mapping[str, Any], pool: Pool | None = None) -> list[Phrase]:
    """What the pool says differently today of the cards a game recorded (``GameStarted.cards``): one
    notice a card, naming the fields that differ. The game stands as recorded; a judge may want to know."""
    today = pool.definitions if pool is not None else definitions_today(recorded)
    out: list[Phrase] = []
    for name, definition in recorded.items():
        now = today.get(name)
        if now is None:
            out.append(Phrase("card.not_in_pool", {"name": name}))
        elif now != definition:
            fields = sorted(k for k in {*now, *definition} if now.get(k) != definition.get(k))
            out.append(Phrase("card.differs", {"name": name, "fields": ", ".join(fields)}))
    return out


__all__ = ["CardFileError", "card_json", "changed_since", "definitions_today", "Pool", "line_of", "live_pool", "pin", "read_card", "read_pool"]
