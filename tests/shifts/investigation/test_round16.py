"""The reader's round-16 classes (evals/shifts/blind-r16.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): a second ask joined to the first is named, the first answered; the selected
shift held against the shift before it is the two shifts compared; a handover ("what do I tell the next shift")
is the selected shift's diagnosis; "what happened last night" is the previous production day's third shift;
paper by weight is the rollstock consumed, the weight named as not in the records (docs/shifts-agent.md,
"Reading", "Dates as people say them", "Known limits").

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
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

MONDAY = date(2026, 9, 21)
FRIDAY = date(2026, 9, 18)


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


# --- a second ask joined to the first: the first is answered, the second named ---------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "give me downtime by reason for 3rd and also how many paper changes they did",
        "dt by reason on 3rd plus how many setups did they run",
        "dame el tiempo muerto por razón del tercer turno y también cuántos cambios de papel hicieron",
    ],
)
def test_a_second_ask_never_routes_the_answer(question: str) -> None:
    plan = _routed(question, Scope(day=FRIDAY))
    assert (plan.measure, plan.by, plan.shift) == ("downtime", "reason", 3)


def test_a_second_ask_is_named_and_the_answer_is_partial(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(
        conn, "give me downtime by reason for 3rd and also how many paper changes they did", Scope(day=FRIDAY)
    )
    assert answer["status"] == "partial"
    assert "Not applied: the second ask, “how many paper changes they did”" in _text(answer)
    assert "get_downtime_breakdown" in [s["tool"] for s in answer["trace"] if s.get("kind") == "tool_call"]


# --- the selected shift against the shift before it ------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "selected", "shifts"),
    [
        ("how did we do compared to the previous shift?", 2, (1, 2)),
        ("were we any better than last shift", 3, (2, 3)),
        ("how did we do vs the shift before", 2, (1, 2)),
        ("¿cómo nos fue comparado con el turno anterior?", 3, (2, 3)),
    ],
)
def test_against_the_shift_before_compares_the_two_shifts(
    question: str, selected: int, shifts: tuple[int, int]
) -> None:
    plan = _routed(question, Scope.parse(FRIDAY.isoformat(), selected))
    assert (plan.measure, plan.day, plan.include) == ("compare_shifts", FRIDAY, "day")
    assert (plan.shift, plan.other_shift) == shifts


def test_last_shift_alone_is_still_that_shift() -> None:
    plan = _routed("how did last shift go?", Scope.parse(FRIDAY.isoformat(), 2))
    assert (plan.measure, plan.shift, plan.other_shift) == ("overview", 1, None)


# --- a handover: the selected shift's diagnosis -----------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "what should I tell the next shift?",
        "¿qué le digo al siguiente turno?",
        "¿qué le paso al próximo turno?",
    ],
)
def test_a_handover_is_the_selected_shifts_diagnosis(question: str) -> None:
    plan = _routed(question, Scope.parse(FRIDAY.isoformat(), 2))
    assert (plan.measure, plan.day, plan.shift) == ("overview", FRIDAY, 2)


# --- what happened last night -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question", ["¿qué pasó anoche en el tercer turno?", "¿qué pasó anoche?", "what happened last night?"]
)
def test_what_happened_last_night_is_the_previous_production_days_third_shift(question: str) -> None:
    # The production day before Monday 2026-09-21 is Friday 2026-09-18, never Sunday.
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.day, plan.shift) == ("overview", FRIDAY, 3)


# --- paper by weight ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "how many tons of paper did we go through in September",
        "¿cuántas toneladas de papel usamos en septiembre?",
    ],
)
def test_paper_by_weight_is_the_rollstock_consumed(question: str) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.window, plan.anchor) == ("rollstock", "month", date(2026, 9, 1))


def test_paper_by_weight_names_the_weight_as_not_in_the_records(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "how many tons of paper did we go through in September", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    assert "Not in the records: tons" in _text(answer)
    assert "get_rollstock" in [s["tool"] for s in answer["trace"] if s.get("kind") == "tool_call"]
