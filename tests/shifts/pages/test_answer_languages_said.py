"""Sentences of the answers that were English on a Spanish page, said now from their templates: each
family's Spanish answer has no section marked English, its Spanish said word for word for one case, and its
English (which the JSON and the evals read) unchanged."""

from __future__ import annotations

import re

import pytest

SPANISH = {"accept": "text/html", "accept-language": "es-EC,es;q=0.9"}
ENGLISH = {"accept": "text/html", "accept-language": "en-US,en;q=0.9"}

# A section of the answer marked as English (a headline, a finding, a label, a note or "Where to look").
MARKED = re.compile(r'<(?:h2|h3|p|li)\b[^>]*\blang="en"')


@pytest.fixture(scope="module")
def client(page_client):
    return page_client


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
