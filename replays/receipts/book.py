"""Receipts as the service and the command line hand them out: one ``ReceiptBook`` per ``Ledger``.

It knows each game's salts (from the secret the store keeps), the public head of the games this process
plays (extended by each decision's new events, read again from the checked log otherwise), the signing
key, and what a viewer is shown of an event: their view (``core.redact``) plus, for an event holding a
hidden value, the commitment to each (``commitments``, path -> hex) and the salts of those the viewer
sees (``salts``), so that they can rebuild the event's public form and check their own cards in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from mtg_ledger.core.public import GENESIS
from mtg_ledger.core.redact import HIDING, Judge, Viewer, view_of_event
from mtg_ledger.replays.receipts.commitments import Salts
from mtg_ledger.replays.receipts.records import game_secret
from mtg_ledger.replays.receipts.signing import SigningKey, keys_document, published, signing_key

if TYPE_CHECKING:
    from mtg_ledger.replays.ledger.application import Ledger

Map = dict[str, Any]
KEPT = 1000


def _kept(cache: dict[UUID, Any], key: UUID, value: Any) -> Any:
    if len(cache) >= KEPT and key not in cache:
        cache.clear()  # the heads are read again from the checked log when needed
    cache[key] = value
    return value


def value_at(mapping: Any, path: str) -> Any:
    here = mapping
    for step in path.split("."):
        here = here[int(step)] if isinstance(here, list) else here.get(step) if isinstance(here, dict) else None
    return here


class ReceiptBook:
    def __init__(self, ledger: Ledger, env: Mapping[str, str] | None = None) -> None:
        self.ledger = ledger
        self.env = dict(env or {})
        self._key: SigningKey | None = None
        self._salts: dict[UUID, Salts] = {}
        self._heads: dict[UUID, tuple[int, bytes]] = {}

    @property
    def key(self) -> SigningKey:
        if self._key is None:
            self._key = signing_key(self.ledger, self.env)
        return self._key

    def ready(self) -> str:
        """The id of the signing key, made now if the store has none."""
        return self.key.id

    def keys(self) -> Map:
        """``GET /keys``: every key this store's receipts were signed with (and the one it signs with now)."""
        self.ready()  # its public half is in the store from then on (a key from a file too)
        return keys_document(published(self.ledger))

    def salts(self, game_id: UUID) -> Salts:
        found = self._salts.get(game_id)
        if found is None:
            secret = game_secret(self.ledger, str(game_id))
            assert secret is not None  # made when missing
            found = _kept(self._salts, game_id, Salts(str(game_id), secret))
        return found

    def head(self, game_id: UUID, version: int, new: Sequence[Mapping[str, Any]] = (), keep: bool = True) -> bytes:
        """The public head after event ``version``; ``new``: the events a decision is storing, up to it
        (then ``keep=False``, and ``remember`` once they are stored: a head is kept only for what the store holds)."""
        cached = self._heads.get(game_id)
        salts = self.salts(game_id)
        if cached is not None and cached[0] == version:
            return cached[1]
        stored = int(new[0]["v"]) - 1 if new else version  # the events before ``new`` are in the store
        if cached is not None and cached[0] == stored:
            head = cached[1]
        else:
            head = GENESIS
            for stored_event in self.ledger.event_maps(game_id, None, stored) if stored else ():
                head = salts.head(head, stored_event)
        for event in new:
            head = salts.head(head, event)
        if keep:
            self.remember(game_id, version, head)
        return head

    def remember(self, game_id: UUID, version: int, head: bytes) -> None:
        _kept(self._heads, game_id, (version, head))

    def receipt(self, game_id: UUID, version: int, new: Sequence[Mapping[str, Any]] = (), keep: bool = True) -> Map:
        return self.key.receipt(str(game_id), version, self.head(game_id, version, new, keep))

    def decided(self, game_id: UUID, version: int, new: Sequence[Mapping[str, Any]], viewer: Viewer) -> tuple[list[Map], Map]:
        """What a decision's answer adds: ``viewer``'s views of its new events (up to ``version``, not stored
        yet) and its receipt, each hidden value committed to once for both. ``remember`` the head once stored."""
        salts = self.salts(game_id)
        head = self.head(game_id, int(new[0]["v"]) - 1)
        views = []
        for event in new:
            if event.get("type") not in HIDING:
                views.append(view_of_event(event, viewer))
                head = salts.head(head, event)
                continue
            seen, openings = salts.opened(event)
            views.append(_shown_with(event, viewer, openings))
            head = salts.head_of_opened(head, seen, openings)
        return views, self.key.receipt(str(game_id), version, head)

    def views(self, game_id: UUID, events: Sequence[Mapping[str, Any]], viewer: Viewer) -> list[Map]:
        return [self.view(game_id, e, viewer) for e in events]

    def openings(self, game_id: UUID, events: Iterable[Mapping[str, Any]]) -> list[Map]:
        """Every hidden value of these events with its salt, for every player once the game has ended
        (``GET /games/{id}/openings``): ``{"v", "openings": {path: {"salt", "value"}}}`` each."""
        salts = self.salts(game_id)
        out = []
        for event in events:
            if event.get("type") in HIDING:
                opened = {path: {"salt": salt.hex(), "value": value} for path, value, salt, _ in salts.openings(event)}
                if opened:
                    out.append({"v": int(event["v"]), "openings": opened})
        return out

    def view(self, game_id: UUID, event: Mapping[str, Any], viewer: Viewer) -> Map:
        """What ``viewer`` is shown of an event (``shown``)."""
        if isinstance(viewer, Judge) or event.get("type") not in HIDING:
            return view_of_event(event, viewer)
        return shown(self.salts(game_id), event, viewer)


def shown(salts: Salts, event: Mapping[str, Any], viewer: Viewer) -> Map:
    """What ``viewer`` is shown of an event: the judge, the event itself; a player, their view, and for each
    hidden value its commitment (``commitments``) and, when they see the value, its salt (``salts``)."""
    if isinstance(viewer, Judge) or event.get("type") not in HIDING:
        return view_of_event(event, viewer)
    return _shown_with(event, viewer, salts.openings(event))


def _shown_with(event: Mapping[str, Any], viewer: Viewer, openings: list[tuple[str, Any, bytes, bytes]]) -> Map:
    out = view_of_event(event, viewer)
    if isinstance(viewer, Judge):
        return out
    if openings:
        out["commitments"] = {path: c.hex() for path, _, _, c in openings}
        seen = {path: salt.hex() for path, value, salt, _ in openings if value_at(out, path) == value}
        if seen:
            out["salts"] = seen
    return out
