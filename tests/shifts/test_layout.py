"""The Shift Investigator's import graph: no loop anywhere, and no tool module imports another sideways.

The graph is read from the source by ``tests/imports.py`` (module-level imports, imports inside functions and
under ``TYPE_CHECKING``, ``import_module("...")`` with a literal name); docs/shifts-agent.md, "Layout".
"""

from __future__ import annotations

import pytest

from tests.imports import SRC, find_cycle, import_graph

TOOLS = "shopfloor.shifts.tools"
SHARED_TOOLS = {f"{TOOLS}.{name}" for name in ("context", "sums", "rows", "catalog")}


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
    if module == f"{TOOLS}.catalog":
        sideways = set()
    assert sideways == set()
