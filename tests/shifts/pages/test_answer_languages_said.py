"""Sentences of the answers that were English on a Spanish page, said now from their templates: each
family's Spanish answer has no section marked English, its Spanish said word for word for one case, and its
English (which the JSON and the evals read) unchanged."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from tests.shifts.pages.conftest import BASE

SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}
ENGLISH = {"accept": "text/html", "accept-language": "en-US,en;q=0.9"}

# A section of the answer marked as English (a headline, a finding, a label, a note or "Where to look").
MARKED = re.compile(r'<(?:h2|h3|p|li)\b[^>]*\blang="en"')


@pytest.fixture(scope="module")
def client(store_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """Both apps over the hand-built store, with a rate limit this module's many pages stay under."""
    settings = Settings(
        shifts_db=store_path, var_dir=tmp_path_factory.mktemp("var"), shifts_rate_limit_per_minute=10_000
    )
    with TestClient(create_app(settings), raise_server_exceptions=False, base_url=BASE) as c:
        yield c


def _region(page: str) -> str:
    """The answer's sentences from its status line to its downloads, the cards and charts left out."""
    region = page[page.index('class="status"') : page.index('class="downloads"')]
    region = re.sub(r'<ul class="cards".*?</ul>', "", region, flags=re.S)
    return re.sub(r'<section class="charts".*?</section>', "", region, flags=re.S)


def _text(markup: str) -> str:
    return re.sub(r"<[^>]+>", "", markup)


def _headline(page: str) -> str:
    return _text(re.search(r'<h2 class="headline"[^>]*>(.*?)</h2>', page, re.S).group(1))


def _pages(client, path: str) -> tuple[str, str]:
    es, en = client.get(path, headers=SPANISH), client.get(path, headers=ENGLISH)
    assert es.status_code == en.status_code == 200
    return es.text, en.text


def _ask(client, question: str, headers: dict[str, str], **scope: str) -> str:
    params = {"question": question, "day": "2026-09-14", "shift": "2", **scope}
    r = client.get("/shifts/q", params=params, headers=headers)
    assert r.status_code == 200
    return r.text


def test_a_kpi_tiles_headline_is_said_in_spanish_with_its_band_and_its_side(client):
    es, en = _pages(client, "/shifts/a?day=2026-09-14&shift=2&measure=kpis&metric=dry_end_pct")
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == (
        "El desperdicio del extremo seco fue 0.12 % del bruto (alerta sobre 1 %): bajo la alerta "
        "(consulta 1 · fila 14)."
    )
    assert (
        _headline(en)
        == "Dry-end waste was 0.12 % of gross (flag above 1 %): under the flag (query 1 · row 14)."
    )


def test_a_tiles_yes_or_no_against_its_band_over_a_window_is_said_in_spanish(client):
    path = "/shifts/a?window=week&anchor=2026-09-16&measure=kpis&metric=maintenance_pct&ask=over_band"
    es, en = _pages(client, path)
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == (
        "No: Los paros de mantenimiento fueron 2.08 % de los minutos programados frente a su banda de 2.5 % "
        "en Semana del 2026-09-14 (lun–vie): dentro de ella (consulta 1 · fila 7)."
    )
    assert _headline(en) == (
        "No: Maintenance downtime was 2.08 % of scheduled minutes against its 2.5 % band over Week of "
        "2026-09-14 (Mon–Fri): within it (query 1 · row 7)."
    )


def test_the_side_trims_headline_says_the_trim_flag_in_spanish(client):
    es, en = _pages(client, "/shifts/a?day=2026-09-14&shift=2&measure=waste")
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == (
        "El refile lateral fue 2.74 % del bruto (consulta 1 · fila 1); el refile se marca sobre el 3.25 % "
        "por cambio."
    )
    assert (
        _headline(en) == "Side trim was 2.74 % of gross (query 1 · row 1); trim flags above 3.25 % per setup."
    )


def test_the_tools_band_texts_in_the_trace_rows_are_said_in_spanish_unmarked(client):
    es, en = _pages(client, "/shifts/a?day=2026-09-14&shift=2&measure=kpis&metric=dry_end_pct")
    trace_es, trace_en = es[es.index('class="trace"') :], en[en.index('class="trace"') :]
    for said in (
        "<td>banda de mantenimiento: 2.5 % de los minutos programados</td>",
        "<td>el desperdicio del extremo seco se marca sobre el 1.0 % del bruto</td>",
        "<td>se resalta la velocidad por debajo del 100 % del objetivo</td>",
    ):
        assert said in trace_es, said
    assert "maintenance band" not in trace_es and "flags above" not in trace_es
    assert "<td>maintenance band 2.5 % of scheduled minutes</td>" in trace_en


