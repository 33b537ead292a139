"""The pages in the person's language and a review panel that stays true: every card state, question and
error in Spanish without an English word, counts in their plural, the panel's count and "approve all pending"
following each decision, the keyboard moving on to the next card and the outcome said by a live region; in
Spanish and English, at phone and desktop widths."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, PHONE, Server
from tests.e2e.workshop.conftest import SAMPLE_NOTE, sign_in_as, start_workshop
from tests.e2e.workshop.test_member_flow import card, send
from tests.workshop.pages.test_messages import english_words

# Names and codes a Spanish page may show as they are (the sample's people, hats, grades).
NAMES = (
    "Rosa Pillco",
    "Rosa Guamán",
    "Carmen Quizhpi",
    "Manuel Delgado",
    "Lucía Tenesaca",
    "Ana Morocho",
)


# Three batches the rules allow and one they block (Fino needs 14 to 20 rows): new hats each time it is sent.
FOUR_CARDS = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. Manuel Delgado entregó 2 superfinos de 24 hileras. "
    "Carmen Quizhpi terminó 1 fino de 16 hileras. Rosa Pillco terminó 2 finos de 12 hileras."
)


# Every card's text without the note's own words it quotes (its `.quote`): those are the member's, in any language.
CARD_TEXTS = """() => [...document.querySelectorAll('#result article.card')].map(card => {
  const copy = card.cloneNode(true);
  copy.querySelectorAll('.quote').forEach(quote => quote.remove());
  return copy.textContent;
})"""


def _texts(page: Any) -> list[str]:
    """Every card's text and every error of the page as a person reads them (hidden parts included)."""
    found: list[str] = page.evaluate(CARD_TEXTS)
    found += page.locator(".error").all_text_contents()
    return found


def _no_english(texts: list[str]) -> None:
    for text in texts:
        assert english_words(text, NAMES) == set(), text


# The page's own words as a person reads them: the recorded payloads (`pre`, `code`) are the run's data.
MAIN_TEXT = """() => {
  const copy = document.querySelector('main').cloneNode(true);
  copy.querySelectorAll('pre, code').forEach(data => data.remove());
  return copy.innerText || copy.textContent;
}"""


def no_english_in_main(page: Any) -> None:
    """No word of the English list on the page, but for the sample's names and codes."""
    text = page.evaluate(MAIN_TEXT)
    assert english_words(text, NAMES) == set(), f"{page.url}: {text}"


# Words that are Spanish and not English: none of them may reach an English page. Written by hand (not read
# from the catalogues under test). "hileras" and "grado" are left out: the English questions name them on
# purpose ("How many rows per inch (hileras) …"), as the members say them.
SPANISH = {
    "el", "la", "los", "las", "del", "de", "una", "un", "por", "qué", "es", "está", "sombrero", "sombreros",
    "tejedora", "tejedoras", "tejido", "tejidos", "hilera", "pulgada", "tarjeta", "tarjetas", "etapa",
    "siguiente", "nota", "dice", "regla", "reglas", "aprobada", "rechazada", "aplicada", "guardada", "cambió",
    "nuevo", "nuevos", "entregó", "taller", "cuántos", "cuántas", "quién", "hizo", "encontré", "ninguna",
    "llamada", "necesita", "coincide", "fuera", "así", "puede", "saltar", "etiqueta", "revisar", "bloqueada",
    "pendiente", "aprobar", "rechazar", "corregir", "responder", "guardar", "pregunta", "lavado", "blanqueo",
    "estándar", "crear", "pasar", "tiene", "tienen", "estos", "este", "sí", "otra", "persona", "cualquier",
}  # fmt: skip
# A note's own words, quoted by a flag's message («…» in Spanish, "…" in English), are the member's.
QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"|\(the note says [^)]*\)")


def spanish_words(text: str, keep: tuple[str, ...] = ()) -> set[str]:
    """The Spanish words of ``text``, leaving out names and codes (``keep``) and the note's quoted words."""
    text = QUOTED.sub(" ", text)
    for name in keep:
        text = text.replace(name, " ")
    words = {w.strip(".,;:()«»\"'¿?¡!").lower() for w in text.split()}
    return words & SPANISH


