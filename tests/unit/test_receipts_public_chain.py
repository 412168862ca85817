"""The public chain (docs/receipts.md): over random games, every player rebuilds it from their own views
and checks the service's receipts against it, and nothing a player is shown holds a hash of a hidden value
(rules 400.2, 401.2, 402.3) that they could reproduce without the salts: each hidden card is tried
against every card of the pool, unsalted and with every salt the player holds (and 32 zero bytes); and one
value is committed to differently at every version, path and game."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core.hashing import GENESIS_HASH, canonical, chain, sort_keys
from mtg_ledger.core.public import GENESIS, hidden_values, link, public_form, set_path
from mtg_ledger.core.redact import JUDGE, view_of_event
from mtg_ledger.core.schema import SCHEMAS, upgrade
from mtg_ledger.replays.cards import live_pool
from mtg_ledger.replays.receipts import player
from mtg_ledger.replays.receipts.book import shown, value_at
from mtg_ledger.replays.receipts.commitments import Salts, commitment, new_secret
from mtg_ledger.replays.receipts.signing import SigningKey, b64, raw_public
from tests.conftest import examples
from tests.rules.test_random_play import play_randomly

POOL = sorted(live_pool().catalog.names())  # every card, token and back face a hidden value could be
GAME = "3f1c2d4e-0000-4000-8000-000000000000"
RECEIPTS_SINCE = 5  # the schema version that brought receipts


def _signer() -> tuple[SigningKey, dict[str, str]]:
    key = SigningKey.of(Ed25519PrivateKey.generate())
    return key, {key.id: b64(raw_public(key.private.public_key()))}


def _strings(value: Any) -> Iterator[str]:
    """Every string, and every bytes value as hex, anywhere in what a player received."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value.lower()
    elif isinstance(value, bytes):
        yield value.hex()


def _digests(value: Any) -> set[str]:
    """The unsalted hashes anyone could make of a value: of its msgpack (as the chain encodes it), its JSON, its text."""
    packed = msgpack.packb(sort_keys(value), use_bin_type=True)
    texts = [packed, json.dumps(value, sort_keys=True).encode(), json.dumps(value, sort_keys=True, separators=(",", ":")).encode()]
    if isinstance(value, str):
        texts.append(value.encode())
    return {hashlib.sha256(t).hexdigest() for t in texts}


def _guesses(event: dict[str, Any], path: str, previous_hash: str, previous_head: bytes, value: Any) -> set[str]:
    """Every hash a player could compute to test a guess of the hidden value at ``path``: the value itself,
    or each card of the pool in its place (for a single card), alone or inside the whole event, as the
    log's chain (with its true previous hash) or an unsalted public chain would hash it."""
    candidates = [value, *(POOL if isinstance(value, str) else [])]
    out: set[str] = set()
    for guess in candidates:
        out |= _digests(guess)
        whole = json.loads(json.dumps(event))  # a copy
        set_path(whole, path, guess)
        out.add(chain(previous_hash, whole))
        out.add(hashlib.sha256(canonical(whole)).hexdigest())
        unsalted = view_of_event(whole, "nobody")
        out.add(link(previous_head, {**unsalted}).hex())
    return out


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1), decisions=st.integers(1, 300))
def test_every_player_rebuilds_the_public_chain_from_their_views_and_each_receipt_verifies(seed: int, choice_seed: int, decisions: int) -> None:
    events = play_randomly(seed, random.Random(choice_seed), decisions).events
    game = "3f1c2d4e-0000-4000-8000-000000000001"
    salts = Salts(game, [(1, new_secret())])
    key, keys = _signer()
    heads = dict(salts.heads(events))
    chosen = random.Random(seed).sample(sorted(heads), min(5, len(heads)))
    receipts = [key.receipt(game, v, heads[v]) for v in chosen]
    for name in {p["name"] for p in events[0]["players"]}:
        views = [json.loads(json.dumps(shown(salts, e, name))) for e in events]  # as the service sends them
        assert all(player.wrongly_committed(v) == [] for v in views)
        assert dict(player.public_heads(views)) == heads
        assert [player.check(views, r, keys) for r in receipts] == [None] * len(receipts)
        # a player's own draw is opened to them: the salt they are given opens the commitment to the card they see
        own = [v for v in views if v["type"] == "CardDrawn" and v["player"] == name]
        assert all("card" in v.get("salts", {}) for v in own)


