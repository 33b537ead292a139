"""The scope controls and the scope line never disagree with the answer on screen (issue 26, point 10), in
Debian's Chromium: a question that moves the day moves the date input and the line; a named shift moves the
shift control; a refusal keeps the follow-up chain; Reset clears it."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Server

START = "/shifts/?day=2026-09-16&shift=2&include=shift&period=day"


def open_page(page: Any, server: Server, path: str = START) -> None:
    page.goto(server.url(path))
    page.wait_for_function("() => window.htmx !== undefined")


def ask(page: Any, question: str) -> None:
    """Type ``question`` and press Investigate; wait for the answer's swap."""
    page.fill("#question", question)
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")) as info:
        page.get_by_role("button", name="Investigate", exact=True).click()
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


def test_a_question_that_moves_the_day_moves_the_date_input_and_the_line(page, shifts_server):
    open_page(page, shifts_server)
    ask(page, "why was second shift slow yesterday")
    now = controls(page)
    assert now["day"] == "2026-09-15" and now["period"] == "day" and now["shift"] == "2"
    assert now["line"] == "Tue 2026-09-15 · 15:00–23:00 · shift 2 only"
    assert page.url.endswith("/shifts/a?day=2026-09-15&shift=2&measure=overview")
    # The read-as line and the controls say the same day.
    assert "Tue 2026-09-15" in page.locator("#main .read-as").inner_text()
    ask(page, "show downtime last friday")
    now = controls(page)
    assert now["day"] == "2026-09-11" and now["line"].startswith("Fri 2026-09-11")


def test_a_refusal_keeps_the_follow_up_chain_and_reset_clears_it(page, shifts_server):
    open_page(page, shifts_server)
    ask(page, "Show downtime by equipment")
    first = controls(page)
    assert (
        first["after"].startswith("/a?day=2026-09-16")
        and "Follow-up of the previous answer" in first["chain"]
    )
    ask(page, "what is the weather on the moon")
    assert page.locator("#main .status strong").inner_text() == "unavailable"
    refused = controls(page)
    assert refused["after"] == first["after"] and "Follow-up of the previous answer" in refused["chain"]
    assert refused["day"] == "2026-09-16" and refused["line"] == first["line"]
    page.locator("#chain a.reset").click()
    page.wait_for_load_state()
    assert controls(page)["after"] == "" and "Follow-up" not in controls(page)["chain"]
