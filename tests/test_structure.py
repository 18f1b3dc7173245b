"""The shape of the package: the module import graph has no loop, and the core imports at the top.

The graph is read from the source (an AST scan), so a loop is caught even where Python would
tolerate it at run time through a function-local import or a ``TYPE_CHECKING`` guard.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rummykit"
ADAPTERS = ("rummykit.cli", "rummykit.web", "rummykit.envs", "rummykit.__main__")
"""Adapters may import optional extras lazily (the command's entry point imports the ``cli`` extra
only to name it when it is missing); the core may not import anything that way."""
OPTIONAL = frozenset({"rummykit.bots.policy", "rummykit.solver.native"})
"""Core modules that need an optional part (numpy of the ``rl`` extra; the compiled extension):
imported where they are used, so that the core installs and runs without them."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported(node: ast.Import | ast.ImportFrom, importer: str) -> list[str]:
    """The rummykit modules an import statement names (``from pkg import sub`` names ``pkg.sub``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    base = node.module or ""
    if node.level:
        package = importer if MODULES[importer].name == "__init__.py" else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    names = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
    return names or ([base] if base in MODULES else [])


def module_level_imports(module: str) -> set[str]:
    """Imports outside functions (including those under ``if TYPE_CHECKING`` or ``try``)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.update(imported(node, module))
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
            elif isinstance(node, ast.ClassDef):
                visit(node.body)

    visit(tree.body)
    return found - {module}


def function_level_imports(module: str) -> set[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found.update(imported(node, module))
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A loop in ``graph`` as a path that returns to its start, or ``None``."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (loop := visit(nxt)) is not None:
                return loop
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (loop := visit(node)) is not None:
            return loop
    return None


def test_the_scan_sees_the_engine_layers() -> None:
    graph = {m: module_level_imports(m) for m in MODULES}
    assert {"rummykit.families", "rummykit.state", "rummykit.events"} <= graph["rummykit.round"]
    assert {"rummykit.melding", "rummykit.knocking"} <= graph["rummykit.families"]
    assert "rummykit.solver" in graph["rummykit.melding"]


def test_the_import_graph_has_no_loop() -> None:
    graph = {m: module_level_imports(m) for m in MODULES}
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_loop_finder_finds_a_loop() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_family_modules_do_not_import_the_round() -> None:
    for family in ("rummykit.family", "rummykit.melding", "rummykit.knocking", "rummykit.state"):
        assert "rummykit.round" not in module_level_imports(family), family


def test_the_core_imports_only_at_module_level() -> None:
    core = [m for m in MODULES if not m.startswith(ADAPTERS)]
    local = {m: function_level_imports(m) - OPTIONAL for m in core}
    assert {m: found for m, found in local.items() if found} == {}
