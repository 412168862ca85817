"""Audit with receipts (docs/receipts.md): a log handed to a judge is, or is not, the game the receipts'
holder played. A rewrite, a cut or a fork made after a receipt is a finding naming the receipt and the
first version where the log differs, whether the hashes were recomputed or not; an altered receipt is
refused; the service's key survives a restart, and a rotated key keeps its receipts verifiable."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from mtg_ledger.core.commands import Concede
from mtg_ledger.core.hashing import GENESIS_HASH, chain
from mtg_ledger.replays import logfile
from mtg_ledger.replays.cli import main
from mtg_ledger.replays.demo import policy
from mtg_ledger.replays.demo.decks import demo_setup
from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.receipts import player
from mtg_ledger.replays.receipts.book import ReceiptBook
from mtg_ledger.replays.receipts.check import receipt_findings
from mtg_ledger.replays.receipts.records import game_secret
from mtg_ledger.replays.receipts.signing import keys_document, published, rotate, signing_key

DECISIONS = 60


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.sqlite")


@pytest.fixture
def ledger(db: str) -> Iterator[Ledger]:
    opened = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
    yield opened
    opened.close()


def _play(ledger: Ledger, book: ReceiptBook, decisions: int = DECISIONS) -> tuple[UUID, list[dict[str, Any]]]:
    """A demo game's first decisions, and the receipt of every version, as a player who follows it keeps them."""
    game = ledger.start(demo_setup(7))
    for _ in range(decisions):
        command = policy.choose(ledger.state_now(game))
        assert command is not None
        ledger.decide(game, command)
    return game, [book.receipt(game, v) for v in range(1, ledger.last_version(game) + 1)]


def _audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["audit", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def _receipt_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["kind"] == "receipt"]


def _write(path: Path, game: UUID, events: list[dict[str, Any]], secret: list[tuple[int, bytes]] | None, rehash: bool = True) -> str:
    """A log file of these events, as a forger with the store would write it: the chain recomputed (``rehash``)."""
    if rehash:
        previous = GENESIS_HASH
        for e in events:
            e["hash"] = previous = chain(previous, e)
    logfile.write(path, str(game), events, receipts=None if secret is None else {"secret": secret[0][1].hex()})
    return str(path)


def _saved(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_receipts_of_every_version_agree_with_the_stored_game_and_its_exported_log(
    ledger: Ledger, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger))
    kept = _saved(tmp_path, "alice.json", receipts)
    code, report = _audit(capsys, str(game), "--db", db, "--receipts", kept)
    assert (code, report["clean"]) == (0, True)
    assert main(["export", str(game), "--db", db, "-o", str(tmp_path / "game.mtgl")]) == 0
    keys = _saved(tmp_path, "keys.json", keys_document(published(ledger)))
    code, report = _audit(capsys, str(tmp_path / "game.mtgl"), "--keys", keys, "--receipts", kept)
    assert (code, report["clean"]) == (0, True)