def _lines(page: str) -> list[str]:
    """The answer's headline, labels, findings and notes as text, in page order."""
    return [
        _text(m) for m in re.findall(r"<(?:h2|h3|li|p)\b[^>]*>(.*?)</(?:h2|h3|li|p)>", _region(page), re.S)
    ]


def test_a_comparisons_lines_per_group_and_their_label_are_said_in_spanish(client):
    es, en = _pages(client, "/shifts/a?window=week&anchor=2026-09-16&measure=compare_groups&by=crew")
    assert MARKED.findall(_region(es)) == []
    assert "Clasificados por velocidad frente al objetivo (más alta es mejor), el mejor primero" in _lines(es)
    assert (
        "Cuadrilla A, puesto 1 de 3 (mejor): 83.33 % de velocidad frente al objetivo, velocidad del turno "
        "750.0 ft/min, paros no planificados 3.12 %, desperdicio del extremo seco 0.03 % en 5 turnos "
        "(consulta 1 · fila 1)"
    ) in _lines(es)
    assert "Ranked by speed to target (highest is best), best first" in _lines(en)
    assert (
        "Crew A, rank 1 of 3 (best): 83.33 % speed to target, shift speed 750.0 ft/min, unplanned downtime "
        "3.12 %, dry-end waste 0.03 % over 5 shifts (query 1 · row 1)"
    ) in _lines(en)


def test_a_comparison_led_by_one_end_on_another_figure_is_said_in_spanish(client):
    path = "/shifts/a?window=week&anchor=2026-09-16&measure=compare_groups&by=shift&metric=quality"
    es, en = _pages(client, path)
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == (
        "El turno 3 fue el mejor turno del periodo en desperdicio del extremo seco, con 0.00 % del bruto "
        "(consulta 1 · fila 1)."
    )
    assert _headline(en) == (
        "Shift 3 was the best shift of the window on dry-end waste at 0.00 % of gross (query 1 · row 1)."
    )
    assert "Clasificados por desperdicio del extremo seco (más bajo es mejor), el mejor primero" in _lines(es)
    day = _pages(client, "/shifts/a?day=2026-09-14&measure=rankings&metric=downtime")[0]
    assert _headline(day) == (
        "El turno 3 fue el mejor turno del día en paros no planificados, con 0.00 % de los minutos programados "
        "(consulta 1 · fila 1)."
    )


def test_a_comparison_over_a_partial_window_says_why_it_is_not_ranked_in_spanish(client):
    es, en = _pages(client, "/shifts/a?window=month&anchor=2026-09-16&measure=compare_groups&by=shift")
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == (
        "Los turnos se comparan, no se clasifican: el periodo es parcial (10 de 22 días de producción completos)."
    )
    assert _headline(en) == (
        "The shifts are compared, not ranked: the window is partial (10 of 22 production days complete)."
    )


def _asked_pages(client, question: str) -> tuple[str, str]:
    return _ask(client, question, SPANISH), _ask(client, question, ENGLISH)


