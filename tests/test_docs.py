"""The docs are checked against the code, so they cannot drift (docs/architecture.md, "Docs checked by tests").

Nothing here lists today's modules: each check discovers what it checks from the code itself.

- Routes: the server app is found through the ``shopfloor serve`` command in ``shopfloor/cli.py`` (the
  ``module:function`` string it hands to uvicorn), built over empty stores, and every path of each mounted
  app's OpenAPI document (and every route of its own and of the root app) must be named in that app's docs.
- Errors: every exception class defined under ``src/shopfloor`` and every error code the envelope can carry
  must be named in docs/errors.md.
- Packages: every package under ``src/shopfloor`` must be in the Layout tree of docs/architecture.md and have
  a README.md.
- Settings: every ``Settings`` field (by its environment name) and every variable ``src/`` reads from the
  environment directly must have a row in the settings table of docs/deploy.md.
- Citations: no doc, test, source file or eval case cites a document that is not in the repository, and
  every relative link in a doc resolves to a file of the repository.

Each failure message says what to add where. Run them alone with ``.venv/bin/pytest -q tests/test_docs.py``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Mount, Route

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "shopfloor"
DOCS = ROOT / "docs"

# Which docs name the routes of the app mounted at each prefix; "" is the root app's own routes.
ROUTE_DOCS: dict[str, tuple[str, ...]] = {
    "": ("deploy.md",),
    "/shifts": ("URLS.md",),
    "/workshop": ("workshop.md", "workshop-pages.md"),
}
ERRORS_DOC = DOCS / "errors.md"
ARCHITECTURE_DOC = DOCS / "architecture.md"
SETTINGS_DOC = DOCS / "deploy.md"
SETTINGS_HEADING = "## Settings"


# -- helpers ----------------------------------------------------------------------------------------------


def rel(path: Path) -> str:
    """``path`` relative to the repository, for messages."""
    return path.relative_to(ROOT).as_posix()


def source_files() -> Iterator[Path]:
    """Every Python module under src/shopfloor."""
    yield from sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    """The dotted name of a module under src/."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a Markdown heading line) up to the next heading of the same or a higher
    level; empty if there is no such heading."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == heading:
            body = []
            for later in lines[i + 1 :]:
                hashes = len(later) - len(later.lstrip("#"))
                if 0 < hashes <= level and later[hashes : hashes + 1] == " ":
                    break
                body.append(later)
            return "\n".join(body)
    return ""


def table_first_cells(text: str) -> set[str]:
    """The backticked names in the first cell of every Markdown table row of ``text``."""
    names: set[str] = set()
    for line in text.splitlines():
        if line.startswith("|"):
            first = line.split("|")[1]
            names.update(re.findall(r"`([^`]+)`", first))
    return names


def backticked(text: str) -> set[str]:
    """Every name written in backticks in ``text``, also each comma-separated part of one."""
    found: set[str] = set()
    for chunk in re.findall(r"`([^`]+)`", text):
        found.add(chunk)
        found.update(p.strip() for p in chunk.split(","))
        # `ProviderError(kind, message, status)` names ProviderError.
        head = re.match(r"[A-Za-z_][\w.]*", chunk)
        if head:
            found.add(head.group(0).split(".")[-1])
    return found


# -- (a) routes -------------------------------------------------------------------------------------------


def server_factory_name() -> str:
    """The ``module:function`` that builds the server's app, as the ``serve`` command of the CLI names it."""
    cli = PACKAGE / "cli.py"
    for node in ast.walk(parsed(cli)):
        if isinstance(node, ast.FunctionDef) and node.name == "serve":
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Constant)
                    and isinstance(inner.value, str)
                    and re.fullmatch(r"shopfloor(\.\w+)+:\w+", inner.value)
                ):
                    return inner.value
    raise AssertionError(
        f"{rel(cli)}: the serve command names no 'shopfloor.<module>:<factory>' string (the app factory "
        "uvicorn builds in each worker); tests/test_docs.py finds the server's app through it"
    )


@pytest.fixture(scope="module")
def server_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The server's app over empty stores in a temporary directory (nothing is served or migrated)."""
    from shopfloor.settings import Settings

    module, _, function = server_factory_name().partition(":")
    factory = getattr(importlib.import_module(module), function)
    tmp = tmp_path_factory.mktemp("docs-app")
    settings = Settings(
        var_dir=tmp,
        shifts_db=tmp / "shifts.duckdb",
        workshop_db=f"sqlite:///{(tmp / 'workshop.db').as_posix()}",
        secret_key="docs-test-secret-key-0123456789abcdef",  # type: ignore[arg-type]
    )
    app = factory(settings)
    yield app
    for route in app.routes:
        workshop = getattr(getattr(getattr(route, "app", None), "state", None), "workshop", None)
        if workshop is not None and hasattr(workshop, "dispose"):
            workshop.dispose()


