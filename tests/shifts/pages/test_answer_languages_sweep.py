"""Every question of the eval corpus (evals/shifts.yaml, evals/shifts/*.yaml) asked of the offline reader over
the generated year its cases were written against, and its answer drawn as the Spanish page draws it (the
answer, its cards, the window's report, its charts and its trace: ``pages/views.py``, the same context and
template as ``/shifts/q``, without the HTTP round trip): nothing on it is marked English but data, which stays
as written (docs/shifts-agent.md, "Languages"): a note's own words (the crews' notes and the stop records'
notes, in the records' language) and a live planner's own words (the offline reader writes none). The
question's own words are never marked English (``<span class="asked">``).

Every ``STRIDE``-th case is asked (in corpus order, the first included), about 425 of the 1,700: the whole
corpus takes two to four minutes on this two-core machine, well over the minute this test is held to; the stride
still reaches every file of the corpus (checked below). The answer drawn is the reader's own for the question
(``investigate``, as the JSON and the terminal give it: its lines on the question's words included), which is
also the page's for a question not read whole; its cards are the scope's KPI answer when it has none, as the
page's are."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.encoders import jsonable_encoder

from shopfloor.agent.evals import EvalCase, load_cases
from shopfloor.settings import Settings
from shopfloor.shifts.answers.reports import period_report
from shopfloor.shifts.evals import parse_case_day
from shopfloor.shifts.investigation import investigate, investigate_address
from shopfloor.shifts.pages import planner_view, scope_view, work
from shopfloor.shifts.pages.card_view import kpi_groups
from shopfloor.shifts.pages.params import REPORT_PERIODS, scope_of_plan
from shopfloor.shifts.pages.views import Pages
from shopfloor.shifts.planning.plans import parse_address
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, store

pytestmark = pytest.mark.slow

EVALS = Path(__file__).resolve().parents[3] / "evals"
STRIDE = 4

# An element marked as English, its tag and its text (the marks are attributes of an element's start tag).
MARK = re.compile(r"""<(\w+)\b([^>]*)\blang=["']en["']([^>]*)>(.*?)</\1>""", re.S)


def corpus() -> list[tuple[str, EvalCase]]:
    """The eval corpus's cases in order, each with its file's name: the golden file, then each file of
    evals/shifts/ by name."""
    files = [EVALS / "shifts.yaml", *sorted((EVALS / "shifts").glob("*.yaml"))]
    return [(path.name, case) for path in files for case in load_cases(path)]


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated year the eval cases were written against (``shopfloor prepare``'s defaults)."""
    root = tmp_path_factory.mktemp("year")
    gen.generate(root / "xml", answer_keys=root / gen.ANSWER_KEYS_FILENAME)
    conn = store.connect(root / "shifts.duckdb")
    report = ingest.ingest_directory(conn, root / "xml")
    conn.close()
    assert not report.rejected
    return root / "shifts.duckdb"


def _scope(data: dict[str, Any]) -> Scope:
    return Scope(
        day=parse_case_day(data["day"]),
        shift=data.get("shift"),
        include=data.get("include") or ("shift" if data.get("shift") else "day"),
        period=data.get("period", "day"),
    )


class Sweep:
    """The Spanish pages of the cases over one store, their cards' and reports' answers kept by address."""

    def __init__(self, path: Path, var: Path) -> None:
        self.path = path
        self.conn = store.open_read_only(path)
        self.pages = Pages(planner_view.page_view(Settings(shifts_db=path, var_dir=var)))
        self.days = work.days(path)
        self.kept: dict[Any, Any] = {}
        notes = self.conn.execute(
            "SELECT text FROM notes UNION SELECT notes FROM stops WHERE coalesce(notes, '') <> ''"
        ).fetchall()
        # The records' own free text: data, in the records' language (each note at most 1,000 characters shown).
        self.notes = {str(n)[:1000] for (n,) in notes}

    def _once(self, key: Any, make: Any) -> Any:
        if key not in self.kept:
            self.kept[key] = make()
        return self.kept[key]

    def page(self, case: EvalCase, locale: str = "es") -> str:
        """The case's answer region as its page draws it in ``locale``."""
        data = case.data
        scope = _scope(data)
        question = str(data["question"])
        answer = investigate(question, scope, self.conn, after=data.get("after")).as_dict()
        if answer.get("address"):
            scope = scope_of_plan(parse_address(answer["address"]))
        cards: dict[str, Any] | None = answer
        if not kpi_groups(answer):
            kpis = scope_view.kpis_address(scope)
            cards = None
            if kpis is not None:
                cards = self._once(kpis, lambda: investigate_address(kpis, self.conn).as_dict())
        report = None
        if scope.period in REPORT_PERIODS:
            key = ("report", scope.period, scope.day, scope.shift)
            report = self._once(
                key,
                lambda: jsonable_encoder(period_report(self.conn, scope.period, scope.day, scope.shift)),
            )
        form = scope_view.form_state(scope, question, answer.get("address"))
        ctx = self.pages.context(answer, cards, report, scope, form, self.days, "", locale)
        return self.pages.render("_main.html", ctx, locale)

    def marks(self, page: str) -> list[str]:
        """The elements of ``page`` marked English that are not data (a note's own words)."""
        out = []
        for m in MARK.finditer(page):
            text = html.unescape(re.sub(r"<[^>]+>", "", m.group(4))).strip()
            if text in self.notes:
                continue
            out.append(m.group(0)[:300])
        return out


@pytest.fixture(scope="module")
def sweep(year: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sweep]:
    found = Sweep(year, tmp_path_factory.mktemp("var"))
    yield found
    found.conn.close()


def test_the_sweep_reaches_every_file_of_the_corpus():
    cases = corpus()
    asked = cases[::STRIDE]
    assert len(cases) > 1500 and len(asked) > 400
    assert {name for name, _ in asked} == {name for name, _ in cases}


def test_no_spanish_page_of_the_corpus_marks_english_but_data(sweep: Sweep):
    found: list[str] = []
    for _name, case in corpus()[::STRIDE]:
        found += [f"{case.id}: {mark}" for mark in sweep.marks(sweep.page(case))]
    assert found == [], f"{len(found)} marked English:\n" + "\n".join(found[:40])


def test_a_notes_own_words_stay_as_written_and_marked_english(sweep: Sweep):
    case = next(c for _name, c in corpus() if c.id == "overview-shift2-slow")
    page = sweep.page(case)
    quoted = [m for m in MARK.finditer(page) if html.unescape(m.group(4)).strip() in sweep.notes]
    assert quoted, "the diagnosis quotes its crew's note"
    assert sweep.marks(page) == []
