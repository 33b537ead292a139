"""The whole tree's layout rules (docs/architecture.md, "Layout"): no import loop anywhere in ``src/``, the
core imports no app, and neither app imports the other."""

from __future__ import annotations

from tests.imports import SRC, find_cycle, import_graph


def whole_graph() -> dict[str, set[str]]:
    return import_graph(SRC, ("shopfloor",))


def test_no_import_loop_anywhere_in_src():
    graph = whole_graph()
    assert len(graph) > 100  # every module of the tree was read
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def _imports_from(graph: dict[str, set[str]], wing: str, other: str) -> list[tuple[str, str]]:
    return sorted(
        (module, target)
        for module, targets in graph.items()
        if module == wing or module.startswith(f"{wing}.")
        for target in targets
        if target == other or target.startswith(f"{other}.")
    )


def test_the_core_imports_no_app():
    graph = whole_graph()
    for app in ("shopfloor.workshop", "shopfloor.shifts", "shopfloor.web"):
        assert _imports_from(graph, "shopfloor.agent", app) == []


def test_neither_app_imports_the_other():
    graph = whole_graph()
    assert _imports_from(graph, "shopfloor.workshop", "shopfloor.shifts") == []
    assert _imports_from(graph, "shopfloor.shifts", "shopfloor.workshop") == []