def app_paths(app: Any) -> set[str]:
    """The paths of ``app``: its OpenAPI document's, and those of its own routes (static mounts aside)."""
    paths: set[str] = set()
    if hasattr(app, "openapi"):
        paths.update(app.openapi().get("paths", {}))
    for route in getattr(app, "routes", []):
        if isinstance(route, Route):
            paths.add(route.path)
    # The framework's own pages (the OpenAPI document, its viewers) are not the app's routes.
    framework = {
        getattr(app, a, None)
        for a in ("openapi_url", "docs_url", "redoc_url", "swagger_ui_oauth2_redirect_url")
    }
    return paths - framework


def mounted_apps(app: Any) -> dict[str, Any]:
    """The root app under "" and each app mounted on it under its prefix (static file mounts aside)."""
    apps = {"": app}
    for route in app.routes:
        if isinstance(route, Mount) and hasattr(route.app, "routes"):
            apps[route.path] = route.app
    return apps


def mentioned(path: str, prefix: str, text: str) -> bool:
    """Whether ``text`` names ``path`` (of the app at ``prefix``), in full or relative to the prefix; a path
    parameter may be written with any name (``{code}`` for ``{hat_code}``)."""

    def pattern(p: str) -> str:
        parts = re.split(r"(\{[^}]+\})", p)
        return "".join(r"\{[^}/]+\}" if part.startswith("{") else re.escape(part) for part in parts)

    end = r"(?![\w/{-])"
    full = prefix + path if path != "/" or not prefix else prefix + "/"
    if re.search(pattern(full) + end, text) or (
        path == "/" and prefix and re.search(re.escape(prefix) + r"/?`", text)
    ):
        return True
    if prefix and path != "/":
        return re.search(r"(?:^|[\s`(|])" + pattern(path) + end, text, re.M) is not None
    return False


def test_every_route_is_in_its_apps_docs(server_app: Any) -> None:
    missing = []
    for prefix, app in mounted_apps(server_app).items():
        docs = ROUTE_DOCS.get(prefix)
        if docs is None:
            missing.append(
                f"an app is mounted at {prefix!r}: add its docs to ROUTE_DOCS in tests/test_docs.py "
                "(the Markdown files under docs/ that list its routes)"
            )
            continue
        text = "\n".join((DOCS / name).read_text(encoding="utf-8") for name in docs)
        for path in sorted(app_paths(app)):
            if not mentioned(path, prefix, text):
                where = " or ".join(f"docs/{d}" for d in docs)
                missing.append(f"{prefix}{path}: name it (`{prefix}{path}`, with its method) in {where}")
    assert not missing, "routes the docs do not name:\n" + "\n".join(missing)


# -- (b) exceptions and error codes ---------------------------------------------------------------------


def exception_classes() -> list[tuple[str, str]]:
    """(module, class name) of every public exception class defined under src/shopfloor."""
    found = []
    for path in source_files():
        names = [
            n.name for n in parsed(path).body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")
        ]
        if not names:
            continue
        module = importlib.import_module(module_name(path))
        for name in names:
            obj = getattr(module, name, None)
            if inspect.isclass(obj) and issubclass(obj, Exception):
                found.append((module.__name__, name))
    return found


def test_exception_classes_are_found() -> None:
    names = {name for _, name in exception_classes()}
    assert {"ApiError", "ToolError", "ProviderError"} <= names, names


def test_every_exception_class_is_in_errors_md() -> None:
    named = backticked(section(ERRORS_DOC.read_text(encoding="utf-8"), "## The hierarchy"))
    missing = [
        f"{name} ({module}): add a row to the table under '## The hierarchy' in docs/errors.md: "
        f"| `{name}` | `{module}` | raised by | caught by | what the person sees |"
        for module, name in exception_classes()
        if name not in named
    ]
    assert not missing, "exception classes docs/errors.md does not name:\n" + "\n".join(missing)


@dataclass(frozen=True)
class Code:
    code: str
    status: int | None
    where: str


SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
ERROR_CALLS = {"ApiError", "envelope", "StoreFault"}


