"""Lines of the answers that were English on a Spanish page, said now from their templates: the stops
profile's weekdays, the knife overrun's lines, a grade's footage at a web width, the speed bridge's headline,
a tool's error, the reader's accounts of an entity it did not apply, "Unavailable" and a PDF's counted units.
Each is said in Spanish with the English page's figures and citations, and its English page is unchanged."""

from __future__ import annotations

import html
import shutil
import subprocess

import pytest

from tests.shifts.pages.test_answer_languages_said import (
    ENGLISH,
    MARKED,
    SPANISH,
    _headline,
    _lines,
    _pages,
    _region,
    client,
)

__all__ = ["client"]


def _ask(client, question: str, headers: dict[str, str], shift: str | None = None) -> str:
    """The page of ``question`` asked on Mon 2026-09-14, of one shift or (None) of every shift."""
    params = {"question": question, "day": "2026-09-14", **({"shift": shift} if shift else {})}
    r = client.get("/shifts/q", params=params, headers=headers)
    assert r.status_code == 200
    return r.text


def test_the_stops_profiles_weekdays_are_said_in_spanish(client):
    es, en = _pages(client, "/shifts/a?window=week&anchor=2026-09-14&measure=stops")
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == "lun: 3 paros por día (consulta 1 · día de la semana 1)."
    assert "Perfil por día de la semana" in _lines(es)
    assert "vie: 3 paros por día (consulta 1 · día de la semana 5)" in _lines(es)
    assert "Weekday profile" not in es and "per day" not in _region(es)
    assert _headline(en) == "Mon: 3 stops per day (query 1 · weekday 1)."
    assert "Weekday profile" in _lines(en)
    assert "Fri: 3 stops per day (query 1 · weekday 5)" in _lines(en)


def test_the_knife_overruns_lines_are_said_in_spanish_with_their_counted_lines(client):
    es, en = _pages(client, "/shifts/a?window=week&anchor=2026-09-14&measure=overrun")
    assert MARKED.findall(_region(es)) == []
    assert "cuchilla superior: 0 líneas cerradas, 0 dentro de la banda (consulta 1 · fila 1)" in _lines(es)
    assert "cuchilla inferior: 5 líneas cerradas, 5 dentro de la banda (consulta 1 · fila 2)" in _lines(es)
    assert "todas las cuchillas: 5 líneas cerradas, 5 dentro de la banda (consulta 1 · fila 3)" in _lines(es)
    assert "inside the band" not in _region(es) and "knife:" not in _region(es)
    assert "upper knife: 0 lines closed, 0 inside the band (query 1 · row 1)" in _lines(en)
    assert "all knives: 5 lines closed, 5 inside the band (query 1 · row 3)" in _lines(en)


def test_a_grades_footage_at_a_web_width_is_said_in_spanish(client):
    question = "paper consumed by grade and width this week"
    es, en = _ask(client, question, SPANISH), _ask(client, question, ENGLISH)
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == "26-C a 98 in: 1,800,000.0 ft en 5 corridas (consulta 1 · fila 1)."
    assert "275-BC a 92 in: 420,000.0 ft en 5 corridas (consulta 1 · fila 4)" in _lines(es)
    assert " runs" not in _region(es)
    assert _headline(en) == "26-C at 98 in: 1,800,000.0 ft over 5 runs (query 1 · row 1)."
    assert "275-BC at 92 in: 420,000.0 ft over 5 runs (query 1 · row 4)" in _lines(en)


def test_the_speed_bridges_headline_is_said_in_spanish(client):
    es, en = _pages(client, "/shifts/a?day=2026-09-14&shift=2&measure=variance")
    assert MARKED.findall(_region(es)) == []
    assert _headline(es) == (
        "La velocidad con los paros fue 487.5 ft/min frente a una referencia de 711.9 ft/min (línea base) "
        "(consulta 1)."
    )
    assert _headline(en) == (
        "Speed with stops was 487.5 ft/min against a reference of 711.9 ft/min (baseline) (query 1)."
    )


def test_a_tools_error_is_said_in_spanish_in_the_trace_and_the_json_keeps_its_english(client):
    path = "/shifts/a?day=2026-08-03&shift=2&measure=overview"
    es, en = _pages(client, path)
    assert '<p class="error">No hay registros del turno 2 el 2026-08-03.</p>' in es
    assert "No records for shift" not in es
    assert '<p class="error">No records for shift 2 on 2026-08-03.</p>' in en
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.pages.i18n import translations

    data = client.get(path.replace("/a?", "/a.json?")).json()
    line = next(s for s in data["sections"] if "No records" in s["text"])
    assert line["text"] == "get_shift_overview: No records for shift 2 on 2026-08-03."
    assert (
        spoken(line, translations("es"))["text"]
        == "get_shift_overview: No hay registros del turno 2 el 2026-08-03."
    )


def test_the_failed_calls_caveat_and_an_unknown_error_are_said_or_kept():
    from shopfloor.shifts.answers.sayings import spoken
    from shopfloor.shifts.answers.tool_errors import named_error, tools_failed
    from shopfloor.shifts.pages.i18n import translations

    es = translations("es")
    one, two = tools_failed(1), tools_failed(2)
    assert one["text"] == "1 tool call(s) failed; the answer uses the evidence that succeeded."
    assert two["text"] == "2 tool call(s) failed; the answer uses the evidence that succeeded."
    assert (
        spoken(one, es)["text"]
        == "1 llamada a herramienta falló; la respuesta usa la evidencia que se obtuvo."
    )
    assert spoken(two, es)["text"] == (
        "2 llamadas a herramientas fallaron; la respuesta usa la evidencia que se obtuvo."
    )
    # An error no template says word for word stays as it was written (English, a record's words).
    other = named_error("get_trend: something else went wrong.")
    assert other["text"] == "get_trend: something else went wrong."
    assert spoken(other, es)["parts"] == ["get_trend: ", {"quote": "something else went wrong."}]
    # A finish the run refused is not a tool's error: its English as written, said by its code's sentence.
    finish = named_error("The finish was not a list of evidence ids.")
    assert finish["type"] == "caveat" and finish["text"] == "The finish was not a list of evidence ids."
    assert spoken(finish, es)["text"] == (
        "Se rechazó el cierre del planificador: no citaba la evidencia de esta ejecución."
    )


