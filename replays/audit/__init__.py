"""Audit of a disputed log: integrity (the hash chain, gaps, duplicates, order, truncation), then
legality (every decision re-checked against the rules at the moment it was made, by replay), in
one report naming the first bad event, what the rules allowed there, and the rule with its title.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any
from uuid import UUID

from mtg_ledger.core.schema import SchemaError, upgrade
from mtg_ledger.core.command_table import COMMANDS
from mtg_ledger.core.setup import seeded_order
from mtg_ledger.replays.cards import changed_since
from mtg_ledger.replays.stores import snapshots
from mtg_ledger.replays.messages import Phrase, catalogue, say
from mtg_ledger.replays.logfile import Finding, integrity, write
from mtg_ledger.replays.audit.replay import Progress, replay
from mtg_ledger.replays.audit.replay_window import Prefix, Rereadable, current_forms
from mtg_ledger.replays.audit.validate import problem_at

Map = dict[str, Any]



def _words(lang: str) -> dict[str, str]:
    """The report's own words in ``lang``: the catalogue's [report] section."""
    return {key.removeprefix("report."): template for key, template in catalogue(lang).items() if key.startswith("report.")}


def finding_said(finding: Finding, lang: str) -> str:
    """A finding's sentence in ``lang``: its message id said from the catalogues."""
    if finding.message_id is None:  # a finding made by hand (a test's): its sentence as it was given
        return finding.message
    return say(finding.message_id, finding.params, lang)


def rule_title(rule: str | None, lang: str) -> str:
    if not rule:
        return ""
    try:
        from mtg_ledger.replays.audit.rule_titles import describe
    except ImportError:  # pragma: no cover - the table ships with the package
        return rule
    return describe(rule, lang)


@dataclass
class AuditReport:
    game: str | None  # None: a log file whose header cannot be read
    events: int
    findings: list[Finding] = field(default_factory=list)
    notices: list[Phrase] = field(default_factory=list)  # worth a judge's look, not a breach of the rules
    snapshots: int = 0  # stored snapshots checked against the events (a stored game)
    verified: int = 0  # the first events, up to the first finding about them, whose chain holds and whose decisions are legal
    decisions: list[tuple[int, str]] = field(default_factory=list)  # each decision replayed: the version it was taken at, by whom

    @property
    def clean(self) -> bool:
        return not self.findings

    @property
    def first(self) -> Finding | None:
        return min(self.findings, key=lambda f: f.version, default=None)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "game": self.game,
            "events": self.events,
            "clean": self.clean,
            "first": None if self.first is None else self.first.version,
            "snapshots": self.snapshots,
            "verified": self.verified,
            "notices": [say(n.id, n.params, lang) for n in self.notices],
            "findings": [
                {**asdict(f), "params": _plain(f.params), "message": finding_said(f, lang), "allowed": list(f.allowed), "title": rule_title(f.rule, lang)}
                for f in sorted(self.findings, key=lambda f: f.version)
            ],
        }

    def to_text(self, lang: str = "en") -> list[str]:
        w = _words(lang)
        lines = [w["game"].format(game=self.game)]
        first = self.first
        notes = [f"{w['notice']} {say(n.id, n.params, lang)}" for n in self.notices]
        if first is None:
            clean = w["clean"].format(n=self.events)
            if self.snapshots:
                clean += "; " + w["snapshots_ok"].format(n=self.snapshots)
            return [*lines, clean, *notes]
        lines.extend(notes)
        if first.version == 0:
            lines.append(f"{w['header']} ({w[first.kind]})")
        elif first.kind == "snapshot":
            lines.append(w["bad_snapshot"].format(v=first.version) + f" ({w[first.kind]})")
        else:
            lines.append(w["first"].format(v=first.version) + f" ({w[first.kind]})")
        lines.append(f"  {finding_said(first, lang)}")
        if self.verified:
            lines.append(f"  {w['verified'].format(n=self.verified)}")
        if first.rule:
            lines.append(f"  {w['rule'].format(rule=rule_title(first.rule, lang))}")
        if first.recorded is not None:
            lines.append(f"  {w['recorded']} {_brief(first.recorded)}")
        if first.derived is not None:
            lines.append(f"  {w['derived']} {_brief(first.derived)}")
        if first.allowed:
            lines.append(f"  {w['allowed']}")
            lines.extend(f"    {allowed_line(a, lang)}" for a in first.allowed)
        others = [f for f in self.findings if f is not first]
        lines.extend(f"  {w['bad_snapshot'].format(v=f.version)}: {finding_said(f, lang)}" for f in others if f.kind == "snapshot")
        lines.extend(f"  {w['receipt']} ({w['first'].format(v=f.version)}): {finding_said(f, lang)}" for f in others if f.kind == "receipt")
        if others:
            lines.append(w["more"].format(n=len(others)))
        return lines


