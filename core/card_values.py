"""The values of a card's definition checked against what a field holds (``core.vocabulary``): an integer,
a string, one of a few values, an array, a mana cost. A value that is not what its field holds raises
``CardDataError``, naming the path of the field at fault. Pure: nothing is read from disk here.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.mana import COLORS as MANA_COLORS

Path = tuple[str | int, ...]


class CardDataError(ValueError):
    """A definition the vocabulary cannot read: ``path`` is the field at fault (keys and list indexes
    from the definition's top), ``code`` the message id (section ``card`` of the catalogues), ``params``
    its holes."""

    def __init__(self, path: Path, code: str, /, **params: Any) -> None:
        self.path, self.code, self.params = path, code, params
        super().__init__(f"{dotted(path)}: {code} {params}")


def dotted(path: Path) -> str:
    """``("abilities", 0, "effects", 1, "amount")`` -> ``abilities[0].effects[1].amount``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


TYPE_WORDS = {int: "integer", str: "string", bool: "boolean"}


def typed(kind: type, value: Any, path: Path) -> Any:
    """The value, if it is of ``kind``."""
    if type(value) is not kind:
        raise CardDataError(path, "card.wrong_type", wanted=TYPE_WORDS[kind], got=type(value).__name__)
    return value


def one_of(value: str, allowed: tuple[str, ...], path: Path) -> str:
    """The value, if it is one of ``allowed``."""
    if value not in allowed:
        raise CardDataError(path, "card.not_one_of", value=value, allowed=", ".join(allowed))
    return value


def as_list(value: Any, path: Path) -> list[Any]:
    """The value, if it is an array."""
    if not isinstance(value, list):
        raise CardDataError(path, "card.wrong_type", wanted="array", got=type(value).__name__)
    return value


def strings(value: Any, path: Path) -> tuple[str, ...]:
    """The value, if it is an array of strings, as a tuple."""
    return tuple(typed(str, item, (*path, i)) for i, item in enumerate(as_list(value, path)))


def check_mana(text: str, path: Path) -> None:
    """202.1: a mana cost is a run of mana symbols, ``{2}{W}{W}``."""
    rest = text
    while rest:
        end = rest.find("}")
        symbol = rest[1:end] if rest.startswith("{") and end > 1 else None
        if symbol is None or not (symbol.isdigit() or symbol in MANA_COLORS):
            raise CardDataError(path, "card.bad_mana_cost", cost=text)
        rest = rest[end + 1 :]
