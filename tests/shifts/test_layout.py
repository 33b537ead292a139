"""The Shift Investigator's import graph: no loop anywhere, and no tool module imports another sideways.

The graph is read from the source with ``ast``: module-level imports, imports inside functions (and under
``TYPE_CHECKING``), and ``import_module("...")`` calls with a literal name (docs/shifts-agent.md, "Layout").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
ROOT = SRC / "shopfloor" / "shifts"
TOOLS = "shopfloor.shifts.tools"
SHARED_TOOLS = {f"{TOOLS}.{name}" for name in ("context", "sums", "rows", "catalog")}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(node: ast.AST, here: str, is_package: bool, known: set[str]) -> list[str]:
    """The modules of ``known`` that one node imports."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = here.split(".") if is_package else here.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    elif isinstance(node, ast.Call):
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called == "import_module" and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
    return [n for n in names if n in known]


def import_graph() -> dict[str, set[str]]:
    """Each shifts module and the shifts modules it imports, wherever in the file the import stands."""
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    known = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        edges: set[str] = set()
        for node in ast.walk(tree):
            edges.update(imported(node, name, path.name == "__init__.py", known))
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_from_every_kind_of_import():
    """The reader sees function-level imports and import_module, so the loop check below can fail."""
    graph = import_graph()
    assert "shopfloor.shifts.investigation" in graph["shopfloor.shifts.api"]  # inside a route
    assert "shopfloor.shifts.investigation" in graph["shopfloor.shifts"]  # the face's lazy names
    looped = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(looped) == [["a", "b", "c"]]
    tree = ast.parse("import importlib\nimportlib.import_module('x.y')\n")
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert imported(call, "x.z", False, {"x.y"}) == ["x.y"]


def test_no_import_loop_in_shifts():
    assert cycles(import_graph()) == []


def test_the_wings_do_not_import_the_face():
    """Only code outside the app imports ``shopfloor.shifts`` itself; inside, modules import their wing."""
    graph = import_graph()
    assert [m for m, targets in sorted(graph.items()) if "shopfloor.shifts" in targets] == []


@pytest.mark.parametrize("module", sorted(m for m in import_graph() if m.startswith(f"{TOOLS}.")))
def test_tool_modules_import_only_the_shared_ones(module):
    """A tool module imports the context, the sums and the row readers; only the catalog gathers the tools."""
    graph = import_graph()
    sideways = {t for t in graph[module] if t.startswith(f"{TOOLS}.") and t not in SHARED_TOOLS}
    if module == f"{TOOLS}.catalog":
        sideways = set()
    assert sideways == set()
