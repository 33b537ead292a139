"""The import graph of a source tree, read with ``ast`` (docs/architecture.md, "Layout").

Every import counts: at module level, inside ``if TYPE_CHECKING:``, inside functions, and
``import_module("...")`` with a literal name. A loop hidden in a function still means two modules that cannot
be read, tested or moved one without the other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def module_name(root: Path, path: Path) -> str:
    """``shopfloor.workshop.agent.run`` for ``root/shopfloor/workshop/agent/run.py`` (packages by __init__)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, ...]]:
    """Every import in ``tree``, wherever it is written, as the names it may load, most specific first.

    ``from pkg import name`` gives ``("pkg.name", "pkg")``: a submodule if there is one, else a name the
    package defines (so its ``__init__`` runs).
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield (alias.name,)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield (f"{base}.{alias.name}", base)
        elif (
            isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield (node.args[0].value,)


def import_graph(root: Path, scopes: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the modules under ``scopes`` it imports.

    A package a module sits in is an edge only when the module takes a name the package defines: Python sets
    the parent up before the child, so ``from pkg import sibling`` inside ``pkg`` is no loop.
    """
    files = {module_name(root, p): p for scope in scopes for p in sorted((root / scope).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for candidates in imported_names(tree, name, path.name == "__init__.py"):
            target = next((c for c in candidates if c in files), None)
            if target is not None and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop as a path that starts and ends at the same module, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                loop = visit(target)
                if loop is not None:
                    return loop
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            loop = visit(start)
            if loop is not None:
                return loop
    return None
