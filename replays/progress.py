"""A progress bar for long replays, audits and imports: on a terminal only, quiet when piped."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None, every: float = 0.1) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty() and total > 0
        self.every = every
        self._last = 0.0

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.every and done < self.total:
            return
        self._last = now
        width = 30
        filled = int(width * min(done, self.total) / self.total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done:,}/{self.total:,}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self(self.total)
            self.stream.write("\n")
            self.stream.flush()
