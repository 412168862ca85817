"""The verbs that read a whole log, from a log file or from the store: ``replay``, ``audit`` and ``diff``.

A log file needs no store: the store is opened only when a source is a game id.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from uuid import UUID

from mtg_ledger.replays import logfile
from mtg_ledger.replays.audit import AuditReport, audit, audit_game, finding_said
from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.cli.progress import progress_bar
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.stores.snapshots import check_all as check_snapshots
from mtg_ledger.replays.cli.store import Store
from mtg_ledger.core.schema import upgrade_log
from mtg_ledger.replays.text import line
from mtg_ledger.replays.cli import names
from mtg_ledger.replays.cli.verbs import Map, UserError, emit


def unread_finding(version: int, error: logfile.UnreadableLog) -> Finding:
    """The finding of a log file that cannot be read (at ``version``; 0: the file as a whole), said by its id."""
    return Finding.of(version, "integrity", error.code, error.params)


def load_log(
    store: Store, source: str, label: str = "", partial: bool = False
) -> tuple[str, list[Map], Map | None, dict[str, int], list[Finding]]:
    """A log from a file (with its header) or from the store (a game id; the store is opened only
    then): its events as recorded, and the class versions they were recorded in. A stored game's rows
    are read unchecked: replay and audit check them, and say more. ``partial``: a file whose events do
    not all read gives those before the first that does not, and a finding at its version."""
    found = names.file_or_game(store, source, label)
    if isinstance(found, Path):
        if partial:
            header, events, unread = logfile.read_readable(source)
        else:
            (header, events), unread = logfile.read(source), None
        damage = [] if unread is None else [unread_finding(unread.first, unread)]
        return str(header.get("game")), events, header, logfile.recorded_versions(header), damage
    game = found
    events, unreadable, versions = store.ledger.recorded_rows(game)  # raises GameNotFound
    damage = [Finding.of(e.version, "integrity", "log.stored_row", {"v": e.version, "problem": e.problem}) for e in unreadable[:1]]
    return str(game), events, None, versions, damage  # the rows up to the first that cannot be read, and that one


def _finding(f: Finding) -> Map:
    return {**asdict(f), "allowed": list(f.allowed)}


def cmd_replay(store: Store, args: argparse.Namespace) -> int:
    game, events, header, versions, damage = load_log(store, args.source)
    out: Map = {"game": game, "events": len(events)}
    problems = logfile.integrity(events, header)  # a file's header and chain, or a stored game's rows, first
    problems = sorted([*problems, *damage], key=lambda f: f.version)
    if problems:
        if args.json:
            emit({**out, "identical": False, "refused": True, "findings": [_finding(problems[0])]})
        else:
            print(f"replay refused: {problems[0].place}: {problems[0].message} (run `mtg-ledger audit` for the report)")
        return 1
    with progress_bar(len(events), "replay") as done:
        result = replay(events, done, versions)
    turns = sum(1 for e in events if e["type"] == "TurnBegan")
    bad_snapshots = check_snapshots(store.ledger, UUID(game), events, len(events))[1] if header is None and result.ok else []
    if args.json:
        state_hash = result.state.state_hash() if result.state is not None else None
        found = [*result.findings, *bad_snapshots]
        emit({**out, "identical": result.ok, "turns": turns, "state_hash": state_hash, "findings": [_finding(f) for f in found]})
        return 0 if not found else 1
    if result.ok:
        assert result.state is not None
        print(f"replay identical: {len(events)} events, {turns} turn state hashes, final state hash {result.state.state_hash()}")
        for finding in bad_snapshots:  # a stored game's snapshots must be what the events give too
            print(f"  {finding.message}")
        return 1 if bad_snapshots else 0
    first = result.findings[0]
    print(f"replay diverges at event {first.version}: {first.message}" + (f" (rule {first.rule})" if first.rule else ""))
    if first.recorded is not None:
        print(f"  recorded: {json.dumps(first.recorded, ensure_ascii=False)}")
    if first.derived is not None:
        print(f"  derived:  {json.dumps(first.derived, ensure_ascii=False)}")
    return 1


def cmd_audit(store: Store, args: argparse.Namespace) -> int:
    found = names.file_or_game(store, args.source)
    expected = _player_keys(getattr(args, "player_key", None) or [])
    receipts = None
    if args.receipts:
        from mtg_ledger.replays.cli import receipt_verbs

        receipts = receipt_verbs.read_receipts(args.receipts)
        keys = receipt_verbs.read_keys(store, args.keys)
    if isinstance(found, Path):
        try:
            game, events, header, versions, damage = load_log(store, args.source, partial=True)
        except logfile.UnreadableLog as e:  # nothing to audit: a bad file (exit 2), said in the report's language
            finding = unread_finding(0, e)
            if not args.json:
                raise UserError(finding_said(finding, args.lang)) from None
            emit(AuditReport(game=None, events=0, findings=[finding]).to_json(args.lang))
            return 2
        with progress_bar(len(events), "audit") as done:
            report = audit(game, events, header, done, versions, damage[0] if damage else None)
        secret = logfile.header_secret(header) if header is not None else None
        if header is not None and ("receipts" in header or expected) and not any(f.version == 0 for f in report.findings):
            from mtg_ledger.replays.receipts.decisions import logged_decision_findings

            report.findings.extend(logged_decision_findings(header.get("receipts"), game, report.decisions, expected))
    else:  # a stored game: rows as recorded (one that cannot be read is a finding), and every snapshot against the events
        stored = found
        with progress_bar(store.ledger.last_version(stored), "audit") as done:
            report = audit_game(store.ledger, stored, done)
        if receipts is not None:
            events, _, versions = store.ledger.recorded_rows(stored)
            secret = receipt_verbs.game_secret_of(store, stored)
        from mtg_ledger.replays.receipts.decisions import stored_decision_findings

        from mtg_ledger.replays.receipts.records import players_of

        players = players_of(store.ledger, stored)
        report.findings.extend(stored_decision_findings(store.ledger, str(stored), players, report.decisions, expected))
    if receipts is not None:
        from mtg_ledger.replays.receipts.audit import add_receipt_findings

        add_receipt_findings(report, events, versions, secret, receipts, keys)
        report.notices.extend(receipt_verbs.keys_source(store, args.keys))
        if args.keys is not None and (not isinstance(found, Path) or getattr(args, "db", None)):
            report.findings.extend(receipt_verbs.keys_not_in_store(store, args.keys, keys))
    if args.json:
        emit(report.to_json(args.lang))
    else:
        print("\n".join(report.to_text(args.lang)))
    return 0 if report.clean else 1


def _player_keys(given: list[str]) -> dict[str, str]:
    """``--player-key NAME=KEY``: the public key (base64) a player says is theirs, by name."""
    from mtg_ledger.replays.messages import say

    out = {}
    for item in given:
        name, _, public = item.partition("=")
        if not name or not public:
            raise UserError(say("receipt.player_key_arg", {"given": item}))
        out[name] = public
    return out


def cmd_diff(store: Store, args: argparse.Namespace) -> int:
    _, a, _, versions_a, _ = load_log(store, args.a, "A: ")
    _, b, _, versions_b, _ = load_log(store, args.b, "B: ")
    a, b = upgrade_log(a, versions_a), upgrade_log(b, versions_b)  # compared in the current form
    for i in range(max(len(a), len(b))):
        left, right = (a[i] if i < len(a) else None), (b[i] if i < len(b) else None)
        if left != right:
            if args.json:
                emit({"identical": False, "version": i + 1, "a": left, "b": right, "events": {"a": len(a), "b": len(b)}})
            else:
                print(f"the logs diverge at event {i + 1}")
                print(f"  A: {line(left) if left else '(the log ends)'}")
                print(f"  B: {line(right) if right else '(the log ends)'}")
            return 1
    if args.json:
        emit({"identical": True, "version": None, "a": None, "b": None, "events": {"a": len(a), "b": len(b)}})
    else:
        print(f"the logs are identical: {len(a)} events")
    return 0
