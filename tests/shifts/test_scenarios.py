"""Each planted scenario leaves its signature in the metrics of the generated days."""

from __future__ import annotations

import itertools
from datetime import timedelta

from shopfloor.shifts.plant import metrics
from shopfloor.shifts.records import audit


def test_slow_crew_is_ten_points_under_the_other_shifts_in_its_weeks(year):
    week = year.plan.slow_weeks[0]
    kpis = audit.window_kpis(year.conn, week, week + timedelta(days=4), group="crew")
    slow = kpis[year.plan.slow_crew]["speed_to_target_pct"]
    others = [v["speed_to_target_pct"] for k, v in kpis.items() if k != year.plan.slow_crew]
    assert len(others) == 2
    assert all(o - slow >= 10 for o in others), (slow, others)
    crews = year.conn.execute(
        "SELECT DISTINCT crew FROM shifts WHERE shift = 2 AND day BETWEEN ? AND ?",
        [week, week + timedelta(days=4)],
    ).fetchall()
    assert crews == [(year.plan.slow_crew,)]


def test_shifts_run_alike_outside_the_slow_weeks(year):
    week = year.plan.bad_lot_week
    kpis = audit.window_kpis(year.conn, week, week + timedelta(days=4), group="shift")
    speeds = [row["speed_to_target_pct"] for row in kpis.values()]
    assert len(speeds) == 3 and max(speeds) - min(speeds) < 5, speeds
    assert all(78 < v < 90 for v in speeds), speeds


def test_upper_knife_jam_grows_week_by_week(year):
    minutes = []
    for week in [year.plan.jam_weeks[0] - timedelta(days=7), *year.plan.jam_weeks]:
        total = year.conn.execute(
            "SELECT coalesce(sum(minutes), 0) FROM stops WHERE place = 'Upper knife' AND reason = 'Knife jam' "
            "AND kind = 'Maintenance' AND day BETWEEN ? AND ?",
            [week, week + timedelta(days=4)],
        ).fetchone()[0]
        minutes.append(total)
    before, *jam = minutes
    assert all(b > a for a, b in itertools.pairwise(jam)), minutes
    assert jam[0] > 2 * before and jam[-1] > 4 * jam[0], minutes
    top = year.conn.execute(
        "SELECT place, reason FROM stops WHERE kind = 'Maintenance' AND day BETWEEN ? AND ? "
        "GROUP BY ALL ORDER BY sum(minutes) DESC LIMIT 1",
        [year.plan.jam_weeks[0], year.plan.jam_weeks[-1] + timedelta(days=4)],
    ).fetchone()
    assert top == ("Upper knife", "Knife jam")


def test_humid_month_raises_shift_three_warp(year):
    y, m = year.plan.humid_month
    first = min(d for d in year.days if (d.year, d.month) == (y, m))
    last = max(d for d in year.days if (d.year, d.month) == (y, m))
    kpis = audit.window_kpis(year.conn, first, last, group="shift")
    assert kpis[3]["dry_end_pct"] > 1.0
    assert kpis[1]["dry_end_pct"] < 0.7 and kpis[2]["dry_end_pct"] < 0.7
    warp = year.conn.execute(
        "SELECT shift, sum(sqft) FROM rejects WHERE family = 'warp' AND day BETWEEN ? AND ? GROUP BY ALL ORDER BY 1",
        [first, last],
    ).fetchall()
    assert warp[2][1] > 3 * max(warp[0][1], warp[1][1])


def test_bad_paper_lot_shows_as_raw_material_bond_on_one_grade(year):
    week = year.plan.bad_lot_week
    rows = year.conn.execute(
        "SELECT s.grade, sum(s.reject_sqft), sum(s.gross_sqft) FROM setups s WHERE s.day BETWEEN ? AND ? GROUP BY ALL",
        [week, week + timedelta(days=4)],
    ).fetchall()
    by_grade = {g: metrics.pct(r, gross) for g, r, gross in rows}
    assert by_grade[year.plan.bad_lot_grade] > 1.0
    assert all(v < 0.7 for g, v in by_grade.items() if g != year.plan.bad_lot_grade)
    top = year.conn.execute(
        "SELECT reason FROM rejects WHERE grade = ? AND day BETWEEN ? AND ? GROUP BY ALL ORDER BY sum(sqft) DESC LIMIT 1",
        [year.plan.bad_lot_grade, week, week + timedelta(days=4)],
    ).fetchone()
    assert top == ("Bond - paper/raw-material issue",)


def test_one_power_outage_is_external(year):
    external = year.conn.execute(
        "SELECT day, shift, place, reason, minutes FROM stops WHERE kind = 'External'"
    ).fetchall()
    assert len(external) == 1
    day, shift, place, reason, minutes = external[0]
    assert (day, shift, place, reason) == (
        year.plan.outage_day,
        year.plan.outage_shift,
        "Plant",
        "Power outage",
    )
    assert minutes >= 60
    kpis = audit.window_kpis(year.conn, day, day, group="shift")
    assert kpis[shift]["external_pct"] == 100 * minutes / 480


def test_planned_maintenance_runs_on_its_schedule(year):
    pm = year.conn.execute(
        "SELECT day, shift, minutes, strftime(started, '%H:%M') FROM stops WHERE kind = 'PM'"
    ).fetchall()
    assert pm
    weeks = sorted({(d - timedelta(days=d.weekday())) for d, *_ in pm})
    for day, shift, minutes, start in pm:
        assert (day.weekday(), shift, minutes, start) == (2, 1, 60.0, "07:00")
    assert all((b - a).days % 14 == 0 for a, b in itertools.pairwise(weeks))
    wednesdays = [d for d in year.days if d.weekday() == 2 and d not in {p[0] for p in pm}]
    assert all(((d - weeks[0]).days // 7) % 2 == 1 for d in wednesdays)


def test_corrupt_days_exclude_a_giant_trim_setup(year):
    rows = year.conn.execute(
        "SELECT day, record_id, error, raw FROM excluded_records WHERE error LIKE 'Waste%' ORDER BY day"
    ).fetchall()
    assert [r[0] for r in rows] == list(year.plan.corrupt_days)
    assert all('"trim_sqft": "99999999"' in r[3] for r in rows)
