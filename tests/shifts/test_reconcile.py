"""Reconciliation audit over the generated days: the records agree with the physics and with each other.

Every expected value is recomputed here from the raw columns (knife cuts and lengths, outs and widths),
not taken from the code that wrote or loaded them.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from datetime import datetime, timedelta

import pytest


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=0.01)


def rows(year, sql, *params):
    cur = year.conn.execute(sql, list(params))
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def test_audit_covers_at_least_thirty_days(year):
    assert len(year.days) >= 30
    assert year.conn.execute("SELECT count(*) FROM days").fetchone()[0] == len(year.days)


def test_footage_is_knife_travel_plus_shear(year):
    knives = defaultdict(list)
    for k in rows(year, "SELECT day, record_id, cuts, length_in FROM knives"):
        knives[(k["day"], k["record_id"])].append(k["cuts"] * k["length_in"] / 12)
    setups = rows(year, "SELECT day, record_id, gross_feet, net_feet, shear_feet, continued FROM setups")
    assert len(setups) > 5000
    for s in setups:
        travels = knives[(s["day"], s["record_id"])]
        assert travels and all(close(t, travels[0]) for t in travels), s
        assert close(s["gross_feet"], travels[0] + s["shear_feet"]), s
        assert s["shear_feet"] == (0 if s["continued"] else 17), s


def test_areas_reconcile(year):
    occupied = defaultdict(float)
    for k in rows(year, "SELECT day, record_id, outs, width_in FROM knives"):
        occupied[(k["day"], k["record_id"])] += k["outs"] * k["width_in"]
    rejects = defaultdict(float)
    for r in rows(year, "SELECT day, record_id, sheets, width_in, length_in, sqft FROM rejects"):
        assert close(r["sqft"], r["sheets"] * r["width_in"] * r["length_in"] / 144)
        rejects[(r["day"], r["record_id"])] += r["sqft"]
    for s in rows(year, "SELECT * FROM setups"):
        key = (s["day"], s["record_id"])
        w = s["width_in"]
        assert w in (98, 95, 92, 87)
        assert close(s["gross_sqft"], s["gross_feet"] * w / 12)
        assert close(s["shear_sqft"], s["shear_feet"] * w / 12)
        assert close(s["trim_sqft"], s["net_feet"] * (w - occupied[key]) / 12)
        assert close(s["reject_sqft"], rejects[key])
        assert s["trim_sqft"] + s["shear_sqft"] + s["reject_sqft"] < s["gross_sqft"]
        assert 0 < occupied[key] <= w


def test_order_ledger_reconciles_across_shifts(year):
    fragments = defaultdict(list)
    for k in rows(
        year,
        "SELECT k.*, s.started FROM knives k JOIN setups s USING (day, record_id) "
        "WHERE k.day NOT IN (SELECT day FROM excluded_records) ORDER BY s.started",
    ):
        fragments[(k["day"], k["order_id"])].append(k)
    crossing = 0
    for frags in fragments.values():
        first = frags[0]
        assert first["remaining_before"] == first["planned_sheets"]
        assert first["planned_sheets"] >= first["requested_sheets"] > 0
        for prev, nxt in itertools.pairwise(frags):
            assert nxt["remaining_before"] == prev["remaining_after"]
            assert (nxt["requested_sheets"], nxt["planned_sheets"]) == (
                prev["requested_sheets"],
                prev["planned_sheets"],
            )
            crossing += nxt["shift"] != prev["shift"]
        for f in frags:
            assert f["produced_sheets"] == f["cuts"] * f["outs"]
            assert f["remaining_after"] == f["remaining_before"] - f["produced_sheets"] >= 0
        produced = sum(f["produced_sheets"] for f in frags)
        assert produced == first["planned_sheets"] - frags[-1]["remaining_after"]
    assert crossing > 20  # orders really do continue across shift boundaries


def test_setups_partition_every_complete_shift(year):
    by_shift = defaultdict(list)
    for s in rows(year, "SELECT day, shift, started, ended FROM setups ORDER BY started"):
        by_shift[(s["day"], s["shift"])].append(s)
    shifts = rows(year, "SELECT * FROM shifts WHERE coverage = 'complete'")
    assert len(shifts) >= 3 * len(year.days) - len(year.plan.corrupt_days)
    for sh in shifts:
        start = datetime.combine(sh["day"], datetime.min.time()) + timedelta(hours=7 + 8 * (sh["shift"] - 1))
        assert (sh["started"], sh["ended"]) == (start, start + timedelta(minutes=480))
        cursor = start
        for s in by_shift[(sh["day"], sh["shift"])]:
            assert s["started"] == cursor
            cursor = s["ended"]
        assert cursor == sh["ended"]


def test_stops_never_overlap_and_allocations_add_up(year):
    by_shift = defaultdict(list)
    for s in rows(year, "SELECT * FROM stops ORDER BY started"):
        by_shift[(s["day"], s["shift"])].append(s)
    windows = {(r["day"], r["shift"]): r for r in rows(year, "SELECT * FROM shifts")}
    for key, stops in by_shift.items():
        for prev, nxt in itertools.pairwise(stops):
            assert nxt["started"] >= prev["ended"]
        for s in stops:
            assert windows[key]["started"] <= s["started"] < s["ended"] <= windows[key]["ended"]
    allocated = {
        (r["day"], r["stop_id"]): r["m"]
        for r in rows(year, "SELECT day, stop_id, sum(minutes) AS m FROM stop_allocations GROUP BY ALL")
    }
    complete = {
        (r["day"], r["shift"])
        for r in rows(year, "SELECT day, shift FROM shifts WHERE coverage = 'complete'")
    }
    for key, stops in by_shift.items():
        if key in complete:
            for s in stops:
                assert close(allocated[(s["day"], s["stop_id"])], s["minutes"])
    straddling = year.conn.execute(
        "SELECT count(*) FROM (SELECT day, stop_id FROM stop_allocations GROUP BY ALL HAVING count(*) > 1)"
    ).fetchone()[0]
    assert straddling > 0


def test_clean_days_have_no_excluded_records(year):
    excluded_days = {r["day"] for r in rows(year, "SELECT DISTINCT day FROM excluded_records")}
    assert excluded_days == set(year.plan.corrupt_days)
    incomplete = rows(year, "SELECT day, shift FROM shifts WHERE coverage = 'incomplete'")
    assert {(r["day"], r["shift"]) for r in incomplete} == {(d, 2) for d in year.plan.corrupt_days}


@pytest.mark.parametrize("table", ["setups", "knives", "stops", "rejects", "shifts", "wet_end_runs"])
def test_every_table_is_filled(year, table):
    assert year.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0


@pytest.mark.parametrize("group", ["shift", "crew", "day_shift", "all"])
def test_stored_shift_sums_agree_with_the_record_tables(year, group):
    from shopfloor.shifts.records import audit

    first, last = year.days[0], year.days[-1]
    stored = audit.window_sums(year.conn, first, last, group=group)
    recomputed = audit.window_sums(year.conn, first, last, group=group, from_records=True)
    assert stored.keys() == recomputed.keys()
    for key, (sums, incomplete) in stored.items():
        other, other_incomplete = recomputed[key]
        assert incomplete == other_incomplete
        for name, value in vars(sums).items():
            expected = vars(other)[name]
            if isinstance(value, dict):
                assert value.keys() == expected.keys()
                assert all(close(value[k], expected[k]) for k in value), (key, name)
            else:
                assert close(value, expected), (key, name, value, expected)


@pytest.mark.parametrize("shift", [1, 2, 3, None])
def test_the_tools_sums_agree_with_the_stored_shift_sums(year, shift):
    """The sums the investigator's tools run (tools.sums.kpi_sums through Sums.from_row) are the stored
    per-shift sums of the same window: one set of names, one mapping, two sources that must agree."""
    from shopfloor.shifts import Scope
    from shopfloor.shifts.plant import metrics
    from shopfloor.shifts.records import audit
    from shopfloor.shifts.tools.context import RunContext, Sql
    from shopfloor.shifts.tools.sums import kpi_sums

    first, last = year.days[0], year.days[-1]
    ctx = RunContext(year.conn, Scope(day=last))
    tools = metrics.Sums.from_row(kpi_sums(ctx, Sql(), first, last, shift))
    ((stored, _),) = audit.window_sums(year.conn, first, last, group="all", shift=shift).values()
    assert stored.shifts > 0 and stored.feet > 0
    for name, value in vars(stored).items():
        got = vars(tools)[name]
        if isinstance(value, dict):
            assert value.keys() == got.keys() and all(close(value[k], got[k]) for k in value), name
        else:
            assert close(value, got), (name, value, got)