@pytest.mark.parametrize(
    ("question", "spanish", "english"),
    (
        (
            "how many paper changes on each shift",
            "2 cambios de papel (corridas del extremo húmedo) (consulta 1 · fila 21).",
            "2 paper changes (wet-end runs) (query 1 · row 21).",
        ),
        (
            # A figure's counted unit is said in Spanish too, in the plural form its value takes.
            "how many stops on 2nd shift",
            "2 paros en el registro, 50.0 min de paro (consulta 1).",
            "2 stops recorded, 50.0 min of downtime (query 1).",
        ),
        (
            "downtime in hours on second shift",
            "Los paros sumaron 0.83 horas (50.0 min en 2 paros) (consulta 1).",
            "Downtime came to 0.83 hours (50.0 min over 2 stops) (query 1).",
        ),
        (
            "msf on 2nd shift",
            "El turno 2 produjo 1,731.5 MSF de cartón bruto (consulta 1).",
            "Shift 2 ran 1,731.5 MSF of gross board (query 1).",
        ),
        (
            "msf this week",
            "El cartón bruto fue 8,657.5 MSF en Semana del 2026-09-14 (lun–vie) (consulta 2).",
            "Gross board was 8,657.5 MSF over Week of 2026-09-14 (Mon–Fri) (query 2).",
        ),
        (
            "good square feet on each shift",
            "El área buena estimada fue 1,681,736.4 sq ft después de refile, cizalla y rechazos (consulta 1 · fila 17).",
            "Estimated good area was 1,681,736.4 sq ft after trim, shear and rejects (query 1 · row 17).",
        ),
        (
            "splicer downtime",
            "Empalmadores: ningún paro registrado en ninguno de sus equipos (0 paros) (consulta 1).",
            "Splicers: no stop recorded at any of them (0 stops) (query 1).",
        ),
        (
            "what % of downtime was the splicers",
            "Empalmadores: ningún paro registrado en ninguno de sus equipos, nada de los paros registrados (0 %) "
            "(consulta 1).",
            "Splicers: no stop recorded at any of them, none of the recorded downtime (0 %) (query 1).",
        ),
        (
            "what % of downtime was the belt",
            "Correa no fue nada de los paros registrados aquí (0 %): ningún paro suyo entre los 50.0 min "
            "registrados en 2 paros (consulta 1).",
            "Belt was none of the recorded downtime here (0 %): no stop of it among the 50.0 min recorded over 2 "
            "stops (query 1).",
        ),
        (
            "speed opportunity by crew this week",
            "200-C / B: velocidad típica 714 ft/min, 0 h de oportunidad, $0.00 ($0.00 al año) (consulta 1 · fila 1).",
            "200-C / B: typical 714 ft/min, 0 h of opportunity, $0.00 ($0.00 a year) (query 1 · row 1).",
        ),
    ),
)
def test_a_figure_asked_a_place_familys_and_the_speed_opportunitys_headlines_are_said_in_spanish(
    client, question, spanish, english
):
    es, en = _asked_pages(client, question)
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == spanish
    assert _headline(en) == english


def test_the_speed_opportunitys_lines_and_note_are_said_in_spanish(client):
    es, en = _asked_pages(client, "speed opportunity by crew this week")
    assert (
        "275-BC / B: velocidad típica 382 ft/min, 0 h de oportunidad, $0.00 ($0.00 al año) (consulta 1 · fila 2)"
        in _lines(es)
    )
    assert (
        "Los cambios con menos de 2 minutos de marcha se excluyen y se cuentan; no se modelan temperaturas."
        in _lines(es)
    )
    assert (
        "Setups with under 2 running minutes are excluded and counted; no temperatures are modelled."
        in _lines(en)
    )


def test_how_machine_time_is_priced_is_said_in_spanish(client):
    es, en = _asked_pages(client, "what did downtime cost on 2nd shift")
    assert MARKED.findall(_region(es)) == []
    assert "El tiempo de máquina se valora como minutos × $/h de máquina ÷ 60." in _lines(es)
    assert "Machine time is priced as minutes × machine $/h ÷ 60." in _lines(en)


@pytest.mark.parametrize(
    ("question", "spanish", "english"),
    (
        (
            "was 2nd shift at 85% of target",
            "No aplicado: el umbral de 85 % (el veredicto se mide contra el objetivo del grado, 100 %; no hay otro "
            "límite registrado).",
            "Not applied: the threshold 85 % (the verdict is held to the grade target, 100 %; no other limit is "
            "recorded).",
        ),
        (
            "trim on the 90 inch web",
            "No aplicado: el papel de 90 in (no hay ningún papel de ese ancho en los registros: los anchos son 98, "
            "95, 92, 87 in; esta respuesta lee todos los anchos).",
            "Not applied: the 90 in web (no web of that width is in the records: the webs are 98, 95, 92, 87 in; "
            "this answer reads every width).",
        ),
        (
            "downtime year to date",
            "No aplicado: year to date (los periodos que se leen son un día de producción, una semana de lunes a "
            "viernes, un mes y un periodo 4-4-5; no hay periodo anual: pida un mes o este periodo).",
            "Not applied: year to date (the windows read are a production day, a Mon–Fri week, a month and a 4-4-5 "
            "period; no year window: ask for a month or this period).",
        ),
    ),
)
def test_what_the_reader_did_not_apply_and_why_is_said_in_spanish(client, question, spanish, english):
    es, en = _asked_pages(client, question)
    assert MARKED.findall(_region(es)) == []
    assert spanish in _lines(es) and english in _lines(en)
    # The question's own words in it are kept as written, never marked English.
    if "year to date" in question:
        assert "No aplicado: <span class='asked'>year to date</span> (los periodos" in _region(es)
    assert "<span lang='en'>" not in _region(es).split("No aplicado:")[1].split("</p>")[0]


def test_a_time_of_day_not_applied_keeps_the_questions_words(client):
    es = _ask(client, "downtime around 3am", SPANISH)
    assert (
        "No aplicado: la hora del día, <span class='asked'>around 3am</span> (esta respuesta lee todo el turno o "
        "el día; ninguna herramienta filtra los paros por la hora)." in _region(es)
    )


