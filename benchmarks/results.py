"""benchmarks/results.json (made by `make bench`, not committed): every benchmark merges its figures in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results.json"


def read() -> dict[str, Any]:
    try:
        found = json.loads(RESULTS.read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    return found if isinstance(found, dict) else {}


def merge(figures: dict[str, Any]) -> None:
    """Adds these figures to benchmarks/results.json, keeping the other benchmarks' figures."""
    results = read()
    results.update(figures)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")