def test_a_fork_after_a_receipt_is_caught_at_the_first_event_that_differs_even_though_the_log_audits_clean(
    ledger: Ledger, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store replaces the game from a decision on with other legal decisions (a concession, 104.3a),
    every hash recomputed by the engine itself: the log alone audits clean; the receipts do not agree."""
    book = ReceiptBook(ledger)
    game, receipts = _play(ledger, book)
    events, _ = ledger.recorded_log(game)
    at = next(e["v"] for e in reversed(events[: len(events) // 2]) if e["type"] == "PriorityGiven")
    fork = ledger.branch(game, at)
    ledger.decide(fork, Concede(ledger.state_now(fork).priority or ""))
    forged, _ = ledger.recorded_log(fork)
    path = _write(tmp_path / "forged.mtgl", game, forged, game_secret(ledger, str(game)), rehash=False)
    keys = _saved(tmp_path, "keys.json", keys_document(published(ledger)))
    clean_code, clean = _audit(capsys, path)
    assert (clean_code, clean["clean"]) == (0, True)  # a legal game, its chain whole
    code, report = _audit(capsys, path, "--keys", keys, "--receipts", _saved(tmp_path, "r.json", receipts))
    found = _receipt_findings(report)
    assert code == 1 and report["first"] == at + 1
    assert found[0]["version"] == at + 1 and found[0]["message_id"] == "receipt.differs_at"
    assert found[0]["params"]["receipt"].endswith(f"r.json[{at}]")  # the receipt of version at + 1, the first that disagrees


def test_a_rewrite_of_a_hidden_card_with_every_hash_recomputed_is_caught_at_that_event(
    ledger: Ledger, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """121.1: the store swaps a card a player drew for another and recomputes the chain."""
    game, receipts = _play(ledger, ReceiptBook(ledger))
    events, _ = ledger.recorded_log(game)
    drawn = next(e for e in events if e["type"] == "CardDrawn" and e["v"] > 30)
    drawn["card"] = "Lightning Bolt" if drawn["card"] != "Lightning Bolt" else "Forest"
    path = _write(tmp_path / "rewritten.mtgl", game, events, game_secret(ledger, str(game)))
    keys = _saved(tmp_path, "keys.json", keys_document(published(ledger)))
    only_last = _saved(tmp_path, "last.json", receipts[-1])  # one receipt: the log differs at its version or before
    code, report = _audit(capsys, path, "--keys", keys, "--receipts", only_last)
    assert code == 1 and _receipt_findings(report)[0]["message_id"] == "receipt.differs_after"
    code, report = _audit(capsys, path, "--keys", keys, "--receipts", _saved(tmp_path, "all.json", receipts))
    found = _receipt_findings(report)
    assert code == 1 and {f["version"] for f in found} == {drawn["v"]}  # every later receipt disagrees too, from that event on
    assert found[0]["message_id"] == "receipt.differs_at" and found[0]["params"]["version"] == drawn["v"]


def test_a_rewrite_without_recomputing_the_hashes_is_caught_by_the_chain_and_by_the_receipt(
    ledger: Ledger, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger))
    events, _ = ledger.recorded_log(game)
    passed = next(e for e in events if e["type"] == "PriorityPassed" and e["v"] > 40)
    passed["player"] = "bob" if passed["player"] == "alice" else "alice"
    path = _write(tmp_path / "edited.mtgl", game, events, game_secret(ledger, str(game)), rehash=False)
    keys = _saved(tmp_path, "keys.json", keys_document(published(ledger)))
    code, report = _audit(capsys, path, "--keys", keys, "--receipts", _saved(tmp_path, "all.json", receipts))
    assert code == 1
    assert {(f["kind"], f["version"]) for f in report["findings"]} >= {("integrity", passed["v"]), ("receipt", passed["v"])}


def test_a_log_cut_after_a_receipt_is_caught_even_with_its_header_rewritten(
    ledger: Ledger, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger))
    events, _ = ledger.recorded_log(game)
    cut = len(events) - 7
    path = _write(tmp_path / "cut.mtgl", game, events[:cut], game_secret(ledger, str(game)), rehash=False)
    keys = _saved(tmp_path, "keys.json", keys_document(published(ledger)))
    assert _audit(capsys, path)[0] == 0  # a shorter log, consistent with itself
    code, report = _audit(capsys, path, "--keys", keys, "--receipts", _saved(tmp_path, "last.json", receipts[-1]))
    (finding,) = _receipt_findings(report)  # one receipt: the log is cut, and nothing vouches for what is left
    assert code == 1 and finding["message_id"] == "receipt.cut" and finding["params"]["count"] == cut
    code, report = _audit(capsys, path, "--keys", keys, "--receipts", _saved(tmp_path, "all.json", receipts))
    found = _receipt_findings(report)  # the receipts up to the cut agree: the log differs from event cut + 1 on
    assert code == 1 and len(found) == 7 and {(f["message_id"], f["version"]) for f in found} == {("receipt.cut", cut + 1)}


def test_a_receipt_whose_signature_game_version_or_key_was_altered_is_refused(ledger: Ledger) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger), 10)
    events = list(ledger.event_maps(game))
    secret = game_secret(ledger, str(game))
    keys = published(ledger)
    genuine = receipts[-1]
    other_key = next(iter(keys))[::-1]
    altered = {
        "signature": {**genuine, "signature": receipts[-2]["signature"]},
        "game": {**genuine, "game": "00000000-0000-4000-8000-000000000000"},
        "version": {**genuine, "version": genuine["version"] - 1},
        "head": {**genuine, "head": receipts[-2]["head"]},
        "key": {**genuine, "key": other_key},
    }
    assert receipt_findings(str(game), events, secret, [("genuine", genuine)], keys) == []
    for what, receipt in altered.items():
        found = receipt_findings(str(game), events, secret, [(what, receipt)], keys)
        assert [f.message_id for f in found] == ["receipt.refused"], what
        assert player.check(events, receipt, keys) in ("receipt.bad_signature", "receipt.unknown_key"), what


def test_two_genuine_receipts_of_one_version_with_different_heads_prove_a_fork(ledger: Ledger) -> None:
    book = ReceiptBook(ledger)
    game, receipts = _play(ledger, book, 10)
    events = list(ledger.event_maps(game))
    other = book.key.receipt(str(game), receipts[-1]["version"], bytes(32))
    found = receipt_findings(str(game), events, game_secret(ledger, str(game)), [("mine", receipts[-1]), ("theirs", other)], published(ledger))
    assert "receipt.fork" in [f.message_id for f in found]


def test_the_signing_key_survives_a_restart_and_a_rotated_key_keeps_its_receipts_verifiable(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db}
    first = Ledger(env=env)
    game, receipts = _play(first, ReceiptBook(first), 5)
    made = signing_key(first).id
    first.close()
    again = Ledger(env=env)
    assert signing_key(again).id == made  # a restart signs with the same key
    new = rotate(again)
    assert new.id != made and signing_key(again).id == new.id and list(published(again)) == [made, new.id]
    events = list(again.event_maps(game))
    assert receipt_findings(str(game), events, game_secret(again, str(game)), [("old", receipts[-1])], published(again)) == []
    again.close()
    capsys.readouterr()
    assert main(["keys", "--db", db, "--json"]) == 0
    assert [k["id"] for k in json.loads(capsys.readouterr().out)["keys"]] == [new.id, made]


def test_a_signing_key_given_by_a_file_signs_and_is_published(ledger: Ledger, tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    pem = Ed25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    (tmp_path / "key.pem").write_bytes(pem)
    book = ReceiptBook(ledger, {"MTG_LEDGER_SIGNING_KEY": str(tmp_path / "key.pem")})
    game, receipts = _play(ledger, book, 3)
    assert receipts[-1]["key"] == book.key.id and book.key.id in published(ledger)
    assert signing_key(ledger).id != book.key.id  # without the file, the store makes a key of its own


def test_receipt_findings_are_said_in_french(ledger: Ledger, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger), 5)
    forged = {**receipts[-1], "signature": receipts[0]["signature"]}
    capsys.readouterr()
    code = main(["audit", str(game), "--db", db, "--lang", "fr", "--receipts", _saved(tmp_path, "r.json", forged)])
    out = capsys.readouterr().out
    assert code == 1 and "(reçu)" in out and "est refusé : sa signature n'est pas celle de la clé" in out


def test_the_receipt_verb_prints_the_latest_receipt_for_a_player_of_the_game(ledger: Ledger, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger), 4)
    capsys.readouterr()
    assert main(["receipt", str(game), "--db", db, "--as", "alice", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["version"] == receipts[-1]["version"] and printed["head"] == receipts[-1]["head"]
    assert main(["receipt", str(game), "--db", db, "--as", "mallory"]) == 2
    assert "not a player" in capsys.readouterr().err


def test_a_player_s_events_on_the_command_line_carry_the_commitments_that_rebuild_the_receipts(
    ledger: Ledger, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game, receipts = _play(ledger, ReceiptBook(ledger), 8)
    capsys.readouterr()
    assert main(["events", str(game), "--db", db, "--as", "bob"]) == 0
    views = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any("commitments" in v for v in views) and all("hash" not in v for v in views)
    assert [player.check(views, r, published(ledger)) for r in receipts[::7]] == [None] * len(receipts[::7])


def test_serve_refuses_a_signing_key_file_that_holds_no_key(db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "key.pem").write_text("not a key\n")
    monkeypatch.setenv("MTG_LEDGER_SIGNING_KEY", str(tmp_path / "key.pem"))
    assert main(["serve", "--db", db, "--port", "0"]) == 2
    assert "MTG_LEDGER_SIGNING_KEY" in capsys.readouterr().err
    monkeypatch.setenv("MTG_LEDGER_SIGNING_KEY", str(tmp_path / "missing.pem"))
    assert main(["keys", "--db", db]) == 2


def test_receipts_forged_with_the_accusers_own_key_are_refused_under_the_services_id_and_flagged_otherwise(
    ledger: Ledger, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dishonest player signs two receipts with their own key and lists it in the keys they hand in: under
    the service's key id it is refused (a key's id is its own sha256), under its own id the judge's store
    says it is no key of this service; the report says which keys it used."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from mtg_ledger.replays.receipts.signing import SigningKey, b64, raw_public

    book = ReceiptBook(ledger)
    game, receipts = _play(ledger, book, 10)
    genuine = receipts[-1]
    mine = SigningKey.of(Ed25519PrivateKey.generate())
    forged = [mine.receipt(str(game), genuine["version"], bytes(32)), genuine]
    service_id = genuine["key"]
    lying = {service_id: b64(raw_public(mine.private.public_key()))}  # my key under the service's id
    forged_as_service = [{**forged[0], "key": service_id}, genuine]
    code, report = _audit(capsys, str(game), "--db", db, "--receipts", _saved(tmp_path, "r1.json", forged_as_service), "--keys", _saved(tmp_path, "k1.json", keys_document(lying)))
    refused = [f["message"] for f in _receipt_findings(report) if f["message_id"] == "receipt.refused"]
    assert code == 1 and "receipt.fork" not in [f["message_id"] for f in report["findings"]]
    assert len(refused) == 2 and all(f"names key {service_id}, but the key given under that id is another" in r for r in refused)
    own = {**published(ledger), mine.id: b64(raw_public(mine.private.public_key()))}
    keys_file = _saved(tmp_path, "k2.json", keys_document(own))
    code, report = _audit(capsys, str(game), "--db", db, "--receipts", _saved(tmp_path, "r2.json", forged), "--keys", keys_file)
    not_ours = [f for f in report["findings"] if f["message_id"] == "receipt.key_not_in_store"]
    assert code == 1 and [f["params"]["key"] for f in not_ours] == [mine.id]
    assert report["notices"] == [f"receipts checked against the keys of {keys_file}"]
    code, report = _audit(capsys, str(game), "--db", db, "--receipts", _saved(tmp_path, "r3.json", [genuine]))
    assert code == 0 and report["notices"] == [f"receipts checked against the service keys of {db}"]


def test_one_file_imported_twice_and_played_on_shares_no_salt_after_its_events(ledger: Ledger, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The file's secret salts only the versions it holds: a copy played on salts what follows with a
    secret of its own, so a salt one copy shows a player opens nothing in the other. The original's
    receipts still hold against each copy, up to the file's end."""
    game, receipts = _play(ledger, ReceiptBook(ledger), 20)
    count = ledger.last_version(game)
    assert main(["export", str(game), "--db", db, "-o", str(tmp_path / "game.mtgl")]) == 0
    copies = [str(tmp_path / f"copy{i}.sqlite") for i in (1, 2)]
    salts = []
    for copy in copies:
        assert main(["import", str(tmp_path / "game.mtgl"), "--db", copy]) == 0
        other = Ledger(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": copy})
        for _ in range(10):  # played on, each copy its own way as far as the salts go
            command = policy.choose(other.state_now(game))
            assert command is not None
            other.decide(game, command)
        salts.append(ReceiptBook(other).salts(game))
        other.close()
        code, report = _audit(capsys, str(game), "--db", copy, "--receipts", _saved(tmp_path, "r.json", receipts), "--keys", _saved(tmp_path, "k.json", keys_document(published(ledger))))
        assert code == 1 and {f["message_id"] for f in report["findings"]} == {"receipt.key_not_in_store"}  # every receipt agrees
    original = ReceiptBook(ledger).salts(game)
    assert all(s.salt(v, "card") == original.salt(v, "card") for s in salts for v in (1, count))
    assert all(salts[0].salt(v, "card") != salts[1].salt(v, "card") for v in range(count + 1, count + 30))


def test_one_secret_salts_two_games_differently() -> None:
    """The game's id is part of the salt key: a secret copied to another game gives none of its salts."""
    from mtg_ledger.replays.receipts.commitments import Salts, new_secret

    secret = [(1, new_secret())]
    a, b = Salts("3f1c2d4e-0000-4000-8000-00000000000a", secret), Salts("3f1c2d4e-0000-4000-8000-00000000000b", secret)
    assert all(a.salt(v, path) != b.salt(v, path) for v in range(1, 50) for path in ("card", "order", "players.0.hand"))


def test_a_player_key_the_store_put_in_without_its_own_proof_is_a_finding(ledger: Ledger, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Whoever holds the store can write a player's key record; without the key's own signature of its
    registration the audit says so, and a player who gives the key they registered sees it is not theirs."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from mtg_ledger.replays.receipts.records import PlayerKey, players_of
    from mtg_ledger.replays.receipts.signing import b64, raw_public

    game, _ = _play(ledger, ReceiptBook(ledger), 5)
    name = players_of(ledger, game)[0]
    planted = b64(raw_public(Ed25519PrivateKey.generate().public_key()))
    ledger.save(PlayerKey(game=str(game), player=name, public=planted, since=ledger.last_version(game)))
    code, report = _audit(capsys, str(game), "--db", db)
    assert code == 1 and [(f["message_id"], f["params"]["player"]) for f in report["findings"]] == [("receipt.key_unproven", name)]
    theirs = b64(raw_public(Ed25519PrivateKey.generate().public_key()))
    code, report = _audit(capsys, str(game), "--db", db, "--player-key", f"{name}={theirs}")
    assert code == 1 and "receipt.player_key_differs" in [f["message_id"] for f in report["findings"]]
