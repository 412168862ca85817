"""Stored names: the topic the store keeps beside every event, snapshot and aggregate.

The ``eventsourcing`` library stores a topic with each event and snapshot, and names the aggregate's
class inside ``GameStarted`` and every snapshot. By default a topic is a Python module path
(``core.events:GameStarted``), so moving a module would break every store written before. Ours are
the log schema's own names (``GameStarted``, ``Game``, ``GameSnapshot``): the ``TOPIC`` a class
declares here is what the library writes, and only the names registered here are ever read back.

The names the first stores were written with (module paths of the code as it was laid out then, and
the library's generic ``eventsourcing.domain:Snapshot``) stay readable as aliases, so those stores keep
loading: the ledger's mapper reads an alias as today's name. Add an alias, never rename a name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from eventsourcing.utils import register_topic

T = TypeVar("T", bound=type)

STORED: dict[str, type] = {}  # every topic this code reads, the aliases included
NAMES: dict[type, str] = {}  # the one topic each class is written with


class UnknownTopic(LookupError):
    """A stored row names a topic this schema does not have (a damaged or foreign store)."""

    def __init__(self, topic: str) -> None:
        super().__init__(f"unknown stored type {topic!r}")
        self.topic = topic


def canonical(topic: str) -> str:
    """The name the class stored under ``topic`` is written with today."""
    return NAMES[resolve(topic)]


def stored_as(topic: str, *aliases: str) -> Callable[[T], T]:
    """Declare ``topic`` as the stored name of a class, readable under ``aliases`` too."""

    def declare(cls: T) -> T:
        if topic in STORED and STORED[topic] is not cls:
            raise ValueError(f"stored name {topic!r} is already taken by {STORED[topic].__qualname__}")
        cls.TOPIC = topic  # type: ignore[attr-defined]  # read by eventsourcing.utils.construct_topic
        NAMES[cls] = topic
        register_topic(topic, cls)  # the library resolves today's names without importing anything
        for name in (topic, *aliases):  # aliases are ours alone: our mapper reads them as today's name
            STORED[name] = cls
        return cls

    return declare


def resolve(topic: str) -> type:
    """The class stored under ``topic``; never imports anything a stored row names."""
    try:
        return STORED[topic]
    except KeyError:
        raise UnknownTopic(topic) from None
