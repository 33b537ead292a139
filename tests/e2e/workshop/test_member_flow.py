"""A workshop member's day on a phone, in Spanish: the sample note to four cards, each kind of decision, the
hat list, the tags PDF, English, dictation, and a note that tries to inject markup."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server
from tests.e2e.workshop.conftest import SAMPLE_NOTE


def settled(page: Any, timeout: float = 5000) -> None:
    """Wait until htmx has settled every swap: its ``htmx-settling`` class (put on new content at the swap,
    taken off a moment later, config.defaultSettleDelay) is gone, and with it the page's own work after a swap
    (the focus moved on, the URL of a sent note pushed) is done. Call it once the swap's content is seen."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0, timeout=timeout)


def send(page: Any, note: str) -> None:
    """Send a note and wait until its own result replaced the dashboard's earlier one and settled."""
    page.fill("#note", note)
    with page.expect_response("**/workshop/notes"):
        page.click("#composer button[type=submit]")
    expect(page.locator("#result .note-echo q")).to_have_text(note)
    settled(page)


def open_edit(card: Any) -> None:
    """Open a card's edit form (a <details>) by its summary and wait until it is open."""
    card.locator("details.edit summary").click()
    expect(card.locator("details.edit")).to_have_attribute("open", "")


def card(page: Any, text: str) -> Any:
    return page.locator("article.card", has_text=text)


