"""Plan → tool calls: the data steps each routed plan asks for (pure, no store)."""

from datetime import date

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.planner import plan_steps
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

DAY = date(2026, 9, 16)


def steps(question, scope=Scope(day=DAY)):
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan_steps(plan)


def test_two_windows_compare_later_against_earlier_either_way():
    for question in ("compare this month with last month", "compare August and September"):
        ((name, args),) = steps(question)
        assert name == "compare_periods"
        assert args["current_window"]["anchor"] > args["previous_window"]["anchor"]


def test_overview_of_one_shift_and_of_the_day():
    assert [n for n, _ in steps("why was second shift slow", Scope(day=DAY, shift=2, include="shift"))] == [
        "get_shift_overview",
        "get_downtime_breakdown",
        "get_wet_end_performance",
        "get_shift_notes",
    ]
    day = steps("what happened today")
    assert [a["shift"] for n, a in day if n == "get_shift_overview"] == [1, 2, 3]


def test_speed_by_crew_reads_the_speed_opportunity_by_crew():
    names = {n: a for n, a in steps("speed by crew this month")}
    assert names["get_speed_opportunity"]["slice_by"] == "crew"


def test_dollars_over_several_shifts_add_the_day_total():
    names = [n for n, _ in steps("where did the money go")]
    assert names == ["get_shift_dollars"] * 3 + ["get_day_dollars"]
    assert [n for n, _ in steps("where did the money go", Scope(day=DAY, shift=2, include="shift"))] == [
        "get_shift_dollars"
    ]


def test_window_overview_reads_kpis_grades_pareto_and_variance():
    names = [
        n for n, _ in steps("why was second shift slow last week", Scope(day=DAY, shift=2, include="shift"))
    ]
    assert names == ["get_period_kpis", "get_grade_totals", "get_downtime_pareto", "get_speed_variance"]
