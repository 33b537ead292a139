"""The whole tree's layout rules (docs/architecture.md, "Layout"): no import loop anywhere in ``src/``, the
core imports no app, neither app imports the other, ``web`` sits below both apps and ``server`` (the
composition root) above both."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

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


# Size limits (docs/architecture.md, "Layout"): no module in src/shopfloor over 800 lines, no function over 80 (from its ``def``
# line to its last line; a nested function counts inside its parent and on its own, by dotted name).
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80
# Exempt: the migrations (one schema change each, written once) and the synthetic-year generator.
EXEMPT = ("workshop/store/migrations/versions/", "shifts/records/generate.py")
# What is over a limit and waiting to be split, with its size (nothing today). The list may only shrink: an
# entry that is now within its limit, or gone, fails the test until it is removed here, and one that has
# grown fails too.
STILL_OVER: dict[str, int] = {}


def _functions(
    node: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function under ``node`` by dotted name (``Class.method``, ``outer.inner``)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{child.name}", child
            yield from _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")
        else:
            yield from _functions(child, prefix)


def oversized(root: Path) -> dict[str, int]:
    """Each module over the module limit (``path``) and function over the function limit (``path:name``)
    under ``root``, with its length in lines; paths relative to ``root``, exempt ones left out."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(EXEMPT):
            continue
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found[rel] = lines
        for name, function in _functions(ast.parse(text, filename=rel)):
            length = (function.end_lineno or function.lineno) - function.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found[f"{rel}:{name}"] = length
    return found


def _what(key: str, lines: int) -> str:
    path, _, function = key.partition(":")
    if function:
        return f"{path}: function {function} is {lines} lines (limit {MAX_FUNCTION_LINES})"
    return f"{path}: module is {lines} lines (limit {MAX_MODULE_LINES})"


def size_problems(found: dict[str, int], still_over: dict[str, int]) -> list[str]:
    """What breaks the limits (``found``, from :func:`oversized`) beyond the allowlist, what on the allowlist
    has grown, and what on it is within its limit now (so its entry must go)."""
    problems = [
        f"{_what(key, lines)}: split it by responsibility"
        for key, lines in found.items()
        if key not in still_over
    ]
    problems += [
        f"{_what(key, lines)}, more than the {still_over[key]} in STILL_OVER: make it smaller, not larger"
        for key, lines in found.items()
        if key in still_over and lines > still_over[key]
    ]
    problems += [
        f"{key} is within its limit now (or gone): remove it from STILL_OVER in tests/test_layout.py"
        for key in still_over
        if key not in found
    ]
    return problems


def test_no_module_or_function_over_the_size_limits():
    problems = size_problems(oversized(SRC / "shopfloor"), STILL_OVER)
    assert problems == [], "\n".join(problems)


def test_the_size_check_names_file_function_and_length(tmp_path):
    def lines(n: int, indent: str) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(n))

    planted = {
        "pkg/long.py": "class C:\n    def method(self):\n" + lines(85, "        "),
        "pkg/nested.py": "def outer():\n    def inner():\n" + lines(81, "        ") + "    return inner\n",
        "pkg/short.py": "def f():\n" + lines(79, "    "),
        "pkg/big.py": "x = 1\n" * 801,
        "pkg/full.py": "x = 1\n" * 800,
        "workshop/store/migrations/versions/0001_first.py": "def upgrade():\n" + lines(200, "    "),
        "shifts/records/generate.py": "x = 1\n" * 900 + "def simulate_day():\n" + lines(100, "    "),
    }
    for rel, text in planted.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    found = oversized(tmp_path)
    assert found == {
        "pkg/big.py": 801,
        "pkg/long.py:C.method": 86,
        "pkg/nested.py:outer": 84,
        "pkg/nested.py:outer.inner": 82,
    }
    assert size_problems({"pkg/long.py:C.method": 86, "pkg/big.py": 801}, {}) == [
        "pkg/long.py: function C.method is 86 lines (limit 80): split it by responsibility",
        "pkg/big.py: module is 801 lines (limit 800): split it by responsibility",
    ]


def test_the_allowlist_can_only_shrink():
    found = {"a.py:f": 90, "b.py": 900}
    assert size_problems(found, {"a.py:f": 90, "b.py": 900}) == []
    assert size_problems(found, {"a.py:f": 95, "b.py": 900, "c.py:g": 81}) == [
        "c.py:g is within its limit now (or gone): remove it from STILL_OVER in tests/test_layout.py"
    ]
    assert size_problems(found, {"a.py:f": 85, "b.py": 900}) == [
        "a.py: function f is 90 lines (limit 80), more than the 85 in STILL_OVER: make it smaller, not larger"
    ]