# What each language's page says at each step of read_every_card_state (written by hand, from the catalogues'
# wording as a person reads it).
CARD_WORDS = {
    "es": {
        "header": "es-EC,es;q=0.9", "who": "ana", "next_stage": "la etapa siguiente es Blanqueo",
        "note_says": "dice la nota", "approve": "Aprobar", "reject": "Rechazar",
        "create_one": "Crear 1 sombrero Fino tejido por Rosa Pillco, 18 hileras por pulgada",
        "plural": "sombreros", "why_one": "entregó 1 sombrero Fino nuevo de 18 hileras por pulgada",
        "why_plural": "nuevos", "rows": "Hileras por pulgada", "save": "Guardar y aprobar",
        "refused": "12 hileras es Estándar", "answer": "Responder",
        "questions": {
            "Rosa entregó 2 finos de 16 hileras": "¿Qué tejedora es Rosa?",
            "Doña Rosa Pillco terminó finos de 18 hileras": "¿Cuántos sombreros entregó Rosa Pillco?",
            "Doña Rosa Pillco terminó 2 finos":
                "¿Cuántas hileras por pulgada tienen estos sombreros de Rosa Pillco?",
            "Lucía Tenesaca entregó 2 finos de 16 hileras": "No encontré ninguna tejedora llamada",
        },
        "bad_tag": "Una etiqueta de sombrero se ve así: TQ-7F3K2.",
        "said": ("¿Por qué?", "Aprobada y guardada.", "La tarjeta no se cambió.", "La nota"),
    },
    "en": {
        "header": "en-US,en;q=0.9", "who": "admin", "next_stage": "the next stage is Bleaching",
        "note_says": "the note says", "approve": "Approve", "reject": "Reject",
        "create_one": "Create 1 Fino hat woven by Rosa Pillco, 18 rows per inch",
        "plural": "hats", "why_one": "delivered 1 new Fino hat of 18 rows per inch",
        "why_plural": "hats", "rows": "Rows per inch", "save": "Save and approve",
        "refused": "12 rows is Standard", "answer": "Answer",
        "questions": {
            "Rosa entregó 2 finos de 16 hileras": "Which weaver is Rosa?",
            "Doña Rosa Pillco terminó finos de 18 hileras": "How many hats did Rosa Pillco deliver?",
            "Doña Rosa Pillco terminó 2 finos":
                "How many rows per inch (hileras) do these hats from Rosa Pillco have?",
            "Lucía Tenesaca entregó 2 finos de 16 hileras": "I found no weaver called",
        },
        "bad_tag": "A hat tag looks like TQ-7F3K2.",
        "said": ("Why?", "Approved and saved.", "The card was not changed.", "The note"),
    },
}  # fmt: skip


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_card_state_question_and_error_reads_in_spanish(
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    workshop_server: Server,
    axe: Callable[[Any], None],
    tmp_path: Path,
) -> None:
    with ExitStack() as stack:
        # Its notes move the sample's hats (TQ-7F3K2 is approved into washing): the second width gets a sample
        # workshop of its own, so either runs alone or after the other.
        server = workshop_server
        if viewport == DESKTOP:
            server = stack.enter_context(start_workshop(tmp_path / "workshop-var"))
        page = new_page(viewport=viewport)
        sign_in_as(page, server, "ana")
        seen = read_every_card_state(page, axe, "es")
    _no_english(seen)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_card_state_question_and_error_reads_in_english(
    viewport: dict[str, int], new_page: Callable[..., Any], axe: Callable[[Any], None], tmp_path: Path
) -> None:
    """The English twin: the same notes (a member's Spanish ones) on an admin's English page (an admin's page
    follows the browser's language), each width on a sample workshop of its own; no Spanish word but the
    note's own quoted ones."""
    header = CARD_WORDS["en"]["header"]
    with start_workshop(tmp_path / "workshop-var") as server:
        page = new_page(viewport=viewport, locale="en-US", extra_http_headers={"Accept-Language": header})
        sign_in_as(page, server, "admin")
        seen = read_every_card_state(page, axe, "en")
    for text in seen:
        assert spanish_words(text, NAMES) == set(), text


