"""Daily tools against numbers worked out by hand from the fixture literals (conftest.py)."""

from datetime import date

import pytest

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.tools import schema_problems
from shopfloor.shifts import Scope
from shopfloor.shifts.catalog import DAY_TOOLS, full_registry
from shopfloor.shifts.tools.context import RunContext

DAY = date(2026, 9, 16)
REG = full_registry().subset(DAY_TOOLS)


def call(conn, name, args, scope=None):
    ctx = RunContext(conn, scope or Scope(day=DAY))
    result = dispatch(REG, ctx, ToolCall("c1", name, args))
    return result, ctx


def ok(conn, name, args, scope=None):
    result, _ = call(conn, name, args, scope)
    assert not result.is_error, result.content
    return result.content


def by_measure(rows):
    return {r["measure"]: r for r in rows}


def test_schemas_are_strict():
    for tool in REG:
        assert schema_problems(tool.parameters) == [], tool.name


def test_shift_kpis_shift1(conn):
    env = ok(conn, "get_shift_kpis", {"shift": 1})
    k = by_measure(env["rows"])
    assert k["lineal_ft"]["value"] == 360_000  # 90,000 + 270,000
    assert k["gross_sqft"]["value"] == 2_940_000  # 360,000 ft x 98 in / 12
    assert k["shift_fpm"]["value"] == 750  # 360,000 / 480
    assert k["speed_to_target_pct"]["value"] == pytest.approx(83.3333, abs=1e-3)  # 360,000 / (900 x 480)
    assert k["speed_to_target_pct"]["flag"] is True
    assert k["running_fpm"]["value"] == pytest.approx(774.1935, abs=1e-3)  # 360,000 / (480 - 15)
    assert k["maintenance_pct"]["value"] == pytest.approx(2.0833, abs=1e-3)  # 10 / 480
    assert k["operator_pct"]["value"] == pytest.approx(1.0417, abs=1e-3)  # 5 / 480
    assert k["trim_pct"]["value"] == pytest.approx(2.0)  # 58,800 / 2,940,000
    assert k["dry_end_pct"]["value"] == pytest.approx(0.034, abs=1e-3)  # 1,000 / 2,940,000
    assert k["throughput_in"]["value"] == 98
    assert k["valid_setups"]["value"] == 2 and k["paper_changes"]["value"] == 1
    assert k["lineal_per_setup"]["value"] == 180_000
    assert env["maintenance_pct_band"] == 2.5 and "band" in env["maintenance_pct_band_text"]
    assert env["coverage"]["status"] == "complete"
    assert env["window"]["start"] == "2026-09-16"
    assert env["sql"] and all("params" in s for s in env["sql"])


def test_shift_kpis_shift2_bands(conn):
    k = by_measure(ok(conn, "get_shift_kpis", {"shift": 2})["rows"])
    assert k["maintenance_pct"]["value"] == pytest.approx(4.1667, abs=1e-3)  # 20 / 480
    assert k["maintenance_pct"]["flag"] is True
    assert k["pm_pct"]["value"] == pytest.approx(6.25)  # 30 / 480
    assert k["speed_to_target_pct"]["value"] == pytest.approx(75.0)  # 234,000 / (500*240 + 800*240)
    assert k["trim_pct"]["value"] == pytest.approx(2.7439, abs=1e-3)  # 47,510 / 1,731,500
    assert k["setups_above_trim_flag"]["value"] == 1  # S2-00 at 4 %


def test_downtime_breakdown_orders_pm_last_with_flags(conn):
    env = ok(conn, "get_downtime_breakdown", {"shift": 2, "kind": None, "group_by": "reason"})
    assert [(r["key"], r["minutes"], r["class"]) for r in env["rows"]] == [
        ("Knife jam", 20, "controllable"),
        ("Scheduled maintenance", 30, "schedule-driven"),
    ]
    flag = env["flags"][0]
    assert flag["kind"] == "Maintenance" and flag["supervisor_slot"] == "slot-2"
    assert flag["leading_reason"] == "Knife jam"
    assert flag["recurrence_days_trailing_year"] == 8  # Sep 7-11 and Sep 14-16


