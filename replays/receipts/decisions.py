"""Players' signed decisions (docs/receipts.md): a player who registered an Ed25519 public key (when the game
was created, or later with their token) signs each of their decisions, and the signature is stored with it.

The signed message is the UTF-8 bytes of ``mtg-ledger decision\\n<game>\\n<version>\\n<body>``: the game's
id, the version the game is at when the decision is taken (the body must name it as ``expected_version``:
the decision is stored at that version or not at all),
and the body as sent, as canonical JSON (keys sorted, no spaces, UTF-8). The signature goes in the request's
``Signature`` header, in base64. The audit of a stored game checks every stored signature against the
player's key, and that every decision of such a player after they registered their key was signed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from eventsourcing.application import Application

from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.receipts.records import DecisionSigned, find, player_keys, signature_id
from mtg_ledger.replays.receipts.signing import public_key, unb64

Map = dict[str, Any]


def canonical_body(body: Any) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def decision_message(game: str, version: int, body: str) -> bytes:
    return f"mtg-ledger decision\n{game}\n{version}\n{body}".encode()


def signed_by(public: str, signature: str | None, game: str, version: int, body: str) -> bool:
    """Whether ``signature`` (base64) is ``public``'s over this decision."""
    key, raw = public_key(public), unb64(signature)
    if key is None or raw is None:
        return False
    try:
        key.verify(raw, decision_message(game, version, body))
    except InvalidSignature:
        return False
    return True


Signed = tuple[str, str, str]  # who signed, the canonical body, the signature


def decision_findings(
    keys: Mapping[str, tuple[str, int]], signed: Callable[[int], Signed | None], game: str, decisions: Iterable[tuple[int, str]]
) -> list[Finding]:
    """A game's decisions (each the version it was taken at and who took it, as the audit's replay reads
    them) against its players' ``keys`` (name -> public key, version registered at) and the signatures
    ``signed`` gives by version: each decision of a player with a key, from the version they registered it
    on, must carry their valid signature (a finding of kind ``receipt`` otherwise)."""
    findings: list[Finding] = []
    for v, who in decisions if keys else ():
        key = keys.get(who)
        if key is None or v < key[1]:
            continue
        found = signed(v)
        if found is None or found[0] != who:
            findings.append(Finding.of(v + 1, "receipt", "receipt.unsigned_decision", {"v": v, "player": who}))
        elif not signed_by(key[0], found[2], game, v, found[1]):
            findings.append(Finding.of(v + 1, "receipt", "receipt.bad_decision_signature", {"v": v, "player": who}))
    return findings


def stored_decision_findings(app: Application[UUID], game: str, players: list[str], decisions: Iterable[tuple[int, str]]) -> list[Finding]:
    """``decision_findings`` of a stored game: its players' keys and signatures as the store keeps them."""
    keys = {name: (k.public, k.since) for name, k in player_keys(app, game, players).items()}

    def signed(v: int) -> Signed | None:
        record = find(app, signature_id(game, v))
        return (record.player, record.body, record.signature) if isinstance(record, DecisionSigned) else None

    return decision_findings(keys, signed, game, decisions)


def logged_decision_findings(kept: Any, game: str, decisions: Iterable[tuple[int, str]]) -> list[Finding]:
    """``decision_findings`` of a log file: its players' keys and signatures as its header keeps them (``receipts``)."""
    if not isinstance(kept, dict):
        return []
    keys = {name: (k["public"], k["since"]) for name, k in (kept.get("players") or {}).items()}
    by_version = {d[0]: (d[1], d[2], d[3]) for d in kept.get("decisions") or []}
    return decision_findings(keys, by_version.get, game, decisions)
