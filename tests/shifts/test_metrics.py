"""Known answers, worked out by hand in the test (never taken from the code under test)."""

from __future__ import annotations

import itertools
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shopfloor.shifts.plant import catalog, metrics
from shopfloor.shifts.records import audit, ingest, store

D = "2026-09-14"
N = "2026-09-15"


# -- worked examples (docs/METRICS.md) ---------------------------------------------------------------


def test_outs_never_multiply_travel():
    assert metrics.lineal_feet(200, 45) == 750
    assert metrics.lineal_feet(300, 30) == 750


def test_speed_to_target_is_duration_weighted():
    # 10 min at a 900 target + 10 min at a 500 target = a 14,000 ft target; 10,500 ft is 75 %.
    assert metrics.speed_to_target([(6000, 900, 10), (4500, 500, 10)]) == pytest.approx(75.0)
    # Averaging the two run percentages would say 78.3 %; the weighted answer is not that.
    assert metrics.speed_to_target([(6000, 900, 10), (4500, 500, 10)]) != pytest.approx(
        (6000 / 9000 + 4500 / 5000) * 50
    )


def test_trim_from_outs_and_web_width():
    assert metrics.trim_width(98, [(5, 18)]) == 8
    assert metrics.trim_width(92, [(5, 18)]) == 2
    assert metrics.trim_width(98, [(2, 30), (1, 34)]) == 4  # 2 in a side, centred
    assert metrics.trim_sqft(1200, 98, 90) == 800  # 1,200 net ft × 8 in / 12


def test_sheet_and_footage_examples():
    assert metrics.reject_sqft(10_000, 30, 45) == 93_750
    assert metrics.cuts_for(10_000, 2) == 5_000 and metrics.lineal_feet(5_000, 45) == 18_750
    assert metrics.cuts_for(10_000, 3) == 3_334 and 3_334 * 3 - 10_000 == 2
    assert round(1_800_000 * 12 / 98) == 220_408
    assert metrics.shift_speed(220_408) == pytest.approx(459.18, abs=0.01)


def test_shear_is_six_34_inch_chops_on_new_setups_only():
    assert metrics.shear_feet(True) == 17 and metrics.shear_feet(False) == 0
    assert metrics.shear_sqft(17, 96) == 136


def test_zero_denominators_are_unavailable_not_zero():
    assert metrics.ratio(5, 0) is None and metrics.pct(5, 0) is None
    assert metrics.speed_to_target([]) is None
    assert metrics.running_speed(100, 10, 10) is None
    row = metrics.kpis(metrics.Sums())
    assert row["speed_to_target_pct"] is None and row["trim_pct"] is None and row["maintenance_pct"] is None


def test_stop_allocation_splits_a_stop_over_two_setups():
    t = lambda hh, mm, ss=0, day=14: datetime(2026, 9, day, hh, mm, ss)  # noqa: E731
    setups = [("S1-00", t(7, 0), t(7, 10)), ("S1-01", t(7, 10), t(7, 30))]
    stops = [("D1-01", t(7, 9, 30), t(7, 10, 30)), ("D1-02", t(7, 20), t(7, 25))]
    assert metrics.allocate_stops(setups, stops) == [
        ("D1-01", "S1-00", 30.0),
        ("D1-01", "S1-01", 30.0),
        ("D1-02", "S1-01", 300.0),
    ]
    # Half-open: a stop that ends exactly when a setup starts is not that setup's.
    assert metrics.allocate_stops(setups, [("D", t(7, 5), t(7, 10))]) == [("D", "S1-00", 300.0)]


def test_shift_three_crosses_midnight():
    start, end = catalog.shift_window(date(2026, 9, 14), 3)
    assert (start, end) == (datetime(2026, 9, 14, 23), datetime(2026, 9, 15, 7))
    setups = [("S3-00", start, datetime(2026, 9, 15, 0)), ("S3-01", datetime(2026, 9, 15, 0), end)]
    stop = [("D3-01", datetime(2026, 9, 14, 23, 50), datetime(2026, 9, 15, 0, 10))]
    assert metrics.allocate_stops(setups, stop) == [("D3-01", "S3-00", 600.0), ("D3-01", "S3-01", 600.0)]


