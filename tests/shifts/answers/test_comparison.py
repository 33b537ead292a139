"""A comparison's headline and side-by-side table (answers/comparison.py), checked against figures this test
works out itself from the record store's own tables (conftest.py): the better and the worse shift, the points
between them, one column per group, one row per measure, and the best and worst of each row in words."""

from datetime import date
from typing import Any

import pytest

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.catalog import full_registry
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.tools.context import RunContext
from tests.shifts.answers.conftest import PARTIAL_DAY, TIED_DAY

DAY = date(2026, 9, 16)
WEEK = (date(2026, 9, 14), date(2026, 9, 18))
# The table's rows and which end is better (None: no end named), in the table's order.
ROWS = (
    ("speed_to_target_pct", "higher"),
    ("shift_fpm", "higher"),
    ("unplanned_downtime_pct", "lower"),
    ("dry_end_pct", "lower"),
    ("trim_pct", "lower"),
    ("stops", "lower"),
    ("lineal_ft", "higher"),
)


def recomputed(conn: Any, start: date, end: date) -> dict[int, dict[str, float]]:
    """Each shift's figures over ``start``..``end``, summed here from the setups, stops and shifts tables."""
    setups = conn.execute(
        """SELECT shift, sum(gross_feet), sum(target_fpm * elapsed_min), sum(gross_sqft), sum(trim_sqft),
                  sum(reject_sqft)
           FROM setups WHERE day BETWEEN ? AND ? GROUP BY shift""",
        [start, end],
    ).fetchall()
    scheduled = dict(
        conn.execute(
            "SELECT shift, sum(scheduled_min) FROM shifts WHERE day BETWEEN ? AND ? GROUP BY shift",
            [start, end],
        ).fetchall()
    )
    stops = {
        shift: (count, unplanned or 0.0)
        for shift, count, unplanned in conn.execute(
            """SELECT shift, count(*), sum(minutes) FILTER (WHERE kind IN ('Maintenance', 'Operator'))
               FROM stops WHERE day BETWEEN ? AND ? GROUP BY shift""",
            [start, end],
        ).fetchall()
    }
    out = {}
    for shift, feet, target_feet, gross, trim, rejects in setups:
        count, unplanned = stops.get(shift, (0, 0.0))
        out[shift] = {
            "speed_to_target_pct": 100 * feet / target_feet,
            "shift_fpm": feet / scheduled[shift],
            "unplanned_downtime_pct": 100 * unplanned / scheduled[shift],
            "dry_end_pct": 100 * rejects / gross,
            "trim_pct": 100 * trim / gross,
            "stops": count,
            "lineal_ft": feet,
        }
    return out


def ask(conn: Any, question: str, day: date = DAY, known: str | None = None) -> dict[str, Any]:
    """The answer, held to every global invariant (``known``: a problem the answer had before comparisons
    were tabled, left out)."""
    answer = investigate(question, Scope(day=day), conn).as_dict()
    problems = [p for p in invariants(answer) if known is None or known not in p]
    assert problems == [], problems
    return answer


def headline(answer: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in answer["sections"] if s["type"] == "headline")


def table(answer: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in answer["sections"] if s["type"] == "comparison")


def query_of(answer: dict[str, Any], tool: str) -> int:
    return next(e["query"] for e in answer["evidence"] if e["tool"] == tool)


def row_of(answer: dict[str, Any], shift: int) -> int:
    """The row (counted from 1) of ``shift`` in the answer's group comparison."""
    env = next(e for e in answer["evidence"] if e["tool"] == "get_group_comparison")
    return next(i + 1 for i, r in enumerate(env["rows"]) if r["shift"] == shift)


def ends(values: list[float], better: str | None) -> list[str | None]:
    """The best and worst of one row, worked out here from the figures at two decimals."""
    if better is None:
        return [None] * len(values)
    shown = [round(v, 2) for v in values]
    if len(set(shown)) == 1:
        return ["level"] * len(values)
    top = max(shown) if better == "higher" else min(shown)
    bottom = min(shown) if better == "higher" else max(shown)
    return ["best" if v == top else "worst" if v == bottom else None for v in shown]


