"""The public chain's form of an event (docs/receipts.md): what every player may see of it, with each
hidden value replaced by a commitment to it.

The public chain runs beside the log's hash chain: ``p(n) = sha256(p(n-1) + canonical(public form of
event n))``, ``p(0)`` thirty-two zero bytes, ``canonical`` as the log's (``core.hashing``). An event's
public form is its view by nobody in particular (``core.redact``, ``PUBLIC``: rules 400.2, 401.2,
402.3), where every value that view hides (``null`` where the judge sees a value) holds instead the
32 bytes of a commitment to that value. Which values are hidden is therefore decided in one place,
``core.redact``; the commitments themselves (salted, from a secret the store keeps) are made outside
the rules (``replays.receipts``): here they are a function given in, ``commit(path, value)``.

A value's *path* names where it stands in the event's map: keys and list indexes joined by dots
(``players.1.hand``, ``card``, ``order``, ``state_hash``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from mtg_ledger.core.hashing import canonical
from mtg_ledger.core.redact import HIDING, PUBLIC, view_of_event

Map = dict[str, Any]
Commit = Callable[[str, Any], bytes]  # (path, hidden value) -> its commitment
GENESIS = bytes(32)


def hidden_values(event: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Each value of ``event`` that nobody but the judge (or one player) sees, with its path, in map order."""
    return seen_and_hidden(event)[1]


def seen_and_hidden(event: Mapping[str, Any]) -> tuple[Map, list[tuple[str, Any]]]:
    """Nobody's view of ``event``, and each value it hides, with its path."""
    seen = view_of_event(event, PUBLIC)
    found: list[tuple[str, Any]] = []
    if event.get("type") in HIDING:
        _walk(dict(event), seen, "", found)
    return seen, found


def _walk(full: Any, seen: Any, path: str, found: list[tuple[str, Any]]) -> None:
    if full == seen and type(full) is type(seen):
        return
    if isinstance(full, dict) and isinstance(seen, dict) and (not path or full.keys() <= seen.keys()):
        # a map within the event whose view leaves keys out (the definitions of the cards a viewer does not
        # see) is hidden whole: a path per left-out key would name what it hides. The event's own keys the
        # view leaves out (its hash) are not part of its public form.
        for key in seen:
            if key in full:  # a key the view adds (a null) is public as it stands
                _walk(full[key], seen[key], f"{path}.{key}" if path else str(key), found)
        return
    if isinstance(full, list) and isinstance(seen, list) and len(full) == len(seen) and any(s is not None for s in seen):
        for i, (f, s) in enumerate(zip(full, seen, strict=True)):
            _walk(f, s, f"{path}.{i}" if path else str(i), found)
        return
    found.append((path, full))


def set_path(mapping: Map, path: str, value: Any) -> None:
    """Put ``value`` where ``path`` names, in place (list indexes are numbers)."""
    *parents, last = path.split(".")
    here: Any = mapping
    for step in parents:
        here = here[int(step)] if isinstance(here, list) else here[step]
    if isinstance(here, list):
        here[int(last)] = value
    else:
        here[last] = value


def public_form(event: Mapping[str, Any], commit: Commit) -> Map:
    """The event as the public chain holds it: nobody's view of it, each hidden value a commitment."""
    seen, hidden = seen_and_hidden(event)
    for path, value in hidden:
        set_path(seen, path, commit(path, value))
    return seen


def with_commitments(seen: Map, commitments: Mapping[str, bytes]) -> Map:
    """Nobody's view of an event (``seen_and_hidden``), each hidden value replaced, in place, by its commitment."""
    for path, commitment in commitments.items():
        set_path(seen, path, commitment)
    return seen


def link(previous: bytes, public: Mapping[str, Any]) -> bytes:
    """The public chain's next head, from the one before and an event's public form."""
    return hashlib.sha256(previous + canonical(dict(public))).digest()


def next_head(previous: bytes, event: Mapping[str, Any], commit: Commit) -> bytes:
    """``link`` over the event's public form; an event with nothing hidden is its own public form."""
    if event.get("type") not in HIDING:
        return hashlib.sha256(previous + canonical(dict(event))).digest()
    return link(previous, public_form(event, commit))
