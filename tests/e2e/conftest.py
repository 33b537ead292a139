"""Browser-test harness: a real server process, Debian's Chromium through Playwright, and page checks.

Nothing here knows an app. An app's tests start their server with :func:`serve` (a command line, an
environment and a health URL) and use these fixtures:

- ``browser``: headless Chromium (``/usr/bin/chromium``, or ``SHOPFLOOR_CHROMIUM``) with the launch arguments
  of docs/workshop-pages.md; never a browser that Playwright downloads. Without Chromium the browser tests skip
  with the reason, except under ``CI``, where they fail (``.ci/run`` installs it).
- ``page``: a fresh context and page at phone size. Console errors, uncaught page errors, failed requests to
  the server and CSP violations (``securitypolicyviolation`` events) are collected; the test fails at
  teardown if any occurred. ``page_issues(page)`` returns the list so far, ``allow_console(page, pattern)``
  accepts an expected message (a 403 page logs its status as a console error, for instance).
- ``axe(page)``: injects the vendored axe-core and fails on any violation, whatever its impact (minor and
  moderate too).
- ``watch_wire(page, base_url)``: records the server's answers to the page; ``.check()`` fails on one over
  1,000 bytes sent without ``Content-Encoding`` (br or gzip) or a static file linked with its content hash
  (``?v=``) answered without ``Cache-Control: …, immutable`` (issue 26, point 14; docs/workshop-pages.md,
  "Browser code and its limits"); answers from a service worker's cache are left out.
- ``shoot(page, name)``: screenshots at phone (390×844) and desktop (1280×800) widths; written to
  ``docs/screenshots/<name>-{phone,desktop}.png`` when ``SHOPFLOOR_SCREENSHOTS=1`` (``make screenshots``),
  otherwise to the test's temporary directory, so an ordinary test run leaves the docs alone.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from shopfloor.bench import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
AXE = Path(__file__).with_name("vendor") / "axe-4.14.1.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def chromium_path() -> str | None:
    """The Chromium executable the tests drive, if present."""
    wanted = os.environ.get("SHOPFLOOR_CHROMIUM", CHROMIUM)
    return wanted if Path(wanted).is_file() else shutil.which("chromium")


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A server process the tests talk to over HTTP."""

    base_url: str
    process: subprocess.Popen[bytes]
    log: Path

    def url(self, path: str) -> str:
        """The absolute URL of ``path``."""
        return self.base_url + path


@contextmanager
def serve(
    command: list[str], env: dict[str, str], port: int, health: str, log: Path, timeout_s: float = 120.0
) -> Iterator[Server]:
    """Run ``command`` (a server listening on ``port``) until ``health`` answers 200; stop it afterwards."""
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + timeout_s
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the server exited with {process.returncode}:\n{log.read_text()}")
                try:
                    with urllib.request.urlopen(base + health, timeout=2) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the server did not answer {health} in {timeout_s} s:\n{log.read_text()}"
                    )
                time.sleep(0.1)
            yield Server(base, process, log)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def python_command(*args: str) -> list[str]:
    """A command line running the ``shopfloor`` console script installed beside this interpreter."""
    return [str(Path(sys.executable).with_name("shopfloor")), *args]


# Package scope: Playwright's sync API keeps an event loop running in this thread while it is open, so it
# must be closed before tests outside tests/e2e run their own loops.
@pytest.fixture(scope="package")
def playwright_driver() -> Iterator[Any]:
    """Playwright's sync API (its Node driver ships in the wheel; no browser is downloaded)."""
    if chromium_path() is None:
        reason = "Chromium is not installed (apt-get install chromium poppler-utils; .ci/run does this)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="package")
def browser(playwright_driver: Any) -> Iterator[Any]:
    """One headless Chromium for the browser tests."""
    b = playwright_driver.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
    yield b
    b.close()


@dataclass
class Watch:
    """What went wrong in a page while a test used it."""

    issues: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def add(self, text: str) -> None:
        """Record one problem unless the test said it expects it."""
        if not any(p.search(text) for p in self.allowed):
            self.issues.append(text)


# Runs in every document before its own scripts; reports CSP violations to the test through a binding.
_CSP_LISTENER = """
document.addEventListener('securitypolicyviolation', (e) => {
  window.__reportCsp(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch_context(context: Any, base_url: str | None = None) -> Watch:
    """Attach the listeners (console errors, page errors, CSP violations, server errors) to a context."""
    watch = Watch()
    context.expose_binding("__reportCsp", lambda _source, text: watch.add(f"CSP violation: {text}"))
    context.add_init_script(_CSP_LISTENER)

    def on_page(page: Any) -> None:
        page.on(
            "console",
            lambda msg: watch.add(f"console {msg.type}: {msg.text}") if msg.type == "error" else None,
        )
        page.on("pageerror", lambda error: watch.add(f"page error: {error}"))

        def on_response(response: Any) -> None:
            if response.status >= 500 and (base_url is None or response.url.startswith(base_url)):
                watch.add(f"server error {response.status}: {response.url}")

        page.on("response", on_response)

    context.on("page", on_page)
    return watch


_WATCHES: dict[int, Watch] = {}


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Make watched pages (``new_page(**context_options)``); each fails the test at teardown on any issue."""
    made: list[tuple[Any, Watch]] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", PHONE)
        context = browser.new_context(**options)
        watch = watch_context(context)
        page = context.new_page()
        _WATCHES[id(page)] = watch
        made.append((context, watch))
        return page

    yield make
    problems = [issue for _, watch in made for issue in watch.issues]
    for context, _ in made:
        context.close()
    assert not problems, "the pages reported problems:\n" + "\n".join(problems)


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    """One watched page at phone size."""
    return new_page()


