"""Best and worst shift and the crews over a window, "is X getting worse" as the trend of X, and the cost of a
named reason, against numbers worked out by hand from the fixture (conftest.py).

Per day of week A (2026-09-14..18): shift 1 (crew A) runs 360,000 ft against 900 ft/min × 480 min = 432,000
target feet (83.33 %); shift 2 (crew B) 234,000 ft against 500 × 240 + 800 × 240 = 312,000 (75.00 %), with
20 maintenance minutes of 480 (4.17 %); shift 3 (crew C) 360,000 against 432,000 (83.33 %). Knife jams are
10 + 20 = 30 min a day in week A and 10 + 40 = 50 in week B (2026-09-07..11), over 7,200 scheduled minutes
a week; Splicer 1 loses 5 min a day; grade 275-BC runs 84,000 ft against 500 × 240 = 120,000 (70.00 %).
"""

from datetime import date

import pytest

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.catalog import full_registry, model_registry
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.router import route
from shopfloor.shifts.tools.context import RunContext

DAY = date(2026, 9, 16)
ALL = Scope(day=DAY)
WEEK_A = {"period": "week", "anchor": "2026-09-16"}
PARTIAL_WEEK = {"period": "week", "anchor": "2026-09-21"}


def ok(conn, name, args, scope=ALL):
    result = dispatch(full_registry(), RunContext(conn, scope), ToolCall("c1", name, args))
    assert not result.is_error, result.content
    return result.content


def refused(conn, name, args, scope=ALL):
    result = dispatch(full_registry(), RunContext(conn, scope), ToolCall("c1", name, args))
    assert result.is_error
    return str(result.content)


def ask(conn, question, scope=ALL):
    answer = investigate(question, scope, conn).as_dict()
    assert invariants(answer) == []
    return answer


def headline(answer):
    return next(s["text"] for s in answer["sections"] if s["type"] == "headline")


def text(answer):
    return "\n".join(s["text"] for s in answer["sections"])


# --- best and worst shift, crews compared over a window -----------------------------------------------------


def test_shifts_of_a_complete_week_are_ranked_best_first(conn):
    env = ok(conn, "get_group_comparison", {"window": WEEK_A, "shift": None, "group_by": "shift"})
    assert env["ranked"] is True
    assert [(r["shift"], r["rank"]) for r in env["rows"]] == [(1, 1), (3, 2), (2, 3)]
    worst = env["rows"][2]
    assert worst["speed_to_target_pct"] == pytest.approx(75.0)
    assert worst["shift_fpm"] == pytest.approx(234_000 / 480)
    assert worst["unplanned_downtime_pct"] == pytest.approx(100 * 20 / 480, abs=1e-4)
    assert worst["shifts_run"] == 5
    assert env["rows"][0]["speed_to_target_pct"] == pytest.approx(100 * 360_000 / 432_000, abs=1e-4)


def test_a_partial_week_lists_the_shifts_unranked(conn):
    env = ok(conn, "get_group_comparison", {"window": PARTIAL_WEEK, "shift": None, "group_by": "shift"})
    assert env["ranked"] is False
    assert [r["shift"] for r in env["rows"]] == [1, 2, 3]
    assert all(r["rank"] is None for r in env["rows"])


def test_the_group_tool_is_offline_only_and_refuses_an_unknown_grouping(conn):
    assert "get_group_comparison" not in model_registry().names
    refused(conn, "get_group_comparison", {"window": WEEK_A, "shift": None, "group_by": "grade"})


def test_which_shift_was_best_this_week_is_a_comparison_with_labelled_ends(conn):
    answer = ask(conn, "which shift was best this week")
    assert answer["address"] == "/a?window=week&anchor=2026-09-16&measure=compare_groups&by=shift"
    assert answer["read_as"] == (
        "Read as: shifts compared on speed to target (best and worst), every shift, week of 2026-09-14 (Mon–Fri)"
    )
    body = text(answer)
    assert headline(answer).startswith("Shift 1 was the best shift of the window at **83.33 %**")
    assert "Shift 2, rank 3 of 3 (worst): **75.00 %** speed to target" in body
    assert "best first" in body


def test_worst_shift_on_a_partial_window_is_not_ranked_and_says_why(conn):
    answer = ask(conn, "worst shift this week", Scope(day=date(2026, 9, 21)))
    assert answer["status"] == "partial"
    body = text(answer)
    assert "The shifts are compared, not ranked: the window is partial" in body
    assert "rank 1" not in body and "(worst)" not in body


