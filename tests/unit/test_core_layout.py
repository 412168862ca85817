"""The shape of ``core``: every event declared once beside its applier, the registries derived from
the declarations, imports pointing one way, modules of a readable size."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from mtg_ledger.core import events as ev
from mtg_ledger.core.topics import NAMES, resolve

CORE = Path(__file__).resolve().parents[2] / "core"
MAX_LINES = 400  # STYLE.md: a module over ~400 lines is asking to be split


def _module_name(path: Path) -> str:
    parts = path.relative_to(CORE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("mtg_ledger", "core", *parts))


def _imports(path: Path) -> set[str]:
    """The mtg_ledger.core modules a module imports, as it loads or inside its functions: an import
    put off into a function keeps start-up quick, it does not make a circle any less of one."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mtg_ledger.core"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if (CORE / Path(*sub.split(".")[2:])).with_suffix(".py").exists() or (CORE / Path(*sub.split(".")[2:])).is_dir() else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("mtg_ledger.core"))
    return found


def test_core_modules_import_one_another_without_a_cycle() -> None:
    graph = {_module_name(p): _imports(p) for p in CORE.rglob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path[path.index(module):], module))}"
        if module in done:
            return
        for other in sorted(graph.get(module, ())):
            if not (module.startswith(other + ".") or other.startswith(module + ".")):  # a package and its own modules
                visit(other, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_core_imports_nothing_of_the_outer_layers_not_even_the_demo() -> None:
    """Dependencies point inward (STYLE.md): the demo's decks and player live in replays.demo."""
    outer = {
        f"{p.name}: {name}"
        for p in CORE.rglob("*.py")
        for node in ast.walk(ast.parse(p.read_text()))
        for name in ([node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        if name.startswith(("mtg_ledger.replays", "mtg_ledger.projections"))
    }
    assert outer == set()


def test_no_core_module_is_much_over_400_lines() -> None:
    long = {p.name: n for p in CORE.rglob("*.py") if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_every_event_type_is_registered_by_its_declaration_under_its_class_name() -> None:
    declared = {cls.__name__: cls for cls in ev.GameEvent.__subclasses__()}
    assert ev.EVENT_TYPES == declared
    for name, cls in ev.EVENT_TYPES.items():
        assert NAMES[cls] == name and resolve(name) is cls and resolve(f"core.events:{name}") is cls
        assert getattr(ev, name) is cls  # ``ev.GameStarted`` and friends, whatever module declares them


def test_every_event_has_its_applier_right_below_its_class() -> None:
    assert set(ev.APPLIERS) == set(ev.EVENT_TYPES)
    spans: dict[type, tuple[int, int]] = {}  # a class's first line and its length (inspect parses its module each time)

    def span(cls: type) -> tuple[int, int]:
        if cls not in spans:
            lines, start = inspect.getsourcelines(cls)
            spans[cls] = (start, len(lines))
        return spans[cls]

    for name, cls in ev.EVENT_TYPES.items():
        applier = ev.APPLIERS[name]
        assert applier.__module__ == cls.__module__, f"{name}'s applier is declared in {applier.__module__}"
        module = inspect.getmodule(cls)
        start, length = span(cls)
        classes_after = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, ev.GameEvent)
                         and c.__module__ == cls.__module__ and span(c)[0] > start]
        next_class = min((span(c)[0] for c in classes_after), default=10**9)
        applier_line = inspect.getsourcelines(applier)[1]
        assert start + length <= applier_line < next_class, f"{name}'s applier is not right below the class"


def _battlefield(node: ast.AST) -> bool:
    """Whether an expression names a battlefield list: ``battlefield`` or ``<anything>.battlefield``."""
    return (isinstance(node, ast.Name) and node.id == "battlefield") or (isinstance(node, ast.Attribute) and node.attr == "battlefield")


def test_a_battlefield_list_is_changed_in_place_only_at_its_end() -> None:
    """In place a battlefield list only grows at its end (a permanent leaving makes a new list): what the walks
    of ``core.walks`` (state-based actions' watch, the untap step, the state hash, a snapshot's delta) take
    again from one look to the next rests on it. No module of the engine or the store puts, deletes, inserts,
    removes, sorts or reverses a battlefield's permanents in place."""
    changing = {"insert", "remove", "pop", "sort", "reverse", "clear", "__setitem__", "__delitem__"}
    found: list[str] = []
    for root in (CORE, CORE.parent / "replays"):
        for path in root.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target] if isinstance(node, ast.AnnAssign) else []
                if any(isinstance(t, ast.Subscript) and _battlefield(t.value) for t in targets):
                    found.append(f"{path.name}:{node.lineno}")
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in changing and _battlefield(node.func.value):
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []
