"""Logs in and out of the ledger: a checked log file stored as a game, a branch of a game, and where a
branched game came from: functions of the ``Ledger`` (``replays.ledger.application``), each a method of it."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO
from uuid import UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.domain import event as recorded_as
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import get_topic

from mtg_ledger.core import events as ev
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import GENESIS_HASH
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.schema import class_versions, upgrade, upgrade_log
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import Game
from mtg_ledger.core.topics import stored_as
from mtg_ledger.replays.stores import snapshots as snaps
from mtg_ledger.replays import logfile
from mtg_ledger.replays.stores import bulk as storage
from mtg_ledger.replays.stores import verify
from mtg_ledger.replays.stores.checked import note_class_version, raw_rows
from mtg_ledger.core.errors import Phrase
from mtg_ledger.replays.ledger.errors import GameExists, GameNotFound, NotADecisionPoint
from mtg_ledger.replays.stores.recorded import in_recorded_form
from mtg_ledger.replays.receipts.records import from_log, kept_for_log, players_of

if TYPE_CHECKING:
    from mtg_ledger.replays.audit.replay_window import Rereadable  # the audit's, for the type checker alone
    from mtg_ledger.replays.ledger.application import Ledger

LINEAGE = UUID("6f1d0c52-8d0b-4c39-9c2e-3b5f4b7e1a10")


class LogRefused(logfile.UnreadableLog):
    """A log that does not audit clean: nothing of it is stored (exit status 2, HTTP 422)."""

    def __init__(self, findings: list[logfile.Finding]) -> None:
        first = min(findings, key=lambda f: f.version)
        said = Phrase("finding.with_rule", {"message": first.said, "rule": first.rule}) if first.rule else first.said
        super().__init__(Phrase("read.refused", {"where": first.where, "finding": said}))
        self.findings = findings


@stored_as("Lineage", "replays.app:Lineage")
class Lineage(Aggregate):
    """Where a branched game came from (its log is the first ``at_version`` events of ``branched_from``)."""

    @recorded_as("Branched")
    def __init__(self, game: str, branched_from: str, at_version: int) -> None:
        self.game = game
        self.branched_from = branched_from
        self.at_version = at_version

    @staticmethod
    def create_id(game: str, branched_from: str, at_version: int) -> UUID:
        return uuid5(LINEAGE, game)


stored_as("Branched", "replays.app:Lineage.Branched")(Lineage.Branched)  # type: ignore[attr-defined]  # made by @recorded_as


def export_log(ledger: Ledger, game_id: UUID, out: BinaryIO) -> dict[str, Any]:
    """Write the game's log file to ``out``, its events as recorded, read from the store a page at a
    time and checked against the chain as they come: a row that cannot be read (``UnreadableRow``)
    or that breaks the chain (``BrokenChain``) raises before a byte is written. Its header."""
    versions: dict[str, int] = {}
    kept = kept_for_log(ledger, str(game_id), players_of(ledger, game_id), ledger.last_version(game_id))
    return logfile.write_to(out, str(game_id), checked_log(ledger, game_id, versions), versions, kept)

def checked_log(ledger: Ledger, game_id: UUID, versions: dict[str, int]) -> Iterator[dict[str, Any]]:
    """The game's event maps as recorded (before any upcasting), one at a time, each checked against
    the chain; ``versions`` gets the class version each event type was recorded in, as they come."""
    checker = verify.Chain(ledger.mapper, game_id, 0, GENESIS_HASH)
    with ledger.reading(game_id):
        for v, topic, state in raw_rows(ledger.recorder, game_id):  # no id parsed again per row
            row = checker.check(StoredEvent(originator_id=game_id, originator_version=v, topic=topic, state=state))
            note_class_version(versions, game_id, row)
            yield row.recorded
    if checker.version == 0:
        raise GameNotFound(game_id)

def import_log(
    ledger: Ledger,
    header: dict[str, Any],
    events: Rereadable,
    game_id: UUID | None = None,
    progress: Callable[[int], None] | None = None,
    also: Sequence[Aggregate] = (),
) -> UUID:
    """Store a log file's events as a game, only if it audits clean: header, hash chain, schema,
    and every decision re-adjudicated by replay. A refused log raises ``LogRefused``; nothing is stored.
    ``also``'s events (the new game's access tokens) are stored in the same transaction.

    ``events`` are read in passes, each from the first, one event at a time (the audit's, then the
    store's): a log file's ``logfile.LogEvents`` is imported in memory that does not grow with its length."""
    from mtg_ledger.replays.audit import audit  # audit reads logs; the ledger only stores them

    report = audit(str(header.get("game")), events, header, progress)
    if report.findings:
        raise LogRefused(report.findings)
    recorded = header.get("event_versions")
    versions = recorded if isinstance(recorded, dict) else {}
    game_id = game_id or UUID(header["game"])
    if ledger.exists(game_id):
        raise GameExists(game_id)
    # the public chain goes on with the file's secret for its events, a new one after; the players' keys and signed decisions come along
    also = [*also, *from_log(header.get("receipts"), str(game_id), len(events))]
    # the audit brought every event to its current form: none raises SchemaError now
    return _insert(ledger, ((e, upgrade(e, versions)) for e in events), game_id, None, versions, also)

def import_events(
    ledger: Ledger,
    events: list[dict[str, Any]],
    game_id: UUID,
    progress: Callable[[int], None] | None = None,
    versions: dict[str, int] | None = None,
    also: Sequence[Aggregate] = (),
) -> UUID:
    """Store checked contract maps as a game: its events and snapshots, and ``also``'s events (its
    access tokens, its lineage), in one transaction.

    ``versions``: the class versions the maps were recorded in (a log file's ``event_versions``);
    None: this engine's. An event recorded in an older form is stored in that form, under its
    class version, so that its hash keeps covering what is stored; reading it upcasts it.
    """
    if ledger.exists(game_id):
        raise GameExists(game_id)
    current = events if versions is None else upgrade_log(events, versions)  # SchemaError: nothing stored
    return _insert(ledger, zip(events, current, strict=True), game_id, progress, versions, also)

def _insert(
    ledger: Ledger,
    pairs: Iterable[tuple[dict[str, Any], dict[str, Any]]],
    game_id: UUID,
    progress: Callable[[int], None] | None,
    versions: dict[str, int] | None,
    also: Sequence[Aggregate],
) -> UUID:
    """Store a game's checked maps, each as recorded and in its current form, read one at a time."""
    snapshots: list[StoredEvent] = []
    stored = _stored_rows(ledger, pairs, game_id, versions, snapshots, progress)
    stored = itertools.chain(stored, (ledger.mapper.to_stored_event(e) for aggregate in also for e in aggregate.collect_events()))
    try:
        storage.insert_game(ledger.recorder, ledger.snapshots.recorder if ledger.snapshots else None, stored, snapshots)
    except IntegrityError:
        raise GameExists(game_id) from None
    return game_id

def _stored_rows(
    ledger: Ledger,
    pairs: Iterable[tuple[dict[str, Any], dict[str, Any]]],
    game_id: UUID,
    versions: dict[str, int] | None,
    snapshots: list[StoredEvent],
    progress: Callable[[int], None] | None,
) -> Iterator[StoredEvent]:
    """The stored rows of a game's checked maps, one at a time as the store takes them; its snapshots
    are appended to ``snapshots`` on the way (complete once the last row is taken)."""
    engine_versions = class_versions()
    now = ev.GameEvent.create_timestamp()
    game: Any = None
    last = 0
    keyframe: snaps.Keyframe | None = None
    for i, (recorded, e) in enumerate(pairs, start=1):
        cls = ev.EVENT_TYPES[e["type"]]
        fields = {k: v for k, v in e.items() if k not in ("v", "type", "hash")}
        extra = {"originator_topic": get_topic(Game)} if cls is ev.GameStarted else {}
        # every GameEvent has a hash field (a dataclass field mypy can't see: the library's metaclass makes it)
        domain_event = cls(originator_id=game_id, originator_version=e["v"], timestamp=now, hash=e["hash"], **fields, **extra)  # type: ignore[call-arg]
        version = engine_versions[e["type"]] if versions is None else versions.get(e["type"], 1)
        kept = domain_event if version == engine_versions[e["type"]] else in_recorded_form(cls, game_id, recorded, version, timestamp=now, **extra)
        yield ledger.mapper.to_stored_event(kept)
        if ledger.snapshots is not None and cls is ev.TurnBegan and game is not None and snaps.due(i - 1, last, ledger.snapshot_interval):
            row, keyframe = snaps.take(ledger.mapper, game, keyframe, ledger.snapshot_interval, e.get("state_hash"))  # encoded now
            snapshots.append(row)
            last = i - 1
        game = domain_event.mutate(game)
        if progress is not None and i % 1000 == 0:
            progress(i)

def branch(ledger: Ledger, game_id: UUID, at: int, new_id: UUID | None = None, also: Sequence[Aggregate] = ()) -> UUID:
    """A new game whose log is the first ``at`` events of ``game_id``; its lineage (and ``also``'s
    events: its access tokens) are stored in the same transaction."""
    latest = ledger.game(game_id).version  # checked: a damaged game is refused before anything is copied
    if not 1 <= at <= latest:
        raise NotADecisionPoint(f"--at {at}: game {game_id} has events 1 to {latest}")
    state = ledger.state(game_id, at)
    recorded, versions = ledger.recorded_log(game_id, last=at)
    events = upgrade_log(recorded, versions)
    if pending_decision(state) is None and not state.ended:
        earlier = last_decision_point(events)
        hint = f"branch at {earlier}, the last decision point before it" if earlier else "no decision was asked for yet"
        raise NotADecisionPoint(f"--at {at}: after event {at} the engine is still at work (nobody is asked for a decision); {hint}")
    new_id = new_id or uuid4()
    lineage = Lineage(game=str(new_id), branched_from=str(game_id), at_version=at)
    import_events(ledger, recorded, new_id, versions=versions, also=[lineage, *also])
    return new_id

def lineage(ledger: Ledger, game_id: UUID) -> dict[str, Any] | None:
    try:
        record: Any = ledger.repository.get(uuid5(LINEAGE, str(game_id)))
    except AggregateNotFoundError:
        return None
    return {"branched_from": record.branched_from, "at_version": record.at_version}


def last_decision_point(events: list[dict[str, Any]]) -> int:
    """The last version in ``events`` after which a player is asked for a decision (0: none)."""
    state = GameState()
    found = 0
    for e in events:
        apply_event(state, e)
        if pending_decision(state) is not None:
            found = e["v"]
    return found
