"""The shipped package's imports: no circle, and nothing of the test harness.

Read from the source with `ast` (every import, those under `TYPE_CHECKING`
and inside functions included), so a circle that Python tolerates at run time
is still found: a module that imports one that imports it back cannot be
read, tested or moved alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Not shipped: a product module importing one of them fails once installed.
INFRA = ("harness", "tests", "zoo", "displays", "conftest", "benchmarks", "scripts")


def _modules() -> dict[str, Path]:
    found = {}
    for top in ("bot", "vision"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path) & modules.keys() - {name} for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for other in sorted(graph[name]):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == name:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_bot_or_vision_imports_one_that_imports_it_back() -> None:
    graph = _graph()
    assert len(graph) > 100  # the whole package was read
    # `from bot.solver import analyse` is an edge to the package's __init__.
    assert _circles(graph) == []


def test_no_shipped_module_imports_the_test_harness() -> None:
    offenders = {
        f"{name} imports {imported}"
        for name, path in _modules().items()
        for imported in _imports(path)
        if imported.split(".")[0] in INFRA
    }
    assert offenders == set()
