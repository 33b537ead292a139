"""The whole tree's layout rules (docs/architecture.md, "Layout"): no import loop anywhere in ``src/``, the
core imports no app, neither app imports the other, ``web`` sits below both apps and ``server`` (the
composition root) above both."""

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


APPS = ("shopfloor.workshop", "shopfloor.shifts")


def test_web_is_below_both_apps():
    """``web`` holds only the edge pieces both apps import; it imports neither app nor the root above them."""
    graph = whole_graph()
    for above in (*APPS, "shopfloor.server"):
        assert _imports_from(graph, "shopfloor.web", above) == []


def test_the_server_root_is_above_both_apps():
    """Nothing in the core, ``web`` or either app imports the composition root; only the command does."""
    graph = whole_graph()
    assert _imports_from(graph, "shopfloor.server", "shopfloor.workshop") != []
    assert _imports_from(graph, "shopfloor.server", "shopfloor.shifts") != []
    for below in ("shopfloor.agent", "shopfloor.web", *APPS, "shopfloor.settings", "shopfloor.logs"):
        assert _imports_from(graph, below, "shopfloor.server") == []