@pytest.mark.parametrize(
    ("question", "shift", "spanish", "english"),
    (
        (
            "downtime by crew on 2nd shift",
            "2",
            "No aplicado: por cuadrilla (las herramientas de esta respuesta no desglosan paros por cuadrilla).",
            "Not applied: by crew (this answer's tools do not break downtime down by crew).",
        ),
        (
            "downtime for grade 26-C and 32-C this week",
            None,
            "No aplicado: grado 26-C (las herramientas de esta respuesta no desglosan el pareto por grado); grado "
            "32-C (cada respuesta aplica solo uno, grado 26-C; pregunte por 32-C por separado).",
            "Not applied: grade 26-C (this answer's tools do not break pareto down by grade); grade 32-C (one "
            "grade per answer is applied, grade 26-C; ask about 32-C on its own).",
        ),
        (
            "splicers downtime by reason this week",
            None,
            "No aplicado: Empalmadores como un solo total (las filas listan cada uno: Empalmador 1, Empalmador 2, "
            "Empalmador 3, Empalmador 4, Empalmador 5).",
            "Not applied: Splicers as one total (the rows list each of Splicer 1, Splicer 2, Splicer 3, Splicer 4, "
            "Splicer 5).",
        ),
        (
            "worst 2 shifts this week",
            None,
            "No aplicado: los 2 pedidos (se lista cada turno, clasificados con el mejor primero).",
            "Not applied: the 2 asked (every shift is listed, ranked best first).",
        ),
        (
            "downtime for crew Z this week",
            None,
            "No aplicado: cuadrilla Z (ninguna cuadrilla con ese nombre está en los registros: las cuadrillas son "
            "A, B, C y D; esta respuesta lee la cuadrilla que trabajó).",
            "Not applied: crew Z (no crew of that name is in the records: the crews are A, B, C and D; this "
            "answer reads the crew that ran).",
        ),
    ),
)
def test_what_the_reader_did_not_apply_of_an_entity_is_said_in_spanish(
    client, question, shift, spanish, english
):
    es, en = _ask(client, question, SPANISH, shift), _ask(client, question, ENGLISH, shift)
    assert MARKED.findall(_region(es)) == []
    assert spanish in _lines(es), _lines(es)
    assert english in [html.unescape(line) for line in _lines(en)]
    assert "<span lang='en'>" not in _region(es).split("No aplicado:")[1].split("</p>")[0]


def test_unavailable_is_said_in_spanish_as_a_figure_and_a_cell(client):
    es, en = _pages(client, "/shifts/a?day=2026-09-21&measure=trend&metric=downtime_pct&weeks=6")
    assert MARKED.findall(_region(es)) == []
    assert "Semana del 2026-08-24 (no disponible): No disponible (consulta 1 · fila 2)" in _lines(es)
    assert "Unavailable" not in _region(es)
    assert "Week of 2026-08-24 (unavailable): Unavailable (query 1 · row 2)" in _lines(en)
    from shopfloor.shifts.pages.answer_view import is_english_text, record_word
    from shopfloor.shifts.pages.i18n import Words

    spanish = Words("es")
    assert [record_word(cell, spanish) for cell in ("Unavailable", "yes", "no")] == [
        "No disponible",
        "sí",
        "no",
    ]
    assert not is_english_text("No disponible", spanish)
    assert record_word("Unavailable", Words("en")) == "Unavailable"


needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils is not installed"
)


@needs_pdftotext
def test_a_pdfs_counted_units_are_said_in_its_language(client, tmp_path):
    path = "/shifts/a?window=week&anchor=2026-09-14&measure=stops&format=pdf"
    texts = []
    for headers in (SPANISH, ENGLISH):
        pdf = client.get(path, headers=headers)
        assert pdf.status_code == 200
        file = tmp_path / "answer.pdf"
        file.write_bytes(pdf.content)
        out = subprocess.run(["pdftotext", str(file), "-"], capture_output=True, check=True).stdout.decode()
        texts.append(" ".join(out.split()))
    spanish, english = texts
    assert "lun: 3 paros por día (consulta 1 · día de la semana 1)." in spanish
    assert "3 stops" not in spanish
    assert "Mon: 3 stops per day (query 1 · weekday 1)." in english


def test_the_overruns_and_the_reports_columns_are_named_in_spanish(client):
    es, en = _pages(client, "/shifts/a?window=week&anchor=2026-09-14&measure=overrun")
    assert '<th scope="col" lang="en">' not in es
    for said in (
        "líneas cerradas",
        "% del nominal",
        "cuchilla",
        "Puesto en velocidad",
        "Minutos, periodo anterior",
    ):
        assert f'<th scope="col">{said}</th>' in es, said
    for name in ("closed_lines", "pct_of_nominal", "knife", "Speed rank", "Minutes, window before"):
        assert f'<th scope="col">{name}</th>' in en, name
        assert f">{name}</th>" not in es, name
