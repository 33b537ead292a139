"""The /shifts pages in their language: which one a request gets, the switch, catalogues that cover every page
string, and every page drawn in Spanish with no English word left outside what the answer's code wrote
(marked ``lang="en"``: docs/shifts-agent.md, "The page")."""

from __future__ import annotations

import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shopfloor.shifts.pages.answer_view import MEASURE_LABELS
from shopfloor.shifts.pages.chart_view import chart_title, chart_views, point_word
from shopfloor.shifts.pages.i18n import COOKIE, LOCALE_DIR, Words, page_locale
from shopfloor.shifts.pages.scope_view import records_line, scope_line, window_label
from shopfloor.shifts.planning.reading import MEASURE_WORDS
from shopfloor.shifts.plant.calendar import window_for
from tests.catalogues import assert_catalogues_cover_pages

BASE = "http://127.0.0.1:8000"
SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}
ENGLISH_BROWSER = {"accept": "text/html", "accept-language": "en-US,en;q=0.9"}
ES = Words("es")

# English words a Spanish page must not show (none is a proper name, a unit or a code).
ENGLISH_WORDS = (
    "shift", "shifts", "every", "status", "findings", "metrics", "download", "period", "question", "planner",
    "reset", "where", "look", "asked", "opened", "address", "records", "production", "day", "days", "speed",
    "setups", "include", "rows", "row", "points", "more", "incomplete", "complete", "partial", "query", "week",
    "month", "mon", "tue", "wed", "thu", "fri", "the", "and", "of", "with", "from", "only", "selected",
    "operator", "trim", "shear", "throughput", "charts", "chart", "data", "notes", "evidence", "try", "skip",
    "synthetic", "investigate", "field", "guide", "read", "tools", "calls", "cost", "model", "turn",
    "arguments", "bound", "values", "result", "hatched", "missing", "estimated", "output", "rankings", "daily",
    "matrix", "reported", "lineal", "feet", "downtime", "minutes", "back", "found", "cannot", "this", "band",
    "outside", "live", "none", "configured", "links", "offline", "previous", "scope", "example", "questions",
)  # fmt: skip
ENGLISH = re.compile(r"\b(" + "|".join(ENGLISH_WORDS) + r")\b", re.I)


