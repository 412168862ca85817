"""What the routes ask of the store: the same ``Ledger`` as the CLI, and every answer through ``view``.

Nothing here is kept that another process could contradict: where the store checks it in the save's
transaction (``Ledger.decides_unread``, the compact SQLite tables), a decision is taken on the game this
process holds and stored only if it follows the store's last event and the player has still no key (when
none is known here); elsewhere each decision first reads, in one statement, the game's stored version and
whether its player has a key or the request an answer (``Ledger.versions``). The store's unique version
decides a race, and an idempotency record is stored once; tokens and players' keys, once issued or
registered, never change. Writes to one game are serialised within this process (a striped lock), so that a game's
in-memory copy is never changed by two threads at once.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from mtg_ledger.core.choices import choices
from mtg_ledger.core.errors import Phrase, RulesError
from mtg_ledger.core.redact import JUDGE, Judge, Viewer, view
from mtg_ledger.core.schema import SchemaError
from mtg_ledger.core.table import Game
from mtg_ledger.replays import logfile
from mtg_ledger.replays.ledger.access import JUDGE_HOLDER, IdempotencyRecord, TokenBook, answered, fingerprint, issue, record_id
from mtg_ledger.replays.scenario.actions import Decision, action_json
from mtg_ledger.replays.ledger.application import Ledger, StreamNotEmpty
from mtg_ledger.replays.audit import audit
from mtg_ledger.replays.ledger.logs import get_logger
from mtg_ledger.replays.scenario import setup_of
from mtg_ledger.replays.scenario.schema import Setup
from mtg_ledger.replays.messages import say
from mtg_ledger.replays.receipts.book import ReceiptBook
from mtg_ledger.replays.receipts.decisions import canonical_body, proof_holds, registration_message, signed_by, stored_decision_findings
from mtg_ledger.replays.receipts.records import DecisionSigned, PlayerKey, find, player_key_id, players_of
from mtg_ledger.replays.receipts.signing import b64, public_key
from mtg_ledger.replays.service.errors import Conflict, Unauthorized, Unprocessable

Map = dict[str, Any]
STRIPES = 64
KEYS_KEPT = 10_000  # players' keys this process keeps once found


def viewer_of(holder: str) -> Viewer:
    return JUDGE if holder == JUDGE_HOLDER else holder


class Games:
    """The application service of the HTTP routes."""

    def __init__(self, ledger: Ledger, signing: Map | None = None) -> None:
        self.ledger = ledger
        self.tokens = TokenBook(ledger)
        self.receipts = ReceiptBook(ledger, signing)  # ``signing``: MTG_LEDGER_SIGNING_KEY, when the key is a file
        self._locks = [threading.Lock() for _ in range(STRIPES)]
        self._keys: dict[UUID, PlayerKey] = {}  # players' registered keys, by id (``_player_key``)

    def lock(self, game_id: UUID) -> threading.Lock:
        return self._locks[game_id.int % STRIPES]

    # --- creating games --------------------------------------------------------------------

    def create(self, body: Setup) -> Map:
        setup = setup_of(body, "body")
        names = [p["name"] for p in setup["players"]]
        _no_judge_seat(names)
        game_id = uuid4()
        tokens, records = issue(str(game_id), [*names, JUDGE_HOLDER])
        given = _keys(body, names)
        keys = [PlayerKey(game=str(game_id), player=name, public=public, since=0, proof=proof) for name, (public, proof) in given.items()]
        self.ledger.start(setup, game_id, also=[*records, *keys])
        for k in keys:
            self._keep_key(k)
        out: Map = {"game": str(game_id), "version": self.ledger.state_now(game_id).version, "tokens": tokens}
        if given:
            out["registrations"] = {name: self._registration(game_id, name, public, 0) for name, (public, _) in given.items()}
        return out

    def _registration(self, game_id: UUID, player: str, public: str, since: int) -> Map:
        """The service's signature of a player's key registration, which the player keeps."""
        key = self.receipts.key
        return {"key": key.id, "signature": b64(key.sign(registration_message(str(game_id), player, public, since)))}

    def import_log(self, data: bytes) -> Map:
        """A log file from a client: refused whole (422) unless it reads, chains, upgrades and replays clean."""
        header, events = logfile.read_bytes(data, logfile.UPLOAD_LIMITS)
        game_id = uuid4()
        started = events[0] if events and isinstance(events[0], dict) else {}
        players: Any = started.get("players")
        names = [p["name"] for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)] if isinstance(players, list) else []
        tokens, records = self._tokens_for(game_id, names)
        try:  # checked whole (header, chain, schema, every decision by replay); stored with its tokens, or nothing
            self.ledger.import_log(header, events, game_id, also=records)
        except (logfile.UnreadableLog, SchemaError):
            raise
        except Exception as e:  # noqa: BLE001 - a file from someone else whose fields the checks cannot even read
            get_logger().warning("uploaded log refused: its checks failed", error=f"{type(e).__name__}: {e}")
            raise logfile.UnreadableLog(Phrase("read.refused_unreadable", {"error": type(e).__name__})) from None
        return {"game": str(game_id), "tokens": tokens}

    def branch(self, game_id: UUID, at: int) -> Map:
        new_id = uuid4()
        tokens, records = self._tokens_for(new_id, list(self.ledger.state(game_id, 1).turn_order))
        self.ledger.branch(game_id, at, new_id, also=records)  # the branch and its tokens in one transaction
        return {"game": str(new_id), "tokens": tokens}

    @staticmethod
    def _tokens_for(game_id: UUID, names: list[str]) -> tuple[Map, list[Any]]:
        return issue(str(game_id), [*names, JUDGE_HOLDER] if JUDGE_HOLDER not in names else [*names])

    # --- acting ------------------------------------------------------------------------------

    def act(self, game_id: UUID, player: str, action: Decision, key: str | None, signed: tuple[bytes, str | None] = (b"", None)) -> Map:
        """One decision as ``player``; with ``key``, answered once and stored once, whoever retries.
        ``signed``: the body as sent and its ``Signature``, which a player with a key must give."""
        given = getattr(action, "player", None)
        if given is not None and given != player:
            raise Unprocessable(f"body.player: {given!r} is not this token's player, {player!r}: leave \"player\" out, or name {player!r}", field="body.player")
        # the same request with or without its own player's name (what an Idempotency-Key's record is checked against)
        asked = _Asked(player, action, key, fingerprint(action.model_dump(mode="json", exclude={"player"})) if key is not None else "", signed)
        registration = player_key_id(str(game_id), player)
        with self.lock(game_id):
            if self.ledger.decides_unread:
                # Nothing read first: the decision is taken on the game as this process holds it, and its save
                # stands only if it follows the store's last event (else it is taken again on the game as
                # stored) and the player still has no key, when none is known here; a retry's idempotency
                # record is not saved twice (the store's unique key), so a retry fails, then finds the first answer.
                known = registration in self._keys
                try:
                    return self._take(game_id, asked, None, known, () if known else (registration,))
                except StreamNotEmpty:
                    pass  # the player has registered a key meanwhile (another process): as below, on what is stored now
            # What the store holds now, in one statement: the game's last version, and whether the player has
            # registered a key or this request was answered before (a retry that waited for this lock finds
            # the first answer here).
            answer = record_id(str(game_id), player, key) if key is not None else None
            stored = self.ledger.versions(game_id, registration, *([answer] if answer is not None else []))
            if key is not None and answer is not None and stored[answer]:  # (else nothing to read)
                first = self._answered(game_id, player, key, asked.printed)
                if first is not None:
                    return first
            return self._take(game_id, asked, stored[game_id], bool(stored[registration]), ())

    def _take(self, game_id: UUID, asked: _Asked, stored: int | None, registered: bool, absent: tuple[UUID, ...]) -> Map:
        """The decision taken and stored with its records (its signature, its idempotency record); ``stored``:
        the game's last version as just read (None: as this process holds it); ``registered``: whether the
        player has a key, whose signature the decision then needs. Whatever refuses it, a request answered
        before (``asked.key``) gets that first answer instead."""
        player, key = asked.player, asked.key
        expected = getattr(asked.action, "expected_version", None)
        try:
            state = self.ledger.state_now(game_id) if stored is None else self.ledger.current(game_id, stored).state
            command = asked.action.to_command(player, list(state.turn_order), "body")  # a body is a player's decision: never pass_until
            response: Map = {}
            proof = self._signed(game_id, player, expected, *asked.signed) if registered else None

            def records(game: Game, new: list[Map]) -> list[Any]:
                events, receipt = self.receipts.decided(game_id, game.version, new, player)  # its head remembered once stored
                response.update(version=game.version, events=events, receipt=receipt)
                kept: list[Any] = [] if proof is None else [DecisionSigned(**proof)]  # made anew for each save tried
                if key is None:
                    return kept
                return [*kept, IdempotencyRecord(game=str(game_id), holder=player, key=key, fingerprint=asked.printed, status=200, response=response)]

            self.ledger.decide(game_id, command, expected, records, stored, absent)
        except StreamNotEmpty:
            raise
        except Exception:
            first = self._answered(game_id, player, key, asked.printed) if key is not None else None
            if first is not None:  # the same request, answered before (by another process, or while this one waited)
                return first
            raise
        self.receipts.remember(game_id, response["version"], bytes.fromhex(response["receipt"]["head"]))
        return response

    def _signed(self, game_id: UUID, player: str, version: int | None, raw: bytes, signature: str | None) -> Map | None:
        """The fields of a signed decision's record (``DecisionSigned``), for a player with a key (``Unauthorized`` without a valid signature).
        A signed decision names the version it was signed at (``expected_version``): it is stored at that
        version or not at all (``decide`` refuses any other with 409), so the audit finds its signature there."""
        registered = self._player_key(game_id, player)
        if registered is None:
            return None
        if not signature:
            raise Unauthorized(say("receipt.signature_needed", {"player": player}))
        if version is None:
            raise Unprocessable(say("receipt.signed_without_version", {"player": player}), field="body.expected_version")
        try:
            body = canonical_body(json.loads(raw))
        except ValueError:
            body = ""
        if not signed_by(registered.public, signature, str(game_id), version, body):
            raise Unauthorized(say("receipt.not_their_signature", {"player": player, "version": version}))
        return {"game": str(game_id), "expected": version, "player": player, "body": body, "signature": signature}

    def _player_key(self, game_id: UUID, player: str) -> PlayerKey | None:
        """A player's registered key: read from the store until found, then kept (a key, once
        registered, never changes: a second registration is refused)."""
        key_id = player_key_id(str(game_id), player)
        found = self._keys.get(key_id)
        if found is None:
            stored = find(self.ledger, key_id)
            if not isinstance(stored, PlayerKey):
                return None
            found = self._keep_key(stored)
        return found

    def _keep_key(self, key: PlayerKey) -> PlayerKey:
        """A player's key, stored: kept (``act`` then asks no more whether the player has one)."""
        if len(self._keys) >= KEYS_KEPT:
            self._keys.clear()
        self._keys[player_key_id(key.game, key.player)] = key
        return key

    def register_key(self, game_id: UUID, player: str, public: str, since: int, proof: str) -> Map:
        """A player's key, registered at the game's version ``since`` (409 if it has moved on) with its own
        signature of the registration (``proof``: the key is theirs, and no weak key)."""
        if public_key(public) is None:
            raise Unprocessable(say("receipt.not_a_public_key", {"field": "body.public"}), field="body.public")
        if not proof_holds(public, proof, str(game_id), player, since):
            raise Unprocessable(say("receipt.no_proof", {"field": "body.proof", "player": player, "since": since}), field="body.proof")
        with self.lock(game_id):
            if find(self.ledger, player_key_id(str(game_id), player)) is not None:
                raise Conflict(say("receipt.key_taken", {"player": player}))
            now = self.ledger.current(game_id).version
            if now != since:
                raise Conflict(say("receipt.key_since_moved", {"since": since, "version": now}))
            registered = PlayerKey(game=str(game_id), player=player, public=public, since=since, proof=proof)
            try:
                self.ledger.save(registered)
            except IntegrityError:
                raise Conflict(say("receipt.key_taken", {"player": player})) from None
            self._keep_key(registered)
        return {"game": str(game_id), "player": player, "public": public, "since": since, "registration": self._registration(game_id, player, public, since)}

    def receipt(self, game_id: UUID) -> Map:
        """The receipt of the game's latest version."""
        with self.lock(game_id):
            version = self.ledger.current(game_id).version
            return self.receipts.receipt(game_id, version)


    def openings(self, game_id: UUID) -> Map:
        """Every hidden value of an ended game with its salt, for every holder: each player checks every
        commitment they were shown (409 while the game goes on)."""
        with self.lock(game_id):
            game = self.ledger.current(game_id)
        if not game.state.ended:
            raise Conflict(say("receipt.not_ended", {"game": str(game_id)}))
        events = self.ledger.event_maps(game_id, None, game.version)
        return {"game": str(game_id), "version": game.version, "openings": self.receipts.openings(game_id, events)}

    def _answered(self, game_id: UUID, player: str, key: str, printed: str) -> Map | None:
        record = answered(self.ledger, str(game_id), player, key)
        if record is None:
            return None
        if record.fingerprint != printed:
            raise Unprocessable("this Idempotency-Key was used with another body: nothing was done", field="header.Idempotency-Key")
        return dict(record.response)

    # --- reading -----------------------------------------------------------------------------

    def state(self, game_id: UUID, viewer: Viewer, at: int | None) -> Map:
        if at is None:
            with self.lock(game_id):
                return view(self.ledger.current(game_id).state, viewer)
        latest = self.version(game_id)
        if not 1 <= at <= latest:
            raise Unprocessable(f"at={at}: game {game_id} has events 1 to {latest}", field="query.at")
        return view(self.ledger.state(game_id, at), viewer)

    def version(self, game_id: UUID) -> int:
        with self.lock(game_id):
            return self.ledger.current(game_id).version

    def decision(self, game_id: UUID, viewer: Viewer) -> Map:
        with self.lock(game_id):
            state = self.ledger.current(game_id).state
            found = choices(state)
            decision = found.decision
            out: Map = {"version": state.version, "player": None, "kind": None, "rule": None, "legal": [], "complete": True, "shapes": []}
            if decision is None:
                return out
            out.update(player=decision.player, kind=decision.kind, rule=decision.rule_cited)
            if isinstance(viewer, Judge) or viewer == decision.player:
                out["legal"] = [action_json(c, with_player=False) for c in found.actions]
                out["complete"] = found.complete
                out["shapes"] = found.shapes
            else:
                out.update(legal=None, complete=None, shapes=None)
            return out

    def events(self, game_id: UUID, viewer: Viewer, first: int | None = None) -> Iterator[Map]:
        for e in self.ledger.event_maps(game_id, first):
            yield self.receipts.view(game_id, e, viewer)

    def export(self, game_id: UUID) -> bytes:
        out = io.BytesIO()
        self.ledger.export_log(game_id, out)  # as recorded, each row checked against the chain
        return out.getvalue()

    def audit(self, game_id: UUID, lang: str, receipts: list[Any] | None = None) -> Map:
        """The audit report; with ``receipts`` (each named by its place in the body), each checked against the log."""
        events, versions = self.ledger.recorded_log(game_id)
        report = audit(str(game_id), events, versions=versions)
        if receipts is not None:
            from mtg_ledger.replays.receipts.audit import add_receipt_findings
            from mtg_ledger.replays.receipts.records import game_secret
            from mtg_ledger.replays.receipts.signing import published

            named = [(f"receipts[{i}]", r) for i, r in enumerate(receipts)]
            add_receipt_findings(report, events, versions, game_secret(self.ledger, str(game_id), create=False), named, published(self.ledger))
        players = players_of(self.ledger, game_id)
        report.findings.extend(stored_decision_findings(self.ledger, str(game_id), players, report.decisions))
        return report.to_json(lang)