def _status(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and 400 <= node.value <= 599:
        return node.value
    return None


def _code(node: ast.expr, names: dict[str, str] | None = None) -> str | None:
    """The code ``node`` writes: a snake_case string, or a module constant holding one (``CODE = "busy"``)."""
    if isinstance(node, ast.Name) and names and node.id in names:
        return names[node.id]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and SNAKE.fullmatch(node.value):
        return node.value
    return None


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """The module's ``NAME = "snake_case"`` assignments."""
    names = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Constant):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value.value
            if isinstance(value, str) and SNAKE.fullmatch(value):
                names.update({t.id: value for t in targets if isinstance(t, ast.Name)})
    return names


def _imports_web_errors(tree: ast.Module) -> bool:
    return any(
        isinstance(n, ast.ImportFrom) and n.module is not None and n.module.endswith("web.errors")
        for n in ast.walk(tree)
    ) or any(isinstance(n, ast.ClassDef) and n.name == "ApiError" for n in tree.body)


def error_codes() -> list[Code]:
    """Every error code the envelope can carry, found in the source:

    - a status and a code side by side (the code as a string or a module constant holding one): ``ApiError(404, "not_found", …)``, ``envelope(429, "…", …)``,
      ``StoreFault(503, "…", …)``, a ``(403, "bad_origin", …)`` tuple returned for a later envelope;
    - a code keyword or second argument of those calls whatever the status expression (only in modules that
      use the envelope: the tools' own ``envelope`` is another thing);
    - a status-to-code table (``{404: "not_found", …}``);
    - an envelope written out as a dict: ``{"code": "…", "message": …}``.
    """
    found = []
    for path in source_files():
        tree = parsed(path)
        uses_envelope = _imports_web_errors(tree)
        names = _string_constants(tree)
        for node in ast.walk(tree):
            where = f"{rel(path)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call | ast.Tuple):
                items = node.args if isinstance(node, ast.Call) else node.elts
                for a, b in itertools.pairwise(items):
                    status, code = _status(a), _code(b, names)
                    if status is not None and code is not None:
                        found.append(Code(code, status, where))
            if isinstance(node, ast.Call) and uses_envelope:
                func = node.func
                name = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else ""
                )
                if name in ERROR_CALLS:
                    for kw in node.keywords:
                        if kw.arg == "code" and (code := _code(kw.value, names)):
                            found.append(Code(code, None, where))
                    if len(node.args) > 1 and (code := _code(node.args[1], names)):
                        found.append(Code(code, _status(node.args[0]), where))
            if isinstance(node, ast.Dict):
                pairs = list(zip(node.keys, node.values, strict=True))
                if pairs and all(k is not None and _status(k) is not None for k, _ in pairs):
                    found.extend(
                        Code(c, _status(k), where)
                        for k, v in pairs
                        if k is not None and (c := _code(v, names))
                    )
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"code", "message"} <= keys:
                    for k, v in pairs:
                        if isinstance(k, ast.Constant) and k.value == "code" and (code := _code(v, names)):
                            found.append(Code(code, None, where))
    return found


def test_error_codes_are_found() -> None:
    codes = {c.code for c in error_codes()}
    assert {"bad_request", "not_found", "internal_error", "store_unavailable"} <= codes, codes


def test_every_error_code_is_in_errors_md() -> None:
    table = section(ERRORS_DOC.read_text(encoding="utf-8"), "## Codes at the edge")
    named = {c for line in table.splitlines() if line.startswith("|") for c in backticked(line)}
    missing: dict[str, Code] = {}
    for found in error_codes():
        if found.code not in named:
            missing.setdefault(found.code, found)
    lines = [
        f"{c.code} ({c.where}): add it to the table under '## Codes at the edge' in docs/errors.md: "
        f"| {c.status or 'status'} | `{c.code}` | when |"
        for c in missing.values()
    ]
    assert not lines, "error codes docs/errors.md does not name:\n" + "\n".join(lines)


# -- (c) packages ------------------------------------------------------------------------------------------


def packages() -> list[str]:
    """Every package under src/shopfloor (a directory with __init__.py), as ``shifts/pages`` (the top one
    aside)."""
    return sorted(
        p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE
    )


