"""Follow-ups said in Spanish read as their English forms: one slot of the previous question changes, and the
address says which question it follows (docs/shifts-agent.md, "Follow-ups")."""

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

DAY = date(2026, 9, 16)  # a Wednesday
SHIFT2 = Scope(day=DAY, shift=2, include="shift")
ALL = Scope(day=DAY, shift=2, include="day")


def _plan(question: str, scope: Scope, previous: Plan | None = None) -> Plan:
    result = route(question, scope, previous=previous)
    assert isinstance(result, Plan), result
    return result


@pytest.mark.parametrize(
    "question", ["compara eso con el primer turno", "compara con el primer turno", "compáralo con el turno 1"]
)
def test_a_spanish_compare_that_compares_with_the_named_shift(question):
    first = _plan("why was second shift slow", ALL)
    follow = _plan(question, ALL, first)
    assert (follow.measure, follow.shift, follow.other_shift, follow.include) == (
        "compare_shifts",
        2,
        1,
        "day",
    )
    assert follow.after == "/a?day=2026-09-16&shift=2&include=day&measure=overview"


def test_y_el_turno_3_moves_the_previous_question_to_third_shift():
    first = _plan("downtime by reason", SHIFT2)
    follow = _plan("¿y el turno 3?", SHIFT2, first)
    assert (follow.measure, follow.by, follow.shift, follow.day) == ("downtime", "reason", 3, DAY)
    assert follow.after == "/a?day=2026-09-16&shift=2&measure=downtime&by=reason"


def test_lo_mismo_para_la_cuadrilla_c_names_the_crew():
    first = _plan("downtime by reason", SHIFT2)
    follow = _plan("lo mismo para la cuadrilla C", SHIFT2, first)
    assert (follow.measure, follow.by, follow.crew, follow.shift) == ("downtime", "reason", "C", 2)


def test_y_la_semana_anterior_is_the_week_before_the_previous_answers():
    first = _plan("downtime pareto last week", SHIFT2)
    assert first.anchor == date(2026, 9, 7)
    follow = _plan("¿y la semana anterior?", SHIFT2, first)
    assert (follow.measure, follow.window, follow.anchor) == ("pareto", "week", date(2026, 8, 31))
    assert follow.after == first.address()


@pytest.mark.parametrize(
    ("spanish", "english", "previous", "scope"),
    [
        (
            "compara eso con el primer turno",
            "compare that with first shift",
            "why was second shift slow",
            ALL,
        ),
        ("compara con el primer turno", "compare that with first shift", "why was second shift slow", ALL),
        ("compáralo con el turno 1", "compare that with first shift", "why was second shift slow", ALL),
        ("¿y el turno 3?", "what about 3rd", "downtime by reason", SHIFT2),
        ("lo mismo para la cuadrilla C", "same for crew C", "downtime by reason", SHIFT2),
        ("¿y la semana anterior?", "and the week before?", "downtime pareto last week", SHIFT2),
        ("¿y el día anterior?", "and the day before?", "downtime by reason", SHIFT2),
    ],
)
def test_a_spanish_follow_up_gives_the_plan_of_its_english_form(spanish, english, previous, scope):
    first = _plan(previous, scope)
    assert _plan(spanish, scope, first) == _plan(english, scope, first)


def test_a_spanish_follow_up_that_changes_nothing_is_refused_as_in_english():
    first = _plan("downtime by reason", SHIFT2)
    assert not isinstance(route("and shift 2", SHIFT2, previous=first), Plan)
    assert not isinstance(route("¿y el turno 2?", SHIFT2, previous=first), Plan)
