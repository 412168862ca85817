"""Deterministic replay: feed only the recorded player decisions to a fresh engine and check that
every event it derives, the hash chain and the state hashes recorded at each TurnBegan come out
identical. A decision the rules refuse is a legality finding; an event the engine does not derive
is a divergence. Shuffles are taken from the log (LibraryShuffled, SchemeDeckShuffled).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from mtg_ledger.core.command_table import RECORDED
from mtg_ledger.core.commands import Command
from mtg_ledger.core.errors import Phrase, RulesError
from mtg_ledger.core import engine
from mtg_ledger.core import events as ev
from mtg_ledger.core.events import apply_event
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.decision import Decision, pending_decision
from mtg_ledger.core.events import UPCASTERS
from mtg_ledger.core.schema import SchemaError, agrees_with_older_form
from mtg_ledger.core.setup import Shuffles
from mtg_ledger.core.state import GameState
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.scenario.actions import action_json
from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.audit.replay_window import CannotRead, RecordedList, RecordedLog, Rereadable, recorded_log
from mtg_ledger.replays.audit.same_bytes import same_bytes, same_encoding

Map = dict[str, Any]
Progress = Callable[[int], None]
UPCAST_TYPES = frozenset(kind for kind, _ in UPCASTERS)  # event types some older schema recorded in another form
ALLOWED_SHOWN = 12  # legal actions a finding shows, at most


@dataclass
class ReplayResult:
    events: int
    findings: list[Finding] = field(default_factory=list)
    state: GameState | None = None
    decisions: list[tuple[int, str]] = field(default_factory=list)  # (the version it was taken at, who took it)

    @property
    def ok(self) -> bool:
        return not self.findings


def setup_of(started: Map) -> dict[str, Any]:
    """The setup a GameStarted event was made from, with the card definitions it recorded (its
    current form's: a GameStarted of schema 4 or before is upcast with the classic ones)."""
    players = []
    for p in started["players"]:
        entry: dict[str, Any] = {
            "name": p["name"],
            "life": p["life"],
            "library": list(p["library"]),
            "battlefield": [b["card"] for b in p["battlefield"]],
        }
        if not p.get("opening_hand"):
            entry["hand"] = list(p["hand"])
        if p.get("schemes"):
            entry["schemes"] = list(p["schemes"])
        players.append(entry)
    setup = {
        "format": started["format"],
        "seed": started["seed"],
        "shuffle": started["shuffle"],
        "starting_player": started["starting_player"],
        "players": players,
    }
    if "cards" in started:
        setup["cards"] = started["cards"]
    return setup


def recorded_shuffles(events: Iterable[Map]) -> Shuffles:
    """The shuffles recorded before the first turn, read from the first events only."""
    out: Shuffles = {}
    for e in events:
        if e["type"] == "LibraryShuffled":
            out[("library", e["player"])] = list(e["order"])
        elif e["type"] == "SchemeDeckShuffled":
            out[("schemes", e["player"])] = list(e["order"])
        elif e["type"] == "TurnBegan":
            break
    return out


class Recorded(Protocol):
    """Recorded events by index, as a list or a ``RecordedLog`` gives them."""

    def __len__(self) -> int: ...
    def __getitem__(self, k: int) -> Map: ...


# The decisions recorded after the mana abilities activated to pay for them (601.2g, 602.2b, 508.1h).
PAID_DECISIONS = ("SpellCast", "AbilityActivated", "AttackersDeclared")


def decision_at(log: Recorded, i: int, decision: Decision, state: GameState) -> Command | None:
    """The player decision the log records at index ``i``, where the rules ask for ``decision``: read
    back by the command table's entry for the event recorded there (``core.command_table.RECORDED``)."""
    e = log[i]
    if e["type"] == "ManaAbilityActivated":
        j = i
        while j < len(log) and log[j]["type"] == "ManaAbilityActivated":
            j += 1
        after = log[j] if j < len(log) else None
        paying = len(after.get("paid_with", [])) if after and after["type"] in PAID_DECISIONS else 0
        if j - i <= paying:  # these paid for the decision that follows
            return decision_at(log, j, decision, state)
    read = RECORDED.get(e["type"])
    return None if read is None else read(e, decision, state)


def _allowed(state: GameState) -> tuple[Map, ...]:
    """The first legal actions, in the scenario's action form (docs/reference/scenario-files.md)."""
    return tuple(action_json(c) for c in islice(legal_actions(state), ALLOWED_SHOWN))


def replay(log: Rereadable, progress: Progress | None = None, versions: dict[str, int] | None = None, *, chained: bool = False) -> ReplayResult:
    """Re-run the recorded decisions; the first finding stops the replay (nothing after it can be trusted).

    ``log`` holds the maps as recorded and ``versions`` the class versions they were recorded with
    (a log file's ``event_versions``; None: this engine's own). The engine derives events in the
    current schema, so each recorded event is compared in its current form (core.schema.upgrade_log).
    Hashes are compared too; an event recorded in an older form keeps the hash of that form (see
    ``ReplayTable``), which is checked on the maps as recorded (``logfile.integrity``, which audit,
    replay of a file and import run first).

    ``log`` is read in order, a few events at a time (``RecordedLog``), and its first events once more
    for the shuffles: a log file's ``LogEvents`` replays in memory that does not grow with its length.
    A list, in memory already, is read at once (``RecordedList``).

    ``chained``: the caller has checked the hash chain of every event of ``log`` as recorded
    (``logfile.integrity``), so that a derived event whose canonical bytes are the recorded one's, after
    a derived chain that is the recorded one so far, takes its recorded hash without encoding it again
    (``ReplayTable.emit``): the same hashes, the same findings.
    """
    result = ReplayResult(events=len(log))
    at = [1]  # the version being replayed, for a finding if the engine cannot go on
    try:
        recorded = recorded_log(log, versions)  # (a list's events are brought to their current form here)
        try:
            _replay(recorded, progress, result, at, chained)
        except CannotRead:
            raise
        except Exception as e:  # a defect or a forgery the checks before did not name: a finding all the same
            v = min(at[0], max(len(recorded), 1))
            what = str(e).splitlines()[0][:160] if str(e) else ""
            result.findings.append(
                Finding.of(
                    v,
                    "divergence",
                    "replay.cannot_replay",
                    {"error": type(e).__name__, "what": what},
                    recorded=recorded[v - 1] if len(recorded) else None,
                )
            )
            result.state = None
        recorded.drain()
    except CannotRead as e:
        if not isinstance(e.error, SchemaError):
            raise e.error from None
        return ReplayResult(events=len(log), findings=[Finding.of(0, "divergence", "replay.cannot_read", {"reason": str(e.error)})])
    return result


def _replay(log: RecordedLog | RecordedList, progress: Progress | None, result: ReplayResult, at: list[int], chained: bool = False) -> ReplayResult:
    """A log the engine cannot even follow (a forged shape that slipped past the schema, a value no rule
    can take) raises; ``replay`` makes it a finding at the event where it stopped, never a crash."""
    first = log.get(0)
    if first is None or first.get("type") != "GameStarted":
        result.findings.append(Finding.of(1, "divergence", "replay.starts_with_game_started", {}, recorded=first))
        return result
    shuffles = recorded_shuffles(log.again())
    for (zone, player), order in shuffles.items():
        given = next(p for p in first["players"] if p["name"] == player)
        if sorted(order) != sorted(given["library" if zone == "library" else "schemes"]):
            v = next(e["v"] for e in log.again() if e["type"] in ("LibraryShuffled", "SchemeDeckShuffled") and e["player"] == player)
            result.findings.append(Finding.of(v, "legality", "replay.shuffled_other_cards", {"player": player, "zone": Phrase(f"word.{zone}")}, rule="701.20"))
            return result
    setup = setup_of(first)
    try:
        table = ReplayTable.replaying(log, setup, shuffles, chained)
    except RulesError as e:
        result.findings.append(_refused(1, e, whole=True, recorded=first))
        return result
    if not _same(table, log, result):
        return result
    while table.count < len(log):
        n = table.count
        at[0] = n + 1
        log.let_go(n - 1)  # the event before n stays: an older form's hash is checked against it
        if progress is not None:
            progress(n)
        decision = pending_decision(table.state)
        if decision is None:
            result.findings.append(Finding.of(n + 1, "divergence", "replay.game_over", {}, recorded=log[n]))
            return result
        command = decision_at(log, n, decision, table.state)
        if command is not None:
            result.decisions.append((n, command.player))
        if command is None:
            result.findings.append(
                Finding.of(
                    n + 1,
                    "divergence",
                    "replay.decision_asked",
                    {"decision": decision.phrase(), "type": log[n]["type"]},
                    rule=decision.rule_cited,
                    recorded=log[n],
                    allowed=_allowed(table.state),
                )
            )
            return result
        try:
            table.handle(command)
        except RulesError as e:
            version = n + 1 + _paid_first(log, n)
            result.findings.append(_refused(version, e, whole=False, recorded=log[version - 1], allowed=_allowed(table.state)))
            return result
        if not _same(table, log, result):
            return result
    result.state = table.state
    return result


def _refused(version: int, e: RulesError, whole: bool, **rest: Any) -> Finding:
    """A decision the rules refuse: the error's message (``whole``: with its rule, as ``str(e)`` says it)."""
    if whole:
        return Finding.of(version, "legality", "finding.with_rule", {"message": Phrase(e.code, e.params), "rule": e.rule}, rule=e.rule, **rest)
    return Finding.of(version, "legality", e.code, e.params, rule=e.rule, **rest)


def _paid_first(log: Recorded, n: int) -> int:
    """A refused cast is named at its SpellCast, after the mana abilities recorded for it."""
    j = n
    while j < len(log) and log[j]["type"] == "ManaAbilityActivated":
        j += 1
    return j - n if j < len(log) and log[j]["type"] in PAID_DECISIONS else 0


def _same(table: ReplayTable, log: Recorded, result: ReplayResult) -> bool:
    """Whether the events the table derived since the last look were each the one recorded at its place
    (``ReplayTable.emit`` compares them as it derives them); else the first that was not, as a finding."""
    if table.differs is None:
        return True
    k, derived, recorded = table.differs
    said: tuple[str, Map] = ("replay.log_ends", {})
    if recorded is not None:
        said = ("replay.other_type", {"type": derived["type"], "other": recorded["type"]})
    if recorded is not None and recorded["type"] == derived["type"]:
        changed = sorted(key for key in {*recorded, *derived} if recorded.get(key) != derived.get(key) and key != "hash")
        said = ("replay.differs", {"type": derived["type"], "fields": ", ".join(changed) if changed else Phrase("word.its_hash")})
    result.findings.append(Finding.of(k + 1, "divergence", *said, recorded=recorded, derived=derived))
    return False


class ReplayTable(LocalTable):
    """The engine in memory, deriving the events of a recorded log. Where the log recorded an event
    in an older form than the engine writes (an upcast type whose recorded hash does not cover its
    current form), and the engine derives what that form says (``core.schema.agrees_with_older_form``),
    the recorded event stands: its hash covers the form it was recorded in and is checked on it
    (``logfile.integrity``), and the chain goes on from it as it does in the log.

    It keeps no list of the events it derived: ``count`` of them, each compared with the log's event at
    its place as it is derived, and ``differs``, the first that was not that event (its index, the
    derived event, the recorded one or None past the log's end), for the replay to report (``_same``).

    ``chained``: the log's chain is checked as recorded (``replay``'s ``chained``); ``_prior`` is then the
    recorded hash of the event before the next one (None: not known to be the hash its chain checked)."""

    def __init__(self, log: Recorded, chained: bool = False) -> None:
        super().__init__()
        self.log = log
        self.count = 0
        self.differs: tuple[int, Map, Map | None] | None = None
        self._length = len(log)
        self._chained = chained
        self._prior: str | None = GENESIS_HASH if chained else None

    @classmethod
    def replaying(cls, log: Recorded, setup: dict[str, Any], shuffles: Shuffles, chained: bool = False) -> ReplayTable:
        table = cls(log, chained)
        fields = engine.started_fields(setup)
        table.emit(ev.GameStarted, fields)
        engine.begin_game(table, fields, shuffles)
        return table

    def emit(self, event_class: type[ev.GameEvent], fields: dict[str, Any]) -> None:
        k = self.count
        self.count = k + 1
        mapping = {"v": k + 1, "type": event_class.__name__, **fields}
        recorded = self.log[k] if k < self._length else None
        prior, self._prior = self._prior, None
        if self._chained and recorded is not None and recorded["type"] not in UPCAST_TYPES:
            self._prior = recorded["hash"]  # the map its chain checked (an upcast type's may be another)
        if recorded is not None and self._prior is not None and prior == self.state.last_hash:
            # the recorded event, whose hash its chain checked, after the same chain: if this one encodes as
            # it, it is the recorded event, and its hash the recorded one
            mapping["hash"] = recorded["hash"]
            if recorded == mapping and same_encoding(recorded, mapping):  # most events: equal, and all looked at
                apply_event(self.state, mapping)
                return
            del mapping["hash"]
            if same_bytes(recorded, mapping):
                mapping["hash"] = recorded["hash"]
        if "hash" not in mapping:
            mapping["hash"] = chain(self.state.last_hash, mapping)
            if recorded is not None and recorded["hash"] != mapping["hash"] and self._older_form(k):
                if agrees_with_older_form(recorded, mapping):
                    mapping = dict(recorded)
        if recorded != mapping and self.differs is None:
            self.differs = (k, mapping, recorded)
        apply_event(self.state, mapping)

    def _older_form(self, k: int) -> bool:
        """Whether the log's event ``k`` is in another form than the one its hash covers."""
        recorded = self.log[k]
        if recorded["type"] not in UPCAST_TYPES:
            return False
        return bool(chain(self.log[k - 1]["hash"] if k else GENESIS_HASH, recorded) != recorded["hash"])
