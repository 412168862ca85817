"""Structured logging for the outer shell (CLI, replays): JSON lines for machines, colour for people.

``MTG_LEDGER_LOG_LEVEL`` sets the threshold (default ``info`` here; the command line passes
``warning``, so it is quiet unless asked); ``warning`` silences the per-decision lines, which are
logged at ``info``. ``NO_COLOR`` (https://no-color.org) turns colours off on a terminal.

structlog is imported when the first logger is asked for, not before: it loads rich's console with it
(about 100 ms), which a command that logs nothing (``mtg-ledger state``) never needs.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Final, TextIO

if TYPE_CHECKING:
    from structlog.typing import FilteringBoundLogger, Processor

LOGGER_NAME: Final = "mtg-ledger"
LEVEL_ENV: Final = "MTG_LEDGER_LOG_LEVEL"
# The standard library's numeric levels (logging.DEBUG ... logging.CRITICAL), written out: the command
# line reads them on every start, and importing logging for five constants costs it some 5 ms.
_LEVELS: Final[dict[str, int]] = {
    "debug": 10,
    "info": 20,
    "warning": 30,
    "warn": 30,
    "error": 40,
    "critical": 50,
}
LEVELS: Final = tuple(_LEVELS)
_pending: tuple[TextIO, int, bool] | None = None  # the configuration asked for (stream, threshold, a TTY?), until structlog is loaded


class LogLevelError(ValueError):
    """A log level that is not one of ``LEVELS`` (the message names where it came from)."""


def no_color() -> bool:
    """True when the ``NO_COLOR`` convention asks for no colours (set and not empty)."""
    return bool(os.environ.get("NO_COLOR"))


def configure_logging(stream: TextIO | None = None, level: str | None = None, default: str = "info") -> None:
    """Sends log lines to ``stream`` (``sys.stderr`` as it is at call time, if not given).

    The threshold is ``level`` if given, else ``MTG_LEDGER_LOG_LEVEL``, else ``default``.
    A TTY gets structlog's ``ConsoleRenderer`` (without colours under ``NO_COLOR``); anything else
    one JSON object per line. Configure before logging: loggers already bound keep the
    configuration they were bound under. A level that is not one is refused at once; the configuration
    itself is made when ``get_logger`` is first called (at once if structlog is already loaded).
    """
    global _pending
    out = sys.stderr if stream is None else stream
    if level is not None:
        level_name, source = level.strip().lower(), f"--log-level {level}"
    else:
        level_name = os.environ.get(LEVEL_ENV, default).strip().lower()
        source = f"{LEVEL_ENV}={level_name}"
    if level_name not in _LEVELS:
        msg = f"{source}: not a log level; use one of {', '.join(_LEVELS)}"
        raise LogLevelError(msg)
    _pending = (out, _LEVELS[level_name], out.isatty())  # asked now: the stream may be closed by the time a line is logged
    if "structlog" in sys.modules:
        _configure()


def _configure() -> None:
    """Configure structlog as ``configure_logging`` was last asked to, if it has not been yet."""
    global _pending
    if _pending is None:
        return
    out, threshold, tty = _pending
    _pending = None
    import structlog

    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: list[Processor]
    if tty:
        renderer = [structlog.dev.ConsoleRenderer(colors=not no_color())]
    else:
        renderer = [
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ]
    structlog.configure(
        processors=[*shared, *renderer],
        wrapper_class=structlog.make_filtering_bound_logger(threshold),
        logger_factory=structlog.PrintLoggerFactory(file=out),
        cache_logger_on_first_use=False,
    )


def get_logger() -> FilteringBoundLogger:
    """A logger bound to ``logger="mtg-ledger"``, under the configuration current at the call.

    Call ``configure_logging`` first; ``.bind(game=...)`` the result once per game.
    """
    _configure()
    import structlog

    logger: FilteringBoundLogger = structlog.get_logger().bind(logger=LOGGER_NAME)
    return logger