def test_a_tables_column_names_are_said_in_spanish_and_an_unnamed_one_is_marked_english(client):
    es, en = _pages(client, "/shifts/a?day=2026-09-14&shift=2&measure=downtime&by=reason")
    trace_es, trace_en = es[es.index('class="trace"') :], en[en.index('class="trace"') :]
    assert '<th scope="col">minutos</th>' in trace_es and '<th scope="col">min por paro</th>' in trace_es
    assert '<th scope="col">minutes</th>' in trace_en and '<th scope="col">min_per_stop</th>' in trace_en
    assert '<th scope="col" lang="en">' not in trace_es
    from shopfloor.shifts.pages.answer_view import column_headers
    from shopfloor.shifts.pages.i18n import Words

    assert column_headers(["minutes", "a_new_field"], Words("es")) == [
        {"name": "minutos", "en": False},
        {"name": "a_new_field", "en": True},
    ]
    assert column_headers(["minutes"], Words("en")) == [{"name": "minutes", "en": False}]


def test_a_comparison_withheld_for_the_other_window_is_said_in_spanish(client):
    path = "/shifts/a?window=week&anchor=2026-09-14&measure=compare&other_anchor=2026-08-17"
    es, en = _pages(client, path)
    assert MARKED.findall(_region(es)) == []
    assert (
        "La comparación se retiene: el otro periodo no está completo. Ningún día de producción de ese periodo "
        "está en los registros: sus cifras no están disponibles, nunca son cero." in _lines(es)
    )
    assert (
        "The comparison is withheld: the other window is not complete. No production day of that window is in "
        "the store: its figures are unavailable, never zero." in _lines(en)
    )


def test_a_comparison_withheld_for_a_partial_other_window_is_said_in_spanish():
    from shopfloor.shifts.answers.coverage import withheld_said
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.pages.i18n import translations

    cov = {
        "status": "partial",
        "valid_days": 3,
        "expected_days": 5,
        "missing_days": ["2026-09-10", "2026-09-11"],
    }
    english = (
        "The comparison is withheld: the other window is not complete. That window is partial: 3 of 5 production "
        "days complete; not in the store: 2026-09-10, 2026-09-11. Rankings withheld, deltas withheld, missing "
        "days unavailable (never zero)."
    )
    section = withheld_said(cov, english)
    assert section["text"] == english and "say" in section
    assert spoken(section, translations("es"))["text"] == (
        "La comparación se retiene: el otro periodo no está completo. Ese periodo es parcial: 3 de 5 días de "
        "producción completos; no están en los registros: 2026-09-10, 2026-09-11. Clasificaciones retenidas, "
        "variaciones retenidas, días faltantes no disponibles (nunca cero)."
    )
    # An English the templates do not say word for word is kept as it is.
    assert withheld_said(cov, english + " More.") == {"type": "caveat", "text": english + " More."}


def test_a_figures_counted_unit_is_said_in_the_pages_language_and_kept_in_english():
    from shopfloor.shifts.pages.answer_view import figure_text
    from shopfloor.shifts.pages.i18n import Words

    es = Words("es")
    assert figure_text({"figure": "1 stop", "value": 1, "unit": "stop"}, es) == "1 paro"
    assert figure_text({"figure": "0.83 hours", "value": 0.83, "unit": "hours"}, es) == "0.83 horas"
    assert figure_text({"figure": "1.65 points", "value": 1.65, "unit": "points"}, es) == "1.65 puntos"
    assert figure_text({"figure": "12.0 min", "value": 12.0, "unit": "min"}, es) == "12.0 min"
    assert figure_text({"figure": "1 stops", "value": 1, "unit": "stops"}, Words("en")) == "1 stops"


def test_the_shift_asked_for_is_said_in_spanish(page_client):
    """ "¿Qué turno tuvo más paros?" compares the day's shifts on unplanned downtime and leads with the most,
    said from its template in Spanish (answers/asked_shapes.END_HEADLINES)."""
    r = page_client.get(
        "/shifts/a?day=2026-09-16&measure=rankings&metric=downtime&ask=most",
        headers={"accept": "text/html", "accept-language": "es-EC,es;q=0.9"},
    )
    assert r.status_code == 200
    head = re.search(r'<h2 class="headline">(.*?)</h2>', r.text, re.S)
    assert head is not None
    said = re.sub(r"<[^>]+>", "", head.group(1))
    assert said.startswith("Turno 2 tuvo más paros no planificados del día, con 4.17 %"), said
    assert "unplanned" not in said and "had the most" not in said
