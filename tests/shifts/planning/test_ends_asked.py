"""Which shift or crew had the most or the least: the groups compared on the measure asked, the end asked in
``ask`` when it is not the comparison's own lead (docs/shifts-agent.md, "Comparisons over a window")."""

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.plans import AddressError, Plan, parse_address
from shopfloor.shifts.planning.router import route

SHIFT2 = Scope(day=date(2026, 9, 16), shift=2, include="shift")  # a Wednesday


@pytest.mark.parametrize(
    ("question", "address"),
    [
        (
            "which shift had the most rejects yesterday",
            "/a?day=2026-09-15&measure=rankings&metric=quality&ask=most",
        ),
        (
            "what shift lost the most time yesterday",
            "/a?day=2026-09-15&measure=rankings&metric=downtime&ask=most",
        ),
        (
            "which shift had the most downtime last week",
            "/a?window=week&anchor=2026-09-07&measure=compare_groups&by=shift&metric=downtime&ask=most",
        ),
        (
            "which shift made the most board last week",
            "/a?window=week&anchor=2026-09-07&measure=compare_groups&by=shift&metric=lineal_ft&ask=most",
        ),
        (
            "which shift made the least board yesterday",
            "/a?day=2026-09-15&measure=rankings&metric=lineal_ft&ask=least",
        ),
        # The comparison's own lead keeps its address: the best shift, the worst crew on a loss.
        (
            "which shift had the least downtime last week",
            "/a?window=week&anchor=2026-09-07&measure=compare_groups&by=shift&metric=downtime",
        ),
        (
            "which crew had the most rejects this month",
            "/a?window=month&anchor=2026-09-16&shift=2&measure=compare_groups&by=crew&metric=quality",
        ),
        (
            "which crew had the least downtime this month",
            "/a?window=month&anchor=2026-09-16&shift=2&measure=compare_groups&by=crew&metric=downtime&ask=least",
        ),
        (
            "¿qué turno tuvo más paros la semana pasada?",
            "/a?window=week&anchor=2026-09-07&measure=compare_groups&by=shift&metric=downtime&ask=most",
        ),
    ],
)
def test_the_end_asked_is_in_the_address(question, address):
    plan = route(question, SHIFT2)
    assert isinstance(plan, Plan), plan
    assert plan.address() == address
    assert parse_address(address) == plan


@pytest.mark.parametrize(
    "address",
    [
        "/a?day=2026-09-15&measure=rankings&metric=speed&ask=most",  # speed names both ends
        "/a?day=2026-09-15&measure=rankings&ask=least",
        "/a?day=2026-09-15&shift=2&measure=fpm&ask=most",
    ],
)
def test_an_end_without_a_measure_compared_is_refused(address):
    with pytest.raises(AddressError):
        parse_address(address)
