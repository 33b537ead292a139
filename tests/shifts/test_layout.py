"""The Shift Investigator's import graph: no loop anywhere, the wings in their layers, and no tool module
imports another sideways.

The graph is read from the source by ``tests/imports.py`` (module-level imports, imports inside functions and
under ``TYPE_CHECKING``, ``import_module("...")`` with a literal name); docs/shifts-agent.md, "Layout". The
wing order is written once, as the ``shifts-wings`` layers contract in pyproject.toml; ``lint-imports``
checks it, and the AST graph here checks it too, ``import_module`` included.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.imports import SRC, find_cycle, import_graph

SHIFTS = "shopfloor.shifts"
TOOLS = "shopfloor.shifts.tools"
SHARED_TOOLS = {f"{TOOLS}.{name}" for name in ("context", "sums", "rows")}
PYPROJECT = SRC.parent / "pyproject.toml"


def shifts_graph() -> dict[str, set[str]]:
    """Each shifts module and the shifts modules it imports."""
    return import_graph(SRC, ("shopfloor/shifts",))


def test_the_graph_sees_imports_inside_functions_and_the_faces_lazy_names():
    graph = shifts_graph()
    assert "shopfloor.shifts.investigation" in graph["shopfloor.shifts.pages.work"]  # inside a worker job
    assert "shopfloor.shifts.investigation" in graph["shopfloor.shifts"]  # the face's lazy names


def test_no_import_loop_in_shifts():
    graph = shifts_graph()
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_wings_do_not_import_the_face():
    """Only code outside the app imports ``shopfloor.shifts`` itself; inside, modules import their wing."""
    graph = shifts_graph()
    assert [m for m, targets in sorted(graph.items()) if "shopfloor.shifts" in targets] == []


@pytest.mark.parametrize("module", sorted(m for m in shifts_graph() if m.startswith(f"{TOOLS}.")))
def test_tool_modules_import_only_the_shared_ones(module):
    """A tool module imports the context, the sums and the row readers; only the catalog gathers the tools."""
    graph = shifts_graph()
    sideways = {t for t in graph[module] if t.startswith(f"{TOOLS}.") and t not in SHARED_TOOLS}
    assert sideways == set()


def wing_layers() -> list[list[str]]:
    """The ``shifts-wings`` contract's layers, top first, each a list of sibling wings."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "shifts-wings"]
    assert contract["containers"] == [SHIFTS]
    return [[wing.strip() for wing in layer.split("|")] for layer in contract["layers"]]


def _wing(module: str) -> str | None:
    """``live`` for ``shopfloor.shifts.live.catalogs``; None for the face itself."""
    rest = module.removeprefix(f"{SHIFTS}.")
    return None if module == SHIFTS else rest.split(".")[0]


def test_every_wing_has_a_layer():
    layered = {wing for layer in wing_layers() for wing in layer}
    wings = {_wing(m) for m in shifts_graph()} - {None}
    assert wings == layered


def test_no_wing_imports_one_above_or_beside_it():
    """0 upward imports between the wings, counting imports inside functions and ``import_module``."""
    rank = {wing: i for i, layer in enumerate(wing_layers()) for wing in layer}
    graph = shifts_graph()
    upward = sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if (a := _wing(module)) is not None
        and (b := _wing(target)) is not None
        and a != b
        and rank[b] <= rank[a]
    )
    assert upward == []


def test_lint_imports_keeps_the_layers_contract():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache", "--no-logo", "--config", str(PYPROJECT)],
        cwd=PYPROJECT.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
