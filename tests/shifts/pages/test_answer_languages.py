"""An answer's own sentences on a Spanish page (answers/sayings.py): said from their templates in Spanish,
with the same figures and citations as the English page, while the JSON answer keeps its English text."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from shopfloor.shifts.answers import refusals
from shopfloor.shifts.answers.sayings import spoken
from shopfloor.shifts.pages.answer_view import is_english_text
from shopfloor.shifts.pages.i18n import Words, translations

SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}
ENGLISH = {"accept": "text/html", "accept-language": "en-US,en;q=0.9"}

# Representative answers, each with a Spanish word its sentences must say and English template words they
# must not say outside what is marked English.
ANSWERS = (
    ("/shifts/a?day=2026-09-14&shift=2&measure=overview", "marchó", ("ran at", "including stops")),
    (
        "/shifts/a?day=2026-09-14&shift=2&measure=downtime&by=reason",
        "paro",
        ("over 1 stop", "largest downtime"),
    ),
    ("/shifts/a?window=week&anchor=2026-09-16&measure=opportunities", "al año", ("a year", "levers")),
    (
        "/shifts/a?window=week&anchor=2026-09-16&measure=pareto",
        "Atasco de cuchilla",
        ("Knife jam", "The top"),
    ),
)


def _answer_region(page: str) -> str:
    start = page.index('class="headline"')
    return page[start : page.index("</section>", page.index('class="findings"'))]


def _figures_and_citations(page: str) -> tuple[list[str], list[str]]:
    region = _answer_region(page)
    return re.findall(r"<strong>(.*?)</strong>", region), re.findall(r"href='(#q\d+(?:-r\d+)?)'", region)


@pytest.fixture(scope="module")
def client(page_client):
    return page_client


@pytest.mark.parametrize(("path", "spanish", "english"), ANSWERS)
def test_an_answer_is_said_in_spanish_with_the_english_pages_figures_and_citations(
    client, path, spanish, english
):
    es = client.get(path, headers=SPANISH)
    en = client.get(path, headers=ENGLISH)
    assert es.status_code == en.status_code == 200
    region = _answer_region(es.text)
    assert spanish in region
    for words in english:
        assert words not in region, words
    assert _figures_and_citations(es.text) == _figures_and_citations(en.text)


def test_the_json_answer_keeps_its_english_text_and_its_templates(client):
    data = client.get("/shifts/a.json?day=2026-09-14&shift=2&measure=overview", headers=SPANISH).json()
    head = next(s for s in data["sections"] if s["type"] == "headline")
    assert head["text"].startswith("Shift 2 ran at **")
    assert head["say"]["id"] == "Shift {shift} ran at {speed} of grade target speed against 100 % {cite}."
    # Said again in Spanish from the same data: the same figure and citation parts, in another sentence.
    again = spoken(head, translations("es"))
    assert again["text"].startswith("El turno 2 marchó al **")
    assert [p for p in again["parts"] if isinstance(p, dict)] == [
        p for p in head["parts"] if isinstance(p, dict)
    ]


def test_a_yes_no_and_a_promoted_finding_keep_their_rewording_in_spanish(client):
    r = client.get(
        "/shifts/q?question=was%20shift%202%20below%20target%3F&day=2026-09-14&shift=2", headers=SPANISH
    )
    assert r.status_code == 200
    assert re.search(r'<h2 class="headline">Sí: El turno 2 marchó', r.text), _answer_region(r.text)[:400]


def test_the_records_words_are_said_through_the_glossary():
    es = translations("es")
    assert es.pgettext("record", "Knife jam") == "Atasco de cuchilla"
    assert es.pgettext("record", "275-BC") == "275-BC"  # a grade is a code: said as it is


def _pdf_text(pdf: bytes, folder: Path) -> str:
    path = folder / "doc.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True).stdout.decode()


def _flat(text: str) -> str:
    return " ".join(text.split())


needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils is not installed"
)


@needs_pdftotext
def test_the_answers_pdf_is_drawn_in_the_pages_language_with_its_figures(client, tmp_path):
    path = "/shifts/a?day=2026-09-14&shift=2&measure=overview&format=pdf"
    es = client.get(path, headers=SPANISH)
    en = client.get(path, headers=ENGLISH)
    assert es.status_code == en.status_code == 200 and es.content != en.content  # kept per language
    spanish, english = _flat(_pdf_text(es.content, tmp_path)), _flat(_pdf_text(en.content, tmp_path))
    # Its headings, labels, table lines and sentences in Spanish, accents drawn.
    for said in ("Definiciones", "Limitaciones", "Página 1", "Alcance:", "Estado completa", "marchó al"):
        assert said in spanish, said
    assert re.search(r"Se muestran? \d+ de \d+ filas?\.", spanish)
    assert "Leída como" in spanish and "(consulta 1 · fila 1)" in spanish
    for words in ("Definitions", "Limitations", "Page 1", "Scope:", "rows shown", "ran at", "Read as"):
        assert words not in spanish, words
    # The English PDF as it was.
    for said in (
        "Definitions",
        "Limitations",
        "Page 1",
        "Scope:",
        "rows shown",
        "Shift 2 ran at",
        "(query 1 · row 1)",
    ):
        assert said in english, said
    assert "Definiciones" not in english
    # The same figures in both.
    figures = re.compile(r"\d[\d,]*\.\d+ ?%")
    assert figures.findall(spanish)[:6] == figures.findall(english)[:6]


@needs_pdftotext
def test_the_period_reports_pdf_is_drawn_in_the_pages_language(client, tmp_path):
    path = "/shifts/report?period=month&day=2026-09-14&format=pdf"
    spanish = _flat(_pdf_text(client.get(path, headers=SPANISH).content, tmp_path))
    english = _flat(_pdf_text(client.get(path, headers=ENGLISH).content, tmp_path))
    for said in (
        "septiembre 2026",
        "Figura: producción buena estimada",
        "Huellas de los datos",
        "lun",
        "vie",
    ):
        assert said in spanish, said
    assert "El periodo es parcial: 10 de 22 días de producción completos" in spanish  # a report line
    assert "Velocidad frente al objetivo 81.12 % de la velocidad objetivo del grado" in spanish
    for words in ("Period report", "Dataset hashes", "estimated good output", "Page 1", "production days"):
        assert words not in spanish, words
    assert "The window is partial: 10 of 22 production days complete" in english
    assert "Period report: September 2026" in english and "Dataset hashes" in english


def _said_region(page: str) -> str:
    """The answer's sentences from its status line to its downloads (the metric cards left out)."""
    region = page[page.index('class="status"') : page.index('class="downloads"')]
    return re.sub(r'<ul class="cards".*?</ul>', "", region, flags=re.S)


