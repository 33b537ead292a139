"""The reader's round-7 classes (evals/shifts/blind-r7.yaml), in our own words: a number after "shift" that
counts days back is no shift; a figure asked in a unit is the window's, not one group's; a yes/no asking
whether something went up or down is a comparison its named reason's stops do not answer; and a value named
in a story's words is applied or named as not applied (docs/shifts-agent.md, "The three rules")."""

from __future__ import annotations

from datetime import date

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.accounting import figures_not_led, more_values
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route
from shopfloor.shifts.planning.scope_words import named_shifts

EVERY = Scope(day=date(2026, 11, 19))  # a Thursday, every shift


def _plan(question: str) -> Plan:
    plan = route(question, EVERY)
    assert isinstance(plan, Plan), plan
    return plan


def test_a_number_of_days_after_shift_counts_back_and_names_no_shift() -> None:
    assert named_shifts("jams at the upper knife on 2nd shift three days ago") == [2]
    assert named_shifts("what did first shift lose two weeks ago") == [1]
    assert named_shifts("day shift 2 days ago") == [1]
    # A shift named by its number still is one.
    assert named_shifts("shift 3 yesterday") == [3]
    assert named_shifts("shift two downtime") == [2]
    plan = _plan("glue skips at the glue machine on 2nd shift three days ago")
    assert plan.shift == 2 and plan.other_shift is None and plan.measure != "compare_shifts"


def test_a_unit_asked_of_a_window_is_not_led_by_one_groups_figure() -> None:
    plan = _plan("how much MSF did we make this week")
    headline = "The largest volume was 32-C at **7,546.0 MSF** (query 1 · row 1)."
    assert any(
        "MSF" in line for line in figures_not_led("how much MSF did we make this week", plan, headline)
    )
    # Asked by grade, the largest grade's figure is the answer's first row, and leads rightly.
    by_grade = _plan("MSF by grade this week")
    assert not figures_not_led("MSF by grade this week", by_grade, headline)


def test_up_or_down_from_another_window_is_not_answered_by_the_reasons_stops() -> None:
    question = "did glue skips go up from last week?"
    plan = _plan(question)
    assert plan.reason is not None  # the named reason leads the headline, as it does for "were there any"
    headline = f"{plan.reason}: **3.6 min** over **1 stop** (query 1 · row 6)."
    assert any("verdict" in line for line in figures_not_led(question, plan, headline))
    # "Were there any" is answered by its own stops.
    any_plan = _plan("were there any glue skips last week?")
    assert any_plan.reason is not None
    own = f"{any_plan.reason}: **3.6 min** over **1 stop** (query 1 · row 6)."
    assert not figures_not_led("were there any glue skips last week?", any_plan, own)


def test_a_value_named_in_a_story_is_applied_or_named() -> None:
    question = (
        "the crew kept saying 200-C runs rough on the double backer all week long and i believe them, "
        "so what was speed to target by crew for 1st this week"
    )
    plan = _plan(question)
    missing, also = more_values(question, plan)
    assert plan.grade == "200-C" or any("200-C" in line for line in missing + also)


def test_a_spanish_ordinal_alone_after_a_named_shift_is_a_shift() -> None:
    assert _plan("compara el segundo turno con el tercero").address() == (
        "/a?day=2026-11-19&shift=2&include=day&measure=compare_shifts&other_shift=3"
    )
    assert _plan("el primer turno y el segundo, compara la velocidad").other_shift == 2


SHIFT2_ONLY = Scope(day=date(2026, 11, 19), shift=2, include="shift")


def test_comparing_shifts_from_one_selected_shift_widens_the_scope() -> None:
    plan = route("compare 3rd shift vs 1st shift", SHIFT2_ONLY)
    assert isinstance(plan, Plan)
    assert plan.address() == "/a?day=2026-11-19&shift=1&include=day&measure=compare_shifts&other_shift=3"
    best = route("which shift was best last week", SHIFT2_ONLY)
    assert isinstance(best, Plan) and best.include == "day" and best.by == "shift" and best.shift is None
    previous = route("why was 2nd shift slow", SHIFT2_ONLY)
    assert isinstance(previous, Plan)
    follow = route("compare that with first shift", SHIFT2_ONLY, previous)
    assert isinstance(follow, Plan)
    assert (follow.measure, follow.shift, follow.other_shift, follow.include) == (
        "compare_shifts",
        2,
        1,
        "day",
    )


def test_two_shifts_compared_over_a_window_are_the_windows_shifts_side_by_side() -> None:
    plan = _plan("2nd vs 3rd shift last week")
    assert (plan.measure, plan.by, plan.window, plan.shift) == ("compare_groups", "shift", "week", None)
