"""The threads that take decisions for ``fast_actions.py``: at most a fixed number, each taking the next
call from one queue and handing its outcome back to the event loop.

``loop.run_in_executor`` over a ``ThreadPoolExecutor`` does the same through two futures chained by
callbacks (the executor's, wrapped in the loop's) and the executor's idle-thread semaphore (a Python
condition, taken on every submit and released after every call): a third of the hand-off's work. Here
a call is one put on a ``SimpleQueue`` and one ``call_soon_threadsafe`` back. As with the executor, a
call already taken runs to its end even if the request is cancelled meanwhile (a decision is never cut
half-way); its outcome is then dropped.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any

_STOP = None  # what a thread takes from the queue when it is to end


class Deciders:
    """At most ``count`` threads named ``prefix-N``, each started when a call finds every thread busy.
    ``run`` is called on one event loop, which alone counts the calls in flight (no lock)."""

    def __init__(self, count: int, prefix: str = "decide") -> None:
        self.count, self.prefix = count, prefix
        self._calls: SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop, Deciders] | None] = SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._busy = 0  # calls given to the threads and not yet handed back (counted on the loop)
        self._stopped = False

    async def run(self, call: Callable[[], Any]) -> Any:
        """``call()`` in one of the threads; its result, or what it raised."""
        if self._stopped:
            raise RuntimeError("the deciders are stopped")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self._busy >= len(self._threads) and len(self._threads) < self.count:  # every thread busy: one more
            thread = threading.Thread(target=_serve, args=(self._calls,), name=f"{self.prefix}-{len(self._threads)}", daemon=True)
            thread.start()  # (if it cannot start, it raises here, as an executor's submit would, and nothing is queued)
            self._threads.append(thread)
        self._calls.put((call, future, loop, self))
        self._busy += 1
        return await future

    def _settle(self, future: asyncio.Future[Any], ok: bool, value: Any) -> None:
        """On the loop: a call is done; its outcome to the request, unless it was cancelled meanwhile."""
        self._busy -= 1
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def shutdown(self) -> None:
        """Each thread finishes its call, then ends; returns once all have."""
        self._stopped = True
        for _ in self._threads:
            self._calls.put(_STOP)
        for thread in self._threads:
            thread.join()


def _serve(calls: SimpleQueue[Any]) -> None:
    while True:
        taken = calls.get()
        if taken is _STOP:
            return
        call, future, loop, deciders = taken
        del taken
        try:
            outcome = (True, call())
        except BaseException as error:  # noqa: BLE001 - handed to the awaiting request, as an executor does
            outcome = (False, error)
        try:
            loop.call_soon_threadsafe(deciders._settle, future, *outcome)
        except RuntimeError:  # the loop has closed: nobody awaits it any more
            pass
        del call, future, loop, deciders, outcome
