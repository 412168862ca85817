"""Runs the first ```python block of README.md, so the README's example can never rot (make readme-example)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def example() -> str:
    match = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    if match is None:
        sys.exit("README.md has no ```python example")
    return match.group(1)


if __name__ == "__main__":
    sys.path.insert(0, str(README.parent))
    exec(compile(example(), "README.md example", "exec"), {"__name__": "__readme__"})
