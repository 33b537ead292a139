"""A comparison on the page and in the PDF (pages/comparison_view.py, answers/pdf.py): a real table with a
caption, column and row header cells, best and worst in words; the headline said again by the page from the
answer's data says the same words in English and Spanish words on a Spanish page."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.answers.findings import cite_text, parts_of
from shopfloor.shifts.answers.pdf import answer_pdf
from shopfloor.shifts.pages.comparison_view import headline_markup, table_view
from shopfloor.shifts.pages.i18n import Words
from tests.shifts.answers.conftest import TIED_DAY, conn, varied_store

__all__ = ["conn", "varied_store"]  # the varied store's fixtures (tests/shifts/answers/conftest.py)

DAY = date(2026, 9, 16)
SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}


@pytest.fixture(scope="module")
def client(varied_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    app = create_app(Settings(shifts_db=varied_store, var_dir=tmp_path_factory.mktemp("var")))
    with TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1:8000") as c:
        yield c


class Tables(HTMLParser):
    """The side-by-side table of a page: its caption, header cells (with their scope) and data cells."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.cell: list[str] | None = None
        self.caption = ""
        self.in_caption = False
        self.headers: list[tuple[str, str]] = []
        self.cells: list[str] = []
        self.scope = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table" and "side-by-side" in (found.get("class") or ""):
            self.inside = True
        if not self.inside:
            return
        if tag == "caption":
            self.in_caption = True
        if tag in ("th", "td"):
            self.cell, self.scope = [], str(found.get("scope") or "")

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        if tag == "caption":
            self.in_caption = False
        if tag in ("th", "td") and self.cell is not None:
            text = " ".join(" ".join(self.cell).split())
            (self.headers.append((self.scope, text)) if tag == "th" else self.cells.append(text))
            self.cell = None
        if tag == "table":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.in_caption:
            self.caption += data
        elif self.cell is not None:
            self.cell.append(data)


def side_table(page: str) -> Tables:
    parsed = Tables()
    parsed.feed(page)
    return parsed


def plain_text(section: dict[str, Any]) -> str:
    """A section as a reader sees it: figures without their markers, citations as the page writes them."""
    return "".join(
        p if isinstance(p, str) else p["figure"] if "figure" in p else cite_text(p) for p in parts_of(section)
    )


def page_headline(conn: Any, question: str, day: date, words: Words) -> tuple[dict[str, Any], str]:
    answer = investigate(question, Scope(day=day), conn).as_dict()
    head = next(s for s in answer["sections"] if s["type"] == "headline")
    said = headline_markup(head, None, words)
    assert said is not None, head
    return head, re.sub(r"<[^>]+>", "", str(said))


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("compare 3rd shift vs 1st shift", DAY),  # the better of two
        ("compare all shifts", DAY),  # the best and the worst of a day's three
        ("which shift was best this week", DAY),  # of a window
        ("which crew was slowest this week", DAY),  # the slowest crew leads
        ("compare 3rd shift vs 1st shift", TIED_DAY),  # level
    ],
)
def test_the_pages_headline_in_english_is_the_answers_own_sentence(conn, question, day):
    head, said = page_headline(conn, question, day, Words("en"))
    assert said == plain_text(head)


def test_the_pages_headline_in_spanish_says_the_same_figures_in_spanish(conn):
    head, said = page_headline(conn, "compare all shifts", DAY, Words("es"))
    assert said == (
        "El turno 3 fue el mejor de los tres turnos el mié 2026-09-16, con 91.67 % de velocidad frente al "
        "objetivo (consulta 10 · fila 1); el turno 2 fue el peor, con 75.00 %, 16.67 puntos menos "
        "(consulta 10 · fila 3)."
    )
    assert [p["figure"] for p in head["parts"] if isinstance(p, dict) and "figure" in p] == [
        "91.67 %",
        "75.00 %",
        "16.67 points",
    ]


