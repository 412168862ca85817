"""Classes declared now and made frozen dataclasses when first used: the events (``core.events.lazy``)
and the card vocabulary's primitives (``core.effects``, ``core.statics``).

``dataclasses.dataclass`` writes and compiles each method it makes (six for a frozen class) as the
class is declared, some 0.3 ms a class: the 50 kinds of the vocabulary cost every process that
imports them some 15 ms, and one that reads a stored game needs the few its cards are written in;
the events are the same story (``core.events.lazy``). A class declared here holds, until then, a
``_Pending`` under each name the dataclass makes (``MADE``). The first time anything needs one, the
class is completed, under a lock, by the standard library's own call, unchanged:

- anything the dataclass makes is read from the class or from an object of it: its ``__init__`` as an
  object is made, ``dataclasses.fields``, ``repr``, ``==``, ``hash``, an attribute set on a frozen
  object, pattern matching. The ``_Pending`` completes the class and hands on what was asked for.
  (An event's metaclass completes its class before an event is made, ``core.events.lazy``.)

Completed, a class is what ``@dataclass(frozen=True)`` makes of it, attribute for attribute: nothing
of this module stays in it. While one thread completes a class, another that makes an object of it
would find no ``__init__`` and fail (loudly: "takes no arguments"), so every class is completed before
threads share them: a ledger that writes (the service's, the command line's writing verbs) completes
every class, the card vocabulary's included, as it opens (``complete_all``; ``replays.ledger.application``),
and its decisions cost what they did, the first of a kind included. The command line's readers run in
one thread.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from typing_extensions import dataclass_transform

# What ``dataclasses.dataclass(frozen=True)`` puts in a class.
MADE = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__match_args__",
        "__dataclass_fields__", "__dataclass_params__")

T = TypeVar("T", bound=type)

_LOCK = threading.RLock()
_PENDING: dict[type, tuple[tuple[str, ...], Callable[[type], None]]] = {}  # class -> (its stand-ins' names, how it is made)


class _Pending:
    """Stands in a declared class for one attribute its dataclass will make: read, it completes the
    class, then gives what the class (or the object) now holds under that name."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        cls = owner if owner is not None else type(instance)
        holder = next(c for c in cls.__mro__ if c.__dict__.get(self.name) is self)
        complete(holder)
        if holder.__dict__.get(self.name) is self:  # read while the class is being declared
            raise AttributeError(f"{holder.__qualname__}.{self.name}: the class is not made yet")
        return getattr(cls if instance is None else instance, self.name)


def stand_ins(names: tuple[str, ...]) -> dict[str, _Pending]:
    """The stand-ins a class is declared with, by name (a metaclass puts them in the class's namespace)."""
    return {name: _Pending(name) for name in names}


def declare(cls: type, names: tuple[str, ...], make: Callable[[type], None]) -> None:
    """``cls``, holding the stand-ins ``names``, is to be completed by ``make`` (which finds them gone)."""
    with _LOCK:
        _PENDING[cls] = (names, make)


def complete(cls: type) -> None:
    """Make ``cls`` what it was declared to be, if it is not yet."""
    if cls not in _PENDING:
        return
    with _LOCK:
        found = _PENDING.get(cls)
        if found is None:  # another thread made it meanwhile
            return
        names, make = found
        for name in names:
            type.__delattr__(cls, name)
        make(cls)
        del _PENDING[cls]


def complete_all() -> None:
    """Complete every class declared so far (in the order of their names)."""
    for cls in sorted(_PENDING, key=lambda c: f"{c.__module__}.{c.__qualname__}"):
        complete(cls)


def is_pending(cls: type) -> bool:
    """Whether ``cls`` is declared and not yet completed."""
    return cls in _PENDING


def pending() -> frozenset[type]:
    """The classes declared and not yet completed."""
    return frozenset(_PENDING)


@dataclass_transform(frozen_default=True)  # for the type checker: what @dataclass(frozen=True) makes
def frozen_dataclass(cls: T) -> T:
    """``@dataclass(frozen=True)``, made when first used (see the module's docstring)."""
    for base in cls.__mro__[1:]:  # a class is declared on completed bases
        complete(base)
    if any(name in cls.__dict__ for name in MADE):
        dataclasses.dataclass(frozen=True)(cls)  # one that writes its own: made now
        return cls
    for name, stand_in in stand_ins(MADE).items():
        type.__setattr__(cls, name, stand_in)
    declare(cls, MADE, _made_frozen)
    return cls


def _made_frozen(cls: type) -> None:
    dataclasses.dataclass(frozen=True)(cls)
