"""The reader's round-13 classes (evals/shifts/blind-r13.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): a cost said in minutes is the downtime, never the money levers; a splicer
number or a crew letter the plant does not have is named, never read as every splicer or the shift's crew; the
crew to be told is no shift asked about; a second ask, a second crew on one shift, a second width and a ranking
on trim are named as not applied; a trend reaching before the records' first day says so and is partial
(docs/shifts-agent.md, "The three rules", "Reading" and "Known limits").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21; crew A runs shift 1, crew
B shift 2 and crew C shift 3 every day.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb
import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.answers.sayings import spoken
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.investigation import investigate
from shopfloor.shifts.pages.i18n import translations
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

DAY = date(2026, 9, 16)
FIRST = Scope(day=DAY, shift=1, include="shift")


def ask(conn: duckdb.DuckDBPyConnection, question: str, scope: Scope) -> dict[str, Any]:
    answer: dict[str, Any] = investigate(question, scope, conn).as_dict()
    assert invariants(answer) == []
    return answer


def _routed(question: str, scope: Scope = FIRST) -> Plan:
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


def _text(answer: dict[str, Any]) -> str:
    return " ".join(s["text"] for s in answer["sections"])


def _tools(answer: dict[str, Any]) -> list[str]:
    return [str(e["tool"]) for e in answer["evidence"]]


# --- a cost said in time ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "by"),
    [
        ("which equipment cost us the most downtime on 1st", "place"),
        ("where did we lose the most time, what cost us more downtime on 1st", "place"),
        ("¿qué nos costó más tiempo muerto en el primer turno?", "reason"),
    ],
)
def test_a_cost_said_in_downtime_is_the_downtime_never_the_money(
    conn: duckdb.DuckDBPyConnection, question: str, by: str
) -> None:
    plan = _routed(question)
    assert (plan.measure, plan.by) == ("downtime", by)
    answer = ask(conn, question, FIRST)
    assert "get_downtime_breakdown" in _tools(answer)
    assert "no cost basis" not in _text(answer)


def test_money_is_still_money() -> None:
    assert _routed("what did knife jams cost us on 1st").measure == "named_cost"
    assert _routed("what did 1st shift cost us").measure == "dollars"


# --- a splicer or a crew the plant does not have -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("stops at splicer 9 on 1st shift", "splicer 9"),
        ("paros del empalmador 7 en el primer turno", "splicer 7"),
    ],
)
def test_a_splicer_the_plant_does_not_have_is_named(
    conn: duckdb.DuckDBPyConnection, question: str, named: str
) -> None:
    answer = ask(conn, question, FIRST)
    assert answer["status"] == "partial"
    line = next(s for s in answer["sections"] if s["text"].startswith("Not applied:"))
    assert (
        f"{named} (no place of that name is in the records: the splicers are Splicer 1 to Splicer 5"
        in (line["text"])
    )
    assert spoken(line, translations("es"))["text"].startswith("No aplicado:")


@pytest.mark.parametrize(
    "question", ["did crew F hit target on 1st shift", "¿cómo le fue a la cuadrilla F en el primer turno?"]
)
def test_a_crew_the_plant_does_not_have_is_named(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    answer = ask(conn, question, FIRST)
    assert answer["status"] == "partial"
    assert "crew F (no crew of that name is in the records: the crews are A, B, C and D" in _text(answer)


def test_a_splicer_and_a_crew_the_plant_has_are_read(conn: duckdb.DuckDBPyConnection) -> None:
    assert _routed("stops on splicer 1 on 1st shift").place == "Splicer 1"
    assert "no crew of that name" not in _text(ask(conn, "how did crew A do on 1st shift", FIRST))
    assert "no place of that name" not in _text(ask(conn, "stops on splicer 1 on 1st shift", FIRST))


# --- the crew to be told -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "anything odd today i should pass on to second shift?",
        "what stood out, need to warn 3rd",
        "¿algo raro hoy que deba avisarle al segundo turno?",
    ],
)
def test_the_crew_to_be_told_is_no_shift_asked_about(question: str) -> None:
    plan = _routed(question)
    assert (plan.measure, plan.shift) == ("overview", 1)


def test_a_shift_asked_about_is_still_read() -> None:
    assert _routed("anything odd on 3rd today").shift == 3


# --- a second ask, a second crew on one shift, a second width, a ranking on trim -----------------------------------


@pytest.mark.parametrize(
    ("question", "second"),
    [
        ("stops by reason on 1st and also how many setups", "how many setups"),
        ("paros por motivo del primer turno y también cuántos cambios de papel", "how many paper changes"),
    ],
)
def test_a_second_ask_is_named_never_answered_complete_with_the_first(
    conn: duckdb.DuckDBPyConnection, question: str, second: str
) -> None:
    answer = ask(conn, question, FIRST)
    assert answer["status"] == "partial"
    assert f"the second ask, “{second}” (one question per answer is read; ask it on its own)" in _text(answer)


@pytest.mark.parametrize(
    "question",
    ["compare crew A and crew C on 1st shift", "compara la cuadrilla A y la cuadrilla C en el primer turno"],
)
def test_a_second_crew_on_one_shift_is_not_applied(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    crews = conn.execute("SELECT DISTINCT crew FROM shifts WHERE day = ? AND shift = 1", (DAY,)).fetchall()
    assert crews == [("A",)]
    answer = ask(conn, question, FIRST)
    assert answer["status"] == "partial"
    assert "Not applied: crew C (one shift runs one crew: this answer reads shift 1's crew" in _text(answer)


def test_crews_over_a_window_still_read_every_crew_named(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "compare crew A and crew C last week", Scope(day=DAY))
    assert "one shift runs one crew" not in _text(answer)


@pytest.mark.parametrize(
    "question",
    [
        "trim on the 98 and 92 inch webs last week",
        "refile en las bandas de 98 y 92 pulgadas la semana pasada",
    ],
)
def test_two_widths_before_one_unit_are_both_named(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    plan = _routed(question, Scope(day=DAY))
    assert plan.measure == "waste" and plan.width in (98, 92)
    answer = ask(conn, question, Scope(day=DAY))
    assert answer["status"] == "partial"
    other = 92 if plan.width == 98 else 98
    assert f"{other} in web (one width per answer is applied, {plan.width} in web" in _text(answer)


@pytest.mark.parametrize(
    "question", ["which crew had the worst trim last week", "rank the crews on side trim last week"]
)
def test_a_ranking_on_trim_is_named_as_not_applied(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    plan = _routed(question, Scope(day=DAY))
    assert (plan.measure, plan.by) == ("compare_groups", "crew")
    answer = ask(conn, question, Scope(day=DAY))
    assert answer["status"] == "partial"
    assert "the ranking on trim (the groups are ranked on speed to target, unplanned downtime or dry-end" in (
        _text(answer)
    )


# --- a trend reaching before the records ------------------------------------------------------------------------


def test_a_trend_reaching_before_the_records_says_so_and_is_partial(conn: duckdb.DuckDBPyConnection) -> None:
    first = conn.execute("SELECT min(day) FROM shifts").fetchone()
    assert first is not None and first[0] == date(2026, 9, 7)
    answer = ask(conn, "speed trend the last 4 weeks", Scope(day=DAY))
    assert answer["status"] == "partial"
    line = next(s for s in answer["sections"] if s["text"].startswith("Weeks with no day in the records"))
    assert line["text"] == (
        "Weeks with no day in the records: 2 of the 4 asked, from the week of 2026-08-24; the trend reads the "
        "weeks held."
    )
    assert spoken(line, translations("es"))["text"].startswith(
        "Semanas sin ningún día en los registros: 2 de"
    )


def test_a_trend_inside_the_records_names_no_empty_week(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "speed trend the last 2 weeks", Scope(day=DAY))
    assert "Weeks with no day" not in _text(answer)


# --- the safe ones: the year so far, a window against the one before, the bottom crews ---------------------------


@pytest.mark.parametrize("question", ["downtime so far this year", "tiempo muerto en lo que va del año"])
def test_the_year_so_far_is_named_year_to_date(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    answer = ask(conn, question, Scope(day=DAY))
    assert answer["status"] == "partial"
    assert "Not applied: year to date (the windows read are" in _text(answer)


@pytest.mark.parametrize(
    "question",
    ["this week's downtime against last week", "el tiempo muerto de esta semana contra la semana pasada"],
)
def test_a_window_against_the_one_before_said_with_against_is_compared(
    conn: duckdb.DuckDBPyConnection, question: str
) -> None:
    plan = _routed(question, Scope(day=DAY))
    assert (plan.measure, plan.window) == ("compare", "week")
    answer = ask(conn, question, Scope(day=DAY))
    assert answer["read_as"].endswith("week of 2026-09-07")


def test_the_bottom_crews_are_the_crews_ranked() -> None:
    plan = _routed("bottom 2 crews on downtime last week", Scope(day=DAY))
    assert (plan.measure, plan.by) == ("compare_groups", "crew")


@pytest.mark.parametrize(
    ("question", "shift"), [("rejects so far this year on second", 2), ("downtime on third today", 3)]
)
def test_an_ordinal_said_alone_after_on_is_that_shift(question: str, shift: int) -> None:
    assert _routed(question, Scope(day=DAY)).shift == shift


def test_on_second_thought_is_no_shift() -> None:
    assert _routed("on second thought, show the downtime", Scope(day=DAY)).shift is None
