"""The verbs of receipts (docs/receipts.md): ``receipt`` (the service's signed receipt of a game's latest
version), ``keys`` (the service's public keys; ``--rotate`` makes a new signing key), and what ``audit
--receipts`` reads: receipt files and the keys that verify them."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any
from uuid import UUID

from mtg_ledger.core.errors import Phrase
from mtg_ledger.replays.cli import names
from mtg_ledger.replays.cli.errors import UserError
from mtg_ledger.replays.cli.store import Store
from mtg_ledger.replays.cli.verbs import _viewer, emit
from mtg_ledger.replays.logfile import Finding
from mtg_ledger.replays.messages import say
from mtg_ledger.replays.receipts.book import ReceiptBook
from mtg_ledger.replays.receipts.signing import SIGNING_KEY_ENV, keys_document, load_file, published, rotate


def cmd_receipt(store: Store, args: argparse.Namespace) -> int:
    ledger = store.ledger
    game = names.game(store, args.game)
    version = ledger.last_version(game)
    if not version:
        raise UserError(f"no game {game} in {store.where(ledger)}")
    if args.as_player:
        _viewer(ledger, game, args.as_player)  # a player of the game (every holder gets the same receipt)
    if args.openings:
        return _openings(ledger, game, args.json)
    receipt = ReceiptBook(ledger, signing_env()).receipt(game, version)
    if args.json:
        emit(receipt)
    else:
        print(f"game      {receipt['game']}\nversion   {receipt['version']}\nhead      {receipt['head']}\n"
              f"key       {receipt['key']}\nsignature {receipt['signature']}")
    return 0


def _openings(ledger: Any, game: UUID, as_json: bool) -> int:
    """``receipt --openings``: what ``GET /games/{id}/openings`` gives, once the game has ended."""
    state = ledger.state_now(game)
    if not state.ended:
        raise UserError(say("receipt.not_ended", {"game": str(game)}))
    document = {"game": str(game), "version": state.version,
                "openings": ReceiptBook(ledger).openings(game, ledger.event_maps(game, None, state.version))}
    if as_json:
        emit(document)
    else:
        for event in document["openings"]:
            for path, opened in event["openings"].items():
                print(f"{event['v']}  {path}  {opened['salt']}  {json.dumps(opened['value'], ensure_ascii=False)}")
    return 0


def cmd_keys(store: Store, args: argparse.Namespace) -> int:
    ledger = store.ledger
    book = ReceiptBook(ledger, signing_env())
    if args.rotate:
        rotate(ledger)
    else:
        book.ready()  # made now if the store has none, as the service does on its first start
    document = keys_document(published(ledger))
    if args.json:
        emit(document)
    else:
        for key in document["keys"]:
            print(f"{key['id']}  {key['alg']}  {key['public']}")
    return 0


def signing_env() -> dict[str, str]:
    """``MTG_LEDGER_SIGNING_KEY``, when set: it must name a readable Ed25519 private key (PEM)."""
    path = os.environ.get(SIGNING_KEY_ENV)
    if not path:
        return {}
    try:
        load_file(path)
    except OSError as e:
        raise UserError(f"{SIGNING_KEY_ENV}={path}: cannot read the signing key: {e.strerror}") from None
    except (ValueError, TypeError) as e:
        raise UserError(f"{SIGNING_KEY_ENV}={path}: not an Ed25519 private key in PEM, as `openssl genpkey -algorithm ed25519` writes it ({e})") from None
    return {SIGNING_KEY_ENV: path}


def read_receipts(paths: list[str]) -> list[tuple[str, Any]]:
    """Each file's receipts, each named by its file (and its place in the file's array)."""
    out: list[tuple[str, Any]] = []
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as e:
            raise UserError(f"--receipts {path}: cannot read: {e.strerror}") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise UserError(f"--receipts {path}: not JSON ({e})") from None
        if isinstance(data, list):
            out.extend((f"{path}[{i}]", r) for i, r in enumerate(data))
        else:
            out.append((path, data))
    return out


def read_keys(store: Store, path: str | None) -> dict[str, str]:
    """The public keys that verify receipts: a ``GET /keys`` answer saved to a file, or the store's."""
    if path is None:
        try:
            return published(store.ledger)
        except Exception as e:  # noqa: BLE001 - no store to ask: say what to give instead
            raise UserError(f"--receipts needs the service's public keys: --keys FILE (the answer of GET /keys), or a store that keeps them ({e})") from None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return {k["id"]: k["public"] for k in data["keys"] if isinstance(k, dict) and isinstance(k.get("id"), str) and isinstance(k.get("public"), str)}
    except OSError as e:
        raise UserError(f"--keys {path}: cannot read: {e.strerror}") from None
    except (ValueError, UnicodeDecodeError, KeyError, TypeError):
        raise UserError(f'--keys {path}: not a list of keys as GET /keys gives it ({{"keys": [{{"id", "alg", "public"}}]}})') from None


def game_secret_of(store: Store, game: UUID) -> list[tuple[int, bytes]] | None:
    from mtg_ledger.replays.receipts.records import game_secret

    return game_secret(store.ledger, str(game), create=False)


def keys_source(store: Store, path: str | None) -> list[Phrase]:
    """The notice that says which keys verified the receipts: a file someone handed in, or the store's."""
    if path is not None:
        return [Phrase("receipt.keys_from_file", {"file": path})]
    return [Phrase("receipt.keys_from_store", {"store": store.where()})]


def keys_not_in_store(store: Store, path: str, keys: dict[str, str]) -> list[Finding]:
    """Each key of a ``--keys`` file that the store's ring does not hold: a receipt it verifies was not
    signed by this service (a judge takes the keys from the service, not from the one who accuses)."""
    ring = published(store.ledger)
    return [Finding.of(0, "receipt", "receipt.key_not_in_store", {"key": kid, "file": path}) for kid in keys if ring.get(kid) != keys[kid]]
