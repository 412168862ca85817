"""What a player checks with nothing but what the service showed them (docs/receipts.md): the public
chain rebuilt from their own views of the events, a receipt's head and signature against it, and that
each value of theirs was committed to as they were shown it.

A view of an event (``GET /games/{id}/events``, the stream, an action's answer) becomes its public
form by putting each commitment (``commitments``: path -> hex) at its path as 32 bytes and leaving out
``commitments`` and ``salts``; ``p(n) = sha256(p(n-1) + msgpack(public form, keys sorted))``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from mtg_ledger.core.public import GENESIS, link, set_path
from mtg_ledger.replays.receipts.book import value_at
from mtg_ledger.replays.receipts.commitments import commitment
from mtg_ledger.replays.receipts.signing import receipt_problem

Map = dict[str, Any]
ADDED = ("commitments", "salts")


def public_form_of_view(view: Mapping[str, Any]) -> Map:
    form = {k: v for k, v in view.items() if k not in ADDED}
    commitments = view.get("commitments") or {}
    if commitments:
        form = copy.deepcopy(form)
        for path, hexed in commitments.items():
            set_path(form, path, bytes.fromhex(hexed))
    return form


def public_heads(views: Iterable[Mapping[str, Any]]) -> Iterator[tuple[int, bytes]]:
    """``(version, public head after it)`` from a player's views of every event, from the first."""
    head = GENESIS
    for view in views:
        head = link(head, public_form_of_view(view))
        yield int(view["v"]), head


def wrongly_committed(view: Mapping[str, Any]) -> list[str]:
    """The paths of the values this viewer sees whose salt does not open their commitment to what they see."""
    commitments = view.get("commitments") or {}
    return [
        path
        for path, salt in (view.get("salts") or {}).items()
        if path not in commitments or commitment(bytes.fromhex(salt), value_at(view, path)).hex() != commitments[path]
    ]


def open_all(views: Iterable[Mapping[str, Any]], openings: Iterable[Mapping[str, Any]]) -> list[str]:
    """Once the game has ended: each commitment of the player's views that the openings the service gives
    every player (``GET /games/{id}/openings``) do not open (``<v>:<path>``); an empty list when every one does."""
    given = {int(o["v"]): o.get("openings") or {} for o in openings}
    wrong = []
    for view in views:
        opened = given.get(int(view["v"]), {})
        for path, hexed in (view.get("commitments") or {}).items():
            found = opened.get(path)
            if not isinstance(found, Mapping) or commitment(bytes.fromhex(found["salt"]), found["value"]).hex() != hexed:
                wrong.append(f"{view['v']}:{path}")
    return wrong


def check(views: Iterable[Mapping[str, Any]], receipt: Mapping[str, Any], keys: Mapping[str, str]) -> str | None:
    """None when ``receipt`` is genuine and its head is the one the views give at its version; else why not."""
    problem = receipt_problem(receipt, keys)
    if problem is not None:
        return problem[0]
    for version, head in public_heads(views):
        if version == receipt["version"]:
            return None if head.hex() == receipt["head"] else "receipt.differs_at"
    return "receipt.cut"
