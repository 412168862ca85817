"""``replays.stores.pg_notify``: the NOTIFYs after saves, sent by the notifier's thread for the saves of a few
milliseconds together, each game with its last version, in payloads under PostgreSQL's limit; what is pending
is sent at close; a failed NOTIFY is tried once more. No PostgreSQL here: ``send`` is a list."""

from __future__ import annotations

import threading

import pytest

from mtg_ledger.replays.service.notices import games_in
from mtg_ledger.replays.stores import pg_notify
from mtg_ledger.replays.stores.pg_notify import PAYLOAD_BYTES, Channel, Notifier, payloads

WAIT_S = 5.0  # the longest a test waits for the notifier's thread (never reached when it passes)
GAME = "7b1f0c2e-4c7d-4a51-9d55-0f1a2b3c4d5e"
OTHER = "0d6c9b8a-1e2f-4a3b-8c4d-5e6f7a8b9c0d"


class Sent:
    """A ``send`` that keeps what it was given, and says when it was given ``wanted`` payloads."""

    def __init__(self, wanted: int = 1, fail: int = 0) -> None:
        self.payloads: list[str] = []
        self.tries = 0
        self.fail = fail
        self.wanted = wanted
        self.done = threading.Event()

    def __call__(self, text: str) -> None:
        self.tries += 1
        if self.tries <= self.fail:
            raise ConnectionError("the connection went")
        self.payloads.append(text)
        if len(self.payloads) >= self.wanted:
            self.done.set()


def test_a_save_of_a_quiet_moment_is_notified_at_once_and_the_saves_of_the_window_after_it_together() -> None:
    sent = Sent()
    notifier = Notifier(sent, window=60.0)  # the two saves below come within it; close cuts it short
    notifier.add({GAME: 4})
    assert sent.done.wait(WAIT_S)  # at once, not after the window
    notifier.add({OTHER: 9})
    notifier.add({GAME: 7})
    assert sent.payloads == [f"{GAME}:4"]  # the window holds them
    notifier.close()
    assert sent.payloads == [f"{GAME}:4", f"{OTHER}:9,{GAME}:7"]
    assert [str(game) for game in games_in(sent.payloads[1]) or []] == [OTHER, GAME]  # as the service's listener reads it


def test_a_game_saved_twice_within_the_window_is_named_once_with_its_last_version() -> None:
    sent = Sent()
    notifier = Notifier(sent, window=0.3)
    notifier.add({GAME: 2})
    notifier.add({GAME: 3})  # within the window of the first, or with it
    notifier.add({GAME: 5})
    notifier.close()
    assert sent.payloads[-1] == f"{GAME}:5" and all(p.count(GAME) == 1 for p in sent.payloads)


def test_close_cuts_the_window_short_sends_what_is_pending_and_later_saves_are_not_notified() -> None:
    sent = Sent()
    notifier = Notifier(sent, window=60.0)
    notifier.add({GAME: 5})
    assert sent.done.wait(WAIT_S)
    notifier.add({GAME: 6})  # waits for the window
    notifier.close()
    assert sent.payloads == [f"{GAME}:5", f"{GAME}:6"]
    notifier.add({GAME: 7})
    assert sent.payloads == [f"{GAME}:5", f"{GAME}:6"]


def test_a_failed_notify_is_sent_once_more() -> None:
    sent = Sent(fail=1)
    notifier = Notifier(sent, window=0.0)
    notifier.add({GAME: 8})
    assert sent.done.wait(WAIT_S)
    notifier.close()
    assert sent.tries == 2 and sent.payloads == [f"{GAME}:8"]


