"""Every card action by keyboard alone, a refused edit that leaves the card as it was, and the "Agent failed"
card of a run the budget refused."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, Server
from tests.e2e.workshop.conftest import SAMPLE_NOTE, sign_in_as, start_workshop
from tests.e2e.workshop.test_member_flow import card, send, settled


def press(page: Any, target: Any, key: str = "Enter") -> None:
    """Focus ``target`` through the page's own focus order and press ``key`` (no mouse)."""
    target.focus()
    expect(target).to_be_focused()
    page.keyboard.press(key)


def decided(page: Any, target: Any, status: str) -> None:
    """Wait until a decided card shows ``status`` and its swap settled (the focus has moved on)."""
    expect(target).to_have_attribute("data-status", status)
    settled(page)


def test_every_card_action_works_from_the_keyboard(
    page: Any, sign_in: Callable[[Any, str], Any], axe: Callable[[Any], None]
) -> None:
    sign_in(page, "ana")
    send(page, SAMPLE_NOTE)

    # Fix (a blocked card), then approve the fixed card.
    blocked = card(page, "TQ-2C5P0")
    press(page, blocked.get_by_role("button", name="Corregir: pasar a Blanqueo"))
    fixed = page.locator("article.card.previewing")
    fixed.wait_for()
    press(page, fixed.get_by_role("button", name="Aprobar"))
    decided(page, card(page, "TQ-2C5P0"), "approved")

    # Edit: open the form with Enter on its summary, type, and save with Enter.
    create = page.locator("article.card[data-card=create_hat]")
    press(page, create.locator("details.edit summary"))
    expect(create.locator("details.edit")).to_have_attribute("open", "")
    quantity = create.get_by_label("Cuántos sombreros")
    expect(quantity).to_be_visible()
    quantity.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    press(page, create.get_by_role("button", name="Guardar y aprobar"))
    create = page.locator("article.card[data-card=create_hat]")
    decided(page, create, "approved")
    assert len(create.locator(".codes a").all_inner_texts()) == 2

    # Reject with the space bar.
    flag = page.locator("article.card[data-card=flag_issue]")
    press(page, flag.get_by_role("button", name="Rechazar"), " ")
    decided(page, page.locator("article.card[data-card=flag_issue]"), "rejected")

    # Approve all pending (the last card) from the keyboard; the button says how many it approves.
    press(page, page.get_by_role("button", name="Aprobar la tarjeta pendiente"))
    decided(page, card(page, "TQ-7F3K2"), "approved")
    axe(page)

    # An answer chip, and the "someone else" choice, by keyboard.
    send(page, "Rosa entregó 2 finos de 16 hileras")
    question = page.locator("article.card[data-status=question]")
    press(page, question.locator(".chips button", has_text="Rosa Pillco"))
    answered = page.locator("article.card[data-card=create_hat]")
    decided(page, answered, "pending")
    assert "Rosa Pillco" in answered.locator(".what").inner_text()

    send(page, "Rosa entregó 2 finos de 16 hileras")
    question = page.locator("article.card[data-status=question]")
    press(page, question.locator("details.other summary"))
    expect(question.locator("details.other")).to_have_attribute("open", "")
    chooser = question.get_by_label("Cualquier tejedora del taller")
    chooser.focus()
    chooser.select_option(label="Manuel Delgado")  # a select's own keyboard is the browser's
    press(page, question.get_by_role("button", name="Responder con esta"))
    answered = page.locator("article.card[data-card=create_hat]")
    expect(answered).to_have_attribute("data-status", "pending")
    assert "Manuel Delgado" in answered.locator(".what").inner_text()


def test_focus_moved_on_before_a_swap_settles_stays_where_it_was_put(
    page: Any, sign_in: Callable[[Any, str], Any]
) -> None:
    """After a decision the page moves the focus on when htmx settles the swap (docs/workshop-pages.md,
    "Cards"); a person quicker than that (a slow phone) who already went into another card keeps their place."""
    sign_in(page, "ana")
    send(page, SAMPLE_NOTE)
    page.evaluate("() => { htmx.config.defaultSettleDelay = 3000; }")  # settling takes 3 s here
    other = page.locator(".panel article.card[data-open]:not([data-card=create_hat])").first
    other_id = other.get_attribute("id")
    press(page, other.get_by_role("button", name="Rechazar"))
    expect(page.locator(f"#{other_id}")).to_have_attribute("data-status", "rejected")
    expect(page.locator(".htmx-settling")).not_to_have_count(0)  # the swap has not settled yet
    create = page.locator("article.card[data-card=create_hat]")
    press(page, create.locator("details.edit summary"))
    expect(create.locator("details.edit")).to_have_attribute("open", "")
    settled(page, timeout=10000)
    expect(create.locator("details.edit summary")).to_be_focused()
    expect(create.get_by_label("Cuántos sombreros")).to_be_visible()


