"""The example scenario files (CONTRACT section 2) that ship with the package.

The README's examples and the test suite play these; ``mtg-ledger example`` lists them and
``mtg-ledger example NAME [-o FILE]`` prints or writes one. A name is the file's stem
(``contract_example`` for ``contract_example.json``).
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

SUFFIX = ".json"


class UnknownExample(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(f"no example scenario {name!r}; `mtg-ledger example` lists them: {', '.join(names())}")


def _files() -> Traversable:
    return resources.files(__name__)


def names() -> list[str]:
    """Every example's name, sorted."""
    return sorted(f.name[: -len(SUFFIX)] for f in _files().iterdir() if f.name.endswith(SUFFIX))


def _file(name: str) -> Traversable:
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    found = _files() / f"{stem}{SUFFIX}"
    if "/" in stem or not found.is_file():
        raise UnknownExample(name)
    return found


def text(name: str) -> str:
    """The scenario file ``name`` (with or without ``.json``), as shipped."""
    return _file(name).read_text(encoding="utf-8")


def path(name: str) -> Path:
    """Where the scenario file ``name`` lies on disk (the package is installed as files, never zipped)."""
    return Path(str(_file(name)))


def directory() -> Path:
    """The folder holding every example scenario file."""
    return Path(str(_files()))
