"""Calendar windows against dates worked out by hand from a printed 2026 calendar."""

from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shopfloor.shifts.plant.calendar import (
    coverage,
    previous_window,
    production_day,
    production_days,
    window_for,
    windows_back,
)

D = date


def test_production_day_runs_seven_to_seven():
    assert production_day(datetime(2026, 9, 14, 7, 0)) == D(2026, 9, 14)
    assert production_day(datetime(2026, 9, 15, 6, 59)) == D(2026, 9, 14)  # shift 3 after midnight
    assert production_day(datetime(2026, 9, 14, 6, 59)) == D(2026, 9, 13)


def test_week_is_monday_to_friday_containing_anchor():
    w = window_for("week", D(2026, 9, 16))  # a Wednesday
    assert (w.start, w.end) == (D(2026, 9, 14), D(2026, 9, 18))
    assert window_for("week", D(2026, 9, 20)).start == D(2026, 9, 14)  # Sunday belongs to its ISO week
    prev = previous_window(w)
    assert (prev.start, prev.end) == (D(2026, 9, 7), D(2026, 9, 11))
    assert len(production_days(w)) == 5


def test_month_and_previous_month():
    w = window_for("month", D(2026, 9, 14))
    assert (w.start, w.end) == (D(2026, 9, 1), D(2026, 9, 30))
    assert len(production_days(w)) == 22  # Sep 2026 starts on a Tuesday: 4+5+5+5+3
    prev = previous_window(w)
    assert (prev.start, prev.end) == (D(2026, 8, 1), D(2026, 8, 31))
    jan = previous_window(window_for("month", D(2027, 2, 28)))
    assert (jan.start, jan.end) == (D(2027, 1, 1), D(2027, 1, 31))
    assert window_for("month", D(2028, 2, 10)).end == D(2028, 2, 29)


def test_fiscal_periods_forward():
    p1 = window_for("fiscal", D(2026, 9, 1))
    assert (p1.start, p1.end, p1.fiscal_period) == (D(2026, 9, 1), D(2026, 9, 28), 1)
    assert window_for("fiscal", D(2026, 9, 28)).fiscal_period == 1
    p2 = window_for("fiscal", D(2026, 9, 29))
    assert (p2.start, p2.end, p2.fiscal_period) == (D(2026, 9, 29), D(2026, 10, 26), 2)
    p3 = window_for("fiscal", D(2026, 11, 27))
    assert (p3.start, p3.end, p3.fiscal_period) == (D(2026, 10, 27), D(2026, 11, 30), 3)
    assert len(production_days(p3)) == 25
    assert len(production_days(p1)) == 20  # Tue Sep 1 .. Mon Sep 28
    p4 = window_for("fiscal", D(2026, 12, 1))
    assert (p4.start, p4.end, p4.fiscal_period) == (D(2026, 12, 1), D(2026, 12, 28), 4)
    # The next fiscal year starts 364 days after the anchor.
    nxt = window_for("fiscal", D(2027, 8, 31))
    assert (nxt.start, nxt.fiscal_period, nxt.fiscal_year) == (D(2027, 8, 31), 1, 2027)
    last = window_for("fiscal", D(2027, 8, 30))
    assert (last.start, last.end, last.fiscal_period) == (D(2027, 7, 27), D(2027, 8, 30), 12)


def test_fiscal_periods_backward():
    p12 = previous_window(window_for("fiscal", D(2026, 9, 10)))
    assert (p12.start, p12.end, p12.fiscal_period, p12.fiscal_year) == (
        D(2026, 7, 28),
        D(2026, 8, 31),
        12,
        2025,
    )
    # 2025-12-02 lies in the year starting 2025-09-02: P4 = Dec 2 .. Dec 29.
    w = window_for("fiscal", D(2025, 12, 15))
    assert (w.start, w.end, w.fiscal_period) == (D(2025, 12, 2), D(2025, 12, 29), 4)


def test_day_previous_skips_weekend():
    assert previous_window(window_for("day", D(2026, 9, 14))).start == D(2026, 9, 11)
    assert previous_window(window_for("day", D(2026, 9, 15))).start == D(2026, 9, 14)
    assert production_days(window_for("day", D(2026, 9, 13))) == []


def test_windows_back_chain():
    weeks = windows_back(window_for("week", D(2026, 9, 14)), 3)
    assert [w.start for w in weeks] == [D(2026, 8, 31), D(2026, 9, 7), D(2026, 9, 14)]


def test_coverage_complete_partial_unavailable():
    w = window_for("week", D(2026, 9, 14))
    days = [D(2026, 9, d) for d in range(14, 19)]
    assert coverage(w, days).status == "complete"
    c = coverage(w, days[:4])
    assert c.status == "partial" and c.missing == (D(2026, 9, 18),)
    c = coverage(w, days, invalid=[D(2026, 9, 15)])
    assert c.status == "partial" and c.invalid == (D(2026, 9, 15),) and len(c.valid) == 4
    assert coverage(w, []).status == "unavailable"
    # A weekend day present in the store does not make a window complete or count as expected.
    assert coverage(w, [*days[:4], D(2026, 9, 19)]).status == "partial"


@given(st.dates(min_value=D(2020, 1, 1), max_value=D(2032, 12, 31)))
def test_fiscal_periods_tile_the_line(day):
    w = window_for("fiscal", day)
    assert w.contains(day)
    weeks = ((w.end - w.start).days + 1) / 7
    assert weeks in (4, 5)
    assert w.start.weekday() == D(2026, 9, 1).weekday()
    prev = previous_window(w)
    assert (w.start - prev.end).days == 1
    assert window_for("fiscal", w.end).start == w.start


@pytest.mark.parametrize("period", ["day", "week", "month", "fiscal"])
@given(day=st.dates(min_value=D(2024, 1, 1), max_value=D(2029, 12, 31)))
def test_previous_window_is_adjacent_and_same_kind(period, day):
    w = window_for(period, day)
    prev = previous_window(w)
    assert prev.period == period and prev.end < w.start
    if period in ("month", "fiscal"):
        assert (w.start - prev.end).days == 1
    if period == "week":
        assert (w.start - prev.end).days == 3  # Friday to Monday
