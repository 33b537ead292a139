"""Period, money and chart tools against numbers worked out by hand from the fixture (conftest.py).

Per day, all shifts: lineal 954,000 ft (360,000 + 234,000 + 360,000), 1,440 scheduled minutes; maintenance
30 min in week A (10 + 20) and 50 min in week B (10 + 40); operator 5; PM 30; external 15.
"""

from datetime import date

import pytest

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.tools import schema_problems
from shopfloor.shifts import Scope
from shopfloor.shifts.catalog import full_registry, model_registry
from shopfloor.shifts.tools.context import RunContext

DAY = date(2026, 9, 16)
REG = full_registry()
WEEK = {"period": "week", "anchor": "2026-09-16"}


def run(conn, name, args, scope=None, ctx=None):
    ctx = ctx or RunContext(conn, scope or Scope(day=DAY))
    result = dispatch(REG, ctx, ToolCall("c1", name, args))
    return result, ctx


def ok(conn, name, args, scope=None, ctx=None):
    result, _ = run(conn, name, args, scope, ctx)
    assert not result.is_error, result.content
    return result.content


def rows_by(rows, key):
    return {r[key]: r for r in rows}


def test_catalogs():
    assert all(schema_problems(t.parameters) == [] for t in REG)
    assert "get_day_dollars" in REG.names and "get_day_dollars" not in model_registry().names


def test_period_kpis_with_deltas(conn):
    env = ok(conn, "get_period_kpis", {"window": WEEK, "compare": True, "shift": None})
    k = rows_by(env["rows"], "measure")
    assert env["window"]["start"] == "2026-09-14" and env["previous_window"]["start"] == "2026-09-07"
    assert env["coverage"]["status"] == "complete" and env["deltas_withheld"] is False
    assert k["lineal_ft"]["current"] == 4_770_000 and k["lineal_ft"]["change"] == "unchanged"
    assert k["shift_fpm"]["current"] == 662.5  # 4,770,000 / 7,200
    assert k["maintenance_pct"]["current"] == pytest.approx(2.0833, abs=1e-3)  # 150 / 7,200
    assert k["maintenance_pct"]["previous"] == pytest.approx(3.4722, abs=1e-3)  # 250 / 7,200
    assert k["maintenance_pct"]["delta"] == pytest.approx(-1.3889, abs=1e-3)
    assert k["maintenance_pct"]["change"] == "better"


def test_period_kpis_partial_withholds_deltas(conn):
    env = ok(
        conn,
        "get_period_kpis",
        {"window": {"period": "week", "anchor": "2026-09-21"}, "compare": True, "shift": None},
    )
    assert env["coverage"]["status"] == "partial"
    assert env["coverage"]["incomplete_days"] == ["2026-09-21"]
    assert len(env["coverage"]["missing_days"]) == 4
    assert env["deltas_withheld"] is True
    assert all(r["delta"] is None for r in env["rows"])


def test_compare_periods_month_vs_fiscal_flags_unequal_days(conn):
    env = ok(
        conn,
        "compare_periods",
        {
            "current_window": {"period": "week", "anchor": "2026-09-14"},
            "previous_window": {"period": "month", "anchor": "2026-08-03"},
            "shift": 2,
        },
    )
    assert env["unequal_production_days"] is True  # 5 days vs 21 days in August 2026
    assert env["deltas_withheld"] is True  # August holds no records


def test_downtime_pareto(conn):
    env = ok(
        conn,
        "get_downtime_pareto",
        {"window": WEEK, "group_by": "reason", "measure": "minutes", "shift": None},
    )
    got = [(r["key"], r["minutes"], r["share"], r["cum_share"], r["previous_minutes"]) for r in env["rows"]]
    assert got == [
        ("Knife jam", 150, pytest.approx(0.8571, abs=1e-4), pytest.approx(0.8571, abs=1e-4), 250),
        ("Missed splice", 25, pytest.approx(0.1429, abs=1e-4), 1.0, 25),
        ("Power outage", 75, None, None, 75),
        ("Scheduled maintenance", 150, None, None, 150),
    ]
    assert env["rows"][0]["usd"] == 3000 and env["rows"][0]["usd_per_year"] == 150_000
    counted = ok(
        conn, "get_downtime_pareto", {"window": WEEK, "group_by": "place", "measure": "count", "shift": None}
    )
    assert [(r["key"], r["stops"]) for r in counted["rows"][:2]] == [("Upper knife", 10), ("Splicer 1", 5)]