def test_which_crew_was_slowest_leads_with_the_slow_crew_and_names_the_others(conn):
    answer = ask(conn, "which crew was slowest this week")
    assert answer["address"] == "/a?window=week&anchor=2026-09-16&measure=compare_groups&by=crew"
    assert headline(answer).startswith("Crew B was the slowest crew of the window at **75.00 %**")
    body = text(answer)
    assert "Crew A, rank 1 of 3 (best)" in body and "Crew C, rank 2 of 3" in body
    assert [e["tool"] for e in answer["evidence"]] == ["get_group_comparison"]


def test_comparing_shifts_over_a_window_widens_a_selected_shift_to_every_shift():
    plan = route("which shift was best this week", Scope(day=DAY, shift=2, include="shift"))
    assert isinstance(plan, Plan)
    assert (plan.measure, plan.by, plan.shift, plan.include) == ("compare_groups", "shift", None, "day")


def test_a_crew_comparison_address_resolves_to_its_plan():
    plan = route("compare crews this month", ALL)
    assert isinstance(plan, Plan)
    assert parse_address(plan.address()) == plan


# --- "is X getting worse" is the trend of X -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "metric", "entity"),
    [
        ("are knife jams getting worse", "downtime_pct", ("reason", "Knife jam")),
        ("is splicer 1 getting worse", "downtime_pct", ("place", "Splicer 1")),
        ("is 275-BC speed getting worse", "speed_to_target", ("grade", "275-BC")),
        ("is trim getting worse", "trim_pct", None),
    ],
)
def test_getting_worse_routes_to_the_trend_of_the_thing_named(question, metric, entity):
    plan = route(question, ALL)
    assert isinstance(plan, Plan)
    assert (plan.measure, plan.metric) == ("trend", metric)
    if entity is not None:
        assert getattr(plan, entity[0]) == entity[1]


def test_the_trend_of_a_reason_counts_only_that_reason(conn):
    args = {
        "metric": "downtime_pct",
        "weeks": 2,
        "anchor": "2026-09-16",
        "shift": None,
        "reason": "Knife jam",
    }
    env = ok(conn, "get_trend", args)
    b, a = env["rows"]
    assert (b["week_start"], a["week_start"]) == ("2026-09-07", "2026-09-14")
    assert b["value"] == pytest.approx(100 * 250 / 7200, abs=1e-4)
    assert a["value"] == pytest.approx(100 * 150 / 7200, abs=1e-4)
    assert (b["stops"], b["stop_min"], a["stops"]) == (10, 250, 10)
    assert a["reason"] == "Knife jam"


def test_the_trend_of_a_place_and_of_a_grade(conn):
    place = ok(conn, "get_trend", {"metric": "downtime_pct", "weeks": 1, "anchor": "2026-09-16", "shift": None,
                                   "place": "Splicer 1"})  # fmt: skip
    assert place["rows"][0]["value"] == pytest.approx(100 * 25 / 7200, abs=1e-4)
    grade = ok(conn, "get_trend", {"metric": "speed_to_target", "weeks": 1, "anchor": "2026-09-16",
                                   "shift": None, "grade": "275-BC"})  # fmt: skip
    assert grade["rows"][0]["value"] == pytest.approx(70.0)


def test_a_trend_filter_outside_the_catalogue_or_its_metrics_is_refused(conn):
    base = {"weeks": 2, "anchor": "2026-09-16", "shift": None}
    refused(conn, "get_trend", {**base, "metric": "downtime_pct", "reason": "Gremlins"})
    assert "downtime metric" in refused(conn, "get_trend", {**base, "metric": "speed", "reason": "Knife jam"})
    assert "setup metric" in refused(conn, "get_trend", {**base, "metric": "downtime_pct", "grade": "26-C"})


def test_are_knife_jams_getting_worse_answers_with_the_jam_trend(conn):
    answer = ask(conn, "are knife jams getting worse")
    # The store holds two weeks: the eight weeks asked reach before its first day, so the trend says so
    # (docs/shifts-agent.md, "Reading": a trend reaching before the records is partial).
    assert answer["status"] == "partial"
    assert "Weeks with no day in the records: 6 of the 8 asked, from the week of 2026-07-27" in " ".join(
        s["text"] for s in answer["sections"]
    )
    assert [e["tool"] for e in answer["evidence"]] == ["get_trend"]
    assert "for downtime of reason Knife jam" in headline(answer)


