"""Partial and empty windows said one way everywhere (docs/METRICS.md, "Windows"), on the hand-built store.

The week of 2026-09-21 holds only Monday 2026-09-21, and that day has one excluded setup on shift 2
(conftest.py); the week of 2026-08-31 holds no day at all; the week of 2026-09-07 is complete but the
week before it is empty, so its comparison is withheld.
"""

from datetime import date

from shopfloor.shifts import Scope, investigate, period_report
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.plant.calendar import coverage_line

PARTIAL_WEEK = Scope(day=date(2026, 9, 21))
EMPTY_WEEK = Scope(day=date(2026, 9, 2))
WHY = "2026-09-21 has one excluded setup on shift 2 (Waste/gross area out of bounds)"
MISSING = "not in the store: 2026-09-22, 2026-09-23, 2026-09-24, 2026-09-25"


def test_coverage_line_names_missing_and_excluded_days():
    cov = {
        "status": "partial",
        "expected_days": 3,
        "valid_days": 1,
        "missing_days": ["2026-01-02"],
        "incomplete_days": ["2026-01-01"],
        "incomplete_why": {"2026-01-01": "one excluded setup on shift 2 (bad trim)"},
    }
    assert coverage_line(cov) == (
        "The window is partial: 1 of 3 production days complete; not in the store: 2026-01-02; 2026-01-01 "
        "has one excluded setup on shift 2 (bad trim). Rankings withheld, deltas withheld, missing days "
        "unavailable (never zero)."
    )
    assert coverage_line({"status": "complete"}) is None
    assert "unavailable, never zero" in (coverage_line({"status": "unavailable"}) or "")


def test_partial_window_answer_names_its_days_and_why(conn):
    answer = investigate("show the KPIs this week", PARTIAL_WEEK, conn)
    assert answer.status == "partial"
    caveats = " ".join(s["text"] for s in answer.sections if s["type"] == "caveat")
    assert WHY in caveats and MISSING in caveats
    assert invariants(answer.as_dict()) == []


def test_empty_window_is_unavailable_never_zero(conn):
    answer = investigate("show the KPIs this week", EMPTY_WEEK, conn)
    assert answer.status == "unavailable"
    text = answer.text()
    assert "0.0 ft" not in text and "**" not in text
    assert "No production day of this window is in the store" in text
    rows = answer.evidence[0]["rows"]
    assert {r["measure"]: r["current"] for r in rows}["lineal_ft"] is None


def test_empty_pareto_window_is_unavailable(conn):
    answer = investigate("downtime pareto this week", EMPTY_WEEK, conn)
    assert answer.status == "unavailable" and "**" not in answer.text()


def test_withheld_comparison_is_not_said(conn):
    answer = investigate("show the KPIs this week", Scope(day=date(2026, 9, 9)), conn)
    assert answer.evidence[0]["deltas_withheld"] is True
    assert "the window before" not in answer.text()


def test_per_year_dollars_scale_by_days_held(conn):
    answer = investigate("downtime pareto this week", PARTIAL_WEEK, conn)
    jam = next(r for r in answer.evidence[0]["rows"] if r["key"] == "Knife jam")
    # 2026-09-21 alone: 10 + 20 = 30 min of knife jam = $600 at $1,200/h; one day held of five expected,
    # so a year of 250 production days is 600 x 250 / 1 = $150,000 (never 600 x 250 / 5).
    assert jam["minutes"] == 30 and jam["usd"] == 600
    assert jam["usd_per_year"] == 150_000
    assert answer.evidence[0]["coverage"]["held_days"] == 1


def test_report_says_the_partial_window_the_same_way(conn):
    report = period_report(conn, "week", date(2026, 9, 21))
    text = " ".join(report["sections"])
    assert WHY in text and MISSING in text


def test_notes_answer_shows_the_stop_records_notes(conn):
    answer = investigate(
        "Show shift and downtime notes", Scope(day=date(2026, 9, 16), shift=2, include="shift"), conn
    )
    env = answer.evidence[0]
    # Shift 2 of the hand-built day has two stops, D2-1 and D2-2, each noted "synthetic reported symptom".
    assert env["stop_notes"] == [
        {
            "text": "synthetic reported symptom",
            "stops": 2,
            "on_stops": "D2-1 Knife jam, D2-2 Scheduled maintenance",
        }
    ]
    assert env["stop_notes_count"] == 2
    text = answer.text()
    assert (
        "Stop note on 2 stops (D2-1 Knife jam, D2-2 Scheduled maintenance): “synthetic reported symptom”"
        in text
    )
    assert answer.read_as.startswith("Read as: shift and stop notes")
    assert invariants(answer.as_dict()) == []