def page_issues(page: Any) -> list[str]:
    """The problems a watched page reported so far."""
    return list(_WATCHES[id(page)].issues)


def clear_issues(page: Any) -> None:
    """Forget the problems seen so far (after a test has checked that they were reported)."""
    _WATCHES[id(page)].issues.clear()


def allow_console(page: Any, pattern: str) -> None:
    """Accept console errors matching ``pattern`` on this page (for an error status the test expects)."""
    _WATCHES[id(page)].allowed.append(re.compile(pattern))


BLOCKING_IMPACTS = ("minor", "moderate", "serious", "critical")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of any impact on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol, which the page's CSP does not govern: the page under test
        # keeps its strict policy and the test adds nothing to what it allows.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})"
    )
    # A violation without an impact would be a new kind of finding: it blocks too.
    return [v for v in result["violations"] if v.get("impact") in (*BLOCKING_IMPACTS, None)]


def format_violations(violations: list[dict[str, Any]]) -> str:
    """A readable list of axe violations with the first few offending nodes."""
    lines = []
    for v in violations:
        lines.append(f"{v['impact']}: {v['id']} — {v['help']}")
        for n in v["nodes"][:3]:
            related = [r["target"] for check in n.get("any", []) for r in check.get("relatedNodes", [])][:3]
            also = f" (related: {related})" if related else ""
            lines.append(f"    {n['target']}{also}: {n.get('failureSummary', '')[:200]}")
    return "\n".join(lines)


# Written by hand, not imported from the code under test (docs/workshop-pages.md, "Browser code and its limits").
WIRE_MINIMUM = 1000
WIRE_IMMUTABLE = "public, max-age=31536000, immutable"
WIRE_TYPES = ("document", "script", "stylesheet", "xhr", "fetch")


@dataclass
class Wire:
    """The server's answers a page received since the last check."""

    base_url: str
    responses: list[Any] = field(default_factory=list)

    def problems(self) -> tuple[list[str], dict[str, int]]:
        """What is wrong with the answers so far, and how many were compressed and immutable."""
        found: list[str] = []
        seen = {"compressed": 0, "immutable": 0}
        for r in self.responses:
            # The workshop's service worker answers from its own cache, by build: those never crossed the wire.
            # A redirect or a 304 has no body of its own; an error page is an answer like any other.
            if 300 <= r.status < 400 or r.request.resource_type not in WIRE_TYPES or r.from_service_worker:
                continue
            headers = r.headers
            if headers.get("content-encoding") in ("br", "gzip"):
                seen["compressed"] += 1
            elif len(r.body()) >= WIRE_MINIMUM:
                found.append(f"uncompressed {len(r.body())} bytes: {r.request.method} {r.url}")
            if "/static/" in r.url and "?v=" in r.url:
                if headers.get("cache-control") == WIRE_IMMUTABLE:
                    seen["immutable"] += 1
                else:
                    found.append(f"not immutable ({headers.get('cache-control')}): {r.url}")
        return found, seen

    def check(self) -> dict[str, int]:
        """Fail on any problem of the answers so far, then forget them (call it before the page navigates
        away: a body is read from the page that got it). Returns how many were compressed and immutable."""
        found, seen = self.problems()
        self.responses.clear()
        assert not found, "\n".join(found)
        return seen


def watch_wire(page: Any, base_url: str) -> Wire:
    """Record every answer of the server at ``base_url`` to ``page`` for :meth:`Wire.check`."""
    wire = Wire(base_url)
    page.on("response", lambda r: wire.responses.append(r) if r.url.startswith(base_url) else None)
    return wire


@pytest.fixture
def axe() -> Callable[[Any], None]:
    """``axe(page)``: fail on any accessibility violation (of any impact) of the page as it is now."""

    def check(page: Any) -> None:
        violations = axe_violations(page)
        assert not violations, f"axe-core on {page.url}:\n{format_violations(violations)}"

    return check


def screenshot_dir(tmp_path: Path) -> Path:
    """Where screenshots go: the docs when asked for (``SHOPFLOOR_SCREENSHOTS=1``), else the test's tmp dir."""
    if os.environ.get("SHOPFLOOR_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path


@pytest.fixture
def shoot(tmp_path: Path) -> Callable[..., list[Path]]:
    """``shoot(page, name)``: full-page screenshots at phone and desktop widths; returns the files."""

    def take(page: Any, name: str) -> list[Path]:
        folder = screenshot_dir(tmp_path)
        before = page.viewport_size
        files = []
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            path = folder / f"{name}-{label}.png"
            page.screenshot(path=str(path), full_page=True, animations="disabled")
            files.append(path)
        if before:
            page.set_viewport_size(before)
        return files

    return take
