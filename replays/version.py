"""The engine's version, as log file headers, the service and ``--version`` state it: the one place it is
written (pyproject.toml reads it from here), so that nothing reads the installed package's metadata for it."""

from __future__ import annotations

from typing import Final

ENGINE_VERSION: Final = "0.1.0"