# --- money for a named reason ---------------------------------------------------------------------------------


def test_what_did_knife_jams_cost_leads_with_that_reasons_cost(conn):
    answer = ask(conn, "what did knife jams cost us this week")
    assert answer["address"] == ("/a?window=week&anchor=2026-09-16&measure=named_cost&reason=Knife%20jam")
    assert answer["read_as"] == (
        "Read as: cost at the assumed rates, reason Knife jam, every shift, week of 2026-09-14 (Mon–Fri)"
    )
    head = headline(answer)
    # 150 min at $1,200 an hour is $3,000; a year of 250 production days from the 5 held is 50 × $3,000.
    assert head.startswith("Knife jam cost **$3,000.00** in ")
    assert (
        "150.0 min over 10 stops; $150,000.00 a year at that rate, scaled from 5 production days held" in head
    )
    assert "get_opportunities" not in [e["tool"] for e in answer["evidence"]]


# --- waste of one grade or one web width --------------------------------------------------------------------


def test_the_waste_of_one_web_width_reads_only_its_setups(conn):
    env = ok(conn, "get_waste_breakdown", {"window": WEEK_A, "shift": None, "width": "98"})
    trim = next(r for r in env["rows"] if r["item"] == "trim")
    # Only shift 1 runs the 98 in web: 58,800 sq ft of trim a day on 360,000 ft × 98 / 12 = 2,940,000 gross.
    assert trim["sqft"] == pytest.approx(5 * 58_800)
    assert trim["pct_of_gross"] == pytest.approx(2.0)
    assert trim["width_in"] == 98.0
    warp = next(r for r in env["rows"] if r["item"] == "warp")
    bond = next(r for r in env["rows"] if r["item"] == "bond")
    assert (warp["sqft"], bond["sqft"]) == (pytest.approx(5 * 1_000), 0.0)


def test_the_waste_of_one_grade_reads_only_its_setups(conn):
    env = ok(conn, "get_waste_breakdown", {"window": WEEK_A, "shift": None, "grade": "275-BC"})
    trim = next(r for r in env["rows"] if r["item"] == "trim")
    # 275-BC: 25,760 sq ft of trim on 84,000 ft × 92 / 12 = 644,000 gross a day; its bond rejects 2,000.
    assert trim["pct_of_gross"] == pytest.approx(4.0)
    assert next(r for r in env["rows"] if r["item"] == "bond")["sqft"] == pytest.approx(5 * 2_000)
    refused(conn, "get_waste_breakdown", {"window": WEEK_A, "shift": None, "width": "100"})


def test_trim_on_98_inch_is_applied_not_named_as_not_applied(conn):
    answer = ask(conn, "trim on 98 inch this week")
    assert answer["status"] == "complete"
    assert answer["address"] == "/a?window=week&anchor=2026-09-16&measure=waste&width=98"
    assert headline(answer).startswith("Side trim on the 98 in web was **2.00 %** of gross")
    assert "Not applied" not in text(answer)


def test_the_splicer_without_its_number_is_every_splicer(conn):
    plan = route("is the splicer getting worse", ALL)
    assert isinstance(plan, Plan)
    assert (plan.measure, plan.metric, plan.place) == ("trend", "downtime_pct", "Splicers")
    env = ok(conn, "get_trend", {"metric": "downtime_pct", "weeks": 1, "anchor": "2026-09-16", "shift": None,
                                 "place": "Splicers"})  # fmt: skip
    # Splicer 1 is the fixture's only splicer: 5 min a day; the knife jams at the upper knife are not counted.
    assert env["rows"][0]["value"] == pytest.approx(100 * 25 / 7200, abs=1e-4)
    assert env["rows"][0]["stops"] == 5


def test_a_named_places_cost_groups_by_place_from_its_address_alone(conn):
    answer = ask(conn, "what did the upper knife cost us this week")
    assert answer["address"] == "/a?window=week&anchor=2026-09-16&measure=named_cost&place=Upper%20knife"
    assert answer["evidence"][0]["group_by"] == "place"
    assert headline(answer).startswith("Upper knife cost **$")
    assert "Not applied" not in " ".join(s["text"] for s in answer["sections"])
