"""The reader's round-14 classes (evals/shifts/blind-r14.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): a yes/no on target over a window is held to 100 % in its headline; a yes/no
texted with only its question mark is asked on the target too; hours, "getting worse" and a forecast after a
leading clause are read in Spanish; a clause that names nothing reaches back to its sentence, a tag ("were
we?") asks about the statement before it, and a sentence saying why it is asked is no asking clause; the
dry-end waste as a percent of gross is the window's tile too; two values of one kind compared are those
values, never two windows, the first applied; the downtime rows carry their dollars (docs/shifts-agent.md,
"The three rules", "Reading" and docs/COST_MODEL.md).

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
from shopfloor.shifts.planning.plans import Plan, Unavailable
from shopfloor.shifts.planning.refused import FORECAST_REASON
from shopfloor.shifts.planning.router import route

MONDAY = date(2026, 9, 21)  # last week is week A, 2026-09-14..18
FRIDAY = date(2026, 9, 18)
WEEK_A = (date(2026, 9, 14), date(2026, 9, 18))


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


def _headline(answer: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in answer["sections"] if s["type"] == "headline")


def _tools(answer: dict[str, Any]) -> list[str]:
    return [str(e["tool"]) for e in answer["evidence"]]


def _week_a(conn: duckdb.DuckDBPyConnection, select: str, table: str, shift: int | None) -> float:
    where = "day BETWEEN ? AND ?" + (" AND shift = ?" if shift is not None else "")
    params: tuple[Any, ...] = (*WEEK_A, shift) if shift is not None else WEEK_A
    row = conn.execute(f"SELECT {select} FROM {table} WHERE {where}", params).fetchone()
    assert row is not None
    return float(row[0])


# --- a yes/no on target over a window is held to 100 % ---------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "shift", "verdict"),
    [
        ("did third shift fall short of target last week?", 3, "Yes: "),
        ("¿el segundo turno quedó debajo de la meta la semana pasada?", 2, "Yes: "),
        ("was 1st shift at target last week", 1, "No: "),
    ],
)
def test_a_yes_no_on_target_over_a_window_is_held_to_100(
    conn: duckdb.DuckDBPyConnection, question: str, shift: int, verdict: str
) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.window, plan.anchor, plan.shift, plan.measure) == ("week", WEEK_A[0], shift, "fpm")
    # Shift 3 ran 360,000 ft at a 900 ft/min target over 480 min a day: 83.33 %; shift 2 75.00 %.
    speed = _week_a(conn, "100 * sum(gross_feet) / sum(target_fpm * elapsed_min)", "setups", shift)
    answer = ask(conn, question, Scope(day=MONDAY))
    head = _headline(answer)["text"]
    assert head.startswith(verdict)
    assert f"**{speed:.2f} %**" in head
    assert "against 100 %" in head and "Week of 2026-09-14" in head
    said = spoken(_headline(answer), translations("es"))["text"]
    assert said.startswith(("Sí: ", "No: ")) and "La velocidad frente al objetivo fue" in said
    assert "frente al 100 %" in said and "Speed" not in said


# --- a yes/no texted with only its question mark, on the target ----------------------------------------------


@pytest.mark.parametrize(
    ("question", "ask_"),
    [("crew c below target this week?", "below_target"), ("3rd shft undr target yday?", "below_target")],
)
def test_a_texted_yes_no_on_target_is_asked(question: str, ask_: str) -> None:
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.measure, plan.ask) == ("fpm", ask_)


def test_a_texted_crew_yes_no_leads_with_the_crew(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "crew c below target this week?", Scope(day=FRIDAY))
    speed = _week_a(conn, "100 * sum(gross_feet) / sum(target_fpm * elapsed_min)", "setups", 3)
    assert _headline(answer)["text"].startswith(f"Yes: Crew C ran at **{speed:.2f} %** of grade target speed")
    assert "against 100 %" in _headline(answer)["text"]


def test_a_texted_question_without_a_limit_word_is_no_yes_no() -> None:
    assert _routed("crew c speed this week?", Scope(day=FRIDAY)).ask is None


# --- hours, "getting worse" and a forecast in Spanish ---------------------------------------------------------


def test_hours_of_downtime_asked_in_spanish_lead_in_hours(conn: duckdb.DuckDBPyConnection) -> None:
    question = "¿cuántas horas de tiempo muerto hubo en el primer turno?"
    scope = Scope(day=FRIDAY)
    row = conn.execute("SELECT sum(minutes) FROM stops WHERE day = ? AND shift = 1", (FRIDAY,)).fetchone()
    assert row is not None
    minutes = float(row[0])
    answer = ask(conn, question, scope)
    assert answer["status"] == "complete", _text(answer)
    # 10 + 5 minutes = 0.25 hours.
    assert _headline(answer)["text"].startswith(f"Downtime came to **{minutes / 60:.2f} hours**")


def test_hours_of_stops_over_a_window_in_spanish(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "horas de paro la semana pasada", Scope(day=MONDAY))
    minutes = _week_a(conn, "sum(minutes)", "stops", None)
    assert "hours" in _headline(answer)["text"]
    assert f"**{minutes / 60:.2f} hours**" in _headline(answer)["text"]  # 400 min over week A: 6.67 hours
    assert "Not understood" not in _text(answer)


@pytest.mark.parametrize(
    ("question", "metric", "reason"),
    [
        ("¿está empeorando el tiempo muerto de mantenimiento?", "maintenance_pct", None),
        ("¿los empalmes fallidos van mejorando?", "downtime_pct", "Missed splice"),
    ],
)
def test_getting_worse_or_better_in_spanish_is_the_trend(
    question: str, metric: str, reason: str | None
) -> None:
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.measure, plan.metric, plan.reason) == ("trend", metric, reason)


@pytest.mark.parametrize(
    "question",
    [
        "Con lo que va de la semana, ¿vamos a cumplir la meta?",
        "viendo los números, ¿va a ser un buen mes?",
        "so far this month, will hit target?",
    ],
)
def test_a_forecast_after_a_leading_clause_is_refused(question: str) -> None:
    refused = route(question, Scope(day=FRIDAY))
    assert isinstance(refused, Unavailable) and refused.reason == FORECAST_REASON


# --- the asking clause: a clause naming nothing, a tag, a reason for asking ------------------------------------


def test_a_clause_that_names_nothing_reaches_back_to_its_sentence(conn: duckdb.DuckDBPyConnection) -> None:
    question = "pretty sure it was wednesday.. 1st shift lost a bunch of downtime, about how much?"
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.measure, plan.day, plan.shift) == ("downtime", date(2026, 9, 16), 1)
    answer = ask(conn, question, Scope(day=FRIDAY))
    assert "2026-09-16" in _text(answer) and "2026-09-18" not in _text(answer)


def test_a_tag_asks_about_the_statement_before_it(conn: duckdb.DuckDBPyConnection) -> None:
    question = (
        "I could be wrong here, but my guess is we were near 90% of target on 1st shift last week. Were we?"
    )
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.ask, plan.window, plan.shift) == ("fpm", "at_target", "week", 1)
    answer = ask(conn, question, Scope(day=MONDAY))
    assert answer["status"] == "partial"
    assert "Not applied: the threshold 90 % (the verdict is held to the grade target, 100 %" in _text(answer)
    assert _headline(answer)["text"].startswith("No: ") and "100 %" in _headline(answer)["text"]


def test_a_sentence_saying_why_it_is_asked_is_no_asking_clause() -> None:
    question = (
        "How did speed to target in October stack up against September? "
        "I need to walk the plant manager through the change tomorrow."
    )
    plan = _routed(question, Scope(day=date(2026, 10, 30)))
    assert (plan.measure, plan.window, plan.anchor) == ("compare", "month", date(2026, 10, 1))
    assert plan.other_anchor == date(2026, 9, 1)


def test_a_need_to_see_is_still_an_asking_clause() -> None:
    question = (
        "the boss was in a mood after the meeting this morning, anyway i need to see downtime by place on 2nd"
    )
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.measure, plan.by, plan.shift) == ("downtime", "place", 2)


# --- the dry-end waste as a percent of gross over a window ----------------------------------------------------


@pytest.mark.parametrize(
    "question",
    ["what was 1st shift's dry end as a percent of gross last week?", "dry end % on first shift last week"],
)
def test_the_dry_end_percent_of_gross_over_a_window_is_its_tile(
    conn: duckdb.DuckDBPyConnection, question: str
) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.metric, plan.window, plan.shift) == ("kpis", "dry_end_pct", "week", 1)
    pct = _week_a(conn, "100 * sum(reject_sqft) / sum(gross_sqft)", "setups", 1)
    answer = ask(conn, question, Scope(day=MONDAY))
    assert _headline(answer)["text"].startswith(
        f"Dry-end waste was **{pct:.2f} %** of gross (flag above 1 %)"
    )


# --- two values of one kind compared ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "width", "other"),
    [
        ("compare side trim on the 98 and 92 inch webs this week", 98, "92 in web"),
        ("compare trim on the 92 and 98 inch webs this week", 92, "98 in web"),
    ],
)
def test_two_widths_compared_are_those_widths_the_first_applied(
    conn: duckdb.DuckDBPyConnection, question: str, width: int, other: str
) -> None:
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.measure, plan.width) == ("waste", width)
    answer = ask(conn, question, Scope(day=FRIDAY))
    assert "get_waste_breakdown" in _tools(answer) and "compare_periods" not in _tools(answer)
    assert answer["status"] == "partial"
    assert f"Not applied: {other} (one width per answer is applied, {width} in web" in _text(answer)


def test_a_window_compared_with_the_one_before_is_still_compared() -> None:
    assert _routed("compare trim this week vs last week", Scope(day=FRIDAY)).measure == "compare"


# --- the downtime rows carry their dollars (docs/COST_MODEL.md) -------------------------------------------------


def test_the_downtime_rows_by_place_carry_their_machine_time_dollars(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "which machine cost us the most downtime on 2nd", Scope(day=FRIDAY))
    assert _tools(answer) == ["get_downtime_breakdown"]
    # The knife jam's 20 minutes at $1,200 an hour: $400.00, with the rates line under the rows.
    assert "Upper knife: **20.0 min** over 1 stop, $400.00" in _text(answer)
    assert "Assumed rates: board $50/MSF, machine time $1,200/h" in _text(answer)
