"""The server's landing page at ``/`` (``shopfloor.server.app``): axe-core finds no violation of any impact at
phone and desktop widths, it speaks the browser's language (Spanish for an ``es-*`` browser, else English) with
a switch to the other and back, and its links open both apps (docs/deploy.md, "The server's own routes")."""

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
# The landing page's words in each language, and the other language's name on its switch.
TAGLINE = {
    "es": "Asistentes que proponen; las personas deciden.",
    "en": "Assistants that propose; people decide.",
}
WORKSHOP_BLURB = {
    "es": "Registros de sombreros a partir de notas habladas, aprobados por una persona.",
    "en": "Hat records from spoken notes, approved by a person.",
}
VERSION_WORD = {"es": "versión", "en": "version"}
SWITCH = {"es": "English", "en": "Español"}
OTHER = {"es": "en", "en": "es"}


def expect_landing_in(page: Any, language: str, width: int) -> None:
    """The landing page as it is in ``language``: its ``lang``, words, switch, width and no axe finding."""
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_have_text("shopfloor")
    expect(page.get_by_role("main")).to_contain_text(TAGLINE[language])
    expect(page.get_by_role("main")).to_contain_text(WORKSHOP_BLURB[language])
    expect(page.get_by_role("main")).to_contain_text(VERSION_WORD[language] + " ")
    expect(page.get_by_role("link", name=SHIFTS_TITLE[language], exact=True)).to_be_visible()
    expect(page.get_by_role("link", name=SHIFTS_TITLE[OTHER[language]], exact=True)).to_have_count(0)
    expect(page.get_by_role("link", name=SWITCH[language], exact=True)).to_have_attribute(
        "lang", OTHER[language]
    )
    # Nothing wider than the screen (a phone scrolls down, never sideways).
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


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
    expect_landing_in(page, browser_language, viewport["width"])
    axe(page)

    # The workshop's link: signed out, its sign-in page, in the browser's language.
    page.get_by_role("link", name="Toquilla Trace").click()
    page.wait_for_url("**/workshop/signin**")
    expect(page.locator("html")).to_have_attribute("lang", browser_language)
    expect(page).to_have_title(re.compile(r"· Toquilla Trace$"))
    page.go_back()
    page.wait_for_url(server.url("/"))

    # The investigator's link: its first screen, in the browser's language.
    page.get_by_role("link", name=SHIFTS_TITLE[browser_language], exact=True).click()
    page.wait_for_url("**/shifts/**")
    expect(page.locator("html")).to_have_attribute("lang", browser_language)
    expect(page).to_have_title(SHIFTS_TITLE[browser_language])
    expect(page.locator("#ask-title")).to_be_visible()


@pytest.mark.parametrize("browser_language", ["es", "en"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_switch_turns_the_landing_page_to_the_other_language_and_back(
    browser_language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    server: Server,
    axe: Callable[[Any], None],
) -> None:
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": BROWSER[browser_language]})
    page.goto(server.url("/"))
    other = OTHER[browser_language]
    page.get_by_role("link", name=SWITCH[browser_language], exact=True).click()
    page.wait_for_url(server.url("/"))
    expect_landing_in(page, other, viewport["width"])
    axe(page)
    # The choice outlasts the page: loaded again, the page stays in it over the browser's language.
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", other)
    page.get_by_role("link", name=SWITCH[other], exact=True).click()
    page.wait_for_url(server.url("/"))
    expect_landing_in(page, browser_language, viewport["width"])
