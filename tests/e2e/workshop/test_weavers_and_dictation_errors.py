"""An admin cannot add the same weaver twice by accident (the name folded asks first) and a blank name is
refused in the page's language, and dictation says why it stopped (no permission, nothing heard, no network) in
the page's language; each in Spanish and English at phone and desktop widths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE

# Stands in for the browser's speech recognition: start() fails with the error code the test sets, as a real
# one does (an "error" event, then "end").
FAILING_SPEECH = """
window.__speechError = 'not-allowed';
class FailingRecognition {
  start() {
    setTimeout(() => {
      this.onerror({error: window.__speechError});
      this.onend();
    }, 30);
  }
  stop() { this.onend(); }
}
window.SpeechRecognition = FailingRecognition;
"""
WORDS = {
    "es": {
        "dictate": "Dictar",
        "not-allowed": "El navegador no puede usar el micrófono.",
        "no-speech": "No se escuchó nada.",
        "network": "El dictado necesita conexión a internet.",
    },
    "en": {
        "dictate": "Dictate",
        "not-allowed": "The browser may not use the microphone.",
        "no-speech": "Nothing was heard.",
        "network": "Dictation needs a connection to the internet.",
    },
}


BOTH = pytest.mark.parametrize(
    ("language", "viewport"),
    [("es", PHONE), ("en", DESKTOP), ("es", DESKTOP), ("en", PHONE)],
    ids=["es-phone", "en-desktop", "es-desktop", "en-phone"],
)


@BOTH
def test_dictation_says_why_it_stopped(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    axe: Callable[[Any], None],
) -> None:
    header = "es-EC,es;q=0.9" if language == "es" else "en-US,en;q=0.9"
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": header})
    page.context.add_init_script(FAILING_SPEECH)
    sign_in(page, "admin")  # an admin's page follows the browser's language
    words = WORDS[language]
    status = page.locator("#dictation-error")
    for code in ("not-allowed", "no-speech", "network"):
        page.context.add_init_script(f"window.__speechError = {code!r};")
        page.reload()
        page.get_by_role("button", name=words["dictate"]).click()
        expect(status).to_be_visible()
        expect(status).to_contain_text(words[code])
        # The button is ready again, and the next try clears the sentence.
        expect(page.get_by_role("button", name=words["dictate"])).to_have_attribute("aria-pressed", "false")
    axe(page)


@BOTH
def test_the_same_weaver_twice_asks_first(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Any,
    axe: Callable[[Any], None],
) -> None:
    header = "es-EC,es;q=0.9" if language == "es" else "en-US,en;q=0.9"
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": header})
    sign_in(page, "admin")
    page.goto(workshop_server.url("/workshop/weavers"))
    before = page.locator("li.weaver", has_text="Rosa Pillco").count()
    add, yes, blank = {
        "en": ("Add", "Yes, add another weaver", "A weaver's name must be 1 to 120 characters."),
        "es": (
            "Agregar",
            "Sí, agregar otra tejedora",
            "El nombre de una tejedora debe tener de 1 a 120 caracteres.",
        ),
    }[language]
    # A name of spaces alone passes the browser's "required" and is refused by the server, in the page's words.
    page.fill("#new-name", "   ")
    page.get_by_role("button", name=add, exact=True).click()
    expect(page.locator(".error")).to_have_text(blank)
    # The same name with other case, accents and spaces: the page asks, and adds nothing yet.
    page.fill("#new-name", "  rósa   PILLCO ")
    page.fill("#new-village", "Gualaceo")
    page.get_by_role("button", name=add, exact=True).click()
    confirm = page.locator("#same-name")
    expect(confirm).to_contain_text("Rosa Pillco")
    assert page.locator("li.weaver", has_text="Rosa Pillco").count() == before
    expect(page.locator("#new-village")).to_have_value("Gualaceo")  # the form comes back as typed
    axe(page)
    # A new page load (cancel) adds nothing either.
    page.goto(workshop_server.url("/workshop/weavers"))
    assert page.locator("li.weaver", has_text="Rosa Pillco").count() == before
    # Confirmed: a second weaver of that name is added.
    page.fill("#new-name", "Rosa Pillco")
    page.fill("#new-village", "Gualaceo")
    page.get_by_role("button", name=add, exact=True).click()
    page.locator("#same-name").get_by_role("button", name=yes).click()
    expect(page.locator("li.weaver", has_text="Rosa Pillco")).to_have_count(before + 1)
    expect(page.locator("#same-name")).to_have_count(0)
    # A new name is added at once, without asking.
    new = f"Mercedes Zhunio {language} {viewport['width']}"  # a name of this run alone
    page.fill("#new-name", new)
    page.get_by_role("button", name=add, exact=True).click()
    expect(page.locator("li.weaver", has_text=new)).to_have_count(1)