def _ask(client, question: str, headers: dict[str, str]) -> str:
    r = client.get(
        "/shifts/q", params={"question": question, "day": "2026-09-14", "shift": "2"}, headers=headers
    )
    assert r.status_code == 200
    return _said_region(r.text)


def test_a_refusals_reason_and_its_closest_questions_are_said_in_spanish(client):
    es = _ask(client, "what will speed be tomorrow?", SPANISH)
    en = _ask(client, "what will speed be tomorrow?", ENGLISH)
    assert "Los registros describen el pasado" in es and "Preguntas más cercanas" in es
    assert "The records describe the past" in en and "Closest questions" in en
    for words in ("The records describe the past", "Closest questions", "Show speed to target"):
        assert words not in es, words
    # The closest questions link to the same addresses (their words never sent back as a question).
    assert re.findall(r'href="([^"]+)"', es) == re.findall(r'href="([^"]+)"', en)
    # An action is refused in Spanish; the question's own words it did not read are kept as written.
    es = _ask(client, "should we raise the glue temperature?", SPANISH)
    assert "El investigador lee registros" in es
    assert "No se entendió: <span class='asked'>raise</span>." in es
    assert "No está en los registros: <span class='asked'>temperature</span> (los registros tienen" in es
    assert "Not understood" not in es and "Not in the records" not in es and 'lang="en">No' not in es


