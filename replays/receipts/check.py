"""Receipts against a log (``audit --receipts``, the judge's ``POST /games/{id}/audit``): each receipt's
signature, then whether the log's public head at the receipt's version is the head it signed.

Every disagreement is a finding of kind ``receipt`` at the first version where the log can differ from
what was signed: right after the last version at which a receipt agrees with the log (a player who keeps
a receipt after every decision pins it to that decision). A log shorter than a receipt was cut after
its last event. Two receipts of one version with different heads prove the service signed two games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mtg_ledger.core.errors import Phrase
from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.receipts.commitments import Salts, Secrets
from mtg_ledger.replays.receipts.signing import receipt_problem

Map = dict[str, Any]
KIND = "receipt"


def receipt_findings(
    game: str, events: Iterable[Mapping[str, Any]], secret: Secrets | None, receipts: list[tuple[str, Any]], keys: Mapping[str, str]
) -> list[Finding]:
    """What is wrong between the log of ``game`` (its events in their current form, every one) and the
    ``receipts`` (each with its name: a file, and its place in it), given the service's public ``keys``."""
    findings: list[Finding] = []
    valid: list[tuple[str, Map]] = []
    for name, receipt in receipts:
        problem = receipt_problem(receipt, keys)
        if problem is not None:
            version = receipt.get("version") if isinstance(receipt, Mapping) else None
            at = version if type(version) is int and version >= 1 else 0
            findings.append(Finding.of(at, KIND, "receipt.refused", {"receipt": name, "why": Phrase(*problem)}))
        elif receipt["game"] != game:
            findings.append(Finding.of(0, KIND, "receipt.other_game", {"receipt": name, "game": receipt["game"]}))
        else:
            valid.append((name, dict(receipt)))
    if not valid:
        return findings
    findings.extend(_forks(valid))
    if secret is None:
        first = min(r["version"] for _, r in valid)
        return [*findings, *(Finding.of(1, KIND, "receipt.no_secret", {"receipt": name, "version": r["version"]}) for name, r in valid if r["version"] == first)]
    heads = {v: head.hex() for v, head in Salts(game, secret).heads(events)}
    count = max(heads, default=0)
    agreeing = sorted(r["version"] for _, r in valid if heads.get(r["version"]) == r["head"])
    for name, r in sorted(valid, key=lambda item: item[1]["version"]):
        version = r["version"]
        if heads.get(version) == r["head"]:
            continue
        after = max((v for v in agreeing if v < version), default=0)
        if version > count:
            params = {"receipt": name, "version": version, "count": count}
            findings.append(Finding.of(after + 1 if after < count else count + 1, KIND, "receipt.cut", params))
        elif after + 1 == version:
            findings.append(Finding.of(version, KIND, "receipt.differs_at", {"receipt": name, "version": version}))
        else:
            findings.append(Finding.of(after + 1, KIND, "receipt.differs_after", {"receipt": name, "version": version, "first": after + 1}))
    return findings


def _forks(valid: list[tuple[str, Map]]) -> list[Finding]:
    """Two genuine receipts of one version with different heads: the service signed two games."""
    seen: dict[int, tuple[str, str]] = {}
    out = []
    for name, r in valid:
        first = seen.setdefault(r["version"], (name, r["head"]))
        if first[1] != r["head"]:
            out.append(Finding.of(r["version"], KIND, "receipt.fork", {"receipt": name, "other": first[0], "version": r["version"]}))
    return out