class SpanishText(HTMLParser):
    """A page's visible text and accessible names, leaving out what is marked English (``lang="en"``), code
    (``code``, ``pre``) and the page's scripts."""

    SKIP = {"code", "pre", "script", "style"}
    VOID = {"img", "input", "br", "meta", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []  # whether each open element is skipped
        self.texts: list[str] = []
        self.lang = ""

    def skipping(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang") or ""
            return
        skip = tag in self.SKIP or found.get("lang") == "en"
        if not skip and not self.skipping():
            for name in ("aria-label", "placeholder", "alt", "title", "data-tip"):
                if found.get(name):
                    self.texts.append(str(found[name]))
        if tag not in self.VOID:
            self.stack.append(skip)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and tag != "html" and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping() and data.strip():
            self.texts.append(data.strip())


def spanish_text(page: str) -> tuple[str, str]:
    """The page's ``lang`` and the text a Spanish reader gets from it (the planner's code name left out)."""
    parser = SpanishText()
    parser.feed(page)
    return parser.lang, " ".join(parser.texts).replace("offline-planner", "")


@pytest.fixture(scope="module")
def client(page_client):
    return page_client


def test_the_switch_wins_then_the_browser_then_english():
    assert page_locale("es", "en-US") == "es"
    assert page_locale("en", "es-EC,es;q=0.9") == "en"
    assert page_locale(None, "es-EC,es;q=0.9") == "es"
    assert page_locale(None, "es-419") == "es"
    assert page_locale("xx", "de-DE,fr;q=0.8") == "en"  # an unknown choice is ignored
    assert page_locale(None, None) == "en"


def test_the_page_says_dates_windows_and_counts_in_spanish():
    day = date(2026, 9, 14)
    assert scope_line(day, 2, "shift", "day", ES) == "lun 2026-09-14 · 15:00–23:00 · solo el turno 2"
    assert scope_line(day, None, "day", "day", ES) == "lun 2026-09-14 · todos los turnos"
    assert window_label(window_for("month", day), ES) == "septiembre 2026"
    assert window_label(window_for("week", day), ES) == "Semana del 2026-09-14 (lun–vie)"
    assert window_label(window_for("fiscal", day), ES) == "4-4-5 P1 AF2026 (4 semanas)"
    one = {"first": "2026-09-14", "last": "2026-09-14", "count": 1, "weekdays_only": True}
    assert records_line(one, ES) == "Registros: lun 2026-09-14 – lun 2026-09-14, 1 día de producción, lun–vie"
    many = {"first": "2026-09-07", "last": "2026-09-21", "count": 11, "weekdays_only": False}
    assert records_line(many, ES) == "Registros: lun 2026-09-07 – lun 2026-09-21, 11 días de producción"
    assert records_line(many) == "Records: Mon 2026-09-07 – Mon 2026-09-21, 11 production days"


def test_the_page_names_every_measure_the_reader_reads():
    assert set(MEASURE_LABELS) == set(MEASURE_WORDS)


def test_every_page_string_is_in_both_catalogues_and_translated_to_spanish(tmp_path: Path) -> None:
    # The answers' templates too (answers/sayings.py): their plurals (NN_) and the records' glossary (NP_).
    assert_catalogues_cover_pages(
        LOCALE_DIR,
        "src/shopfloor/shifts/pages/babel.cfg",
        tmp_path,
        at_least=400,
        keywords=("NN_:1,2", "NP_:1c,2"),
    )


PAGES = (
    "/shifts/?day=2026-09-14&shift=2",
    "/shifts/?day=2026-09-14&period=month",
    "/shifts/a?day=2026-09-14&shift=2&measure=overview",
    "/shifts/a?day=2026-09-14&measure=compare_shifts",  # every shift side by side
    "/shifts/a?window=week&anchor=2026-09-16&measure=compare_groups&by=crew",  # the crews side by side
    "/shifts/report?period=week&day=2026-09-14&format=html",
    "/shifts/guide",
    # A question the reader does not read, in the person's own words (Spanish here).
    "/shifts/q?question=%C2%BFqu%C3%A9%20tiempo%20hace%3F&day=2026-09-14&shift=2",
    "/shifts/a?day=2026-09-16&measure=overview;DROP",
    "/shifts/nowhere",
)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_spanish_shows_no_english_outside_the_answers_own_text(client, path):
    r = client.get(path, headers=SPANISH)
    assert r.status_code in (200, 400, 404), r.text[:300]
    lang, text = spanish_text(r.text)
    assert lang == "es"
    assert "Investigador de turnos" in text
    assert ENGLISH.findall(text) == [], text


def test_an_answer_in_spanish_counts_in_its_plurals_and_cites_in_spanish(client):
    r = client.get("/shifts/a?day=2026-09-14&shift=2&measure=overview", headers=SPANISH)
    _, text = spanish_text(r.text)
    for said in (
        "Leída como diagnóstico del turno · lun 2026-09-14",
        "Estado completa",
        "Indicadores",
        "Hallazgos",
    ):
        assert said in text, said
    # The answer's own sentences are said in Spanish from their templates, with the page's citations.
    assert re.search(
        r'<h2 class="headline">El turno 2 marchó al <strong>75.00 %</strong>.*\(consulta 1 · fila 3\)', r.text
    )
    assert "Datos del gráfico (1 punto)" in text and "Datos del gráfico (2 puntos)" in text
    assert "Registros: lun 2026-09-07 – lun 2026-09-21, 11 días de producción, lun–vie" in text
    # The same address in English is another kept page, not the Spanish one.
    english = client.get("/shifts/a?day=2026-09-14&shift=2&measure=overview", headers=ENGLISH_BROWSER)
    assert '<html lang="en">' in english.text and "Chart data (1 point)" in english.text


def test_the_switch_keeps_the_choice_and_comes_back_to_the_page(client):
    page = "/shifts/a?day=2026-09-14&shift=2&measure=overview"
    r = client.get("/shifts/language", params={"lang": "es", "next": page}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == page
    assert f"{COOKIE}=es" in r.headers["set-cookie"] and "Path=/shifts" in r.headers["set-cookie"]
    # The choice beats an English browser.
    spanish = client.get(page, headers=ENGLISH_BROWSER)
    assert '<html lang="es">' in spanish.text and 'hreflang="en"' in spanish.text
    back = client.get("/shifts/language", params={"lang": "en", "next": page}, follow_redirects=False)
    assert f"{COOKIE}=en" in back.headers["set-cookie"]


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/workshop/", ""])
def test_the_switch_never_leaves_the_app(client, target):
    r = client.get("/shifts/language", params={"lang": "es", "next": target}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/shifts/"


def test_an_unknown_language_is_refused_in_the_envelope_and_sets_nothing(client):
    r = client.get("/shifts/language", params={"lang": "fr", "next": "/shifts/"}, follow_redirects=False)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert "set-cookie" not in r.headers


def test_chart_titles_are_said_in_spanish_and_an_unknown_title_is_kept_as_english():
    assert chart_title("Shift 2: Downtime by reason (min)", ES) == ("Turno 2: Paros por motivo (min)", True)
    assert chart_title("Downtime pareto (min)", ES) == ("Pareto de paros (min)", True)
    assert chart_title("A live planner's own title", ES) == ("A live planner's own title", False)
    assert chart_title("A live planner's own title") == ("A live planner's own title", True)
    chart = {"kind": "bar", "title": "Shift 2: Downtime by reason (min)", "x": "key", "y": "minutes"}
    (view,) = chart_views([{**chart, "points": [{"x": "Knife jam", "y": 20.0}]}], words=ES)
    assert view["title"] == "Turno 2: Paros por motivo (min)"
    assert '<title id="chart-1-t" lang="es">Turno 2: Paros por motivo (min)</title>' in view["svg"]


def test_a_chart_label_of_a_place_and_its_reason_is_said_word_by_word():
    spanish = Words("es")
    assert point_word("Upper knife / Knife jam", spanish) == ("Cuchilla superior / Atasco de cuchilla", False)
    assert point_word("Knife jam", spanish) == ("Atasco de cuchilla", False)
    # A word the glossary does not hold keeps the label marked English; an English page keeps it as it is.
    assert point_word("Upper knife / flibbertigibbet", spanish) == (
        "Cuchilla superior / flibbertigibbet",
        True,
    )
    assert point_word("Upper knife / Knife jam", Words("en")) == ("Upper knife / Knife jam", False)