def layout_tree() -> set[str]:
    """The directories of the Layout tree of docs/architecture.md, as ``shifts/pages``."""
    block = re.search(
        r"```\n(src/shopfloor/\n.*?)```",
        section(ARCHITECTURE_DOC.read_text(encoding="utf-8"), "## Layout"),
        re.S,
    )
    assert block, "docs/architecture.md: '## Layout' has no ``` block starting with src/shopfloor/"
    dirs: set[str] = set()
    stack: list[tuple[int, str]] = []
    for line in block.group(1).splitlines()[1:]:
        m = re.search(r"[├└]── (\S+)", line)
        if not m:
            continue
        column, name = m.start(1), m.group(1)
        while stack and stack[-1][0] >= column:
            stack.pop()
        if name.endswith("/"):
            path = "/".join([*(n for _, n in stack), name.rstrip("/")])
            dirs.add(path)
            stack.append((column, name.rstrip("/")))
    return dirs


def test_every_package_is_in_the_architecture_layout() -> None:
    tree = layout_tree()
    missing = [
        f"{p}/: add `{p.rsplit('/', 1)[-1]}/` with a few words on what it holds to the '## Layout' tree of "
        f"docs/architecture.md, under `{p.rsplit('/', 1)[0] + '/' if '/' in p else 'src/shopfloor/'}`"
        for p in packages()
        if p not in tree
    ]
    stale = [
        f"{p}/: the '## Layout' tree of docs/architecture.md names it but there is no such package: remove it"
        for p in sorted(tree - set(packages()))
        if not (PACKAGE / p).is_dir()
    ]
    assert not missing + stale, "docs/architecture.md's layout and the packages differ:\n" + "\n".join(
        missing + stale
    )


def test_every_package_has_a_readme() -> None:
    missing = [
        f"src/shopfloor/{p}/README.md: write it (what the package holds, its rules, what it may import)"
        for p in packages()
        if not (PACKAGE / p / "README.md").is_file()
    ]
    assert not missing, "packages without a README:\n" + "\n".join(missing)


def test_every_wing_has_a_row_in_the_wing_table() -> None:
    """A wing: a package at most two levels down (``web``, ``shifts/planning``); deeper ones are its parts."""
    text = section(ARCHITECTURE_DOC.read_text(encoding="utf-8"), "## Layout")
    rows = {w.rstrip("/") for w in table_first_cells(text)}
    missing = [
        f"{p}/: add a row to the wing table under '## Layout' in docs/architecture.md: "
        f"| `{p}/` | what it holds | what it imports |"
        for p in packages()
        if p.count("/") <= 1 and p not in rows
    ]
    assert not missing, "wings without a row in docs/architecture.md:\n" + "\n".join(missing)


def test_the_may_import_table_names_only_packages() -> None:
    text = section(ARCHITECTURE_DOC.read_text(encoding="utf-8"), "## Layout")
    wings = [w.rstrip("/") for w in table_first_cells(text) if w.endswith("/")]
    assert wings, "docs/architecture.md: the wing table under '## Layout' is gone"
    missing = [
        f"`{w}/` in the wing table of docs/architecture.md is not a package under src/shopfloor: fix the row"
        for w in wings
        if not (PACKAGE / w / "__init__.py").is_file()
    ]
    assert not missing, "\n".join(missing)


# -- (d) settings ------------------------------------------------------------------------------------------


def settings_env_names() -> dict[str, str]:
    """The environment name of every ``Settings`` field, with where it is defined."""
    from shopfloor.settings import Settings

    prefix = str(Settings.model_config.get("env_prefix", ""))
    names = {}
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias if isinstance(info.validation_alias, str) else info.alias
        names[(alias or prefix + field).upper()] = f"Settings.{field}"
    return names


ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")


def _is_environ(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ"
    )


def direct_env_reads() -> dict[str, str]:
    """Variables ``src/`` reads from the environment itself (``os.environ[...]``, ``.get``, ``in``,
    ``os.getenv``). A read whose name is not a literal counts every upper-case name literal of its module
    (``KEY_ENV = {"gemini": "GEMINI_API_KEY", ...}``)."""
    names: dict[str, str] = {}
    for path in source_files():
        tree = parsed(path)
        indirect = False
        for node in ast.walk(tree):
            arg: ast.expr | None = None
            if isinstance(node, ast.Subscript) and _is_environ(node.value):
                arg = node.slice
            elif isinstance(node, ast.Call) and node.args:
                func = node.func
                if isinstance(func, ast.Attribute) and (
                    (func.attr in {"get", "pop", "setdefault"} and _is_environ(func.value))
                    or func.attr == "getenv"
                ):
                    arg = node.args[0]
            elif isinstance(node, ast.Compare) and any(_is_environ(c) for c in node.comparators):
                arg = node.left
            if arg is None:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                names[arg.value] = f"{rel(path)}:{node.lineno}"  # type: ignore[attr-defined]
            else:
                indirect = True
        if indirect:
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and ENV_NAME.fullmatch(node.value)
                    and "_" in node.value
                ):
                    names.setdefault(node.value, f"{rel(path)}:{node.lineno}")
    return names


