"""The reader's round-6 classes (evals/shifts/blind-r6.yaml): one named shift over a window reads that shift
alone, a figure against its flag is not two windows, comparing two shifts yesterday is one day's
comparison, follow-ups led by "can you" and naming one kind, a story's last clause after a comma, and
Spanish and shorthand words read into slots (docs/shifts-agent.md, "Reading")."""

from __future__ import annotations

from datetime import date

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.plans import Plan, Unavailable, parse_address
from shopfloor.shifts.planning.reading import canonical
from shopfloor.shifts.planning.router import route

EVERY = Scope(day=date(2026, 11, 19))  # a Thursday, every shift
SHIFT2 = Scope(day=date(2026, 11, 19), shift=2, include="shift")


def _address(question: str, scope: Scope = EVERY, previous: Plan | None = None) -> str:
    plan = route(question, scope, previous)
    assert isinstance(plan, Plan), plan
    return plan.address()


def test_one_named_shift_over_a_window_reads_that_shift_alone():
    assert _address("wk of march 16 dt by reason 2nd shft") == (
        "/a?window=week&anchor=2026-03-16&shift=2&measure=pareto&by=reason"
    )
    assert _address("which crew was slowest on 2nd shift last wk") == (
        "/a?window=week&anchor=2026-11-09&shift=2&measure=compare_groups&by=crew"
    )
    # A shift selected with every shift included keeps the production-day scope it was given.
    every_with_2 = Scope(day=date(2026, 11, 19), shift=2, include="day")
    assert "&shift=3&include=day&" in _address("downtime pareto on 3rd this week", every_with_2)


def test_a_figure_against_its_flag_is_that_figure_not_a_comparison_of_windows():
    assert _address("trim vs the flag this wk") == "/a?window=week&anchor=2026-11-19&measure=waste"
    assert _address("downtime this week vs last week") == "/a?window=week&anchor=2026-11-19&measure=compare"


def test_two_shifts_compared_yesterday_are_one_days_comparison():
    assert _address("compara el turno 3 con el turno 1 ayer") == (
        "/a?day=2026-11-18&shift=1&include=day&measure=compare_shifts&other_shift=3"
    )
    assert isinstance(route("compare today with yesterday", SHIFT2), Unavailable)


def test_follow_ups_led_by_can_you_and_naming_one_kind():
    before = parse_address("/a?day=2026-11-19&shift=2&measure=downtime&by=reason")
    assert _address("can u chart that", SHIFT2, before).startswith(
        "/a?day=2026-11-19&shift=2&measure=downtime&by=reason&chart=1&after="
    )
    by_place = parse_address("/a?day=2026-11-19&shift=2&measure=downtime&by=place")
    assert _address("now just maintenance", SHIFT2, by_place).startswith(
        "/a?day=2026-11-19&shift=2&measure=downtime&by=place&kind=Maintenance&after="
    )
    # Two kinds named are the rows by kind, never one kind's filter.
    assert "kind=" not in _address("now split it maintenance or operator", SHIFT2, before).split("&after=")[0]


def test_a_storys_asking_clause_after_a_comma_names_its_own_day():
    story = "yday was rough and everybody was cranky after the meeting, today i just want the rejects for 3rd shift"
    assert _address(story) == "/a?day=2026-11-19&shift=3&measure=quality"


def test_spanish_and_shorthand_words_are_read():
    assert canonical("¿cuánto tiempo perdimos la semana pasada?").startswith(
        "how much time did we lose last week"
    )
    assert "humidity" in canonical("¿estuvo alta la humedad en el turno 3?")
    assert canonical("dt by rsn yday") == "downtime by reason yesterday"
    assert _address("¿cuánto tiempo perdimos la semana pasada?") == (
        "/a?window=week&anchor=2026-11-09&measure=pareto&by=reason"
    )


def test_dry_end_percent_is_the_shifts_kpi_tile_not_a_share_of_the_rejects():
    assert _address("dry end % on 3rd", Scope(day=date(2026, 10, 7))) == (
        "/a?day=2026-10-07&shift=3&measure=kpis&metric=dry_end_pct"
    )
    assert "measure=kpis" not in _address("what share of rejects were up warp on 3rd")
    assert "measure=kpis" not in _address("dry end % of rejects on 3rd")