def read_every_card_state(page: Any, axe: Callable[[Any], None], language: str) -> list[str]:
    """Render every card state, question and error of the page in ``language`` and return their texts."""
    words: dict[str, Any] = CARD_WORDS[language]
    assert page.locator("html").get_attribute("lang") == language
    seen: list[str] = []

    # Pending, blocked (a rule's message), a flag card with the reader's label, and their "Why?".
    send(page, SAMPLE_NOTE)
    seen += _texts(page)
    assert words["next_stage"] in card(page, "TQ-2C5P0").locator(".rule").inner_text()
    flag = page.locator("article.card[data-card=flag_issue]")
    assert words["note_says"] in flag.locator(".flag-message").inner_text()
    # Decisions: approved, rejected, each with its outcome.
    card(page, "TQ-7F3K2").get_by_role("button", name=words["approve"]).click()
    expect(card(page, "TQ-7F3K2")).to_have_attribute("data-status", "approved")
    flag.get_by_role("button", name=words["reject"]).click()
    expect(page.locator("article.card[data-card=flag_issue]")).to_have_attribute("data-status", "rejected")
    seen += _texts(page)

    # One hat: the card and its reason in the singular. Then a refused edit: the rule's message and the
    # approvals' ending, from their codes.
    send(page, "Doña Rosa Pillco terminó 1 fino de 18 hileras")
    create = page.locator("article.card[data-card=create_hat]")
    what = create.locator(".what").inner_text()
    assert words["create_one"] in what and words["plural"] not in what, what
    why = create.locator(".why p").text_content() or ""
    assert words["why_one"] in why and words["why_plural"] not in why, why
    create.locator("details.edit summary").click()
    create.get_by_label(words["rows"]).fill("12")
    create.get_by_role("button", name=words["save"]).click()
    outcome = page.locator("article.card[data-card=create_hat] .outcome")
    expect(outcome).to_contain_text(words["refused"])
    seen += _texts(page)

    # The offline reader's questions and reasons, in the page's language at render time.
    for note, asked in words["questions"].items():
        send(page, note)
        question = page.locator("article.card[data-status=question]").first
        expect(question.locator(".question")).to_contain_text(asked)
        seen += _texts(page)
    # An answer the rules then block: the card says why, from the rule's code.
    send(page, "Doña Rosa Pillco terminó 2 finos")
    question = page.locator("article.card[data-status=question]").first
    question.get_by_label(words["rows"]).fill("12")
    question.get_by_role("button", name=words["answer"], exact=True).click()
    answered = page.locator("article.card[data-card=create_hat]")
    expect(answered).to_have_attribute("data-status", "blocked")
    expect(answered.locator(".rule")).to_contain_text(words["refused"])
    seen += _texts(page)

    # A composer error.
    page.fill("#note", "El TQ-7F3K2 pasó a lavado")
    page.fill("#hat_tag", "ZZ")
    page.click("#composer button[type=submit]")
    expect(page.locator("#result .error")).to_have_text(words["bad_tag"])
    seen += _texts(page)
    axe(page)
    # The reasons were in the pages, not only the test's list of them.
    joined = " ".join(seen)
    for said in words["said"]:
        assert said in joined, said
    return seen


COUNT_WORDS = {
    "es": {"one": "1 sombrero", "many": " sombreros", "add": "Agregar", "archived": "Archivada",
           "save": "Guardar", "chip": "archivada"},
    "en": {"one": "1 hat", "many": " hats", "add": "Add", "archived": "Archived", "save": "Save",
           "chip": "archived"},
}  # fmt: skip


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_counts_read_in_their_plural_and_weavers_in_their_gender(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    workshop_server: Any,
) -> None:
    header = "es-EC,es;q=0.9" if language == "es" else "en-US,en;q=0.9"
    words = COUNT_WORDS[language]
    admin = new_page(
        viewport=viewport, locale=header.split(",")[0], extra_http_headers={"Accept-Language": header}
    )
    sign_in(admin, "admin")  # an admin's page follows the browser's language
    admin.goto(workshop_server.url("/workshop/hats?q=TQ-7F3K2"))
    expect(admin.locator(".count-line")).to_have_text(words["one"])
    admin.goto(workshop_server.url("/workshop/hats"))
    assert admin.locator(".count-line").inner_text().endswith(words["many"])
    admin.goto(workshop_server.url("/workshop/weavers"))
    # Add a weaver and archive her: in Spanish she is "archivada" (a hat is "archivado"). A new one, of this
    # run alone, so the other tests' notes still find the sample's weavers.
    name = f"Mercedes Zhunio {language} {viewport['width']}"
    admin.fill("#new-name", name)
    admin.get_by_role("button", name=words["add"], exact=True).click()
    mercedes = admin.locator("li.weaver", has_text=name)
    mercedes.locator("details summary").click()
    mercedes.get_by_label(words["archived"]).check()
    mercedes.get_by_role("button", name=words["save"]).click()
    expect(admin.locator("li.weaver", has_text=name).locator(".chip")).to_have_text(words["chip"])