def test_env_reads_are_found() -> None:
    names = settings_env_names() | direct_env_reads()
    assert {"SHOPFLOOR_MODEL", "SHOPFLOOR_VAR_DIR", "GEMINI_API_KEY"} <= set(names), names


def test_every_setting_is_in_the_settings_table() -> None:
    table = section(SETTINGS_DOC.read_text(encoding="utf-8"), SETTINGS_HEADING)
    assert table, f"docs/deploy.md has no '{SETTINGS_HEADING}' section with the settings table"
    named = table_first_cells(table)
    rows = {n.split("=")[0] for n in named}
    missing = [
        f"{name} ({where}): add a row to the table under '{SETTINGS_HEADING}' in docs/deploy.md: "
        f"| `{name}` | default | what it changes |"
        for name, where in sorted((settings_env_names() | direct_env_reads()).items())
        if name not in rows
    ]
    assert not missing, "settings the docs' settings table does not list:\n" + "\n".join(missing)


# -- (e) citations ---------------------------------------------------------------------------------------

# A document outside the repository, cited: the seed documents by number or section ("seed 000", "seed
# 6.6", "the seed's wording", "seed option"), a path beside the repository ("../shared/…"), a numbered
# document's file name ("002_plant.md"), or the spec named as a document.
OUTSIDE = re.compile(
    r"\bseed\s+\d{3}\b|\bseed\s+§|\bseed\s+\d+\.\d+|\bseed's\b|\bthe\s+seed\b(?!\s*[=(])|\bseed\s+option"
    r"|\.\./shared/|\b\d{3}_[A-Za-z][\w-]*(?:\.md)?\b|\b(?:the|our)\s+(?:provider\s+)?spec(?:'s)?\s+(?:list|worked|domain|rules?|\d)"
    r"|\bexamples\s+from\s+the\s+spec\b|\bour\s+(?:provider\s+)?spec\b",
    re.I,
)


# Text files of src/ and evals/ whose comments and strings are read for citations too (code, templates,
# scripts, styles, catalogues, cases); compiled catalogues and images are not text.
CITED_SUFFIXES = {".py", ".js", ".html", ".css", ".md", ".yaml", ".yml", ".toml", ".po", ".cfg", ".txt"}


def cited_files() -> list[Path]:
    """The docs (docs/, the README files), the tests, and every text file of src/ and evals/, this file and
    the vendored libraries aside."""
    files = [
        *DOCS.rglob("*.md"),
        *ROOT.glob("*.md"),
        *(ROOT / "tests").rglob("*.py"),
        *(f for root in (SRC, ROOT / "evals") for f in root.rglob("*") if f.suffix in CITED_SUFFIXES),
    ]
    return sorted(
        {f for f in files if f != Path(__file__).resolve() and "vendor" not in f.parts and f.is_file()}
    )


def test_cited_files_cover_src_and_evals() -> None:
    """The citation check reads the code and the eval cases, not only the docs."""
    names = {rel(f) for f in cited_files()}
    assert "evals/workshop.yaml" in names
    assert "src/shopfloor/workshop/pages/static/app.js" in names
    assert "src/shopfloor/agent/providers/gemini_provider.py" in names
    assert not any("/vendor/" in n for n in names)


def test_nothing_cites_a_document_outside_the_repository() -> None:
    found = []
    for path in cited_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in OUTSIDE.finditer(line):
                found.append(
                    f"{rel(path)}:{number}: {m.group(0)!r} cites a document that is not in the repository: "
                    "state the rule itself in our own words, or link the doc under docs/ that states it"
                )
    assert not found, "\n".join(found)


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_relative_links_in_the_docs_resolve() -> None:
    broken = []
    for path in [*DOCS.rglob("*.md"), *ROOT.glob("*.md"), *PACKAGE.rglob("README.md")]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                file = (path.parent / target.split("#")[0]).resolve()
                if not file.exists() or ROOT not in file.parents:
                    broken.append(
                        f"{rel(path)}:{number}: the link {target!r} resolves to no file in the repository"
                    )
    assert not broken, "\n".join(broken)
