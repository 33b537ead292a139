"""Project-wide pytest options, and the one summary line about the browser tests.

A browser test is any test that uses the ``browser`` fixture of tests/e2e/conftest.py (directly or through
``page``, ``new_page`` and the like). After the run, pytest prints how many ran; when they were skipped for
want of Chromium, it says so in one line with the command that installs it (docs/workshop-pages.md, "Tests
and figures"). Every browser test is also marked ``slow`` (``make quick`` leaves the slow tests out).
"""

from __future__ import annotations

from typing import Any

import pytest

INSTALL_BROWSER = "apt-get install chromium poppler-utils"
BROWSER_FIXTURE = "browser"

_browser_tests: set[str] = set()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record",
        action="store_true",
        default=False,
        help="Record provider exchanges live (needs the provider's API key) instead of replaying them.",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Note the browser tests, and mark each ``slow``: each drives a real server and a real browser."""
    _browser_tests.clear()
    for item in items:
        if BROWSER_FIXTURE in getattr(item, "fixturenames", ()):
            _browser_tests.add(item.nodeid)
            item.add_marker(pytest.mark.slow)


def _skip_reason(report: Any) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line: how many browser tests ran, or that they were skipped without Chromium and how to fix it."""
    if not _browser_tests:
        return
    outcomes: dict[str, str] = {}
    reasons: list[str] = []
    for key in ("passed", "failed", "error", "skipped", "xfailed", "xpassed"):
        for report in terminalreporter.stats.get(key, []):
            nodeid = getattr(report, "nodeid", "")
            if nodeid not in _browser_tests:
                continue
            if key == "skipped":
                reasons.append(_skip_reason(report))
                outcomes.setdefault(nodeid, key)
            elif key in ("failed", "error") or getattr(report, "when", "call") == "call":
                outcomes[nodeid] = key
    ran = sum(1 for outcome in outcomes.values() if outcome != "skipped")
    skipped = sum(1 for outcome in outcomes.values() if outcome == "skipped")
    no_chromium = any(
        "chromium" in reason.lower() and "not installed" in reason.lower() for reason in reasons
    )
    if no_chromium and ran == 0:
        terminalreporter.write_line(
            f"browser tests: {skipped} skipped, Chromium is not installed; install it with `{INSTALL_BROWSER}`",
            yellow=True,
        )
        return
    failed = sum(1 for outcome in outcomes.values() if outcome in ("failed", "error"))
    parts = (
        [f"{ran} ran"]
        + ([f"{failed} failed"] if failed else [])
        + ([f"{skipped} skipped"] if skipped else [])
    )
    line = "browser tests: " + ", ".join(parts)
    if no_chromium:
        line += f" (Chromium is not installed; install it with `{INSTALL_BROWSER}`)"
    terminalreporter.write_line(line, red=bool(failed), green=not failed)
