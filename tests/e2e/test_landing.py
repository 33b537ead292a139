"""The server's landing page at ``/`` (``shopfloor.server.app``): axe-core finds no violation of any impact at
phone and desktop widths, and its links open both apps. The page is in English only, whatever the browser
asks for (it names the apps; each app speaks the person's language)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, Server
from tests.e2e.shifts.conftest import build_store
from tests.e2e.workshop.conftest import BROWSER, start_workshop

# Each app's name in each language, as its pages title themselves.
SHIFTS_TITLE = {"es": "Investigador de turnos", "en": "Shift Investigator"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``shopfloor serve`` with both apps on data: the workshop's sample and the shifts browser tests'
    hand-built record store."""
    var_dir = tmp_path_factory.mktemp("landing-var")
    store = build_store(var_dir / "shifts.duckdb")
    with start_workshop(var_dir, {"SHOPFLOOR_SHIFTS_DB": str(store)}) as running:
        yield running


@pytest.mark.parametrize("browser_language", ["es", "en"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_landing_page_passes_axe_and_opens_both_apps(
    browser_language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    server: Server,
    axe: Callable[[Any], None],
) -> None:
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[browser_language]})
    answer = page.goto(server.url("/"))
    assert answer is not None and answer.status == 200
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("shopfloor")
    # Nothing wider than the screen (a phone scrolls down, never sideways).
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    axe(page)

    # The workshop's link: signed out, its sign-in page, in the browser's language.
    page.get_by_role("link", name="Toquilla Trace").click()
    page.wait_for_url("**/workshop/signin**")
    expect(page.locator("html")).to_have_attribute("lang", browser_language)
    expect(page).to_have_title(re.compile(r"· Toquilla Trace$"))
    page.go_back()
    page.wait_for_url(server.url("/"))

    # The investigator's link: its first screen, in the browser's language.
    page.get_by_role("link", name="Shift Investigator").click()
    page.wait_for_url("**/shifts/**")
    expect(page.locator("html")).to_have_attribute("lang", browser_language)
    expect(page).to_have_title(SHIFTS_TITLE[browser_language])
    expect(page.locator("#ask-title")).to_be_visible()