@dataclass(frozen=True)
class _Asked:
    """One request for a decision: its player (the token's), its body, its Idempotency-Key and the body's
    fingerprint (``printed``, "" without a key), the raw body and its ``Signature``."""

    player: str
    action: Decision
    key: str | None
    printed: str
    signed: tuple[bytes, str | None]


def _keys(body: Setup, names: list[str]) -> dict[str, tuple[str, str]]:
    """``keys`` of a new game's body: players' public keys and their proofs (over no game id, version 0), each checked."""
    given = getattr(body, "keys", None) or {}
    out = {}
    for name, key in given.items():
        if name not in names:
            raise Unprocessable(f"body.keys.{name}: not a player of this game (players: {', '.join(names)})", field=f"body.keys.{name}")
        if public_key(key.public) is None:
            raise Unprocessable(say("receipt.not_a_public_key", {"field": f"body.keys.{name}.public"}), field=f"body.keys.{name}.public")
        if not proof_holds(key.public, key.proof, "", name, 0):
            raise Unprocessable(say("receipt.no_proof", {"field": f"body.keys.{name}.proof", "player": name, "since": 0}), field=f"body.keys.{name}.proof")
        out[name] = (key.public, key.proof)
    return out


def _no_judge_seat(names: list[str]) -> None:
    if JUDGE_HOLDER in names:
        raise Unprocessable(f"a player may not be called {JUDGE_HOLDER!r}: that is the judge's token", field="body.players")


__all__ = ["Games", "RulesError", "viewer_of"]
