"""Event classes are made frozen dataclasses when first used, not as they are declared (``core.when_used``).

The eventsourcing library's metaclass (``MetaDomainEvent``) makes every event class a frozen dataclass
as the class is declared: the standard library writes and compiles six methods a class, and with the
signature it takes some 35 ms for the events of the log, paid by every process that imports them. A
reader of a stored game (``mtg-ledger state``, the audit) uses none of those methods: it folds the
rows' maps with the appliers (``replays.stores.checked``) and reads each class's name, ``field_names``
and ``class_version`` alone.

``EventType``, ``GameEvent``'s metaclass, declares an event class as it is written: its stored name,
its fields and its applier are registered as before (``base``), and its ``field_names`` are read from
its declaration (``declared_fields``). The dataclass is made later by the library's own two steps,
unchanged (``_made``), the first time anything needs it (``core.when_used``): an event is made
(``EventType.__call__`` completes the class first, under a lock: no thread sees a class half made), or
anything the dataclass puts in the class is read from it (``MADE``, ``__signature__`` too:
``dataclasses.fields(cls)``, or ``repr`` of an event the library's mapper made without ``__init__``).

A completed class holds what the library's metaclass would have put in it, made by the same calls, and
is of that metaclass from then on (an event costs what it did to make); its declared ``field_names``
are checked against its dataclass's fields then (they give a contract map's order, which its chain
hash covers). A ledger that writes completes every class as it opens (``complete_all``): decisions
cost what they did, the first one of a kind included.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from typing import Any, ClassVar

from eventsourcing.domain import MetaDomainEvent

from mtg_ledger.core import when_used
from mtg_ledger.core.when_used import complete, complete_all, is_pending, pending

# Kept by the library beside an event's contract fields (they are not in its contract map).
LIBRARY_FIELDS = frozenset({"originator_id", "originator_version", "timestamp", "originator_topic", "hash"})
# What ``dataclasses.dataclass(frozen=True)`` and the library's metaclass put in an event class.
MADE = (*when_used.MADE, "__signature__")

LibraryEventType = MetaDomainEvent  # the metaclass of the library's events (Aggregate.Event's)

__all__ = ["LIBRARY_FIELDS", "MADE", "EventType", "complete", "complete_all", "contract_fields", "declared_fields", "is_pending", "pending"]


def contract_fields(cls: type) -> tuple[str, ...]:
    """An event class's contract fields, from its dataclass (the class is completed if need be)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.name not in LIBRARY_FIELDS)


def declared_fields(cls: type) -> tuple[str, ...]:
    """The contract fields the dataclass of ``cls`` will have (``_made`` checks it): its bases'
    fields, then its own annotations but class variables, in order, as ``dataclasses`` orders them."""
    names = dict.fromkeys(f.name for base in reversed(cls.__mro__[1:]) if dataclasses.is_dataclass(base) for f in dataclasses.fields(base))
    names.update(dict.fromkeys(name for name, hint in cls.__dict__.get("__annotations__", {}).items() if not _class_variable(hint)))
    return tuple(name for name in names if name not in LIBRARY_FIELDS)


def _class_variable(hint: Any) -> bool:
    if isinstance(hint, str):
        return hint.startswith(("ClassVar", "typing.ClassVar"))
    return hint is ClassVar or typing.get_origin(hint) is ClassVar


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
        cls = type.__new__(mcs, name, bases, {**namespace, **when_used.stand_ins(MADE)})
        when_used.declare(cls, MADE, _made)
        return cls

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if is_pending(cls):
            complete(cls)  # (which makes its metaclass the library's: this is its first event)
        return type.__call__(cls, *args, **kwargs)


def _made(cls: type) -> None:
    """What ``MetaDomainEvent.__new__`` does to a class, its stand-ins taken away (``when_used.complete``)."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    cls.__signature__ = inspect.signature(cls.__init__)  # type: ignore[attr-defined, misc]
    cls.__class__ = MetaDomainEvent  # type: ignore[assignment]  # the library's metaclass from now on: an event is made at its cost
    declared, made = cls.__dict__.get("field_names"), contract_fields(cls)
    if declared is not None and declared != made:  # a defect of the declaration: never met with today's classes
        raise TypeError(f"{cls.__name__}: its fields as declared, {declared}, are not its dataclass's, {made}")
