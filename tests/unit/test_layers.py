"""The house's dependencies point inward, and nothing imports in a circle.

`core` (the rules) imports nothing of the outer layers, `projections` nothing of `replays`; inside
`replays`, the rooms (ledger, stores, logfile, audit, scenario, cli, service, viewer, demo, text) form no
circle; and no two modules import each other, directly or round a loop, counting the imports made inside
functions too (such an import may keep start-up quick, never hide a circle)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("core", "projections", "replays")  # inner to outer


def modules() -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(["mtg_ledger", *parts])] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module of ours that ``path`` imports, at the top or inside a function (``TYPE_CHECKING``
    imports, made for the type checker alone, are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checking = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mtg_ledger"):
            for alias in node.names:
                yield f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)


def by_name() -> dict[str, set[str]]:
    """The modules imported by name when they are needed: the command line's verb table (``"module:function"``)."""
    from mtg_ledger.replays.cli import VERBS

    return {"mtg_ledger.replays.cli": {verb.run.partition(":")[0] for verb in VERBS}}


def graph() -> dict[str, set[str]]:
    known = modules()
    edges = {name: {m for m in imports(path, known) if m in known and m != name} for name, path in known.items()}
    for name, targets in by_name().items():
        edges[name] |= targets
    return edges


def room(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[1:3]) if parts[1] == "replays" and len(parts) > 2 else parts[1]


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``edges``, if there is any (depth-first, white-grey-black)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_rules_import_nothing_of_the_outer_layers_and_projections_nothing_of_replays() -> None:
    upward = [(a, b) for a, targets in graph().items() for b in targets if LAYERS.index(a.split(".")[1]) < LAYERS.index(b.split(".")[1])]
    assert upward == []


def test_no_module_imports_itself_round_a_loop() -> None:
    assert cycle(graph()) is None


def test_the_rooms_of_replays_import_each_other_in_no_circle() -> None:
    rooms: dict[str, set[str]] = {}
    for a, targets in graph().items():
        for b in targets:
            if room(a) != room(b):
                rooms.setdefault(room(a), set()).add(room(b))
    assert cycle(rooms) is None