def test_waste_breakdown_shift2(conn):
    env = ok(conn, "get_waste_breakdown", {"window": WEEK, "shift": 2})
    w = rows_by(env["rows"], "item")
    assert w["trim"]["sqft"] == 237_550 and w["trim"]["pct_of_gross"] == pytest.approx(2.7439, abs=1e-3)
    assert w["bond"]["sqft"] == 10_000
    assert w["bond"]["pct_of_gross"] == pytest.approx(0.1155, abs=1e-3)
    assert w["bond"]["pct_of_yield"] == pytest.approx(0.11878, abs=1e-4)
    assert w["bond"]["usd"] == 500 and w["bond"]["usd_per_year"] == 25_000
    assert w["warp"]["sqft"] == 0
    assert w["unexplained"]["sqft"] is None
    assert env["details"][0]["reason"] == "Bond - paper/raw-material issue"
    assert env["details"][0]["share_of_dry_end"] == 1.0


def test_trend_weeks_with_partial_last_week(conn):
    env = ok(conn, "get_trend", {"metric": "maintenance_pct", "weeks": 3, "anchor": "2026-09-21", "shift": 2})
    got = [(r["week_start"], r["value"], r["coverage"]) for r in env["rows"]]
    assert got == [
        ("2026-09-07", pytest.approx(8.3333, abs=1e-3), "complete"),  # 40 / 480
        ("2026-09-14", pytest.approx(4.1667, abs=1e-3), "complete"),  # 20 / 480
        ("2026-09-21", pytest.approx(4.1667, abs=1e-3), "partial"),
    ]
    env = ok(conn, "get_trend", {"metric": "speed_to_target", "weeks": 1, "anchor": "2026-09-16", "shift": 2})
    assert env["rows"][0]["value"] == pytest.approx(75.0)


def test_grade_totals(conn):
    env = ok(conn, "get_grade_totals", {"window": WEEK, "shift": None, "measure": "volume"})
    g = rows_by(env["rows"], "grade")
    assert [r["grade"] for r in env["rows"]] == ["26-C", "32-C", "200-C", "275-BC"]
    assert g["26-C"]["volume_msf"] == 14_700  # 2,940,000 x 5 / 1,000
    assert g["26-C"]["share"] == pytest.approx(0.39088, abs=1e-4)  # 14,700 / 37,607.5
    assert g["275-BC"]["pct_of_target"] == 70
    assert g["275-BC"]["running_fpm"] == pytest.approx(381.8182, abs=1e-3)
    assert g["275-BC"]["previous_volume_msf"] == 3_220


def test_stops_profile(conn):
    env = ok(conn, "get_stops_profile", {"window": WEEK, "shift": None})
    first = env["rows"][0]
    assert (first["day"], first["stops"], first["minutes"]) == ("2026-09-14", 3, 35)
    mon = env["weekday_profile"][0]
    assert (mon["weekday"], mon["days"], mon["stops_per_day"]) == ("Mon", 1, 3)


def test_shift_dollars(conn):
    env = ok(conn, "get_shift_dollars", {"shift": 2})
    got = [(r["item"], r["usd"], r["rank"], r["class"]) for r in env["rows"]]
    assert got == [
        ("side trim", 2375.5, 1, "controllable"),
        ("speed gap to 675 ft/min", 1666.67, 2, "controllable"),  # (675 x 430 - 234,000) / 675 min
        ("Knife jam", 400, 3, "controllable"),
        ("dry-end bond", 100, 4, "controllable"),
        ("shear", 12.68, 5, "controllable"),
        ("Scheduled maintenance", 600, None, "schedule-driven"),
    ]
    assert env["recorded_losses_usd"] == pytest.approx(4554.85)
    assert env["all_in_usd"] == pytest.approx(5154.85)
    assert env["recorded_losses_per_year_usd"] == pytest.approx(1_138_712.5)
    assert env["rows"][0]["contribution"] is None and env["contribution_status"] == "margin not set"


def test_day_dollars(conn):
    env = ok(conn, "get_day_dollars", {"shifts": None})
    items = rows_by(env["rows"], "item")
    assert items["speed gap to 675 ft/min"]["usd"] == 0  # 954,000 ft beat 675 x 1,360 min
    assert items["Knife jam"]["usd"] == 600 and items["Power outage"]["rank"] is None
    assert env["recorded_losses_usd"] == pytest.approx(9048.79)
    env = ok(conn, "get_day_dollars", {"shifts": None}, Scope(day=date(2026, 9, 21)))
    assert env["excluded_shifts"] == [2] and env["shifts"] == [1, 3]


