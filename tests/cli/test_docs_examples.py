"""Every example in the docs and the README runs, so that none of them can rot.

Each page's ```sh, ```bash, ```console and ```python blocks run in order in one bash session (``bash -e``), in a
temporary folder, with the virtualenv's bin first on PATH and MTG_LEDGER_LOG_LEVEL=warning: a variable set in
one block is there in the next, as for a reader who types them one after the other. A python block runs with
the virtualenv's python. ```text blocks show output and are not run.

A block preceded by ``<!-- not run: REASON -->`` is not run; the reason says what runs it instead or why it
cannot run here (a server in the foreground, the whole test suite). Pages that need something get it from their
setup below (a server and its URL, a PostgreSQL schema of their own).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from tests.service_server import running

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
RUN = {"sh", "bash", "console", "python"}
SHOWN = {"text", "json", "sql", "toml", "yaml", ""}
BLOCK = re.compile(r"^(?P<note><!-- not run: (?P<reason>[^>]+?) -->\n)?```(?P<lang>[a-z]*)\n(?P<body>.*?)^```$", re.M | re.S)

# Pages whose blocks their own tests already run, against servers those tests set up.
RUN_ELSEWHERE = {
    "docs/postgresql.md": "tests/store/test_postgres_setup.py runs every block, from an empty role and database",
    "docs/backups.md": "tests/store/test_backup.py (SQLite) and tests/store/test_postgres_restore.py (PostgreSQL) run its blocks",
}


def pages() -> list[str]:
    found = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))
    return ["README.md", *found]


def blocks(page: str) -> list[tuple[str, str, str | None]]:
    """(language, code, reason not run) of each fenced block of a page, in order."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [(m["lang"], m["body"], m["reason"]) for m in BLOCK.finditer(text)]


def script(page: str) -> str:
    """The page's runnable blocks as one bash script."""
    parts = []
    for n, (lang, body, reason) in enumerate(blocks(page), 1):
        if lang not in RUN or reason:
            continue
        parts.append(f"echo '==== {page} block {n}' >&2")
        if lang == "python":
            parts.append(f"python - <<'MTG_LEDGER_DOCS_PY'\n{body}MTG_LEDGER_DOCS_PY")
        elif lang == "console":
            parts.append("\n".join(line[2:] for line in body.splitlines() if line.startswith("$ ")))
        else:
            parts.append(body)
    return "\n".join(parts) + "\n"


def serving(folder: Path, env: dict[str, str], *args: str) -> AbstractContextManager[str]:
    """``mtg-ledger serve ARGS --port 0`` in ``folder``: yields its URL; stopped with SIGTERM."""
    return running([str(BIN / "mtg-ledger"), "serve", "--port", "0", *args], env, cwd=folder)


@contextmanager
def served_sqlite(folder: Path, env: dict[str, str]) -> Iterator[dict[str, str]]:
    """The server the page tells its reader to start: over served.sqlite in the page's folder."""
    with serving(folder, env, "--db", "served.sqlite") as url:
        yield {"URL": url}


@contextmanager
def postgres_workers(folder: Path, env: dict[str, str]) -> Iterator[dict[str, str]]:
    """A PostgreSQL schema of the page's own, and ``serve --workers 2`` on it."""
    from tests.conftest import postgres_schema

    with postgres_schema() as store:
        with serving(folder, {**env, **store}, "--workers", "2") as url:
            yield {**store, "URL": url}


@contextmanager
def a_stored_game(folder: Path, env: dict[str, str]) -> Iterator[dict[str, str]]:
    """GAME: a demo game in games.sqlite, for pages that start from a game already stored."""
    done = subprocess.run([str(BIN / "mtg-ledger"), "demo", "--seed", "7", "--db", "games.sqlite", "--quiet", "--json"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=60, check=True)
    yield {"GAME": json.loads(done.stdout)["game"]}


@contextmanager
def nothing(folder: Path, env: dict[str, str]) -> Iterator[dict[str, str]]:
    yield {}


SETUP = {
    "docs/tutorial.md": served_sqlite,
    "docs/service.md": served_sqlite,
    "docs/receipts.md": served_sqlite,
    "docs/scaling-out.md": postgres_workers,
    "docs/log-file-format.md": a_stored_game,
}


def test_every_block_is_fenced_as_code_to_run_or_as_output() -> None:
    for page in pages():
        for lang, _body, _ in blocks(page):
            assert lang in RUN | SHOWN, f"{page}: a ```{lang} block: fence commands as sh or python, output as text"


def test_every_block_not_run_says_why_and_is_a_command() -> None:
    for page in pages():
        for lang, _, reason in blocks(page):
            if reason:
                assert lang in RUN and len(reason.split()) >= 4, f"{page}: a block not run needs a reason, and to be a command"


@pytest.mark.parametrize("page", [p for p in pages() if p not in RUN_ELSEWHERE])
def test_the_page_s_examples_run(page: str, tmp_path: Path) -> None:
    code = script(page)
    if code.count("==== ") == 0:
        pytest.skip(f"{page} has no example to run")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_", "MTG_LEDGER_", "URL"))}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", MTG_LEDGER_LOG_LEVEL="warning", VIRTUAL_ENV=str(BIN.parent))
    env.pop("PYTHONPATH", None)
    with SETUP.get(page, nothing)(tmp_path, env) as extra:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=tmp_path, env={**env, **extra},
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{page}: exit {done.returncode}\n--- stderr\n{done.stderr[-4000:]}\n--- stdout\n{done.stdout[-2000:]}"


def test_pages_run_elsewhere_are_read_by_the_tests_named() -> None:
    for page, reason in RUN_ELSEWHERE.items():
        for test in re.findall(r"tests/\w+\.py", reason):
            assert Path(page).name in (ROOT / test).read_text(encoding="utf-8"), f"{test} does not read {page}"


if __name__ == "__main__":  # print a page's script, to run it by hand: python tests/cli/test_docs_examples.py docs/tutorial.md
    print(script(sys.argv[1]) if len(sys.argv) > 1 else "\n".join(map(shlex.quote, pages())))
