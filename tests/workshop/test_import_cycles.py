"""No import loop in the workshop app or the shared web layer (docs/workshop.md, "Code layout").

The graph reader lives in ``tests/imports.py``; these cases show it sees every kind of import.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imports import SRC, find_cycle, import_graph

SCOPES = ("shopfloor/workshop", "shopfloor/web", "shopfloor/server")


def test_no_import_cycle_in_the_workshop_or_the_web_layer():
    graph = import_graph(SRC, SCOPES)
    assert "shopfloor.workshop.agent.api" in graph and "shopfloor.server.app" in graph
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