def test_money_scope_refusals(conn):
    scope = Scope(day=DAY, shift=2, include="shift")
    assert run(conn, "get_day_dollars", {"shifts": [1, 2]}, scope)[0].is_error
    assert run(conn, "get_day_dollars", {"shifts": None}, scope)[0].is_error
    assert not run(conn, "get_day_dollars", {"shifts": [2]}, scope)[0].is_error
    assert run(conn, "get_shift_dollars", {"shift": 3}, scope)[0].is_error


def test_period_shift_scope(conn):
    scope = Scope(day=DAY, shift=2, include="shift")
    env = ok(conn, "get_period_kpis", {"window": WEEK, "compare": False, "shift": None}, scope)
    assert env["shift"] == 2  # null is held to the selected shift
    result, _ = run(
        conn,
        "get_downtime_pareto",
        {"window": WEEK, "group_by": "reason", "measure": "minutes", "shift": 1},
        scope,
    )
    assert result.is_error and "outside the selected scope" in result.content


@pytest.mark.parametrize(
    ("name", "args"),
    [
        (
            "get_downtime_pareto",
            {"window": WEEK, "group_by": "reason) UNION SELECT 1 --", "measure": "minutes", "shift": None},
        ),
        ("get_trend", {"metric": "1; DROP TABLE setups", "weeks": 4, "anchor": "2026-09-16", "shift": None}),
        ("get_trend", {"metric": "speed", "weeks": 40, "anchor": "2026-09-16", "shift": None}),
        (
            "get_period_kpis",
            {"window": {"period": "year", "anchor": "2026-09-16"}, "compare": True, "shift": None},
        ),
        (
            "get_period_kpis",
            {"window": {"period": "week", "anchor": "2026-09-16' OR 1=1"}, "compare": True, "shift": None},
        ),
        ("get_grade_totals", {"window": WEEK, "shift": None, "measure": "volume", "order_by": "grade"}),
    ],
)
def test_period_injection_refused(conn, name, args):
    result, ctx = run(conn, name, args)
    assert result.is_error and ctx.results == {}


def test_render_chart_copies_rows_and_refuses_foreign_ids(conn):
    ctx = RunContext(conn, Scope(day=DAY))
    env = ok(
        conn,
        "get_downtime_pareto",
        {"window": WEEK, "group_by": "reason", "measure": "minutes", "shift": None},
        ctx=ctx,
    )
    chart = ok(
        conn,
        "render_chart",
        {
            "result_id": env["result_id"],
            "component": None,
            "kind": "bar",
            "x": "key",
            "y": "minutes",
            "title": "Downtime",
        },
        ctx=ctx,
    )
    assert [(p["x"], p["y"]) for p in chart["points"]] == [(r["key"], r["minutes"]) for r in env["rows"]]
    other = RunContext(conn, Scope(day=DAY))
    assert run(
        conn,
        "render_chart",
        {
            "result_id": env["result_id"],
            "component": None,
            "kind": "bar",
            "x": "key",
            "y": "minutes",
            "title": "x",
        },
        ctx=other,
    )[0].is_error
    bad_col = {
        "result_id": env["result_id"],
        "component": None,
        "kind": "bar",
        "x": "key",
        "y": "minutes) --",
        "title": "x",
    }
    assert run(conn, "render_chart", bad_col, ctx=ctx)[0].is_error


# --- the lever, material and speed tools (hand numbers in each test) -------------------------------------


def test_downtime_review(conn):
    env = ok(conn, "get_downtime_review", {"window": WEEK, "shift": None})
    got = [(r["reason"], r["pct_of_scheduled"], r["class"]) for r in env["rows"]]
    assert got == [
        ("Knife jam", pytest.approx(2.0833, abs=1e-3), "controllable"),  # 150 / 7,200
        ("Missed splice", pytest.approx(0.3472, abs=1e-3), "controllable"),  # 25 / 7,200
        ("Power outage", pytest.approx(1.0417, abs=1e-3), "external"),  # external apart, after
        ("Scheduled maintenance", pytest.approx(2.0833, abs=1e-3), "schedule-driven"),  # PM last
    ]
    assert env["maintenance_pct"] == pytest.approx(2.0833, abs=1e-3)
    (flag,) = env["flags"]  # shift 2: 100 / 2,400 = 4.17 % over 2.5 %; shift 1: 50 / 2,400 = 2.08 %
    assert (flag["shift"], flag["supervisor_slot"], flag["leading_reason"]) == (2, "slot-2", "Knife jam")
    assert flag["pct_of_scheduled"] == pytest.approx(4.1667, abs=1e-3)
    assert flag["recurrence_days_trailing_year"] == 10  # Sep 7-11 and 14-18


