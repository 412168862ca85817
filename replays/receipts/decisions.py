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


def key_message(game: str, player: str, public: str, since: int) -> bytes:
    """What a player's key signs to register itself (proof of possession): ``<game>`` is empty for a key
    given when the game is created (``since`` 0), whose id is not known yet."""
    return f"mtg-ledger player-key\n{'' if since == 0 else game}\n{player}\n{public}\n{since}".encode()


def registration_message(game: str, player: str, public: str, since: int) -> bytes:
    """What the service signs of a registered key: the player keeps it to prove which key was theirs."""
    return f"mtg-ledger player-key registered\n{game}\n{player}\n{public}\n{since}".encode()


def proof_holds(public: str, proof: str | None, game: str, player: str, since: int) -> bool:
    """Whether ``proof`` is ``public``'s own signature of its registration as ``player`` of ``game``."""
    return _verifies(public, proof, key_message(game, player, public, since))


def signed_by(public: str, signature: str | None, game: str, version: int, body: str) -> bool:
    """Whether ``signature`` (base64) is ``public``'s over this decision."""
    return _verifies(public, signature, decision_message(game, version, body))


def _verifies(public: str, signature: str | None, message: bytes) -> bool:
    key, raw = public_key(public), unb64(signature)
    if key is None or raw is None:
        return False
    try:
        key.verify(raw, message)
    except InvalidSignature:
        return False
    return True


Signed = tuple[str, str, str]  # who signed, the canonical body, the signature


Key = tuple[str, int, str | None]  # public key, version registered at, its proof


def decision_findings(
    keys: Mapping[str, Key], signed: Callable[[int], Signed | None], game: str, decisions: Iterable[tuple[int, str]],
    expected: Mapping[str, str] | None = None,
) -> list[Finding]:
    """A game's decisions (each the version it was taken at and who took it, as the audit's replay reads
    them) against its players' ``keys`` (name -> public key, version registered at, proof) and the
    signatures ``signed`` gives by version: each key must carry its own proof of registration, and each
    decision of a player with a key, from the version they registered it on, their valid signature (a
    finding of kind ``receipt`` otherwise). ``expected``: the keys players say are theirs (name -> public
    key), each of which must be the one the log holds for them."""
    findings: list[Finding] = []
    for name, public in (expected or {}).items():
        held = keys.get(name)
        if held is None or held[0] != public:
            findings.append(Finding.of(1 if held is None else held[1] + 1, "receipt", "receipt.player_key_differs", {"player": name}))
    for name, (public, since, proof) in keys.items():
        if not proof_holds(public, proof, game, name, since):
            findings.append(Finding.of(since + 1, "receipt", "receipt.key_unproven", {"player": name, "since": since}))
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


def stored_decision_findings(
    app: Application[UUID], game: str, players: list[str], decisions: Iterable[tuple[int, str]], expected: Mapping[str, str] | None = None
) -> list[Finding]:
    """``decision_findings`` of a stored game: its players' keys and signatures as the store keeps them."""
    keys = {name: (k.public, k.since, k.proof) for name, k in player_keys(app, game, players).items()}

    def signed(v: int) -> Signed | None:
        record = find(app, signature_id(game, v))
        return (record.player, record.body, record.signature) if isinstance(record, DecisionSigned) else None

    return decision_findings(keys, signed, game, decisions, expected)


def logged_decision_findings(kept: Any, game: str, decisions: Iterable[tuple[int, str]], expected: Mapping[str, str] | None = None) -> list[Finding]:
    """``decision_findings`` of a log file: its players' keys and signatures as its header keeps them (``receipts``)."""
    if not isinstance(kept, dict):
        kept = {}
    keys = {name: (k["public"], k["since"], k.get("proof")) for name, k in (kept.get("players") or {}).items()}
    by_version = {d[0]: (d[1], d[2], d[3]) for d in kept.get("decisions") or []}
    return decision_findings(keys, by_version.get, game, decisions, expected)