def test_baseline_gap():
    base = metrics.grade_baseline([(7000, 11, 1), (3000, 5, 1)])  # 10,000 ft over 14 running min
    assert base == pytest.approx(10_000 / 14)
    b = metrics.against_baseline(700.0, 6300, 10, 1)  # 700 ft/min over 9 running min would be 6,300
    assert b.baseline_gap_ft == pytest.approx(0) and b.under_baseline is False
    b = metrics.against_baseline(700.0, 5400, 10, 1)
    assert b.running_fpm == 600 and b.baseline_gap_ft == pytest.approx(900) and b.under_baseline is True


# -- a hand-built day ---------------------------------------------------------------------------


def a(**attrs: object) -> str:
    return " ".join(f'{k}="{v}"' for k, v in attrs.items())


def knife(level, order, w, length, outs, cuts, start, req, planned, before, after):
    return (
        f"<knife {a(level=level, stacker=level, order_id=order, width_in=w, length_in=length, outs=outs, cuts=cuts)} "
        f"{a(start_in=start, order_quantity=req, planned_sheets=planned, produced_sheets=cuts * outs)} "
        f"{a(remaining_before=before, remaining_after=after)}/>"
    )


def setup(
    rid, sid, run, grade, target, width, start, end, cont, feet, gross, trim, shear_ft, shear, *children
):
    head = a(
        id=rid, setup_id=sid, run=run, grade=grade, target_fpm=target, width_in=width, start=start, end=end
    )
    body = a(
        continued=cont,
        gross_feet=feet,
        gross_sqft=gross,
        trim_sqft=trim,
        shear_feet=shear_ft,
        shear_sqft=shear,
    )
    return f"<setup {head} {body}>{''.join(children)}</setup>"


def stop(sid, kind, place, reason, start, end):
    return f"<stop {a(id=sid, kind=kind, place=place, reason=reason, start=start, end=end)}/>"


HAND_DAY = f"""<?xml version="1.0" encoding="UTF-8"?>
<production version="1" synthetic="true" production_day="{D}" clock="fixed-demo-local">
<shift number="1" start="{D}T07:00:00" end="{D}T15:00:00" crew="A" supervisor_slot="Lead A">
<note>Hand-built day for the known-answer test.</note>
{
    setup(
        "S1-00",
        "C0-1",
        "W000",
        "32-C",
        900,
        98,
        f"{D}T07:00:00",
        f"{D}T11:00:00",
        "false",
        150017,
        1225138.8333,
        100000,
        17,
        138.8333,
        knife("upper", "O0-U", 45, 45, 2, 40000, 4, 80000, 80000, 80000, 0),
    )
}
{stop("D1-01", "Maintenance", "Upper knife", "Knife jam", f"{D}T10:50:00", f"{D}T11:10:00")}
{
    setup(
        "S1-01",
        "C1-1",
        "W001",
        "275-BC",
        500,
        87,
        f"{D}T11:00:00",
        f"{D}T15:00:00",
        "false",
        50017,
        362623.25,
        12500,
        17,
        123.25,
        knife("upper", "O1-U", 42, 60, 2, 10000, 1.5, 30000, 30000, 30000, 10000),
    )
}
</shift>
<shift number="2" start="{D}T15:00:00" end="{D}T23:00:00" crew="B" supervisor_slot="Lead B">
{
    setup(
        "S2-00",
        "C1-1",
        "W001",
        "275-BC",
        500,
        87,
        f"{D}T15:00:00",
        f"{D}T17:00:00",
        "true",
        25000,
        181250,
        6250,
        0,
        0,
        knife("upper", "O1-U", 42, 60, 2, 5000, 1.5, 30000, 30000, 10000, 0),
    )
}
{stop("D2-01", "Operator", "Splicer 2", "Missed splice", f"{D}T16:00:00", f"{D}T16:12:00")}
{
    setup(
        "S2-01",
        "C2-1",
        "W002",
        "26-C",
        900,
        95,
        f"{D}T17:00:00",
        f"{D}T23:00:00",
        "false",
        15017,
        118884.5833,
        3750,
        17,
        134.5833,
        knife("upper", "O2-U", 30, 30, 2, 6000, 1.5, 12000, 12000, 12000, 0),
        knife("lower", "O2-1", 32, 45, 1, 4000, 61.5, 3990, 4000, 4000, 0),
        '<reject family="warp" reason="Up warp" knife="upper" sheets="100" sqft="625"/>',
    )
}
</shift>
<shift number="3" start="{D}T23:00:00" end="{N}T07:00:00" crew="C" supervisor_slot="Relief">
{stop("D3-01", "PM", "Double backer", "Scheduled maintenance", f"{D}T23:00:00", f"{N}T00:00:00")}
{
    setup(
        "S3-00",
        "C3-1",
        "W003",
        "200-C",
        800,
        92,
        f"{D}T23:00:00",
        f"{N}T07:00:00",
        "false",
        300017,
        2300130.3333,
        50000,
        17,
        130.3333,
        knife("upper", "O3-1", 18, 48, 5, 75000, 1, 375000, 375000, 375000, 0),
    )
}
{stop("D3-02", "Maintenance", "Belt", "Equipment stop", f"{N}T03:00:00", f"{N}T03:24:00")}
</shift>
</production>
"""