def test_overrun(conn):
    env = ok(conn, "get_overrun", {"window": WEEK, "shift": None})
    rows = {r["knife"]: r for r in env["rows"]}
    assert [r["knife"] for r in env["rows"]] == ["upper", "lower", "all knives"]
    assert rows["upper"]["open"] == 5 and rows["upper"]["closed_lines"] == 0  # 8,000 sheets remaining
    assert rows["lower"]["inside"] == 5 and rows["lower"]["over"] == 0
    assert rows["lower"]["pct_of_nominal"] == pytest.approx(101.2658, abs=1e-3)  # 24,000 / 23,700 cuts
    assert rows["all knives"]["share_inside"] == 1.0 and rows["all knives"]["lines"] == 10


def test_rollstock(conn):
    env = ok(conn, "get_rollstock", {"window": WEEK, "shift": None})
    r = rows_by(env["rows"], "grade")["26-C"]
    assert (r["runs"], r["lineal_ft"], r["msf"]) == (5, 1_800_000, 14_700)  # 1,800,000 x 98 / 12 / 1,000
    assert r["delta_lineal_ft"] == 0 and r["previous_runs"] == 5
    env = ok(conn, "get_rollstock", {"window": WEEK, "shift": 2})
    assert [(r["grade"], r["lineal_ft"]) for r in env["rows"]] == [("200-C", 750_000), ("275-BC", 420_000)]


def test_speed_opportunity(conn):
    env = ok(conn, "get_speed_opportunity", {"window": WEEK, "shift": 1, "slice_by": "width"})
    (row,) = env["rows"]
    # Five setups at 90,000 / 110 = 818.18 and five at 270,000 / 355 = 760.56 ft/min.
    assert row["typical_fpm"] == pytest.approx((818.1818 + 760.5634) / 2, abs=1e-3)
    assert row["best_fifth_fpm"] == pytest.approx(818.1818, abs=1e-3)
    # The rest would save 5 x 355 - 1,350,000 / 818.18 = 125 min = 2.083 h, priced at $20 a minute.
    assert row["opportunity_hours"] == pytest.approx(2.0833, abs=1e-3)
    assert row["usd"] == pytest.approx(2500, abs=0.5)


def test_speed_variance_buckets_add_up(conn):
    env = ok(
        conn, "get_speed_variance", {"window": WEEK, "shift": 2, "against": "baseline", "against_shift": None}
    )
    # Reference = week B's grade baselines weighted by their running minutes: 4,770,000 / 6,700 ft/min.
    assert env["reference_fpm"] == pytest.approx(711.9403, abs=1e-3)
    assert env["shift_fpm"] == 487.5  # 1,170,000 / 2,400
    b = rows_by(env["rows"], "bucket")
    assert b["stops"]["fpm"] == pytest.approx(29.6642, abs=1e-3)  # 100 min x reference / 2,400
    assert b["planned maintenance"]["fpm"] == pytest.approx(44.4963, abs=1e-3)
    assert b["running under baseline"]["lineal_ft"] == pytest.approx(
        42_000, abs=1
    )  # 275-BC: 420 x 1,100 - 420,000
    assert b["grade mix"]["fpm"] == pytest.approx(132.7798, abs=1e-2)
    assert sum(r["fpm"] for r in env["rows"]) == pytest.approx(env["variance_fpm"], abs=1e-3)
    assert b["grade mix"]["usd"] is None and b["planned maintenance"]["usd"] is None
    scope = Scope(day=DAY, shift=2, include="shift")
    args = {"window": WEEK, "shift": 2, "against": "shift", "against_shift": 1}
    assert run(conn, "get_speed_variance", args, scope)[0].is_error


def test_opportunities(conn):
    env = ok(conn, "get_opportunities", {"window": WEEK, "shift": None, "lens": "all"})
    got = [(r["item"], r["usd_per_year"], r["rank"]) for r in env["rows"]]
    assert got == [
        ("Knife jam", 150_000, 1),
        ("run speed under its grade's trailing-year speed", 100_000, 2),  # W002: 5 x (220 - 84,000 / 420) min
        ("trim over the 3.25 % flag", 60_375, 3),  # 5 x (25,760 - 3.25 % x 644,000) sq ft
        ("Missed splice", 25_000, 4),
        ("dry-end bond", 25_000, 5),
        ("dry-end warp", 12_500, 6),
        ("shear", pytest.approx(8_323, abs=1), 7),
        ("Scheduled maintenance", 150_000, None),
        ("Power outage", 75_000, None),
    ]
    assert env["levers_usd_per_year"] == pytest.approx(381_198, abs=1)
    own = ok(conn, "get_opportunities", {"window": WEEK, "shift": None, "lens": "ownership"})
    assert [r["item"] for r in own["rows"][:2]] == ["side trim (all)", "tag scrap (dry-end, all kinds)"]