@pytest.mark.parametrize(
    ("language", "viewport"),
    [("es", PHONE), ("en", DESKTOP), ("es", DESKTOP), ("en", PHONE)],
    ids=["es-phone", "en-desktop", "es-desktop", "en-phone"],
)
def test_the_panel_follows_each_decision_and_the_keyboard_moves_on(
    language: str,
    viewport: dict[str, int],
    new_page: Callable[..., Any],
    sign_in: Callable[[Any, str], Any],
    axe: Callable[[Any], None],
) -> None:
    header = "es-EC,es;q=0.9" if language == "es" else "en-US,en;q=0.9"
    page = new_page(
        viewport=viewport, locale=header.split(",")[0], extra_http_headers={"Accept-Language": header}
    )
    sign_in(page, "admin")  # an admin's page follows the browser's language
    words = {
        "es": {"open": "abiertas", "one_open": "1 abierta", "all": "Aprobar las 3 tarjetas pendientes",
               "two": "Aprobar las 2 tarjetas pendientes", "approve": "Aprobar", "reject": "Rechazar",
               "applied": "Aplicada", "rejected": "Rechazada", "answer_one": "Aprobar la tarjeta pendiente",
               "approved_n": "1 tarjeta aprobada."},
        "en": {"open": "open", "one_open": "1 open", "all": "Approve all 3 pending cards",
               "two": "Approve all 2 pending cards", "approve": "Approve", "reject": "Reject",
               "applied": "Applied", "rejected": "Rejected", "answer_one": "Approve the pending card",
               "approved_n": "1 card approved."},
    }[language]  # fmt: skip
    send(page, FOUR_CARDS)
    head = page.locator(".panel-head")
    expect(head.locator(".count")).to_have_text(f"(4 {words['open']})")
    expect(head.get_by_role("button")).to_have_text(words["all"])

    # Approve the first card: the count and the button follow; focus moves to the next open card.
    cards = page.locator(".panel article.card")
    first_id = cards.nth(0).get_attribute("id")
    second_id = cards.nth(1).get_attribute("id")
    cards.nth(0).get_by_role("button", name=words["approve"], exact=True).click()
    expect(page.locator(f"#{first_id}")).to_have_attribute("data-status", "approved")
    expect(head.locator(".count")).to_have_text(f"(3 {words['open']})")
    expect(head.get_by_role("button")).to_have_text(words["two"])
    expect(page.locator(f"#{second_id}")).to_be_focused()
    expect(page.locator("#announce")).to_contain_text(words["applied"])

    # Reject the focused card from the keyboard: focus moves on again, the live region says so.
    page.locator(f"#{second_id}").get_by_role("button", name=words["reject"]).focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"#{second_id}")).to_have_attribute("data-status", "rejected")
    expect(page.locator("#announce")).to_contain_text(words["rejected"])
    expect(head.locator(".count")).to_have_text(f"(2 {words['open']})")
    focused_open = page.locator(".panel article.card[data-open]:focus")
    expect(focused_open).to_have_count(1)

    # "Approve all pending" approves the last pending card; focus goes to the panel's heading.
    head.get_by_role("button").click()
    expect(page.locator(".panel-title")).to_be_focused()
    expect(page.locator("#announce")).to_contain_text(words["approved_n"])
    expect(page.locator(".panel-head .count")).to_have_text(f"({words['one_open']})")  # the blocked batch
    expect(page.locator(".panel-head").get_by_role("button")).to_have_count(0)
    axe(page)

    # A question answered becomes pending: "approve all pending" appears for it.
    send(page, "Rosa entregó 2 finos de 16 hileras")
    head = page.locator(".panel-head")
    expect(head.get_by_role("button")).to_have_count(0)
    page.locator("article.card[data-status=question] .chips button", has_text="Rosa Pillco").click()
    expect(page.locator("article.card[data-card=create_hat]")).to_have_attribute("data-status", "pending")
    expect(head.get_by_role("button")).to_have_text(words["answer_one"])
    # The answered card is still open: the keyboard stays on it.
    expect(page.locator("article.card[data-card=create_hat]")).to_be_focused()
    # The last decision leaves no open card: focus goes to the heading.
    page.locator("article.card[data-card=create_hat]").get_by_role(
        "button", name=words["approve"], exact=True
    ).click()
    expect(page.locator("article.card[data-card=create_hat]")).to_have_attribute("data-status", "approved")
    expect(page.locator(".panel-title")).to_be_focused()
    expect(head.locator(".count")).to_have_text(f"(0 {words['open']})")