@pytest.fixture(scope="module")
def hand_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("hand") / f"{D}.xml"
    path.write_text(HAND_DAY)
    conn = store.connect(":memory:")
    assert ingest.ingest_file(conn, path) == 0
    return conn


def test_hand_built_day_kpis_by_shift(hand_store):
    day = date(2026, 9, 14)
    k = audit.window_kpis(hand_store, day, day, group="shift")
    s1, s2, s3 = k[1], k[2], k[3]
    # Shift 1: 150,017 + 50,017 ft; target 900 × 240 + 500 × 240 = 336,000 ft.
    assert s1["lineal_ft"] == pytest.approx(200_034)
    assert s1["speed_to_target_pct"] == pytest.approx(100 * 200_034 / 336_000)
    assert s1["shift_fpm"] == pytest.approx(416.7375)
    assert s1["running_fpm"] == pytest.approx(200_034 / 460)  # the 20-minute jam taken out
    assert s1["gross_sqft"] == pytest.approx(1_225_138.8333 + 362_623.25)
    assert s1["trim_pct"] == pytest.approx(100 * 112_500 / 1_587_762.0833)
    assert s1["shear_pct"] == pytest.approx(100 * (138.8333 + 123.25) / 1_587_762.0833)
    assert s1["maintenance_pct"] == pytest.approx(100 * 20 / 480)
    assert s1["operator_pct"] == 0
    assert s1["paper_changes"] == 2 and s1["valid_setups"] == 2
    assert s1["lineal_per_setup"] == pytest.approx(100_017)
    assert s1["throughput_in"] == pytest.approx(12 * 1_587_762.0833 / 200_034)
    assert s1["setups_above_trim_flag"] == 2  # 8.2 % and 3.45 %
    # Shift 2: the continuation (25,000 ft, no shear) and a two-knife setup sharing 15,000 ft of travel.
    assert s2["lineal_ft"] == pytest.approx(40_017)
    assert s2["speed_to_target_pct"] == pytest.approx(100 * 40_017 / (500 * 120 + 900 * 360))
    assert s2["operator_pct"] == pytest.approx(2.5)
    assert s2["dry_end_pct"] == pytest.approx(100 * 625 / 300_134.5833)
    assert s2["dry_end_pct_of_yield"] == pytest.approx(
        100 * 625 / 290_000
    )  # gross − 10,000 trim − 134.58 shear
    assert s2["estimated_good_sqft"] == pytest.approx(290_000 - 625)
    assert s2["lineal_per_paper_change"] == pytest.approx(40_017 / 2)
    # Shift 3 crosses midnight: PM 60 min, a belt stop at 03:00 the next calendar day.
    assert s3["speed_to_target_pct"] == pytest.approx(100 * 300_017 / 384_000)
    assert s3["pm_pct"] == pytest.approx(12.5) and s3["maintenance_pct"] == pytest.approx(5.0)
    assert s3["running_fpm"] == pytest.approx(300_017 / (480 - 84))
    assert s3["trim_pct"] == pytest.approx(100 * 50_000 / 2_300_130.3333)
    assert s3["downtime_pct"] == pytest.approx(17.5)


def test_hand_built_day_whole_day(hand_store):
    day = date(2026, 9, 14)
    row = audit.window_kpis(hand_store, day, day, group="all")["all"]
    assert row["lineal_ft"] == pytest.approx(540_068)
    assert row["speed_to_target_pct"] == pytest.approx(100 * 540_068 / 1_104_000)
    assert row["paper_changes"] == 5  # W001 counts in shifts 1 and 2
    assert row["shift_fpm"] == pytest.approx(540_068 / 1440)
    assert row["maintenance_pct"] == pytest.approx(100 * 44 / 1440)