def test_sample_note_cards_decisions_hat_list_and_tags(
    page: Any,
    sign_in: Callable[[Any, str], Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    shoot: Callable[..., Any],
) -> None:
    sign_in(page, "ana")
    assert page.locator("html").get_attribute("lang") == "es"
    assert "Ana Morocho" in page.locator("header .who").inner_text()
    assert "Taller Sígsig" in page.locator("header .who").inner_text()
    assert "Miembro" in page.locator("header .who").inner_text()
    axe(page)

    page.fill("#note", SAMPLE_NOTE)
    assert page.locator("[data-count]").inner_text() == str(len(SAMPLE_NOTE))
    page.click("#composer button[type=submit]")
    page.wait_for_selector("#result .bubble")
    expect(page).to_have_url(re.compile(r"\?run="))  # pushed when the swap settles
    cards = page.locator("#result article.card")
    assert cards.count() == 4
    assert [cards.nth(i).get_attribute("data-status") for i in range(4)] == [
        "pending",
        "pending",
        "blocked",
        "pending",
    ]
    # The state is written on each card, not only shown by its colour.
    assert [cards.nth(i).locator(".state-label").text_content() for i in range(4)] == [
        "Por revisar",
        "Por revisar",
        "Bloqueada",
        "Por revisar",
    ]
    assert "Llamadas a herramientas: 7" in page.locator(".meta").inner_text()
    # The offline reader writes its summary in the page's language.
    assert page.locator("#result .summary").inner_text().startswith("Entendí:")
    blocked = card(page, "TQ-2C5P0")
    # The rule's message in the page's language (the API keeps it in English).
    assert "la etapa siguiente es Blanqueo" in blocked.locator(".rule").inner_text()
    axe(page)
    shoot(page, "dashboard-cards")

    # The blocked card: the fix turns it into the allowed move, then approving applies it.
    blocked.get_by_role("button", name="Corregir: pasar a Blanqueo").click()
    fixed = page.locator("article.card.previewing")
    fixed.wait_for()
    assert "Pasar TQ-2C5P0 a Blanqueo" in fixed.locator(".what").inner_text()
    fixed.get_by_role("button", name="Aprobar").click()
    done = card(page, "TQ-2C5P0")
    done.locator(".outcome").wait_for()
    assert done.get_attribute("data-status") == "approved"
    assert "Aplicada" in done.locator(".outcome").inner_text()
    settled(page)

    # The create card: edit (two hats, 19 rows) and approve, then print the tags of the new hats.
    create = page.locator("article.card[data-card=create_hat]")
    open_edit(create)
    create.get_by_label("Cuántos sombreros").fill("2")
    create.get_by_label("Hileras por pulgada").fill("19")
    create.get_by_role("button", name="Guardar y aprobar").click()
    create = page.locator("article.card[data-card=create_hat]")
    create.locator(".outcome").wait_for()
    assert create.get_attribute("data-status") == "approved"
    codes = create.locator(".codes a").all_inner_texts()
    assert len(codes) == 2
    settled(page)

    # Reject one: the flag card.
    flag = page.locator("article.card[data-card=flag_issue]")
    flag.get_by_role("button", name="Rechazar").click()
    flag = page.locator("article.card[data-card=flag_issue]")
    flag.locator(".outcome").wait_for()
    assert flag.get_attribute("data-status") == "rejected"
    settled(page)

    # The last pending card through the keyboard alone: focus its Approve button and press Enter.
    move = card(page, "TQ-7F3K2")
    move.get_by_role("button", name="Aprobar").focus()
    page.keyboard.press("Enter")
    card(page, "TQ-7F3K2").locator(".outcome").wait_for()
    assert card(page, "TQ-7F3K2").get_attribute("data-status") == "approved"
    axe(page)

    # The tags: a PDF with one tag per new hat (read back with pdftotext).
    with page.expect_download() as info:
        create.get_by_role("link", name="Imprimir etiquetas").click()
    pdf = info.value.path()
    import subprocess

    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for code in codes:
        assert text.count(code) == 1
    assert "Rosa Pillco" in text and "19" in text

    # The hat list shows the new hats and the moves.
    page.get_by_role("link", name="Sombreros").first.click()
    page.wait_for_url("**/workshop/hats")
    listing = page.locator(".hat-list").inner_text()
    for code in codes:
        assert code in listing
    row = page.locator(".hat-row", has_text="TQ-2C5P0")
    assert "Blanqueo" in row.inner_text()
    axe(page)

    # A delivered hat's record says it arrived woven, not "Weaving → Weaving".
    page.locator(".hat-row a", has_text=codes[0]).click()
    page.wait_for_url(f"**/workshop/hats/{codes[0]}")
    history = page.locator(".events").inner_text()
    assert "Entregado tejido" in history
    assert "Tejido → Tejido" not in history


def test_a_question_card_is_answered_with_a_chip(
    page: Any, sign_in: Callable[[Any, str], Any], axe: Callable[[Any], None]
) -> None:
    sign_in(page, "ana")
    send(page, "Rosa entregó 2 finos de 16 hileras")
    question = page.locator("article.card[data-status=question]")
    assert question.count() == 1
    chips = question.locator(".chips button")
    assert chips.count() == 2
    axe(page)
    question.locator(".chips button", has_text="Rosa Guamán").click()
    answered = page.locator("article.card[data-card=create_hat]")
    answered.locator(".outcome").wait_for()
    assert answered.get_attribute("data-status") == "pending"
    assert "Rosa Guamán" in answered.locator(".what").inner_text()


def test_markup_in_a_note_is_shown_as_text_and_runs_nothing(
    page: Any, sign_in: Callable[[Any, str], Any]
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sign_in(page, "ana")
    hostile = "<img src=x onerror=alert(1)> El TQ-7F3K2 pasó a lavado"
    send(page, hostile)
    assert hostile in page.locator(".note-echo q").inner_text()
    assert page.locator("#result img").count() == 0
    page.reload()
    page.wait_for_selector("#result .bubble")
    assert page.locator("#result img").count() == 0
    assert dialogs == []


def test_switch_to_english_is_kept_for_the_user(
    page: Any, sign_in: Callable[[Any, str], Any], new_page: Callable[..., Any]
) -> None:
    sign_in(page, "ana")
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.get_by_role("button", name="Send").is_visible()
    send(page, "El TQ-7F3K2 pasó a lavado")
    assert page.locator("#result .summary").inner_text().startswith("I understood:")
    # A new browser (another phone) gets the same language after signing in.
    other = new_page()
    sign_in(other, "ana")
    assert other.locator("html").get_attribute("lang") == "en"
    other.get_by_role("button", name="Español").click()
    expect(other.locator("html")).to_have_attribute("lang", "es")


def test_sign_out_returns_to_the_sign_in_page(
    page: Any, sign_in: Callable[[Any, str], Any], workshop_server: Server
) -> None:
    sign_in(page, "ana")
    page.get_by_role("button", name="Salir").click()
    page.wait_for_url("**/workshop/signin")
    page.goto(workshop_server.url("/workshop/"))
    page.wait_for_url("**/workshop/signin**")


def test_someone_else_answers_a_question_with_a_weaver_it_did_not_offer(
    page: Any, sign_in: Callable[[Any, str], Any], axe: Callable[[Any], None]
) -> None:
    sign_in(page, "ana")
    send(page, "Rosa entregó 2 finos de 16 hileras")
    question = page.locator("article.card[data-status=question]")
    assert question.locator(".chips button").all_inner_texts() == ["Rosa Pillco", "Rosa Guamán"]
    question.locator("details.other summary").click()
    assert question.get_by_text("Otra persona…").is_visible()
    # Any active weaver of the workshop, not only the two the card offered.
    options = question.get_by_label("Cualquier tejedora del taller").locator("option").all_inner_texts()
    assert {"Rosa Pillco", "Rosa Guamán", "Manuel Delgado", "Carmen Quizhpi"} <= set(options)
    axe(page)
    question.get_by_label("Cualquier tejedora del taller").select_option(label="Carmen Quizhpi")
    with page.expect_request("**/workshop/cards/*") as sent:
        question.get_by_role("button", name="Responder con esta").click()
    assert "other=1" in (sent.value.post_data or "")
    answered = page.locator("article.card[data-card=create_hat]")
    answered.locator(".outcome").wait_for()
    assert answered.get_attribute("data-status") == "pending"
    assert "Carmen Quizhpi" in answered.locator(".what").inner_text()
    assert "Carmen Quizhpi no era una de las opciones" in answered.locator(".outcome").inner_text()
    assert "Se eligió a alguien que la tarjeta no ofrecía." in answered.locator(".warnings").inner_text()
    axe(page)
