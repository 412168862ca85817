"""Progress bars for long replays, audits and imports (tqdm): on a terminal only, never in a pipe."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from tqdm import tqdm

SHOWN_FROM = 2000  # events: a shorter job is over before a bar would tell anyone anything


@contextmanager
def progress_bar(total: int, label: str, stream: TextIO | None = None) -> Iterator[Callable[[int], None]]:
    """A callback ``done(n)`` (n events done so far) drawing a bar on ``stream`` (stderr) while the
    block runs; the bar is cleared when it ends. Nothing is drawn when ``stream`` is not a terminal
    or the job is short."""
    out = sys.stderr if stream is None else stream
    enabled = total >= SHOWN_FROM and out.isatty()
    with tqdm(total=total, desc=label, unit=" events", file=out, disable=not enabled, leave=False, dynamic_ncols=True) as bar:

        def done(n: int) -> None:
            if n > bar.n:
                bar.update(n - bar.n)

        yield done