def test_a_partial_answers_not_applied_line_says_its_label_in_spanish(client):
    es = _ask(client, "crew A rejects", SPANISH)
    en = _ask(client, "crew A rejects", ENGLISH)
    assert "Not applied: crew A" in en
    # The label and the item in Spanish (the item said from its template, answers/refusals.py).
    assert (
        "No aplicado: cuadrilla A (las herramientas de esta respuesta no desglosan los rechazos por cuadrilla)."
        in es
    ), es
    assert "<span lang='en'>" not in es.split("No aplicado:")[1].split("</p>")[0]
    assert "Not applied" not in es
    assert re.findall(r"<strong>(.*?)</strong>", es) == re.findall(r"<strong>(.*?)</strong>", en)
    asked = {"question": "crew A rejects", "day": "2026-09-14", "shift": "2"}
    read = client.get("/shifts/q", params=asked, follow_redirects=False)
    assert read.status_code == 303  # read whole: the line is the address's own
    data = client.get(read.headers["location"].replace("/a?", "/a.json?")).json()
    line = next(s for s in data["sections"] if s["text"].startswith("Not applied: crew A"))
    assert line["say"]["id"] == "Not applied: {items}."  # the JSON's text is the English, with its template


def test_where_to_look_is_said_in_spanish_and_links_to_the_same_addresses(client):
    path = "/shifts/a?day=2026-09-14&shift=2&measure=downtime&by=reason"
    es = client.get(path, headers=SPANISH).text
    en = client.get(path, headers=ENGLISH).text
    nav_es = es[es.index('<nav class="where"') : es.index("</nav>", es.index('<nav class="where"'))]
    nav_en = en[en.index('<nav class="where"') : en.index("</nav>", en.index('<nav class="where"'))]
    assert "Los paros por equipo → “Mostrar los paros por equipo”" in nav_es
    assert "Downtime by place" not in nav_es and 'lang="en"' not in nav_es
    assert "Downtime by place → “Show the downtime by place”" in nav_en
    assert re.findall(r'href="([^"]+)"', nav_es) == re.findall(r'href="([^"]+)"', nav_en)


def _report_lines(page: str) -> str:
    start = page.index('data-status="', page.index('class="report'))
    return page[start : page.index("<h3>", start)]


def test_the_period_reports_lines_are_said_in_spanish_with_the_english_figures(client):
    path = "/shifts/report?period=month&day=2026-09-14&format=html"
    es = _report_lines(client.get(path, headers=SPANISH).text)
    en = _report_lines(client.get(path, headers=ENGLISH).text)
    for said in (
        "septiembre 2026.",
        "El periodo es parcial",
        "Pies lineales 10,494,000 ft",
        "cambios de papel",
    ):
        assert said in es, said
    for words in ("September 2026", "The window is partial", "Lineal footage", "paper changes", 'lang="en"'):
        assert words not in es, words
    assert "Lineal footage 10,494,000 ft" in en
    figures = re.compile(r"\d[\d,.]*(?: %| ft| MSF)?")
    said = figures.findall(re.sub("<[^>]+>", "", es))
    assert len(said) > 10 and said == figures.findall(re.sub("<[^>]+>", "", en))
    # The JSON report keeps its English lines, and each line's template beside it.
    data = client.get("/shifts/report", params={"period": "month", "day": "2026-09-14"}).json()
    assert data["sections"][0] == "September 2026." and len(data["said"]) == len(data["sections"])
    assert data["said"][0]["params"]["window"]["window"]["period"] == "month"


def test_a_window_named_by_its_label_is_named_in_the_pages_language(client):
    path = "/shifts/a?window=month&anchor=2026-09-16&measure=pareto"
    es = _said_region(client.get(path, headers=SPANISH).text)
    en = _said_region(client.get(path, headers=ENGLISH).text)
    assert "Periodo: septiembre 2026; cobertura parcial." in es
    assert "Window: September 2026; coverage partial." in en
    assert "September" not in es and "Window:" not in es
    week = _said_region(
        client.get("/shifts/a?window=week&anchor=2026-09-16&measure=pareto", headers=SPANISH).text
    )
    assert "Periodo: Semana del 2026-09-14 (lun–vie); cobertura completa." in week


@pytest.mark.parametrize(
    ("reason", "spanish"),
    (
        ("Questions are limited to 500 characters.", "Las preguntas tienen un límite de 500 caracteres."),
        ("That question has no window form; ask about one production day.", "Esa pregunta no tiene forma"),
        (
            "That is a daily tool; under the month control ask for the window form (for example the downtime "
            "pareto or the period KPIs), or switch the Period to Day.",
            "con el control en mes pida",
        ),
    ),
)
def test_a_routers_reason_is_said_from_its_template_with_its_english_unchanged(reason, spanish):
    section = refusals.reason(reason)
    assert section["text"] == reason and "say" in section
    assert spanish in spoken(section, translations("es"))["text"]


