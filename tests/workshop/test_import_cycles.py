"""No import loop in the workshop app or the shared web layer (docs/workshop.md, "Code layout").

Every import counts: at module level, inside ``if TYPE_CHECKING:``, inside functions, and
``import_module("...")`` with a literal name. A loop hidden in a function still means two modules that cannot
be read, tested or moved one without the other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
SCOPES = ("shopfloor/workshop", "shopfloor/web")


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


def test_no_import_cycle_in_the_workshop_or_the_web_layer():
    graph = import_graph(SRC, SCOPES)
    assert "shopfloor.workshop.agent.api" in graph and "shopfloor.web.app" in graph
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("b_text", "loop"),
    [
        ("from pkg import a\n", ["pkg.a", "pkg.b", "pkg.a"]),
        ("def f():\n    from pkg.a import x\n", ["pkg.a", "pkg.b", "pkg.a"]),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
            ["pkg.a", "pkg.b", "pkg.a"],
        ),
        ("from importlib import import_module\nA = import_module('pkg.a')\n", ["pkg.a", "pkg.b", "pkg.a"]),
        ("import os\n", None),
        ("from pkg import c\n", None),
    ],
    ids=["module-level", "in-a-function", "type-checking-relative", "import-module", "no-loop", "sibling"],
)
def test_the_cycle_finder_sees_every_kind_of_import(tmp_path, b_text, loop):
    files = {"pkg/__init__.py": "", "pkg/a.py": "from pkg.b import y\n", "pkg/b.py": b_text, "pkg/c.py": ""}
    _write(tmp_path, files)
    assert find_cycle(import_graph(tmp_path, ("pkg",))) == loop


def test_a_name_taken_from_the_package_that_imports_you_is_a_loop(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.repo import Repo\n",
            "pkg/models.py": "",
            "pkg/repo.py": "from pkg import models\nfrom pkg import Repo as Again\n",
        },
    )
    assert find_cycle(import_graph(tmp_path, ("pkg",))) == ["pkg", "pkg.repo", "pkg"]


def test_the_old_hidden_loop_would_be_found(tmp_path):
    """The agent route once imported the workshop app's dependencies inside the route."""
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/api.py": "from importlib import import_module\nR = import_module('pkg.agent.api')\n",
            "pkg/agent/__init__.py": "",
            "pkg/agent/api.py": "def route():\n    from pkg.api import current_actor\n",
        },
    )
    assert find_cycle(import_graph(tmp_path, ("pkg",))) == ["pkg.agent.api", "pkg.api", "pkg.agent.api"]
