"""Event classes are made frozen dataclasses when first used, not as they are declared.

The eventsourcing library's metaclass (``MetaDomainEvent``) makes every event class a frozen dataclass
as the class is declared: the standard library writes and compiles six methods a class, and with the
signature it takes some 35 ms for the events of the log, paid by every process that imports them. A
reader of a stored game (``mtg-ledger state``, the audit) uses none of those methods: it folds the
rows' maps with the appliers (``replays.stores.checked``) and reads each class's name, ``field_names``
and ``class_version`` alone.

``EventType`` declares an event class as it is written: its stored name, its fields and its applier
are registered as before (``base``), and its ``field_names`` are read from its declaration
(``declared_fields``). The dataclass is made later by the library's own two steps, unchanged
(``complete``), the first time anything needs it:

- an event is made (``EventType.__call__``), under a lock: no thread sees a class half made;
- anything the dataclass puts in the class is read from it (``MADE``: ``__init__``, ``__repr__``,
  ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``, ``__match_args__``, the dataclass's fields
  and parameters, ``__signature__``): until then each is a ``_Pending``, which completes its class and
  hands on what was asked for, so ``dataclasses.fields(cls)`` or ``repr`` of an event the library's
  mapper made without ``__init__`` are as they always were.

A completed class holds what the library's metaclass would have put in it, made by the same calls, and
is of that metaclass from then on (an event costs what it did to make); its declared ``field_names``
are checked against its dataclass's fields then (they give a contract map's order, which its chain
hash covers). A ledger that writes completes every class as it opens
(``complete_all``): decisions cost what they did, the first one of a kind included.
"""

from __future__ import annotations

import dataclasses
import inspect
import threading
import typing
from typing import Any, ClassVar

from eventsourcing.domain import MetaDomainEvent

# Kept by the library beside an event's contract fields (they are not in its contract map).
LIBRARY_FIELDS = frozenset({"originator_id", "originator_version", "timestamp", "originator_topic", "hash"})
# What ``dataclasses.dataclass(frozen=True)`` and the library's metaclass put in an event class.
MADE = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__match_args__",
        "__dataclass_fields__", "__dataclass_params__", "__signature__")

_LOCK = threading.RLock()
_PENDING: set[type] = set()  # the classes declared and not yet completed

LibraryEventType = MetaDomainEvent  # the metaclass of the library's events (Aggregate.Event's)


def contract_fields(cls: type) -> tuple[str, ...]:
    """An event class's contract fields, from its dataclass (the class is completed if need be)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.name not in LIBRARY_FIELDS)


def declared_fields(cls: type) -> tuple[str, ...]:
    """The contract fields the dataclass of ``cls`` will have (``complete`` checks it): its bases'
    fields, then its own annotations but class variables, in order, as ``dataclasses`` orders them."""
    names = dict.fromkeys(f.name for base in reversed(cls.__mro__[1:]) if dataclasses.is_dataclass(base) for f in dataclasses.fields(base))
    names.update(dict.fromkeys(name for name, hint in cls.__dict__.get("__annotations__", {}).items() if not _class_variable(hint)))
    return tuple(name for name in names if name not in LIBRARY_FIELDS)


def _class_variable(hint: Any) -> bool:
    if isinstance(hint, str):
        return hint.startswith(("ClassVar", "typing.ClassVar"))
    return hint is ClassVar or typing.get_origin(hint) is ClassVar


class _Pending:
    """Stands in a declared class for one attribute its dataclass will make (``MADE``): read, it
    completes the class, then gives what the class (or the instance) now holds under that name."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        cls = owner if owner is not None else type(instance)
        holder = next(c for c in cls.__mro__ if c.__dict__.get(self.name) is self)
        complete(holder)
        if holder.__dict__.get(self.name) is self:  # read while the class is being declared (its __init_subclass__)
            raise AttributeError(f"{holder.__qualname__}.{self.name}: the class is not made yet")
        return getattr(cls if instance is None else instance, self.name)


class EventType(MetaDomainEvent):
    """The metaclass of ``GameEvent``: its subclasses are declared now and made dataclasses when first
    used (see the module's docstring). ``GameEvent`` itself, and a class that writes one of the
    ``MADE`` attributes or no docstring of its own (the dataclass would write one), are made at once,
    as the library makes them."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        for base in bases:  # a class is declared on completed bases
            complete(base)
        if not any(isinstance(base, EventType) for base in bases) or not namespace.get("__doc__") or any(n in namespace for n in MADE):
            return super().__new__(mcs, name, bases, namespace)  # the library's way: made a dataclass now
        cls = type.__new__(mcs, name, bases, {**namespace, **{n: _Pending(n) for n in MADE}})
        with _LOCK:
            _PENDING.add(cls)
        return cls

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls in _PENDING:
            complete(cls)  # (which makes its metaclass the library's: this is its first event)
        return type.__call__(cls, *args, **kwargs)


def complete(cls: type) -> None:
    """Make ``cls`` the frozen dataclass the library's metaclass makes, if it is not yet: its steps, in its order."""
    if cls not in _PENDING:
        return
    with _LOCK:
        if cls not in _PENDING:
            return
        for name in MADE:
            type.__delattr__(cls, name)
        cls = dataclasses.dataclass(frozen=True)(cls)
        cls.__signature__ = inspect.signature(cls.__init__)  # type: ignore[attr-defined, misc]
        cls.__class__ = MetaDomainEvent  # type: ignore[assignment]  # the library's metaclass from now on: an event is made at its cost, as before
        _PENDING.discard(cls)
        declared, made = cls.__dict__.get("field_names"), contract_fields(cls)
        if declared is not None and declared != made:  # a defect of the declaration: never met with today's classes
            raise TypeError(f"{cls.__name__}: its fields as declared, {declared}, are not its dataclass's, {made}")


def complete_all() -> None:
    """Complete every class declared so far."""
    for cls in sorted(_PENDING, key=lambda c: c.__qualname__):
        complete(cls)


def is_pending(cls: type) -> bool:
    """Whether ``cls`` is declared and not yet completed."""
    return cls in _PENDING


def pending() -> frozenset[type]:
    """The classes declared and not yet completed."""
    return frozenset(_PENDING)