def test_two_shifts_named_lead_with_the_better_one_and_the_points_between_them(conn):
    figures = recomputed(conn, DAY, DAY)
    third, first = figures[3]["speed_to_target_pct"], figures[1]["speed_to_target_pct"]
    assert (round(third, 2), round(first, 2)) == (91.67, 83.33)  # the store's setups, summed above
    answer = ask(conn, "compare 3rd shift vs 1st shift")
    assert answer["status"] == "complete"
    q = query_of(answer, "get_group_comparison")
    gap = round(round(third, 2) - round(first, 2), 2)
    assert headline(answer)["text"] == (
        f"Shift 3 was better than shift 1 on Wed 2026-09-16: **{third:.2f} %** speed to target "
        f"(query {q} · row {row_of(answer, 3)}) against **{first:.2f} %**, **{gap:.2f} points** lower "
        f"(query {q} · row {row_of(answer, 1)})."
    )
    # The figures are parts (value, unit, citation), so a page draws them without reading the text.
    parts = headline(answer)["parts"]
    assert [p["value"] for p in parts if isinstance(p, dict) and "value" in p] == [
        pytest.approx(third, abs=1e-4),
        pytest.approx(first, abs=1e-4),
        gap,
    ]


def test_the_table_has_a_column_per_shift_compared_and_a_row_per_measure_with_its_ends_in_words(conn):
    figures = recomputed(conn, DAY, DAY)
    answer = ask(conn, "compare 3rd shift vs 1st shift")
    side = table(answer)
    assert [c["group"] for c in side["columns"]] == ["Shift 1", "Shift 3"]  # shift order, not rank order
    assert [(c["query"], c["row"]) for c in side["columns"]] == [
        (query_of(answer, "get_group_comparison"), row_of(answer, s)) for s in (1, 3)
    ]
    assert [r["measure"] for r in side["rows"]] == [m for m, _ in ROWS]  # no "shifts run" on a day
    for (measure, better), row in zip(ROWS, side["rows"], strict=True):
        values = [figures[s][measure] for s in (1, 3)]
        assert [c["value"] for c in row["cells"]] == pytest.approx(values, abs=1e-3), measure
        assert [c["end"] for c in row["cells"]] == ends(values, better), measure
        assert row["better"] == better
    # The table sits right after the headline, and its text writes each figure with its row.
    kinds = [s["type"] for s in answer["sections"]]
    assert kinds.index("comparison") == kinds.index("headline") + 1
    assert (
        f"- Speed to target (higher is better): Shift 1 **{figures[1]['speed_to_target_pct']:.2f} %**"
        in (side["text"])
    )


def test_every_shift_of_a_day_names_the_best_and_the_worst(conn):
    figures = recomputed(conn, DAY, DAY)
    answer = ask(conn, "compare all shifts")
    q = query_of(answer, "get_group_comparison")
    best, worst = figures[3]["speed_to_target_pct"], figures[2]["speed_to_target_pct"]
    gap = round(round(best, 2) - round(worst, 2), 2)
    assert headline(answer)["text"] == (
        f"Shift 3 was the best of the three shifts on Wed 2026-09-16 at **{best:.2f} %** speed to target "
        f"(query {q} · row {row_of(answer, 3)}); shift 2 was the worst at **{worst:.2f} %**, "
        f"**{gap:.2f} points** lower (query {q} · row {row_of(answer, 2)})."
    )
    side = table(answer)
    assert [c["group"] for c in side["columns"]] == ["Shift 1", "Shift 2", "Shift 3"]
    for (measure, better), row in zip(ROWS, side["rows"], strict=True):
        values = [figures[s][measure] for s in (1, 2, 3)]
        assert [c["end"] for c in row["cells"]] == ends(values, better), measure
    # The old headline (the first shift's own speed) is gone; each shift's detail follows the table.
    assert "Shift 1 ran at" not in "\n".join(s["text"] for s in answer["sections"])
    assert {"type": "label", "text": "Shift three"} in [
        {"type": s["type"], "text": s["text"]} for s in answer["sections"]
    ]


