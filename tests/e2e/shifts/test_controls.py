"""The scope controls and the scope line never disagree with the answer on screen (issue 26, point 10), in
Debian's Chromium, in Spanish and English at phone and desktop widths: a question that moves the day moves the
date input and the line; a named shift moves the shift control; a refusal keeps the follow-up chain; Reset
clears it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, Server

START = "/shifts/?day=2026-09-16&shift=2&include=shift&period=day"
HEADERS = {"es": "es-EC,es;q=0.9", "en": "en-US,en;q=0.9"}
WORDS = {
    "es": {
        "investigate": "Investigar",
        "tuesday": "mar 2026-09-15 · 15:00–23:00 · solo el turno 2",
        "friday": "vie 2026-09-11",
        "follow_up": "Seguimiento de la respuesta anterior",
        "unavailable": "no disponible",
    },
    "en": {
        "investigate": "Investigate",
        "tuesday": "Tue 2026-09-15 · 15:00–23:00 · shift 2 only",
        "friday": "Fri 2026-09-11",
        "follow_up": "Follow-up of the previous answer",
        "unavailable": "unavailable",
    },
}
LANGUAGES = pytest.mark.parametrize("language", ["es", "en"])
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def open_page(new_page: Any, server: Server, language: str, viewport: dict[str, int]) -> Any:
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": HEADERS[language]})
    page.goto(server.url(START))
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.get_attribute("html", "lang") == language
    return page


def ask(page: Any, question: str, language: str) -> None:
    """Type ``question`` and press Investigate; wait for the answer's swap."""
    page.fill("#question", question)
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")) as info:
        page.get_by_role("button", name=WORDS[language]["investigate"], exact=True).click()
    assert info.value.status == 200
    page.wait_for_selector("#main .answer")


def controls(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => ({
                day: document.querySelector('#day').value,
                period: document.querySelector('#period').value,
                shift: document.querySelector('#shift').value,
                include: document.querySelector('input[name=include]:checked').value,
                line: document.querySelector('#scope-line').innerText,
                after: document.querySelector('#after').value,
                chain: document.querySelector('#chain').innerText,
            })"""
        )
    )


@LANGUAGES
@VIEWPORTS
def test_a_question_that_moves_the_day_moves_the_date_input_and_the_line(
    new_page, shifts_server, language, viewport
):
    words = WORDS[language]
    page = open_page(new_page, shifts_server, language, viewport)
    ask(page, "why was second shift slow yesterday", language)
    now = controls(page)
    assert now["day"] == "2026-09-15" and now["period"] == "day" and now["shift"] == "2"
    assert now["line"] == words["tuesday"]
    assert page.url.endswith("/shifts/a?day=2026-09-15&shift=2&measure=overview")
    # The read-as line and the controls say the same day.
    assert words["tuesday"].split(" · ")[0] in page.locator("#main .read-as").inner_text()
    ask(page, "show downtime last friday", language)
    now = controls(page)
    assert now["day"] == "2026-09-11" and now["line"].startswith(words["friday"])


@LANGUAGES
@VIEWPORTS
def test_a_refusal_keeps_the_follow_up_chain_and_reset_clears_it(new_page, shifts_server, language, viewport):
    words = WORDS[language]
    page = open_page(new_page, shifts_server, language, viewport)
    ask(page, "Show downtime by equipment", language)
    first = controls(page)
    assert first["after"].startswith("/a?day=2026-09-16") and words["follow_up"] in first["chain"]
    ask(page, "what is the weather on the moon", language)
    assert page.locator("#main .status strong").inner_text() == words["unavailable"]
    refused = controls(page)
    assert refused["after"] == first["after"] and words["follow_up"] in refused["chain"]
    assert refused["day"] == "2026-09-16" and refused["line"] == first["line"]
    page.locator("#chain a.reset").click()
    page.wait_for_load_state()
    assert controls(page)["after"] == "" and "Follow-up" not in controls(page)["chain"]
    assert words["follow_up"] not in controls(page)["chain"]
