"""Which shift had the most or the least of a measure: the shifts compared on it, the one asked for leading
(docs/shifts-agent.md, "Comparisons over a window"), against the fixture's figures worked out by hand
(conftest.py).

Per day of week A (2026-09-14..18): unplanned downtime (maintenance plus operator) is 10 + 5 = 15 of 480
minutes on shift 1 (3.13 %), 20 of 480 on shift 2 (4.17 %; its 30 PM minutes are planned) and none on shift 3
(its 15 minutes are an external outage); the rejects are 1,000 sq ft on shift 1, 2,000 on shift 2, none on
shift 3; shifts 1 and 3 run 360,000 ft a day, shift 2 234,000 ft (1,170,000 ft over the week).
"""

from datetime import date

import pytest

from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.evals import invariants

DAY = date(2026, 9, 16)
ALL = Scope(day=DAY)
NEXT_MONDAY = Scope(day=date(2026, 9, 21), shift=2, include="shift")


def headline(question: str, scope: Scope = ALL) -> tuple[str, str]:
    answer = investigate(question, scope, conn_holder[0]).as_dict()
    assert invariants(answer) == []
    assert answer["status"] == "complete", answer["status"]
    text = next(s["text"] for s in answer["sections"] if s["type"] == "headline")
    return text.replace("**", ""), answer["address"]


conn_holder: list = []


@pytest.fixture(autouse=True)
def _conn(conn):
    conn_holder[:] = [conn]


@pytest.mark.parametrize(
    ("question", "lead", "figure"),
    [
        ("which shift had the most downtime today", "Shift 2 had the most unplanned downtime", "4.17 %"),
        ("what shift lost the most time today", "Shift 2 had the most unplanned downtime", "4.17 %"),
        ("which shift had the most rejects today", "Shift 2 had the most dry-end waste", None),
        ("which shift had the least downtime today", "Shift 3 was the best shift", "0.00 %"),
        ("which shift made the least board today", "Shift 2 ran the fewest lineal feet", "234,000.0 ft"),
    ],
)
def test_a_days_shifts_lead_with_the_one_asked_for(question, lead, figure):
    text, address = headline(question)
    assert text.startswith(lead), text
    assert figure is None or figure in text, text
    assert "measure=rankings" in address and "shift=" not in address


@pytest.mark.parametrize(
    ("question", "lead", "figure", "ask"),
    [
        (
            "which shift had the most downtime last week",
            "Shift 2 had the most unplanned downtime",
            "4.17 %",
            "most",
        ),
        ("which shift had the least downtime last week", "Shift 3 was the best shift", "0.00 %", None),
        (
            "which shift made the least board last week",
            "Shift 2 ran the fewest lineal feet",
            "1,170,000.0 ft",
            "least",
        ),
    ],
)
def test_a_windows_shifts_lead_with_the_one_asked_for(question, lead, figure, ask):
    text, address = headline(question, NEXT_MONDAY)
    assert text.startswith(lead) and figure in text and "of the window" in text, text
    assert "measure=compare_groups&by=shift" in address and "anchor=2026-09-14" in address
    assert ("ask=" not in address) if ask is None else (f"&ask={ask}" in address)


def test_shifts_tied_at_the_end_asked_are_named_together():
    text, _address = headline("which shift made the most board today")
    assert text.startswith("Shift 1 and Shift 3 ran the most lineal feet of the day at 360,000.0 ft each"), (
        text
    )