VERBS = {spec.kind: spec.verb for spec in COMMANDS.values()}


def allowed_line(action: Map, lang: str) -> str:
    """One of what the rules allowed there: who, what (the verb of its kind in the command table), then
    the action itself in the scenario's form, as ``mtg-ledger decide`` and a scenario file take it."""
    verb, text = say(VERBS[action["action"]], {}, lang), json.dumps(action, ensure_ascii=False)
    return f"{action['player']}{' :' if lang == 'fr' else ':'} {verb} — {text}"


def _plain(value: Any) -> Any:
    """A finding's params as JSON holds them (a forged log's value that JSON cannot hold, as its repr)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Phrase):
        return {"id": value.id, "params": _plain(value.params)}
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


def _brief(event: Map) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in event.items() if k != "hash")


def audit(
    game: str,
    events: Rereadable,
    header: Map | None = None,
    progress: Progress | None = None,
    versions: dict[str, int] | None = None,
    unreadable: Finding | None = None,
) -> AuditReport:
    """Integrity first, on the maps as recorded (the header, the hash chain, every event against the
    schema); legality by replay, even when the chain holds (a log may have been rewritten and re-hashed
    whole). Replay runs over the events up to the first integrity fault, in their current form:
    ``versions`` are the class versions they were recorded with (by default the header's
    ``event_versions``; without a header, this engine's). ``unreadable``: the events of a log file
    from the one after ``events`` on cannot be read (a finding at its version): the others are checked
    as the first part of the log.

    ``events`` are read in passes, each from the first event, one event at a time (chain, schema,
    replay): a log file's ``LogEvents`` is audited in memory that does not grow with its length."""
    report = AuditReport(game=game, events=len(events))
    report.findings.extend(integrity(events, header, whole=unreadable is None))
    if unreadable is not None:
        report.findings.append(unreadable)
    if versions is None and header is not None:
        given = header.get("event_versions") or {}  # a header without them is schema 1's first form
        versions = given if isinstance(given, dict) else {}
    schema, sound, current = _schema(Prefix(events, _sound(report.findings, len(events))), versions)
    if schema is not None:
        report.findings.append(schema)
    if sound:
        usable = Prefix(events, sound)
        # integrity checked the chain of every event in usable; the schema pass brought a list's to their current form
        result = replay(usable, progress, versions, chained=True) if current is None else replay(Prefix(current, sound), progress, None, chained=True)
        report.decisions = result.decisions
        found = [f for f in result.findings if f.version <= sound]
        report.findings.extend(found)
        report.notices.extend(unseeded_shuffles(usable))
        report.notices.extend(cards_changed(next(iter(usable)), versions))
        report.verified = min((f.version - 1 for f in found), default=sound)
    return report


def _schema(events: Prefix, versions: dict[str, int] | None) -> tuple[Finding | None, int, list[Map] | None]:
    """Every event against the schema, in its current form: a finding (an event this engine cannot
    bring to its current form names the log, at version 0, before any event that does not conform),
    how many first events conform, and, for events in memory already (a list's), their current forms
    (for the replay, which would bring them to it again; None for a file's, read a few at a time)."""
    bad: Finding | None = None
    kept: list[Map] | None = [] if events.listed() is not None else None
    try:
        for i, current in enumerate(current_forms(events, versions), start=1):
            if bad is None:
                bad = problem_at(i, current, chained=True)  # events before any fault of the chain: integrity checked each hash
            if kept is not None:
                kept.append(current)
    except SchemaError as e:
        return Finding.of(0, "integrity", e.code, e.params), 0, None
    return bad, len(events) if bad is None else bad.version - 1, kept


def _sound(findings: list[Finding], count: int) -> int:
    """How many first events hold, given integrity findings (those about the header alone cut nothing)."""
    return min((f.version - 1 for f in findings if f.version >= 1 and f.kind == "integrity"), default=count)


def stored_log(ledger: Any, game_id: UUID, *, skip_unreadable: bool = False) -> tuple[list[Map], list[Finding]]:
    """A stored game's rows as recorded, and what is wrong with them as a log (a row that cannot be
    read is a finding at its version; the chain's own findings follow). ``skip_unreadable``: every row
    that can be read, the others left out (a forensic copy)."""
    events, unreadable, _ = ledger.recorded_rows(game_id, skip_unreadable=skip_unreadable)
    findings = integrity(events)
    if unreadable:
        v = unreadable[0].version
        findings.append(Finding.of(v, "integrity", "log.stored_row", {"v": v, "problem": unreadable[0].problem}))
    return events, sorted(findings, key=lambda f: f.version)


def forensic_copy(ledger: Any, game_id: UUID, path: str) -> tuple[int, list[Finding]]:
    """Every stored row of a game that can be read, as recorded, into a log file for a judge to audit
    (export refuses a game that fails its checks; this writes it, damage and all)."""
    events, problems = stored_log(ledger, game_id, skip_unreadable=True)
    write(path, str(game_id), events)
    return len(events), problems


def audit_game(ledger: Any, game_id: UUID, progress: Progress | None = None) -> AuditReport:
    """A stored game: its rows as recorded, the log's checks, and every stored snapshot against a
    rebuild from the events that hold."""
    events, unreadable, versions = ledger.recorded_rows(game_id)
    report = audit(str(game_id), events, None, progress, versions)
    if unreadable:
        v = unreadable[0].version
        report.findings.append(Finding.of(v, "integrity", "log.stored_row", {"v": v, "problem": unreadable[0].problem}))
    sound = events[: _sound(report.findings, len(events))]
    report.snapshots, found = snapshots.check_all(ledger, game_id, sound, ledger.last_version(game_id))
    report.findings.extend(found)
    return report


def cards_changed(first: Map, versions: dict[str, int] | None) -> list[Phrase]:
    """The cards whose definition in the pool today is not the one the game recorded (schema 5; a
    GameStarted of schema 4 or before names the classic definitions it was played with)."""
    started = first if versions is None else upgrade(first, versions)
    cards = started.get("cards") if started.get("type") == "GameStarted" else None
    return changed_since(cards) if isinstance(cards, dict) else []


def unseeded_shuffles(events: Iterable[Map]) -> list[Phrase]:
    """Shuffles whose recorded result is not what the game's seed gives with this engine's generator.
    Not a breach of the rules (results are recorded so that a replay survives a new generator), but
    if this engine recorded the game, the library was stacked."""
    out: list[Phrase] = []
    started: Map | None = None
    for e in events:
        if started is None:
            started = e
            if started.get("type") != "GameStarted" or not started.get("shuffle"):
                return []
            given = {p["name"]: p for p in started["players"]}
        if e["type"] == "TurnBegan":
            break
        if e["type"] in ("LibraryShuffled", "SchemeDeckShuffled") and e["player"] in given:
            zone = "library" if e["type"] == "LibraryShuffled" else "schemes"
            expected = seeded_order(started["seed"], zone, e["player"], given[e["player"]][zone])
            if expected != e["order"]:
                params = {"v": e["v"], "player": e["player"], "zone": Phrase(f"word.{zone}"), "seed": started["seed"]}
                out.append(Phrase("replay.unseeded_shuffle", params))
    return out