def test_the_table_says_its_rows_in_the_pages_language(conn):
    answer = investigate("compare 3rd shift vs 1st shift", Scope(day=DAY), conn).as_dict()
    side = next(s for s in answer["sections"] if s["type"] == "comparison")
    english, spanish = table_view(side, None, Words("en")), table_view(side, None, Words("es"))
    assert english["caption"] == "Shifts side by side, Wed 2026-09-16"
    assert spanish["caption"] == "Turnos lado a lado, mié 2026-09-16"
    assert [c["name"] for c in spanish["columns"]] == ["Turno 1", "Turno 3"]
    speed, feet = spanish["rows"][0], spanish["rows"][-1]
    assert (speed["label"], speed["better"]) == ("Velocidad frente al objetivo", "mayor es mejor")
    assert [(str(c["figure"]), c["end_text"]) for c in speed["cells"]] == [
        ("83.33 %", "peor"),
        ("91.67 %", "mejor"),
    ]
    # Feet say their unit once in the row's header; a long number may break only after a separator.
    assert feet["label"] == "Pies lineales (ft)" and str(feet["cells"][0]["figure"]) == "360,000.0"
    stops = next(r for r in english["rows"] if r["measure"] == "stops")
    assert [str(c["figure"]) for c in stops["cells"]] == ["2", "1"]


def test_the_page_draws_a_table_with_a_caption_header_cells_and_the_ends_in_words(client):
    r = client.get("/shifts/a?day=2026-09-16&measure=compare_shifts", headers={"accept": "text/html"})
    assert r.status_code == 200
    parsed = side_table(r.text)
    assert " ".join(parsed.caption.split()) == (
        "Shifts side by side, Wed 2026-09-16 Each row names its best and worst in words."
    )
    columns = [text for scope, text in parsed.headers if scope == "col"]
    assert [c.split(" (")[0] for c in columns] == ["Measure", "Shift 1", "Shift 2", "Shift 3"]
    assert columns[1].endswith("(query 10 · row 2)")  # each column cites its row of the comparison
    rows = [text for scope, text in parsed.headers if scope == "row"]
    assert rows[0] == "Speed to target higher is better" and len(rows) == 7
    assert parsed.cells[:3] == ["83.33 %", "75.00 % worst", "91.67 % best"]  # words, not colour alone
    # The headline comes before the table, the table before the cards.
    html = r.text
    assert (
        html.index('class="headline"') < html.index('class="side-by-side') < html.index('class="cards-block"')
    )


def test_a_spanish_page_says_the_comparison_in_spanish(client):
    r = client.get("/shifts/a?day=2026-09-16&measure=compare_shifts", headers=SPANISH)
    headline = re.search(r'<h2 class="headline"([^>]*)>(.*?)</h2>', r.text, re.S)
    assert headline is not None and 'lang="en"' not in headline.group(1)
    assert re.sub(r"<[^>]+>", "", headline.group(2)).startswith("El turno 3 fue el mejor de los tres turnos")
    parsed = side_table(r.text)
    assert parsed.caption.startswith("Turnos lado a lado, mié 2026-09-16")
    assert "91.67 % mejor" in parsed.cells and "75.00 % peor" in parsed.cells


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_the_answer_pdf_holds_the_side_by_side_table(conn, tmp_path):
    answer = investigate("compare 3rd shift vs 1st shift", Scope(day=DAY), conn).as_dict()
    path = tmp_path / "answer.pdf"
    path.write_bytes(answer_pdf(answer))
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True).stdout
    lines = text.decode("utf-8")
    assert "Shifts side by side, Wed 2026-09-16" in lines
    assert re.search(r"Speed to target\s+83\.33 %\s+91\.67 %", lines), lines[:2000]
    assert re.search(r"higher is better\s+WORST\s+BEST", lines)
    assert "(query 7 · row 2)" in lines and "(query 7 · row 1)" in lines
