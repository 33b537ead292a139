"""The /shifts page in Spanish in Debian's Chromium: a browser in Spanish gets the page in Spanish, an example
button answers with the page's words in Spanish (the answer's own sentences marked English), the switch goes
to English on the same answer and back; a weekend and a day outside the records said in words with the
nearest production day as a link; one h1 and no axe finding on every page (the report and a refusal at /q
too), every answer compressed and the versioned static files immutable; phone and desktop widths."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import AXE, DESKTOP, PHONE, allow_console, watch_wire
from tests.e2e.shifts.conftest import POPPLER, download, pdf_text, pdf_title

START = "/shifts/?day=2026-09-14&shift=2&include=shift&period=day"
SPANISH_HEADERS = {"Accept-Language": "es-EC,es;q=0.9"}
HEADERS = {"es": "es-EC,es;q=0.9", "en": "en-US,en;q=0.9"}


def spanish_page(new_page: Any, viewport: dict[str, int]) -> Any:
    return new_page(viewport=viewport, locale="es-EC", extra_http_headers=SPANISH_HEADERS)


def visible_outside_english(page: Any) -> str:
    """The page's text without what is marked English (the answer's own sentences) and without code."""
    return str(
        page.evaluate(
            """() => {
                const copy = document.body.cloneNode(true);
                copy.querySelectorAll('[lang=en], code, pre, script').forEach(n => n.remove());
                return copy.innerText;
            }"""
        )
    )


# The metric cards of shift 2 on 2026-09-14, written out by hand from the hand-built store
# (tests/shifts/investigation/conftest.py): their heading, labels, values with counted units and band lines.
CARDS = {
    "es": {
        "for": "Turno 2 · lun 2026-09-14",
        "labels": [
            "Velocidad",
            "Velocidad / objetivo",
            "Cambios de pedido",
            "Cambios de papel",
            "Mantenimiento",
            "Operación",
            "Desperdicio extremo seco",
            "Refile",
            "Cizalla",
            "Ancho promedio",
            "Lineales / cambio",
        ],
        "counted": ["2 cambios", "2 corridas"],
        "warnings": [
            "Fuera de banda: se resalta la velocidad por debajo del 100 % del objetivo",
            "Fuera de banda: banda de mantenimiento: 2.5 % de los minutos programados",
        ],
        "band": "banda de operación: 2.5 % de los minutos programados",
    },
    "en": {
        "for": "Shift 2 · Mon 2026-09-14",
        "labels": [
            "Speed",
            "Speed / target",
            "Setups",
            "Paper changes",
            "Maintenance",
            "Operator",
            "Dry-end waste",
            "Trim",
            "Shear",
            "Throughput",
            "Lineal / setup",
        ],
        "counted": ["2 setups", "2 runs"],
        "warnings": [
            "Outside band: speed to target below 100 % is highlighted",
            "Outside band: maintenance band 2.5 % of scheduled minutes",
        ],
        "band": "operator band 2.5 % of scheduled minutes",
    },
}


def cards_say(page: Any, language: str) -> None:
    """The answer's metric cards say their heading, labels, counted values and bands in ``language``, none
    of it marked English."""
    words = CARDS[language]
    cards = page.locator("#main .cards-block")
    assert cards.locator(".cards-for").first.inner_text() == words["for"]
    assert cards.locator(".card-label").all_inner_texts() == words["labels"]
    values = cards.locator(".card-value").all_inner_texts()
    assert values[2:4] == words["counted"] and values[1] == "75.00 %"
    assert cards.locator(".band-warning").all_inner_texts() == words["warnings"]
    assert words["band"] in cards.locator(".band").all_inner_texts()
    assert cards.locator("[lang=en]").count() == 0


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_spanish_browser_asks_in_spanish_and_switches_to_english(
    new_page, shifts_server, axe, shoot, viewport
):
    page = spanish_page(new_page, viewport)
    wire = watch_wire(page, shifts_server.base_url)
    page.goto(shifts_server.url(START))
    page.wait_for_function("() => window.htmx !== undefined")
    loaded = wire.check()
    assert loaded["compressed"] >= 3 and loaded["immutable"] >= 2  # the page, htmx, our script and style
    assert page.get_attribute("html", "lang") == "es"
    assert page.locator("#scope-line").inner_text() == "lun 2026-09-14 · 15:00–23:00 · solo el turno 2"
    records = page.locator("#records").inner_text()
    assert records == "Registros: lun 2026-09-07 – lun 2026-09-21, 11 días de producción, lun–vie"
    assert page.locator("h1").count() == 1

    button = "¿Por qué fue lento este turno? Gráfico de paros por motivo."
    with page.expect_response(lambda r: r.url.endswith("/shifts/ask")) as info:
        page.get_by_role("button", name=button, exact=True).click()
    assert info.value.status == 200
    assert info.value.headers.get("content-encoding") in ("br", "gzip")
    # The button sends the question the reader reads; the answer shows it as the button did.
    assert (
        info.value.request.post_data_json["question"] == "Why was this shift slow? Chart downtime by reason."
    )
    page.wait_for_selector("#main .answer")
    assert wire.check()["compressed"] >= 1
    assert page.locator("#main .asked q").inner_text() == button
    assert (
        page.locator("#main .read-as")
        .inner_text()
        .startswith("Leída como diagnóstico del turno con un gráfico · lun")
    )
    assert page.locator("#main .status strong").inner_text() == "completa"
    # The headline is said from its template in Spanish, so it carries no English mark.
    headline = page.locator("#main .headline")
    assert headline.get_attribute("lang") is None
    assert headline.inner_text().startswith("El turno 2 marchó al ")
    text = visible_outside_english(page)
    for english in (
        "Findings",
        "Metrics",
        "Status",
        "Download",
        "You asked",
        "How the agent got here",
        "rows",
    ):
        assert english not in text, english
    for spanish in (
        "Hallazgos",
        "Indicadores",
        "Descargar esta respuesta (PDF)",
        "Cómo llegó aquí el agente",
    ):
        assert spanish in text, spanish
    cards_say(page, "es")
    axe(page)
    if viewport == PHONE:
        shoot(page, "shifts-day-answer-es")

    # The switch: the same answer in English, then back to Spanish.
    address = page.url
    page.get_by_role("link", name="English").click()
    page.wait_for_load_state()
    assert page.url == address and page.get_attribute("html", "lang") == "en"
    assert page.locator("#main .asked").inner_text() == "Opened from its address"
    assert page.locator("#main .status strong").inner_text() == "complete"
    assert page.locator("#records").inner_text() == (
        "Records: Mon 2026-09-07 – Mon 2026-09-21, 11 production days, Mon–Fri"
    )
    cards_say(page, "en")
    axe(page)
    page.get_by_role("link", name="Español").click()
    page.wait_for_load_state()
    assert page.url == address and page.get_attribute("html", "lang") == "es"


NOTICES = {
    "es": (
        "sáb 2026-09-12 no es un día de producción: la planta trabaja de lunes a viernes. "
        "El día de producción más cercano en los registros: vie 2026-09-11.",
        "Los registros no tienen el lun 2026-08-03: van del lun 2026-09-07 al lun 2026-09-21. "
        "El día de producción más cercano en los registros: lun 2026-09-07.",
    ),
    "en": (
        "Sat 2026-09-12 is not a production day: the plant runs Monday to Friday. "
        "The nearest production day in the records: Fri 2026-09-11.",
        "The records hold no Mon 2026-08-03: they run from Mon 2026-09-07 to Mon 2026-09-21. "
        "The nearest production day in the records: Mon 2026-09-07.",
    ),
}


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_weekend_and_a_day_outside_the_records_say_so_with_the_nearest_day(
    new_page, shifts_server, axe, language, viewport
):
    headers = SPANISH_HEADERS if language == "es" else {"Accept-Language": "en-US"}
    page = new_page(viewport=viewport, extra_http_headers=headers)
    weekend, outside = NOTICES[language]
    for path, said, nearest in (
        ("/shifts/a?day=2026-08-03&shift=2&measure=overview", outside, "2026-09-07"),
        ("/shifts/?day=2026-09-12&shift=2&include=shift&period=day", weekend, "2026-09-11"),
    ):
        page.goto(shifts_server.url(path))
        notice = page.locator("#day-notice")
        assert notice.inner_text() == said
        assert "No records for shift" not in page.locator("#main").inner_text()
        axe(page)
        # The nearest day is a link to the same scope on that day, named as the notice names it.
        link = notice.get_by_role("link", name=said.rsplit(": ", 1)[1].rstrip("."), exact=True)
        assert link.get_attribute("href") == f"/shifts/?day={nearest}&period=day&include=shift&shift=2"
        link.click()
        page.wait_for_url(f"**day={nearest}**")
        assert page.locator("#day").input_value() == nearest and page.locator("#shift").input_value() == "2"
        assert page.locator("input[name=include][value=shift]").is_checked()
        assert page.locator("#day-notice").count() == 0


# What the answer PDF of shift 2 on 2026-09-14 says in Spanish (its title, headings, scope, status, headline,
# citations, chart captions, footer), and its English template's words, none of which may be left in it.
PDF_SPANISH = (
    "Registros sintéticos · planificador: offline",
    "Respuesta del Investigador de turnos",
    "Alcance: lun 2026-09-14 · 15:00–23:00 · solo el turno 2 · Estado completa",
    "Leída como diagnóstico del turno · lun 2026-09-14 · 15:00–23:00 · solo el turno 2",
    "El turno 2 marchó al 75.00 % de la velocidad objetivo del grado, frente al 100 % (consulta 1 · fila 3)",
    "Atasco de cuchilla: 20.0 min en 1 paro",
    "Figura: Turno 2: Paros por motivo (min)",
    "Cuadrilla B",
    "Tarifas supuestas",
    "Dónde mirar",
    "Consulta 1: get_shift_overview",
    "Investigador de turnos · registros sintéticos · herramientas de solo lectura",
    "Página 1",
)
# Whole words only, and not inside a code ("offline-planner", the planner's name).
PDF_ENGLISH = re.compile(
    r"(?<![\w-])(Shift Investigator|Synthetic records|planner|Scope|Status|complete|Read as|shift diagnosis|ran at"
    r"|query|row|Figure|Downtime|Knife jam|Crew|Assumed rates|Where to look|Query|read-only|Page)(?![\w-])"
)


@POPPLER
def test_the_answer_pdf_from_a_spanish_page_is_in_spanish(new_page, shifts_server, tmp_path):
    page = spanish_page(new_page, PHONE)
    page.goto(shifts_server.url("/shifts/a?day=2026-09-14&shift=2&measure=overview"))
    pdf = download(page, "Descargar esta respuesta (PDF)", tmp_path)
    assert pdf.read_bytes().startswith(b"%PDF")
    title = pdf_title(pdf)
    assert title.startswith("Respuesta del Investigador de turnos: ") and title.count("Investigador") == 1
    text = pdf_text(pdf)
    missing = [said for said in PDF_SPANISH if said not in text]
    assert missing == []
    assert PDF_ENGLISH.findall(text) == []


GUIDE_AND_ERRORS = {
    "es": {
        "guide": "Guía de campo",
        "compare": "Comparar todos los turnos",
        "400": ("Esto no se puede responder", "No se puede leer la dirección de esta respuesta."),
        "404": ("No encontrado", "No hay nada en esta dirección."),
        "back": "Volver al investigador",
    },
    "en": {
        "guide": "Field guide",
        "compare": "Compare all shifts",
        # An English page shows the envelope's own message, which names what could not be read.
        "400": ("This cannot be answered", "measure must be one of overview, kpis, downtime"),
        "404": ("Not found", "There is nothing at this address."),
        "back": "Back to the investigator",
    },
}


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_field_guide_and_the_error_pages_in_each_language(
    new_page, shifts_server, axe, language, viewport
):
    words = GUIDE_AND_ERRORS[language]
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": HEADERS[language]})
    page.goto(shifts_server.url("/shifts/guide"))
    assert page.get_attribute("html", "lang") == language
    assert page.locator("h1").inner_text() == words["guide"]
    assert page.get_by_role("link", name=words["compare"]).is_visible()
    axe(page)
    for status, path in (
        ("400", "/shifts/a?day=2026-09-16&measure=overview;DROP"),
        ("404", "/shifts/nowhere"),
    ):
        allow_console(page, status)
        response = page.goto(shifts_server.url(path))
        assert response is not None and response.status == int(status)
        assert page.get_attribute("html", "lang") == language
        title, sentence = words[status]
        assert page.locator("h1").count() == 1 and page.locator("h1").inner_text() == title
        assert page.locator("#main p").first.inner_text().startswith(sentence), status
        assert page.get_by_role("link", name=words["back"]).is_visible()
        axe(page)


@pytest.mark.parametrize(
    "path",
    [
        START,
        "/shifts/a?day=2026-09-14&shift=2&measure=overview",
        "/shifts/?day=2026-09-14&shift=2&period=month",
        "/shifts/guide",
        "/shifts/report?period=week&day=2026-09-14&format=html",
        "/shifts/q?question=what+is+the+weather+on+the+moon&day=2026-09-16&shift=2",  # a refusal, at /q
    ],
)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_has_one_h1_its_landmarks_and_no_axe_finding_of_any_impact(
    new_page, shifts_server, path, viewport
):
    for headers in (SPANISH_HEADERS, {"Accept-Language": "en-US"}):
        page = new_page(viewport=viewport, extra_http_headers=headers)
        wire = watch_wire(page, shifts_server.base_url)
        response = page.goto(shifts_server.url(path))
        assert response is not None and response.status == 200 and page.url == shifts_server.url(path)
        assert response.headers.get("content-encoding") in ("br", "gzip"), (path, headers)
        assert wire.check()["immutable"] >= 1, (path, headers)
        assert page.locator("h1").count() == 1
        page.evaluate(AXE.read_text(encoding="utf-8"))
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        found = [
            f"{v['impact']}: {v['id']} {[n['target'] for n in v['nodes'][:3]]}" for v in result["violations"]
        ]
        assert found == [], (path, headers)