def test_a_refused_edit_leaves_the_card_as_it_was_and_says_why(
    page: Any, sign_in: Callable[[Any, str], Any], axe: Callable[[Any], None]
) -> None:
    sign_in(page, "ana")
    send(page, "Doña Rosa Pillco terminó 3 finos de 18 hileras")
    create = page.locator("article.card[data-card=create_hat]")
    before = create.locator(".what").inner_text()
    assert "18 hileras" in before
    create.locator("details.edit summary").click()
    create.get_by_label("Hileras por pulgada").fill("12")  # Fino needs 14 to 20: the rules refuse it
    create.get_by_role("button", name="Guardar y aprobar").click()
    create = page.locator("article.card[data-card=create_hat]")
    outcome = create.locator(".outcome")
    outcome.wait_for()
    assert "Fino necesita de 14 a 20 hileras por pulgada; 12 hileras es Estándar." in outcome.inner_text()
    assert "La tarjeta no se cambió." in outcome.inner_text()
    # The card keeps its state and fields: still to review, 18 rows, approvable as it was.
    assert create.get_attribute("data-status") == "pending"
    assert create.locator(".what").inner_text() == before
    axe(page)
    page.reload()
    create = page.locator("article.card[data-card=create_hat]")
    assert create.get_attribute("data-status") == "pending"
    assert create.locator(".what").inner_text() == before
    create.get_by_role("button", name="Aprobar").click()
    expect(page.locator("article.card[data-card=create_hat]")).to_have_attribute("data-status", "approved")


@pytest.fixture(scope="module")
def capped_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A workshop server whose runs use a priced live model under a monthly cap of $0: the budget refuses
    the first model call before it is made, so no request leaves the machine (the key is never used)."""
    extra = {
        "SHOPFLOOR_MODEL": "claude-haiku-4-5",
        "ANTHROPIC_API_KEY": "sk-ant-test-not-used",
        "SHOPFLOOR_MONTHLY_CAP_USD": "0",
    }
    with start_workshop(tmp_path_factory.mktemp("capped-var"), extra) as server:
        yield server


FAILED_WORDS = {
    "es": ("El asistente falló", "El presupuesto de modelos del taller para este mes está agotado."),
    "en": ("Agent failed", "The workshop's model budget for this month is spent."),
}


def _failed_card(page: Any, language: str) -> Any:
    """Send a note on a capped server and read its "Agent failed" card: its title and reason in ``language``,
    in words, never the code."""
    page.fill("#note", "El TQ-7F3K2 pasó a lavado")
    page.click("#composer button[type=submit]")
    failed = page.locator("#result article.state-failed")
    failed.wait_for()
    text = failed.text_content() or ""
    title, reason = FAILED_WORDS[language]
    assert title in text and reason in text, text
    assert "budget_exhausted" not in text  # the reason in words, not the code
    return failed


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_agent_failed_card_and_its_details_for_admins(
    viewport: dict[str, int], new_page: Callable[..., Any], capped_server: Server, axe: Callable[[Any], None]
) -> None:
    # A member's page is Spanish; the admin's follows the browser, English here: each width reads both.
    member = new_page(viewport=viewport)
    sign_in_as(member, capped_server, "ana")
    failed = _failed_card(member, "es")
    assert failed.get_by_role("link", name="Ver detalles").count() == 0  # details are for admins
    axe(member)

    admin = new_page(viewport=viewport, extra_http_headers={"Accept-Language": "en-US,en;q=0.9"})
    sign_in_as(admin, capped_server, "admin")
    failed = _failed_card(admin, "en")
    axe(admin)
    failed.get_by_role("link", name="View details").click()
    admin.wait_for_url("**/workshop/runs/*")
    assert "budget_exhausted" in admin.locator("main").inner_text()
    axe(admin)
