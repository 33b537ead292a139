"""The narrative's checks: every placeholder refers to a cited field, no figure outside a placeholder."""

from __future__ import annotations

import pytest

from shopfloor.shifts.live.narrative import check_narrative

EVIDENCE = [
    {
        "query": 1,
        "tool": "get_shift_kpis",
        "rows": [{"measure": "speed_fpm", "value": 487.5}, {"value": None}],
    },
    {
        "query": 3,
        "tool": "get_downtime_breakdown",
        "source_rows": 4,
        "rows": [{"key": "Knife jam", "minutes": 20.0}],
    },
]


def test_placeholders_are_filled_from_the_rows():
    checked = check_narrative(
        "Speed was {q1.r1.value} ft/min; {q3.r1.key} took {q3.r1.minutes} minutes over {q3.source_rows} records.",
        EVIDENCE,
    )
    assert checked.problem is None
    assert checked.text == "Speed was 487.50 ft/min; Knife jam took 20 minutes over 4 records."


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Speed was 487 ft/min.", "a number is written outside a placeholder"),
        ("Speed was {q2.r1.value}.", "query 2 is not evidence of this answer"),
        ("Speed was {q1.r9.value}.", "query 1 has no row 9"),
        ("Speed was {q1.r1.speed}.", "has no field 'speed'"),
        ("Speed was {q1.r2.value}.", "holds no figure"),
        ("Speed was {q1.value.", "a placeholder is malformed"),
        ("Speed was **{q1.r1.value}**.", "markup"),
        ("", "empty"),
        ("word " * 200, "longer than"),
    ],
)
def test_a_narrative_that_fails_a_check_is_refused(text, problem):
    checked = check_narrative(text, EVIDENCE)
    assert checked.text is None and problem in (checked.problem or "")