def test_shifts_level_on_speed_to_target_are_said_level(conn):
    answer = ask(conn, "compare 3rd shift vs 1st shift", TIED_DAY)
    figures = recomputed(conn, TIED_DAY, TIED_DAY)
    assert round(figures[1]["speed_to_target_pct"], 2) == round(figures[3]["speed_to_target_pct"], 2)
    q = query_of(answer, "get_group_comparison")
    assert headline(answer)["text"] == (
        f"The shifts were level on speed to target: shift 1 and shift 3 each ran "
        f"**{figures[1]['speed_to_target_pct']:.2f} %** (query {q} · row 1)."
    )
    speed = table(answer)["rows"][0]
    assert [c["end"] for c in speed["cells"]] == ["level", "level"]


def test_a_day_with_an_excluded_record_is_compared_not_ranked_unless_the_shifts_compared_are_whole(conn):
    # Known before this answer had a table: the whole shifts' wet-end lines say "Slowest run" on a day whose
    # evidence holds an incomplete shift, which the rank-word invariant counts against the whole answer.
    answer = ask(
        conn, "compare all shifts", PARTIAL_DAY, known="rank word on an incomplete window: - Slowest run"
    )
    assert headline(answer)["text"] == (
        "The shifts are compared, not ranked: Mon 2026-09-21 has one excluded setup on shift 2 "
        "(Waste/gross area out of bounds)."
    )
    side = table(answer)
    assert side["ranked"] is False
    assert all(c["end"] is None for r in side["rows"] for c in r["cells"])
    assert all(r["better"] is None for r in side["rows"])
    # Shifts 1 and 3 are whole that day: their comparison is ranked.
    answer = ask(conn, "compare 3rd shift vs 1st shift", PARTIAL_DAY)
    assert headline(answer)["text"].startswith(
        "Shift 3 was better than shift 1 on Mon 2026-09-21: **91.67 %**"
    )
    assert table(answer)["ranked"] is True


def test_the_window_leads_with_the_best_shift_and_the_crews_with_the_slowest(conn):
    figures = recomputed(conn, *WEEK)
    best, worst = figures[3]["speed_to_target_pct"], figures[2]["speed_to_target_pct"]
    gap = round(round(best, 2) - round(worst, 2), 2)
    answer = ask(conn, "which shift was best this week")
    assert headline(answer)["text"] == (
        f"Shift 3 was the best shift of the window at **{best:.2f} %** speed to target (query 1 · row 1); "
        f"shift 2 was the worst at **{worst:.2f} %**, **{gap:.2f} points** lower (query 1 · row 3)."
    )
    side = table(answer)
    assert [r["measure"] for r in side["rows"]][
        -1
    ] == "shifts_run"  # a window's groups say how often they ran
    assert [c["value"] for c in side["rows"][-1]["cells"]] == [5, 5, 5]
    # The crews run one shift each in this store: crew B is shift 2, crew C shift 3.
    answer = ask(conn, "which crew was slowest this week")
    assert headline(answer)["text"] == (
        f"Crew B was the slowest crew of the window at **{worst:.2f} %** speed to target, "
        f"**{gap:.2f} points** below the best (query 1 · row 3); crew C was the best at **{best:.2f} %** "
        f"(query 1 · row 1)."
    )
    assert [c["group"] for c in table(answer)["columns"]] == ["Crew A", "Crew B", "Crew C"]


def run_tool(conn: Any, args: dict[str, Any], scope: Scope) -> Any:
    return dispatch(full_registry(), RunContext(conn, scope), ToolCall("c1", "get_group_comparison", args))


def test_the_group_tool_compares_only_the_shifts_named_and_says_the_points_behind_the_best(conn):
    window = {"period": "day", "anchor": DAY.isoformat()}
    result = run_tool(
        conn, {"window": window, "shift": None, "group_by": "shift", "shifts": [3, 1]}, Scope(day=DAY)
    )
    assert not result.is_error, result.content
    rows = result.content["rows"]
    assert [(r["shift"], r["rank"], r["points_behind_best"]) for r in rows] == [(3, 1, 0.0), (1, 2, 8.34)]
    # One shift, a crew comparison by shift, or a shift outside the selected one are refused.
    for args, scope in (
        ({"group_by": "shift", "shifts": [2]}, Scope(day=DAY)),
        ({"group_by": "crew", "shifts": [1, 2]}, Scope(day=DAY)),
        ({"group_by": "shift", "shifts": [1, 2]}, Scope(day=DAY, shift=2, include="shift")),
    ):
        assert run_tool(conn, {"window": window, "shift": None, **args}, scope).is_error, args