def test_hand_built_day_allocations_and_continuing_order(hand_store):
    q = hand_store.execute
    assert q("SELECT stop_id, record_id, minutes FROM stop_allocations ORDER BY 1, 2").fetchall() == [
        ("D1-01", "S1-00", 10.0),
        ("D1-01", "S1-01", 10.0),
        ("D2-01", "S2-00", 12.0),
        ("D3-01", "S3-00", 60.0),
        ("D3-02", "S3-00", 24.0),
    ]
    assert q("SELECT record_id, stop_count, stop_min FROM setups WHERE shift = 1 ORDER BY 1").fetchall() == [
        ("S1-00", 1, 10.0),
        ("S1-01", 1, 10.0),
    ]
    fragments = q(
        "SELECT shift, produced_sheets, remaining_before, remaining_after FROM knives WHERE order_id = 'O1-U' ORDER BY shift"
    ).fetchall()
    assert fragments == [(1, 20_000, 30_000, 10_000), (2, 10_000, 10_000, 0)]
    assert q("SELECT sum(shear_feet) FROM setups WHERE setup_id = 'C1-1'").fetchone()[0] == 17
    run = q(
        "SELECT first_shift, last_shift, setups, gross_feet FROM wet_end_runs WHERE run_id = 'W001'"
    ).fetchone()
    assert run == (1, 2, 2, 75_017)
    shared = q("SELECT lineal_feet FROM knives WHERE record_id = 'S2-01'").fetchall()
    assert shared == [(15_000.0,), (15_000.0,)]
    assert q("SELECT coverage FROM shifts").fetchall() == [("complete",)] * 3
    assert q("SELECT text FROM notes").fetchall() == [("Hand-built day for the known-answer test.",)]


# -- properties ---------------------------------------------------------------------------------


@given(
    cuts=st.lists(st.integers(1, 600), min_size=1, max_size=12),
    stops=st.lists(st.tuples(st.integers(0, 28_000), st.integers(1, 1_800)), max_size=8),
)
def test_allocated_seconds_sum_to_each_stop_when_setups_partition_the_shift(cuts, stops):
    origin = datetime(2026, 9, 14, 23)  # shift 3: crosses midnight
    bounds = sorted({0, 28_800, *(min(28_799, sum(cuts[: i + 1]) * 40) for i in range(len(cuts)))})
    setups = [
        (f"S{i}", origin + timedelta(seconds=a), origin + timedelta(seconds=b))
        for i, (a, b) in enumerate(itertools.pairwise(bounds))
    ]
    placed = []
    cursor = 0
    for i, (gap, length) in enumerate(stops):
        start = min(cursor + gap % 4000, 28_799)
        end = min(start + length, 28_800)
        if end > start:
            placed.append((f"D{i}", origin + timedelta(seconds=start), origin + timedelta(seconds=end)))
            cursor = end
    allocations = metrics.allocate_stops(setups, placed)
    for stop_id, start, end in placed:
        shares = [sec for sid, _, sec in allocations if sid == stop_id]
        assert sum(shares) == pytest.approx((end - start).total_seconds())
        assert all(sec > 0 for sec in shares)


def test_hand_built_day_waste_breakdown(hand_store):
    day = date(2026, 9, 14)
    sums, _ = audit.window_sums(hand_store, day, day, group="shift", shift=2)[2]
    rows = {
        r["category"]: r
        for r in metrics.waste_breakdown(sums, audit.family_sqft(hand_store, day, day, shift=2))
    }
    assert rows["warp"]["sqft"] == 625
    assert rows["warp"]["pct_of_yield"] == pytest.approx(100 * 625 / 290_000)
    assert rows["dry_end"]["pct_of_gross"] == pytest.approx(100 * 625 / 300_134.5833)
    assert rows["trim"]["pct_of_gross"] == pytest.approx(100 * 10_000 / 300_134.5833)
    assert rows["trim"]["pct_of_yield"] is None


def test_grade_baselines_use_the_trailing_year_before_the_window(hand_store):
    # Running speed of each grade on the hand-built day, stops out (allocated minutes).
    after = audit.grade_baselines(hand_store, date(2026, 9, 15))
    assert after["32-C"] == pytest.approx(150_017 / (240 - 10))
    assert after["275-BC"] == pytest.approx((50_017 + 25_000) / (240 + 120 - 10 - 12))
    assert after["200-C"] == pytest.approx(300_017 / (480 - 84))
    assert audit.grade_baselines(hand_store, date(2026, 9, 14)) == {}  # nothing before the window
    assert audit.grade_baselines(hand_store, date(2027, 9, 15)) == {}  # more than a year back