def test_a_notify_that_fails_twice_is_dropped_and_the_next_saves_are_still_notified() -> None:
    sent = Sent(fail=pg_notify.SEND_TRIES)
    notifier = Notifier(sent, window=0.0)
    notifier.add({GAME: 1})
    notifier.add({OTHER: 2})  # may join the first NOTIFY (then dropped with it) or come after it
    notifier.close()
    assert f"{GAME}:1" not in ",".join(sent.payloads)  # its two tries failed
    notifier_2 = Notifier(sent, window=0.0)
    notifier_2.add({GAME: 3})
    notifier_2.close()
    assert sent.payloads[-1] == f"{GAME}:3"


def test_payloads_stay_under_postgresqls_limit_and_name_every_game_once() -> None:
    last = {f"{i:08d}-0000-4000-8000-000000000000": i for i in range(1, 400)}
    found = payloads(last)
    assert len(found) > 1 and all(len(p) <= PAYLOAD_BYTES for p in found)
    named = [item for p in found for item in p.split(",")]
    assert named == [f"{game}:{version}" for game, version in last.items()]
    assert payloads({}) == [] and payloads({GAME: 1}) == [f"{GAME}:1"]


class Connection:
    """A psycopg connection as the channel uses it: ``execute`` records, or fails (breaking it, if told to)."""

    def __init__(self, fail: Exception | None = None, breaks: bool = False) -> None:
        self.executed: list[str] = []
        self.fail, self.breaks = fail, breaks
        self.broken = self.closed = False

    def execute(self, query: object, params: tuple[str, str], prepare: bool = False) -> None:
        if self.fail is not None:
            self.broken = self.breaks
            raise self.fail
        self.executed.append(params[1])

    def close(self) -> None:
        self.closed = True


def test_the_channel_makes_a_new_connection_only_after_its_connection_broke() -> None:
    made = [Connection(fail=ConnectionError("cut"), breaks=True), Connection(fail=ValueError("no")), Connection()]
    channel = Channel(lambda: made.pop(0), "schema.table")
    with pytest.raises(ConnectionError):
        channel(f"{GAME}:1")  # the connection breaks: closed, and the next NOTIFY makes another
    with pytest.raises(ValueError):
        channel(f"{GAME}:1")  # the statement fails on a sound connection: it is kept
    with pytest.raises(ValueError):
        channel(f"{GAME}:2")
    assert len(made) == 1  # two connections made, the third never needed


def test_a_connection_refused_is_not_asked_for_again_for_a_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(pg_notify, "monotonic", lambda: now[0])
    tries: list[float] = []

    def refused() -> Connection:
        tries.append(now[0])
        raise ConnectionError("too many clients")

    channel = Channel(refused, "schema.table")
    for _ in range(3):
        with pytest.raises(ConnectionError):
            channel(f"{GAME}:1")
    assert tries == [100.0]  # once, then refused at once for RECONNECT_S
    now[0] += pg_notify.RECONNECT_S
    with pytest.raises(ConnectionError):
        channel(f"{GAME}:1")
    assert tries == [100.0, 100.0 + pg_notify.RECONNECT_S]


def test_a_save_stands_when_no_thread_can_be_started_and_the_next_save_starts_one(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    sent = Sent()
    notifier = Notifier(sent, window=0.0)
    with monkeypatch.context() as m:
        m.setattr(threading.Thread, "start", refused)
        notifier.add({GAME: 1})  # no error: the save committed
    notifier.add({GAME: 2})
    assert sent.done.wait(WAIT_S)
    notifier.close()
    assert sent.payloads == [f"{GAME}:2"]


def test_a_transactions_notify_names_its_games_in_one_payload_or_wakes_every_follower() -> None:
    """The NOTIFY inside an import's transaction (``replays.stores.postgres.payload``): one payload, the games'
    as ``payloads`` writes them; '' (every follower woken) where they would need more than one."""
    from mtg_ledger.replays.stores.postgres import payload

    assert payload({GAME: 3, OTHER: 4}) == f"{GAME}:3,{OTHER}:4" == payloads({GAME: 3, OTHER: 4})[0]
    assert payload({}) == ""
    assert payload({f"{i:08d}-0000-4000-8000-000000000000": i for i in range(400)}) == ""
