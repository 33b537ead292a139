"""The reader's round-15 classes (evals/shifts/blind-r15.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): the day before yesterday, stopping, the last period, N weeks, a trend and
"which crew had the most" said in Spanish; an action asked in Spanish is refused; time lost "the most" and hours
"we were down" are downtime; "how did <a window> go" is its diagnosis; one ask said in two parts ("how much … and
how much …") is read whole; board thrown out is the waste; rows ranked over a window are that window's rows (the
grades' volume, the pareto), the N asked named as not applied; a reject family said with its reason is that
reason (docs/shifts-agent.md, "The three rules", "Reading", "Dates as people say them").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21; crew A runs shift 1, crew
B shift 2 and crew C shift 3 every day.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb
import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.investigation import investigate
from shopfloor.shifts.planning.plans import Plan, Unavailable
from shopfloor.shifts.planning.refused import ACTION
from shopfloor.shifts.planning.router import route

MONDAY = date(2026, 9, 21)  # last week is week A, 2026-09-14..18; the week before last is week B
FRIDAY = date(2026, 9, 18)
WEEK_A = date(2026, 9, 14)
WEEK_B = date(2026, 9, 7)


def ask(conn: duckdb.DuckDBPyConnection, question: str, scope: Scope) -> dict[str, Any]:
    answer: dict[str, Any] = investigate(question, scope, conn).as_dict()
    assert invariants(answer) == []
    return answer


def _routed(question: str, scope: Scope) -> Plan:
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


def _text(answer: dict[str, Any]) -> str:
    return " ".join(s["text"] for s in answer["sections"])


def _headline(answer: dict[str, Any]) -> str:
    return str(next(s for s in answer["sections"] if s["type"] == "headline")["text"])


# --- Spanish: the day before yesterday, stopping, the last period, N weeks, a trend, which crew ----------------


@pytest.mark.parametrize(
    "question",
    ["¿cuántas veces paramos anteayer?", "¿cuántas veces se paró la línea antier en el tercer turno?"],
)
def test_the_day_before_yesterday_in_spanish_is_two_production_days_back(question: str) -> None:
    plan = _routed(question, Scope.parse(FRIDAY.isoformat(), 3))
    assert (plan.day, plan.shift, plan.measure) == (date(2026, 9, 16), 3, "downtime")


def test_stops_counted_in_spanish_lead_with_their_count(conn: duckdb.DuckDBPyConnection) -> None:
    row = conn.execute(
        "SELECT count(*) FROM stops WHERE day = ? AND shift = 3", (date(2026, 9, 16),)
    ).fetchone()
    assert row is not None
    answer = ask(conn, "¿cuántas veces paramos anteayer?", Scope.parse(FRIDAY.isoformat(), 3))
    stops = int(row[0])
    assert _headline(answer).startswith(f"**{stops} stop{'s' if stops != 1 else ''}** recorded")
    assert "2026-09-16" in answer["read_as"]


def test_the_last_period_in_spanish_is_the_4_4_5_period_before() -> None:
    # From Wed 2026-10-07 (P2, Tue 09-29 to Mon 10-26) the period before is P1, Tue 2026-09-01 to Mon 09-28.
    plan = _routed("¿cuánto desperdicio hubo en el periodo anterior?", Scope(day=date(2026, 10, 7)))
    assert (plan.window, plan.anchor, plan.measure) == ("fiscal", date(2026, 9, 1), "waste")


def test_a_trend_over_n_weeks_in_spanish() -> None:
    plan = _routed("tendencia de la velocidad en las últimas 6 semanas", Scope(day=MONDAY))
    assert (plan.measure, plan.metric, plan.weeks) == ("trend", "speed", 6)


@pytest.mark.parametrize(
    "question",
    ["¿cuál cuadrilla tuvo más rechazos la semana pasada?", "¿qué cuadrilla tuvo más desperdicio?"],
)
def test_which_crew_had_the_most_rejects_in_spanish_compares_the_crews_on_quality(question: str) -> None:
    plan = _routed(question, Scope(day=MONDAY, period="week"))
    assert (plan.measure, plan.by, plan.metric) == ("compare_groups", "crew", "quality")


@pytest.mark.parametrize(
    "question", ["programa el cambio de cuchilla para mañana", "agenda un paro de mantenimiento el lunes"]
)
def test_an_action_asked_in_spanish_is_refused(question: str) -> None:
    refused = route(question, Scope(day=FRIDAY))
    assert isinstance(refused, Unavailable) and refused.reason == ACTION


# --- time lost "the most", hours "we were down", "how did <a window> go" --------------------------------------


def test_the_time_we_lost_the_most_on_is_the_downtime() -> None:
    plan = _routed("what did we lose the most time on last tuesday", Scope(day=MONDAY))
    assert (plan.day, plan.measure, plan.by) == (date(2026, 9, 15), "downtime", "reason")


def test_hours_we_were_down_over_a_week_lead_in_hours(conn: duckdb.DuckDBPyConnection) -> None:
    question = "how many hours were we down on 3rd last week"
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.window, plan.anchor, plan.shift, plan.measure) == ("week", WEEK_A, 3, "pareto")
    row = conn.execute(
        "SELECT sum(minutes) FROM stops WHERE day BETWEEN ? AND ? AND shift = 3", (WEEK_A, date(2026, 9, 18))
    ).fetchone()
    assert row is not None
    answer = ask(conn, question, Scope(day=MONDAY))
    assert f"**{float(row[0]) / 60:.2f} h" in _headline(answer)


def test_how_a_named_window_went_is_its_diagnosis() -> None:
    plan = _routed("how did the week before last go overall?", Scope(day=MONDAY))
    assert (plan.window, plan.anchor, plan.measure) == ("week", WEEK_B, "kpis")


# --- one ask in two parts, board thrown out, rows ranked over a window, a family said with its reason ----------


def test_one_ask_said_in_two_parts_is_read_whole() -> None:
    question = "for 2nd shift, how much of the stop time was the operators and how much was maintenance?"
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.shift, plan.measure, plan.by, plan.kind) == (2, "downtime", "kind", None)


def test_which_two_crews_threw_out_the_most_are_the_crews_compared(conn: duckdb.DuckDBPyConnection) -> None:
    question = "which two crews threw out the most board last week"
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.window, plan.measure, plan.by, plan.metric) == ("week", "compare_groups", "crew", "quality")
    answer = ask(conn, question, Scope(day=MONDAY))
    assert answer["status"] == "partial"
    assert "Not applied: the two asked (every crew is listed, ranked best first)" in _text(answer)


def test_grades_ranked_by_msf_over_a_window_are_the_grades_volume() -> None:
    plan = _routed("rank the grades by MSF last week", Scope(day=MONDAY))
    assert (plan.window, plan.measure, plan.by) == ("week", "volume", "grade")


def test_the_top_n_reasons_over_a_window_are_the_pareto_the_n_named(conn: duckdb.DuckDBPyConnection) -> None:
    question = "last week, exactly the top 2 downtime reasons on this shift ranked by number of stops"
    plan = _routed(question, Scope.parse(MONDAY.isoformat(), 3))
    assert (plan.window, plan.measure, plan.by, plan.count) == ("week", "pareto", "reason", True)
    answer = ask(conn, question, Scope.parse(MONDAY.isoformat(), 3))
    assert answer["status"] == "partial"
    assert "Not applied: the 2 asked (every reason is listed)" in _text(answer)


def test_the_top_n_without_exactly_is_the_ranked_rows(conn: duckdb.DuckDBPyConnection) -> None:
    # Rows listed largest first hold their top N: only "exactly" asks for a cut that no answer makes.
    answer = ask(
        conn, "the top 2 downtime reasons on this shift last week", Scope.parse(MONDAY.isoformat(), 3)
    )
    assert "the 2 asked" not in _text(answer)


def test_the_rankings_of_a_day_are_unchanged() -> None:
    assert _routed("show the best runs ranked on 2nd", Scope(day=FRIDAY)).measure == "rankings"


@pytest.mark.parametrize(
    "question",
    [
        "what share of the rejects was bond delamination",
        "what % of the rejected area was bond - delamination",
    ],
)
def test_a_family_said_with_its_reason_is_that_reason(question: str) -> None:
    plan = _routed(question, Scope.parse(FRIDAY.isoformat(), 2))
    assert (plan.measure, plan.reject, plan.ask) == ("waste", "Bond - delamination", "share")