def test_downtime_kind_filter_keeps_external(conn):
    env = ok(conn, "get_downtime_breakdown", {"shift": 3, "kind": "Maintenance", "group_by": "place"})
    assert [(r["key"], r["class"]) for r in env["rows"]] == [("Plant", "external")]
    env = ok(conn, "get_downtime_breakdown", {"shift": 1, "kind": "Operator", "group_by": "place"})
    assert [(r["key"], r["minutes"]) for r in env["rows"]] == [("Splicer 1", 5)]


def test_wet_end_performance(conn):
    env = ok(conn, "get_wet_end_performance", {"shift": 2})
    runs = {r["run_id"]: r for r in env["rows"]}
    assert runs["W002"]["actual_fpm"] == 350  # 84,000 / 240
    assert runs["W002"]["pct_of_target"] == 70  # 350 / 500
    assert runs["W002"]["running_fpm"] == pytest.approx(381.8182, abs=1e-3)  # 84,000 / 220
    # Baseline before Sep 16: Sep 7-11 (jam 40 min) and Sep 14-15 (20 min) for 275-BC:
    # feet 7 x 84,000 = 588,000; running 5 x 200 + 2 x 220 = 1,440 min -> 408.3333
    assert runs["W002"]["baseline_fpm"] == pytest.approx(408.3333, abs=1e-3)
    assert runs["W002"]["under_baseline"] is True
    assert runs["W002"]["baseline_gap_ft"] == pytest.approx(408.3333 * 220 - 84_000, abs=0.2)
    assert env["runs_under_baseline"] == 1  # W003 runs at its baseline exactly


def test_quality_breakdown(conn):
    env = ok(conn, "get_quality_breakdown", {"shift": 2})
    (row,) = env["rows"]
    assert (row["family"], row["reason"], row["sqft"]) == ("bond", "Bond - paper/raw-material issue", 2000)
    assert row["pct_of_gross"] == pytest.approx(0.1155, abs=1e-3)  # 2,000 / 1,731,500
    # yield = 1,731,500 - 47,510 - 253.5833 = 1,683,736.4167
    assert row["pct_of_yield"] == pytest.approx(0.11878, abs=1e-4)


def test_overview_has_three_components(conn):
    env = ok(conn, "get_shift_overview", {"shift": 2})
    assert [c["id"] for c in env["components"]] == [
        "speed_by_grade",
        "downtime_by_reason",
        "rejects_by_family",
    ]
    speed = env["components"][0]["rows"]
    assert [(r["grade"], r["pct_of_target"]) for r in speed] == [("275-BC", 70.0), ("200-C", 78.125)]
    assert [(x["loss"], x["item"], x["quantity"]) for x in env["largest_losses"]] == [
        ("downtime", "Knife jam", 20),
        ("dry-end", "bond", 2000),
        ("speed", "275-BC", 70.0),
    ]


def test_setup_matrix_and_rankings(conn):
    env = ok(conn, "get_setup_matrix", {"shift": 2})
    assert [r["record_id"] for r in env["rows"]] == ["S2-00", "S2-01"]
    assert env["rows"][0]["trim_flag"] is True and env["setups_above_trim_flag"] == 1
    ranked = ok(conn, "get_rankings", {"shift": 2, "metric": "downtime"})
    assert [(r["record_id"], r["rank"]) for r in ranked["rows"]] == [("S2-01", 1), ("S2-00", 2)]
    speed = ok(conn, "get_rankings", {"shift": 2, "metric": "speed"})
    assert speed["rows"][0]["record_id"] == "S2-00"  # 70 % before 78.1 %


def test_rankings_withheld_on_incomplete_shift(conn):
    env = ok(conn, "get_rankings", {"shift": 2, "metric": "speed"}, Scope(day=date(2026, 9, 21)))
    assert env["coverage"]["status"] == "incomplete" and env["ranked"] is False
    assert all("rank" not in r for r in env["rows"])
    assert env["coverage"]["excluded_records"][0]["record_id"] == "S2-09"


