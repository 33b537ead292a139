"""A place and a reason named together: the rows by place keep only the reason's stops, on the day path
and the window path alike, and the headline names both (docs/shifts-agent.md, rule 2: a slot read is a slot
applied). The fixture's stops: shift 1 has a 10-minute knife jam at the upper knife and a 5-minute missed
splice at Splicer 1; shift 2 a 20-minute knife jam at the upper knife (tests/shifts/investigation/conftest.py)."""

from __future__ import annotations

from datetime import date

from shopfloor.shifts import Scope, investigate

SHIFT1 = Scope(day=date(2026, 9, 16), shift=1, include="shift")
SHIFT2 = Scope(day=date(2026, 9, 16), shift=2, include="shift")


def _head(answer) -> str:
    return next(s["text"] for s in answer.sections if s["type"] == "headline")


def test_the_count_of_a_reason_at_a_place_is_complete_and_led_by_both(conn):
    answer = investigate("how many times did the upper knife jam on 2nd shift", SHIFT2, conn)
    assert answer.status == "complete"
    assert _head(answer).startswith("Knife jam at Upper knife: **20.0 min** over 1 stop")
    assert answer.evidence[0]["filters"] == {"reason": "Knife jam"}


def test_the_reason_filter_keeps_other_reasons_at_the_place_out(conn):
    # Shift 1's upper knife has a knife jam but no missed splice: the missed splices there are none.
    answer = investigate("missed splices at the upper knife on 1st shift", SHIFT1, conn)
    assert answer.status == "complete"
    assert _head(answer).startswith("Missed splice at Upper knife: no stop recorded here (0 stops)")
    assert [r["key"] for r in answer.evidence[0]["rows"]] == ["Splicer 1"]


def test_the_window_path_applies_the_same_filter(conn):
    week = Scope(day=date(2026, 9, 16), shift=2, include="shift", period="week")
    answer = investigate("how many times did the upper knife jam this week", week, conn)
    assert "measure=pareto&by=place&reason=Knife%20jam&place=Upper%20knife" in answer.address
    assert answer.evidence[0]["filters"] == {"reason": "Knife jam"}
    assert [(r["key"], r["stops"]) for r in answer.evidence[0]["rows"]] == [("Upper knife", 5)]
    assert "Not applied" not in " ".join(s["text"] for s in answer.sections)


def test_a_plain_downtime_question_writes_no_filter(conn):
    answer = investigate("downtime by place", SHIFT2, conn)
    assert "filters" not in answer.evidence[0]
