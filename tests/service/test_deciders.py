"""The decision threads of the service (``replays.service.deciders``): a call's result or its error comes
back to the request that made it, calls run side by side up to the threads' number and no further, a
cancelled request's call still runs to its end, and a stop waits for the calls taken."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.service.app import decider_count
from mtg_ledger.replays.service.deciders import Deciders


def test_a_calls_result_and_a_calls_error_come_back_to_the_request_that_made_it() -> None:
    deciders = Deciders(2)

    def fails() -> None:
        raise ValueError("refused")

    async def main() -> None:
        assert await deciders.run(lambda: threading.current_thread().name) == "decide-0"
        with pytest.raises(ValueError, match="refused"):
            await deciders.run(fails)

    asyncio.run(main())
    deciders.shutdown()


def test_calls_run_side_by_side_on_at_most_the_threads_number() -> None:
    deciders = Deciders(3)
    running, most = 0, 0
    lock = threading.Lock()

    def call() -> str:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return threading.current_thread().name

    async def main() -> list[str]:
        return list(await asyncio.gather(*(deciders.run(call) for _ in range(9))))

    names = asyncio.run(main())
    deciders.shutdown()
    assert most == 3
    assert set(names) == {"decide-0", "decide-1", "decide-2"}


def test_a_cancelled_requests_call_runs_to_its_end_and_a_stop_waits_for_it() -> None:
    deciders = Deciders(1)
    started, finished = threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        time.sleep(0.2)
        finished.set()

    async def main() -> None:
        request = asyncio.ensure_future(deciders.run(slow))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        request.cancel()
        with pytest.raises(asyncio.CancelledError):
            await request
        assert await deciders.run(lambda: "next") == "next"  # the thread was free again once done
        assert finished.is_set()

    asyncio.run(main())
    deciders.shutdown()
    with pytest.raises(RuntimeError):
        asyncio.run(deciders.run(lambda: None))


@pytest.mark.parametrize(
    ("store", "pool", "threads"),
    [("sqlite_env", None, 5), pytest.param("postgres_env", None, 5, marks=pytest.mark.postgres),
     pytest.param("postgres_env", "3", 3, marks=pytest.mark.postgres)],
)
def test_the_service_takes_as_many_decisions_at_once_as_its_store_keeps_connections(
    store: str, pool: str | None, threads: int, request: pytest.FixtureRequest
) -> None:
    """A decision holds one of the pool's connections from its read to its commit: the service's threads
    for decisions are as many as the pool keeps (POSTGRES_POOL_SIZE, 5 by default; SQLite's 5)."""
    env = {**request.getfixturevalue(store), **({"POSTGRES_POOL_SIZE": pool} if pool else {})}
    ledger = Ledger(env=env)
    try:
        assert decider_count(ledger) == threads
    finally:
        ledger.close()