def test_a_reason_the_answers_do_not_know_stays_as_written_in_english():
    assert refusals.reason("A reason worded otherwise.") == {
        "type": "text",
        "text": "A reason worded otherwise.",
    }


def test_a_trends_weeks_are_named_in_spanish_with_the_english_figures(client):
    path = "/shifts/a?day=2026-09-16&measure=trend&metric=downtime_pct&weeks=4&reason=Knife+jam"
    es = client.get(path, headers=SPANISH).text
    en = client.get(path, headers=ENGLISH).text
    region = _answer_region(es)
    assert "La semana del 2026-09-14 marcó" in region and "paros del motivo Atasco de cuchilla" in region
    assert "Semana del 2026-09-07 (completa):" in region and "10 paros" in region
    for words in ("The week of", "Week of", "Knife jam", "stops", "(complete)"):
        assert words not in region, words
    # The same figures and citations; a figure with no value is said so in Spanish.
    figures, cites = _figures_and_citations(es)
    assert ([{"No disponible": "Unavailable"}.get(f, f) for f in figures], cites) == _figures_and_citations(
        en
    )
    assert "No disponible" in figures


def test_the_records_words_in_chart_points_and_table_rows_are_said_through_the_glossary(client):
    path = "/shifts/a?day=2026-09-14&shift=2&measure=downtime&by=reason&chart=1"
    es = client.get(path, headers=SPANISH).text
    en = client.get(path, headers=ENGLISH).text
    charts = es[es.index('class="charts"') : es.index("</section>", es.index('class="charts"'))]
    # The chart's points and its data table in Spanish; a grade or a code stays as it is.
    assert "Atasco de cuchilla" in charts and "Knife jam" not in charts
    assert "Knife jam" in en[en.index('class="charts"') :]
    trace = es[es.index('class="trace"') :]
    # The trace's rows: the records' words in Spanish, unmarked; a tool's own English text marked English.
    assert re.search(r"<td>Atasco de cuchilla</td>", trace)
    assert "<td>Knife jam</td>" not in trace
    assert "<td>controlable</td>" in trace  # a stop's class
    # A flag's citation says what it counts in Spanish too.
    assert "(consulta 1 · alerta 1)" in _answer_region(es) and "flag 1" not in _answer_region(es)
    # A tool's own English words are marked English cell by cell; a code or a said word is not.
    es_words = Words("es")
    assert is_english_text("speed to target below 100 % is highlighted", es_words)
    assert not is_english_text("275-BC", es_words) and not is_english_text("Atasco de cuchilla", es_words)
    assert not is_english_text("speed to target", Words("en"))


def test_a_named_reasons_cost_over_a_window_names_the_window_in_spanish(client):
    es = _ask(client, "what did knife jams cost this month", SPANISH)
    en = _ask(client, "what did knife jams cost this month", ENGLISH)
    assert "Knife jam cost" in en and "in September 2026 at the assumed rates" in en
    assert "Atasco de cuchilla costó" in es and "en septiembre 2026 a las tarifas supuestas" in es
    assert "September" not in es and "at the assumed rates" not in es
    assert re.findall(r"<strong>(.*?)</strong>", es)[:1] == re.findall(r"<strong>(.*?)</strong>", en)[:1]


def test_the_assumed_rates_and_the_cost_note_are_said_in_spanish_with_their_figures(client):
    path = "/shifts/a?day=2026-09-14&shift=2&measure=downtime&by=reason"
    es = _said_region(client.get(path, headers=SPANISH).text)
    en = _said_region(client.get(path, headers=ENGLISH).text)
    assert (
        "Tarifas supuestas: cartón $50/MSF, tiempo de máquina $1,200/h, 250 días de producción al año" in es
    )
    assert "Los dólares son estimaciones" in es and "margen de contribución sin definir." in es
    assert "Assumed rates" not in es and "Dollars are estimates" not in es
    assert "Assumed rates: board $50/MSF, machine time $1,200/h" in en


def test_a_stopped_runs_preface_is_said_from_its_template_with_its_english_unchanged():
    from shopfloor.shifts.investigation import PREFACE, SPEND_PREFACE

    for text in (*PREFACE.values(), SPEND_PREFACE):
        section = refusals.reason(text)
        assert section["text"] == text and "say" in section, text
        assert spoken(section, translations("es"))["text"] != text