def _salted_guesses(views: list[dict[str, Any]], events: list[dict[str, Any]]) -> set[str]:
    """Every commitment a player can make with a salt they hold (each salt they were given, and 32 zero
    bytes) over a guess: each card of the pool, and the true value of every hidden value (which covers a
    hand, a library or an order they could guess whole)."""
    salts = {bytes.fromhex(s) for v in views for s in (v.get("salts") or {}).values()} | {bytes(32)}
    values = {json.dumps(value, sort_keys=True): value for e in events for _, value in hidden_values(e)}
    guesses = [*POOL, *values.values()]
    return {commitment(salt, guess).hex() for salt in salts for guess in guesses}


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1), decisions=st.integers(1, 150))
def test_nothing_a_player_receives_holds_a_hash_of_a_hidden_card_they_could_reproduce_without_the_salts(
    seed: int, choice_seed: int, decisions: int
) -> None:
    """402.3, 401.2: for every hidden value, every guess a player could hash (each card of the pool, the
    true value itself) is absent from their views, the receipts and the public heads."""
    events = play_randomly(seed, random.Random(choice_seed), decisions).events
    game = "3f1c2d4e-0000-4000-8000-000000000002"
    salts = Salts(game, [(1, new_secret())])
    key, _ = _signer()
    heads = dict(salts.heads(events))
    for name in sorted({p["name"] for p in events[0]["players"]}):
        views = [shown(salts, e, name) for e in events]
        receipts = [key.receipt(game, v, heads[v]) for v in heads]
        received = set(_strings([views, receipts]))
        salted = _salted_guesses(views, events)
        previous_hash, previous_head = GENESIS_HASH, GENESIS
        for event, view in zip(events, views, strict=True):
            for path, value in hidden_values(event):
                if value_at(view, path) == value:
                    continue  # theirs to see
                guesses = _guesses(event, path, previous_hash, previous_head, value)
                assert received.isdisjoint(guesses), f"{name} can test guesses of event {event['v']}'s {path}"
                assert view["commitments"][path] not in salted, f"{name} opens event {event['v']}'s {path} with a salt they hold"
            assert event["hash"] not in received  # the log's chain covers hidden cards: never shown to a player
            if event["type"] == "TurnBegan":
                assert event["state_hash"] not in received
            previous_hash, previous_head = event["hash"], heads[event["v"]]


def test_the_public_form_hides_what_redaction_hides_and_nothing_else() -> None:
    """401.2, 402.3: a library's order, an opponent's draw, the seed and the state hash become commitments;
    what every player sees stays as it is."""
    events = play_randomly(11, random.Random(5), 40).events
    salts = Salts(GAME, [(1, new_secret())])
    paths = {e["type"]: {p for p, _ in hidden_values(e)} for e in events}
    assert paths["CardDrawn"] == {"card"} and paths["LibraryShuffled"] == {"order"} and paths["TurnBegan"] == {"state_hash"}
    assert {"seed", "players.0.library", "players.1.library"} <= paths["GameStarted"]
    assert paths["PriorityPassed"] == set()
    drawn = next(e for e in events if e["type"] == "CardDrawn")
    form = public_form(drawn, salts.commit(drawn["v"]))
    assert form["player"] == drawn["player"] and isinstance(form["card"], bytes) and len(form["card"]) == 32
    assert view_of_event(events[-1], JUDGE) == events[-1]  # the judge's copy is the event, as before


def test_a_commitment_opens_only_to_its_value_with_its_salt() -> None:
    """The judge (or a player once given the salts) can check every commitment; another card does not open it."""
    events = play_randomly(3, random.Random(3), 30).events
    salts = Salts(GAME, [(1, new_secret())])
    drawn = next(e for e in events if e["type"] == "CardDrawn")
    ((path, value, salt, commitment),) = salts.openings(drawn)
    from mtg_ledger.replays.receipts.commitments import commitment as commit

    assert commit(salt, value) == commitment
    assert all(commit(salt, other) != commitment for other in POOL if other != value)
    assert Salts(GAME, [(1, new_secret())]).openings(drawn)[0][3] != commitment  # another game's secret, other salts


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1), decisions=st.integers(1, 150))
def test_one_hidden_value_is_committed_to_differently_at_every_version_path_and_game(seed: int, choice_seed: int, decisions: int) -> None:
    """A card drawn twice, the same hand or state hash again: every commitment of a game differs from
    every other, and from every commitment of another game with the same events and the same secret."""
    events = play_randomly(seed, random.Random(choice_seed), decisions).events
    secret = [(1, new_secret())]
    mine, other = Salts(GAME, secret), Salts("3f1c2d4e-0000-4000-8000-0000000000ff", secret)
    ours = [c for e in events for _, _, _, c in mine.openings(e)]
    theirs = {c for e in events for _, _, _, c in other.openings(e)}
    assert ours and len(set(ours)) == len(ours)
    assert theirs.isdisjoint(ours)
    drawn = [e for e in events if e["type"] == "CardDrawn"]
    assert len({mine.commit(e["v"])("card", "Forest") for e in drawn}) == len(drawn)  # one card, at each version


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1), decisions=st.integers(1, 200))
def test_upcasting_never_changes_the_public_chain_of_events_recorded_since_receipts(seed: int, choice_seed: int, decisions: int) -> None:
    """The public chain is computed over each event's current form. A receipt covers only events recorded
    since receipts exist (schema 5): upgrading them from the class versions of every such schema to the
    engine's must leave their public chain as it was, or an upgrade would turn every kept receipt into a
    false rewrite. A new class version must therefore leave those events' public form alone."""
    events = play_randomly(seed, random.Random(choice_seed), decisions).events
    salts = Salts(GAME, [(1, new_secret())])
    recorded = list(salts.heads(events))
    for schema, versions in SCHEMAS.items():
        if schema >= RECEIPTS_SINCE:
            assert list(salts.heads(upgrade(e, versions) for e in events)) == recorded, schema