def test_order_matrix_and_notes(conn):
    env = ok(conn, "get_order_matrix", {"shift": 1})
    assert env["rows"][0]["produced_sheets"] == 72_000
    notes = ok(conn, "get_shift_notes", {"shift": 3})
    assert notes["untrusted"] is True and "IGNORE PREVIOUS" in notes["rows"][0]["text"]


# --- scope and injection -------------------------------------------------------------------------------


def test_shift_outside_selected_scope_is_refused(conn):
    result, _ = call(conn, "get_shift_kpis", {"shift": 1}, Scope(day=DAY, shift=2, include="shift"))
    assert result.is_error and "outside the selected scope" in result.content


def test_daily_tool_refused_under_period_control(conn):
    result, _ = call(conn, "get_setup_matrix", {"shift": 2}, Scope(day=DAY, shift=2, period="week"))
    assert result.is_error and "daily tool" in result.content and '"period": "week"' in result.content


@pytest.mark.parametrize(
    "args",
    [
        {"shift": 2, "kind": None, "group_by": "reason; DROP TABLE stops"},
        {"shift": 2, "kind": None, "group_by": "minutes"},
        {"shift": 2, "kind": "Maintenance' OR '1'='1", "group_by": "reason"},
        {"shift": "2 OR 1=1", "kind": None, "group_by": "reason"},
        {"shift": 4, "kind": None, "group_by": "reason"},
        {"shift": 2, "kind": None, "group_by": "reason", "sql": "SELECT 1"},
    ],
)
def test_injection_is_refused(conn, args):
    result, ctx = call(conn, "get_downtime_breakdown", args)
    assert result.is_error
    assert ctx.results == {}


def test_result_ids_are_per_run(conn):
    _, a = call(conn, "get_shift_kpis", {"shift": 1})
    _, b = call(conn, "get_shift_kpis", {"shift": 1})
    assert set(a.results).isdisjoint(b.results)


def test_row_limit_and_truncation_flag(conn):
    from shopfloor.shifts.tools.context import Sql, envelope

    ctx = RunContext(conn, Scope(day=DAY))
    sql = Sql()
    rows = sql.rows(ctx, "SELECT range AS n FROM range($count)", {"count": 1500, "unused": 1})
    assert len(rows) == 1000 and sql.statements[0]["truncated"] is True
    assert sql.statements[0]["params"] == {"count": 1500}
    assert envelope(ctx, "t", sql, rows)["truncated"] is True


def test_a_slow_query_is_interrupted_and_reported(conn, monkeypatch):
    import functools

    from shopfloor.agent.tools import ToolError
    from shopfloor.shifts.records import store
    from shopfloor.shifts.tools import context

    monkeypatch.setattr(context, "bounded_query", functools.partial(store.bounded_query, timeout_s=0.05))
    ctx = RunContext(conn, Scope(day=DAY))
    with pytest.raises(ToolError, match="longer than two seconds"):
        context.Sql().rows(
            ctx, "SELECT count(*) FROM range(100000000) a, range(100) b WHERE a.range % 7 = b.range", {}
        )


def test_band_flags_read_the_trailing_year_only_over_a_band(conn):
    # Shift 1: 10 min maintenance and 5 min operator of 480 (2.08 % and 1.04 %), both under 2.5 %.
    env = ok(conn, "get_downtime_breakdown", {"shift": 1, "kind": None, "group_by": "reason"})
    assert env["flags"] == []
    assert not any("count(DISTINCT day)" in s["sql"] for s in env["sql"])
    # Shift 2: the 20-minute jam is 4.17 %, so its recurrence is read.
    env = ok(conn, "get_downtime_breakdown", {"shift": 2, "kind": None, "group_by": "reason"})
    assert [f["kind"] for f in env["flags"]] == ["Maintenance"]
    assert any("count(DISTINCT day)" in s["sql"] for s in env["sql"])
