"""The recorded events of a log as a replay reads them: in their current form, read once and in order,
only the few between the decision being replayed and the furthest the engine has derived held in
memory. A replay of a log of any length (``import`` of a log file) costs no more memory than one of
a short game. A list of events (the service's upload, a stored game's rows, a file read whole), in memory
already, is read at once: a reference to each event in its current form (``RecordedList``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sized
from itertools import islice
from typing import Any, Protocol

from mtg_ledger.core.events import EVENT_TYPES
from mtg_ledger.core.schema import upgrade

Map = dict[str, Any]
READ_AHEAD = 64  # events read past the one asked for, at once (a replay asks for the next ones soon)


def current_kinds(versions: dict[str, int]) -> frozenset[str]:
    """The event types that ``versions`` (a log's class versions) recorded in their current form: an
    event of one of them is its own current form (``core.schema.upgrade`` would give it back as it is)."""
    return frozenset(kind for kind, cls in EVENT_TYPES.items() if versions.get(kind, 1) == cls.class_version)


def current_forms(events: Iterable[Map], versions: dict[str, int] | None) -> Iterator[Map]:
    """Each of ``events`` in its current form (``core.schema.upgrade`` of it, recorded in the class
    ``versions``; None: this engine's, as they are), raising what ``upgrade`` raises. An event of a type
    recorded in its current form (``current_kinds``) is its own, without asking ``upgrade``."""
    if versions is None:
        yield from events
        return
    current = current_kinds(versions)
    for event in events:
        kind = event.get("type")
        yield event if type(kind) is str and kind in current else upgrade(event, versions)


class Rereadable(Sized, Iterable[Map], Protocol):
    """Events that can be counted and read more than once, each time from the first: a list, or a log
    file's ``logfile.LogEvents``."""


class CannotRead(Exception):
    """An event that cannot be brought to its current form (``error``: what ``core.schema.upgrade``
    raised): the replay reports the log as unreadable, whatever it found before."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class Prefix:
    """The first ``count`` events of ``events``, read again from the first each time."""

    def __init__(self, events: Rereadable, count: int) -> None:
        self._events, self._count = events, count

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Map]:
        return islice(iter(self._events), self._count)

    def listed(self) -> list[Map] | None:
        """These events as a list, when they are a list's (in memory already); else None."""
        return self._events[: self._count] if isinstance(self._events, list) else None


class RecordedLog:
    """The recorded events of ``events`` in their current form (recorded in the class ``versions``;
    None: this engine's), by index as a list gives them; an index below the last ``let_go`` is gone."""

    def __init__(self, events: Rereadable, versions: dict[str, int] | None) -> None:
        self._events, self._versions = events, versions
        self._count = len(events)
        self._source = self.again()
        self._held: deque[Map] = deque()
        self._first = 0  # the index of the first held event

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, k: int) -> Map:
        i = k - self._first
        if 0 <= i < len(self._held):  # held already: most asks
            return self._held[i]
        if not self._first <= k < self._count:
            raise IndexError(f"recorded event {k} is not held (held from {self._first} on, of {self._count})")
        # read on to k, and a few more (READ_AHEAD): the replay asks for the events in order
        self._held.extend(islice(self._source, i - len(self._held) + READ_AHEAD))
        return self._held[i]

    def get(self, k: int) -> Map | None:
        """Event ``k``, or None beyond the last."""
        return self[k] if k < self._count else None

    def let_go(self, before: int) -> None:
        """Events before index ``before`` are not asked for again."""
        while self._first < before and self._held:
            self._held.popleft()
            self._first += 1

    def again(self) -> Iterator[Map]:
        """Every event in its current form, from the first, read anew (whatever is held)."""
        try:
            yield from current_forms(islice(iter(self._events), self._count), self._versions)
        except Exception as e:
            raise CannotRead(e) from None

    def drain(self) -> None:
        """Read the events not read yet (an event further on that cannot be read makes the whole log
        unreadable, as if every event had been brought to its current form first)."""
        for _ in self._source:
            pass



class RecordedList(list[Map]):
    """``RecordedLog`` for events that are in memory already (a list): each in its current form, read at
    once (a reference to each; an event recorded in its current form is itself), then looked up as a list
    is. What ``upgrade`` raises is raised here, as ``CannotRead``: the same outcome as ``RecordedLog``'s,
    which makes a log with an event it cannot read unreadable as a whole (``drain``)."""

    def __init__(self, events: list[Map], versions: dict[str, int] | None) -> None:
        self._events, self._versions = events, versions
        super().__init__(self.again())

    def get(self, k: int) -> Map | None:
        """Event ``k``, or None beyond the last."""
        return self[k] if k < len(self) else None

    def let_go(self, before: int) -> None:
        """Nothing to let go: the events were in memory before the replay."""

    def again(self) -> Iterator[Map]:
        """Every event in its current form, from the first, read anew."""
        try:
            yield from current_forms(self._events, self._versions)
        except Exception as e:
            raise CannotRead(e) from None

    def drain(self) -> None:
        """Every event was read at once."""


def recorded_log(events: Rereadable, versions: dict[str, int] | None) -> RecordedLog | RecordedList:
    """The recorded events of ``events`` as a replay reads them: a list's (or a list's first ones) at once,
    any other's (a log file's ``LogEvents``) a few at a time."""
    listed = events.listed() if isinstance(events, Prefix) else events if isinstance(events, list) else None
    return RecordedLog(events, versions) if listed is None else RecordedList(listed, versions)
