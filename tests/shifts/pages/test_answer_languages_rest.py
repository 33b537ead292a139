"""What a Spanish answer page still said in English (docs/shifts-agent.md, "Languages"), said now in Spanish:
a card group's coverage, the reader's accounts of what it also read or did not apply, an error that is not a
tool's, the tools' own words in their rows, every column a tool emits and a day's account of why it is
incomplete; each with its English (the page's and the JSON's) unchanged."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from tests.shifts.pages.conftest import BASE

SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}
ENGLISH = {"accept": "text/html", "accept-language": "en-US,en;q=0.9"}

# An element marked as English.
MARKED = re.compile(r"""<(\w+)\b[^>]*\blang=["']en["']""")


@pytest.fixture(scope="module")
def client(store_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """Both apps over the hand-built store, with a rate limit this module's many pages stay under."""
    settings = Settings(
        shifts_db=store_path, var_dir=tmp_path_factory.mktemp("var"), shifts_rate_limit_per_minute=10_000
    )
    with TestClient(create_app(settings), raise_server_exceptions=False, base_url=BASE) as c:
        yield c


def _pages(client: TestClient, path: str) -> tuple[str, str]:
    es, en = client.get(path, headers=SPANISH), client.get(path, headers=ENGLISH)
    assert es.status_code == en.status_code == 200
    return es.text, en.text


def test_a_card_groups_coverage_is_said_whole_in_spanish(client):
    # 2026-09-21 holds an excluded record on shift 2: its cards' coverage is incomplete.
    es, en = _pages(client, "/shifts/a?day=2026-09-21&shift=2&measure=kpis")
    heads_es = re.findall(r'<h3 class="cards-for">(.*?)</h3>', es)
    heads_en = re.findall(r'<h3 class="cards-for">(.*?)</h3>', en)
    assert heads_es == ["Turno 2 · lun 2026-09-21 · cobertura incompleta"]
    assert heads_en == ["Shift 2 · Mon 2026-09-21 · coverage incomplete"]


def test_every_chart_title_the_offline_planner_gives_is_said_and_its_english_kept():
    from shopfloor.shifts.catalog import CHARTS
    from shopfloor.shifts.pages.chart_view import chart_title
    from shopfloor.shifts.pages.i18n import Words
    from shopfloor.shifts.planning.planner import GROUP_CHART_TITLES

    titles = {chart.title for chart in CHARTS.values()} | set(GROUP_CHART_TITLES.values())
    titles |= {"Volume by grade (MSF)", "Speed to target by grade (%)", "Downtime by reason (min)"}
    es, en = Words("es"), Words("en")
    assert [t for t in sorted(titles) if not chart_title(t, es)[1]] == []
    assert chart_title("Unplanned downtime (% of scheduled minutes)", es)[0] == (
        "Paros no planificados (% de los minutos programados)"
    )
    assert chart_title("Dry-end waste (% of gross)", en) == ("Dry-end waste (% of gross)", True)
    assert chart_title("Shift 2: Dry-end waste (% of gross)", es)[0] == (
        "Turno 2: Desperdicio del extremo seco (% del bruto)"
    )


def _trace(page: str) -> str:
    return page[page.index('class="trace"') :]


@pytest.mark.parametrize(
    ("path", "spanish", "english"),
    (
        (
            # A KPI row's measure is named as its column is; its unit's symbol is written as it is.
            "/shifts/a?day=2026-09-14&shift=2&measure=kpis",
            ("<td>pies lineales</td><td>234,000</td><td>ft</td>", "<td>ft/min del turno</td>"),
            ("<td>lineal_ft</td><td>234,000</td><td>ft</td>", "<td>shift_fpm</td>"),
        ),
        (
            # The money's basis, category, formula and the speed gap's item.
            "/shifts/a?day=2026-09-14&shift=2&measure=dollars",
            (
                "<td>brecha de velocidad hasta 675 ft/min</td><td>velocidad</td>",
                "<td>tiempo de máquina</td>",
                "<td>minutos × $/h de máquina ÷ 60</td>",
                "<td>sq ft ÷ 1,000 × $/MSF de cartón</td>",
            ),
            (
                "<td>speed gap to 675 ft/min</td><td>speed</td>",
                "<td>machine time</td>",
                "<td>minutes × machine $/h ÷ 60</td>",
            ),
        ),
        (
            # Which way is better and how a window's KPI changed against the window before.
            "/shifts/a?window=week&anchor=2026-09-16&measure=kpis",
            ("<td>más alto</td>", "<td>más bajo</td>"),
            ("<td>higher</td>", "<td>lower</td>"),
        ),
        (
            # A comparison's groups, and a downtime row's kinds listed word by word.
            "/shifts/a?window=week&anchor=2026-09-16&measure=compare_groups&by=shift",
            ("<td>Turno 1</td>",),
            ("<td>Shift 1</td>",),
        ),
    ),
)
def test_the_tools_own_words_in_their_rows_are_said_in_spanish(client, path, spanish, english):
    es, en = _pages(client, path)
    trace_es, trace_en = _trace(es), _trace(en)
    for said in spanish:
        assert said in trace_es, said
    for said in english:
        assert said in trace_en, said
    assert MARKED.findall(trace_es) == []


def test_a_cell_in_another_shape_stays_english_and_marked():
    from shopfloor.shifts.pages.answer_view import _cell, is_english_text
    from shopfloor.shifts.pages.i18n import Words

    es = Words("es")
    assert (_cell("lower", es, "knife"), _cell("lower", es, "better")) == ("inferior", "más bajo")
    assert _cell("Maintenance, Operator", es, "kinds") == "Mantenimiento, Operador"
    for text, column in (("speed gap, roughly", "item"), ("lineal_ft", "key")):
        assert is_english_text(_cell(text, es, column), es), text
    for text in ("ft/min", "sq ft", "26-C", "W001"):
        assert not is_english_text(_cell(text, es, "unit"), es), text


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_the_pdfs_tables_say_the_tools_own_words_in_spanish(client, tmp_path):
    path = "/shifts/a?day=2026-09-14&shift=2&measure=kpis&format=pdf"
    texts = []
    for headers in (SPANISH, ENGLISH):
        pdf = tmp_path / "answer.pdf"
        pdf.write_bytes(client.get(path, headers=headers).content)
        out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout.decode()
        texts.append(" ".join(out.split()))
    spanish, english = texts
    assert "pies lineales" in spanish and "lineal_ft" not in spanish
    assert "lineal_ft" in english


def _ask(client: TestClient, question: str, headers: dict[str, str]) -> str:
    params = {"question": question, "day": "2026-09-14", "shift": "2"}
    r = client.get("/shifts/q", params=params, headers=headers)
    assert r.status_code == 200
    return r.text


def _line(page: str, label: str) -> str:
    """The text of the answer's line that starts with ``label``."""
    found = re.search(rf"<p[^>]*>({re.escape(label)}.*?)</p>", page, re.S)
    assert found, label
    return re.sub(r"<[^>]+>", "", found.group(1))


@pytest.mark.parametrize(
    ("question", "spanish", "english"),
    (
        (
            # A word the reader does not know keeps the answer on the question's page (not its address's).
            "knife jams and missed splices on 3rd flibbertigibbet",
            "También se leyó: motivo Empalme fallido (en las filas por motivo).",
            "Also read: reason Missed splice (in the rows by reason).",
        ),
        (
            "downtime for splicer 1 and the upper knife around 3am",
            "También se leyó: equipo Empalmador 1 (en las filas por equipo).",
            "Also read: place Splicer 1 (in the rows by place).",
        ),
    ),
)
def test_what_the_reader_also_read_is_said_in_spanish(client, question, spanish, english):
    es, en = _ask(client, question, SPANISH), _ask(client, question, ENGLISH)
    assert _line(es, "También se leyó:") == spanish
    assert _line(en, "Also read:") == english
    line = re.search(r"<p[^>]*>También se leyó:.*?</p>", es, re.S).group(0)
    assert MARKED.findall(line) == []


def test_an_also_read_item_in_another_shape_stays_the_readers_own_words():
    from shopfloor.shifts.answers import refusals
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.pages.i18n import translations

    section = refusals.also_read(["grade 26-C (in the rows by grade)", "a value read otherwise"])
    assert section["text"] == "Also read: grade 26-C (in the rows by grade); a value read otherwise."
    parts = spoken(section, translations("es"))["parts"]
    assert parts == [
        "También se leyó: grado 26-C (en las filas por grado); ",
        {"quote": "a value read otherwise"},
        ".",
    ]


def test_a_top_n_not_cut_and_a_grouping_of_the_plans_measure_are_said_in_spanish():
    from shopfloor.shifts.answers import refusals
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.pages.i18n import translations

    items = [
        "the 3 asked (every grade is listed)",
        "by crew (this answer's tools do not break quality down by crew)",
    ]
    section = refusals.not_applied(items)
    assert section["text"] == f"Not applied: {'; '.join(items)}."
    assert spoken(section, translations("es"))["text"] == (
        "No aplicado: los 3 pedidos (se lista cada grado); por cuadrilla (las herramientas de esta respuesta no "
        "desglosan los rechazos por cuadrilla)."
    )


def _headline(page: str) -> str:
    return re.sub(r"<[^>]+>", "", re.search(r'<h2 class="headline"[^>]*>(.*?)</h2>', page, re.S).group(1))


def test_a_days_account_of_why_a_comparison_is_not_ranked_is_said_in_spanish(client):
    # Monday 2026-09-21 holds one setup of shift 2 excluded for its waste (tests/shifts/investigation/conftest.py).
    es, en = _pages(client, "/shifts/a?day=2026-09-21&measure=compare_groups&by=shift")
    assert _headline(es) == (
        "Los turnos se comparan, no se clasifican: el lun 2026-09-21 tiene un cambio de pedido excluido en el "
        "turno 2 (área de desperdicio/bruta fuera de límites)."
    )
    assert _headline(en) == (
        "The shifts are compared, not ranked: Mon 2026-09-21 has one excluded setup on shift 2 (Waste/gross area "
        "out of bounds)."
    )
    assert 'class="headline" lang="en"' not in es


def test_a_partial_windows_incomplete_day_is_said_in_spanish(client):
    es, en = _pages(client, "/shifts/a?window=week&anchor=2026-09-21&measure=pareto")
    said = "el 2026-09-21 tiene un cambio de pedido excluido en el turno 2 (área de desperdicio/bruta fuera de límites)."
    assert said in es and "Waste/gross" not in es.split('class="trace"')[0]
    assert "2026-09-21 has one excluded setup on shift 2 (Waste/gross area out of bounds)." in en


@pytest.mark.parametrize(
    ("english", "spanish"),
    (
        (
            "2 excluded setups on shifts 1, 3 (Unknown grade; Missing upper knife outs) and 2 of 3 shifts in the "
            "store",
            "2 cambios de pedido excluidos en los turnos 1, 3 (grado desconocido; falta outs de la cuchilla "
            "superior) y 2 de 3 turnos en los registros",
        ),
        (
            "one excluded setup on shift 1 (Invalid run)",
            "un cambio de pedido excluido en el turno 1 (run no válido)",
        ),
    ),
)
def test_an_incomplete_days_account_is_said_from_its_templates(english, spanish):
    from shopfloor.shifts.answers.coverage import why_phrase
    from shopfloor.shifts.answers.sayings import Quoted, say_text, spoken
    from shopfloor.shifts.pages.i18n import translations

    said = why_phrase(english)
    section = say_text("text", "{why}", why=said)
    assert section["text"] == english
    assert spoken(section, translations("es"))["text"] == spanish
    # An account in another shape is the store's own words, English.
    assert isinstance(why_phrase("one excluded stop on shift 1 (Invalid run)"), Quoted)


def test_a_trends_coverage_counts_its_weeks_in_both_languages():
    from shopfloor.shifts.answers.coverage import coverage_said
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.pages.i18n import translations

    # A trend's coverage (tools/period.py get_trend) counts weeks; the calendar's line read "None of None".
    section = coverage_said({"status": "partial", "weeks": 12, "complete_weeks": 5})
    assert section is not None
    assert (
        section["text"] == "The trend is partial: 5 of 12 weeks complete; each week's coverage is on its row."
    )
    assert spoken(section, translations("es"))["text"] == (
        "La tendencia es parcial: 5 de 12 semanas completas; la cobertura de cada semana está en su fila."
    )
    assert coverage_said({"status": "complete", "weeks": 4, "complete_weeks": 4}) is None


@pytest.mark.parametrize(
    ("english", "spanish"),
    (
        (
            "Unknown tool 'get_weather'. Use one of: get_shift_kpis, render_chart.",
            "La llamada pidió una herramienta que esta investigación no ofrece.",
        ),
        (
            "Invalid arguments for get_shift_kpis: shift: Input should be 1, 2 or 3. Fix the call and try again.",
            "Los argumentos de la llamada no correspondían a la herramienta; al planificador se le dijo qué corregir.",
        ),
        (
            "The tool failed while running this call. Try a different call, or skip this event and say so.",
            "La herramienta falló al ejecutar esta llamada; la falla queda registrada.",
        ),
    ),
)
def test_a_dispatchers_error_is_said_by_its_codes_sentence_in_the_trace_and_its_caveat(english, spanish):
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.answers.tool_errors import error_in, named_error
    from shopfloor.shifts.pages.i18n import translations

    es = translations("es")
    assert error_in(english, es) == spanish
    caveat = named_error(f"get_shift_kpis: {english}")
    assert caveat["text"] == f"get_shift_kpis: {english}"  # the English as written
    assert spoken(caveat, es)["text"] == f"get_shift_kpis: {spanish}"


def test_a_finish_a_plan_and_a_narrative_the_run_refused_are_said_by_their_codes_sentences():
    from shopfloor.shifts.answers.sayings import say_text, spoken
    from shopfloor.shifts.answers.tool_errors import (
        NARRATIVE_DROPPED,
        named_error,
        run_error,
        run_error_section,
    )
    from shopfloor.shifts.pages.i18n import translations

    es = translations("es")
    finish = named_error("The finish cited evidence this run does not hold: r9-abc123.")
    assert finish["text"] == "The finish cited evidence this run does not hold: r9-abc123."
    assert (
        spoken(finish, es)["text"]
        == "Se rechazó el cierre del planificador: no citaba la evidencia de esta ejecución."
    )
    plan = run_error_section("The plan was refused whole before any step ran: The plan is not JSON.")
    assert plan["text"] == "The plan was refused whole before any step ran: The plan is not JSON."
    assert spoken(plan, es)["text"].startswith("El plan se rechazó completo antes de ejecutar ningún paso")
    dropped = say_text("caveat", NARRATIVE_DROPPED, problem=run_error("the model call ended with rate_limit"))
    assert dropped["text"] == (
        "The model's narrative was dropped (the model call ended with rate_limit); the calculated evidence stands."
    )
    assert spoken(dropped, es)["text"] == (
        "Se descartó la narrativa del modelo (la llamada al modelo falló); la evidencia calculada se mantiene."
    )
    # An error of no known shape stays as it was written, English everywhere.
    assert run_error_section("Something else went wrong.") == {
        "type": "text",
        "text": "Something else went wrong.",
    }


def test_a_failed_calls_error_in_the_trace_is_not_marked_english_once_said(store_path, tmp_path):
    from datetime import date

    from shopfloor.shifts.pages import planner_view, work
    from shopfloor.shifts.pages.views import Pages
    from shopfloor.shifts.plant.scope import Scope

    error = "Unknown tool 'get_weather'. Use one of: get_shift_kpis, render_chart."
    answer = {
        "status": "unavailable",
        "question": "what is the weather",
        "scope": {"day": "2026-09-14", "shift": None, "include": "day", "period": "day"},
        "address": None,
        "sections": [named_error_section(f"get_weather: {error}")],
        "trace": [
            {"kind": "tool_call", "tool": "get_weather", "input": {}, "output": error, "is_error": True},
        ],
        "usage": {"planner": "offline", "model": "offline", "tool_calls": 1, "latency_ms": 1},
    }
    pages = Pages(planner_view.page_view(Settings(shifts_db=store_path, var_dir=tmp_path)))
    scope = Scope(day=date(2026, 9, 14))
    form = {
        "day": "2026-09-14",
        "shift": None,
        "include": "day",
        "period": "day",
        "question": "",
        "after": None,
    }
    ctx = pages.context(answer, None, None, scope, form, work.days(store_path), "", "es")
    page = pages.render("_main.html", ctx, "es")
    assert '<p class="error">La llamada pidió una herramienta que esta investigación no ofrece.</p>' in page
    assert "get_weather: La llamada pidió una herramienta" in page
    assert MARKED.findall(page) == []


def named_error_section(error: str) -> dict:
    from shopfloor.shifts.answers.tool_errors import named_error

    return named_error(error)
