"""Dates as people say them, resolved against the selected day (planning/dates, docs/shifts-agent.md)."""

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.dates import named_months, resolve
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

FRIDAY = date(2026, 11, 20)
WEDNESDAY = date(2026, 10, 14)


@pytest.mark.parametrize(
    ("words", "day", "expected"),
    [
        ("last tuesday", FRIDAY, date(2026, 11, 17)),
        ("on monday", date(2026, 4, 16), date(2026, 4, 13)),
        ("monday", date(2026, 4, 13), date(2026, 4, 13)),  # the selected day itself when it is a Monday
        ("last monday", date(2026, 4, 13), date(2026, 4, 6)),
        ("the friday before", date(2026, 6, 10), date(2026, 6, 5)),
        ("three days ago", FRIDAY, date(2026, 11, 17)),
        ("2 days ago", FRIDAY, date(2026, 11, 18)),
        ("the day before yesterday", FRIDAY, date(2026, 11, 18)),
    ],
)
def test_days_as_said(words, day, expected):
    assert resolve(words, day).day == expected


@pytest.mark.parametrize(
    ("words", "window", "anchor"),
    [
        ("the week before last", "week", date(2026, 9, 28)),
        ("two weeks ago", "week", date(2026, 9, 28)),
        ("3 weeks ago", "week", date(2026, 9, 21)),
        ("the week of march 16", "week", date(2026, 3, 16)),
        ("the week of march 18", "week", date(2026, 3, 16)),  # the Mon-Fri week holding that date
        ("so far this quarter", "fiscal", WEDNESDAY),
    ],
)
def test_windows_as_said(words, window, anchor):
    said = resolve(words, WEDNESDAY)
    assert (said.window, said.anchor) == (window, anchor)


def test_a_named_week_later_in_the_year_is_last_years():
    assert resolve("the week of december 8", date(2026, 3, 10)).anchor == date(2025, 12, 8)


def test_month_names_short_and_with_a_year():
    day = date(2026, 5, 27)
    assert named_months("downtime feb", day) == [date(2026, 2, 1)]
    assert named_months("compare aug and sept speed", date(2026, 10, 21)) == [
        date(2026, 8, 1),
        date(2026, 9, 1),
    ]
    assert named_months("downtime by reason december 2025", date(2026, 3, 10)) == [date(2025, 12, 1)]
    assert named_months("june", day) == [date(2025, 6, 1)]  # the latest June not after the day
    assert named_months("we may run it", day) == []  # "may" as a verb names no month


@pytest.mark.parametrize("words", ["downtime on payday", "the day after the big storm"])
def test_a_date_word_that_cannot_be_placed_is_unresolved(words):
    said = resolve(words, WEDNESDAY)
    assert said.unresolved
    assert (said.day, said.window) == (None, None)


@pytest.mark.parametrize(
    ("question", "day", "address"),
    [
        ("downtime by reason last tuesday", FRIDAY, "/a?day=2026-11-17&measure=downtime&by=reason"),
        (
            "downtime by place the week before last",
            WEDNESDAY,
            "/a?window=week&anchor=2026-09-28&measure=pareto&by=place",
        ),
        (
            "downtime by reason so far this quarter",
            WEDNESDAY,
            "/a?window=fiscal&anchor=2026-10-14&measure=pareto&by=reason",
        ),
        ("speed on monday, 2nd shift", date(2026, 4, 16), "/a?day=2026-04-13&shift=2&measure=fpm"),
    ],
)
def test_the_router_reads_them(question, day, address):
    plan = route(question, Scope(day=day))
    assert isinstance(plan, Plan), plan
    assert plan.address() == address


@pytest.mark.parametrize(
    ("day", "yesterday", "before"),
    [
        # A Tuesday: the day before yesterday is Friday, not Sunday.
        (date(2026, 11, 17), date(2026, 11, 16), date(2026, 11, 13)),
        (date(2026, 11, 16), date(2026, 11, 13), date(2026, 11, 12)),  # a Monday: Friday, then Thursday
        (FRIDAY, date(2026, 11, 19), date(2026, 11, 18)),
    ],
)
def test_yesterday_and_the_day_before_agree_on_production_days(day, yesterday, before):
    assert resolve("downtime yesterday", day).day == yesterday
    assert resolve("downtime the day before yesterday", day).day == before
    scope = Scope(day=day, shift=1, include="shift")
    for words, expected in (("yesterday", yesterday), ("the day before yesterday", before)):
        routed = route(f"downtime {words}", scope)
        assert isinstance(routed, Plan) and routed.day == expected
