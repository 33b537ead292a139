"""Shift Investigator: offline daily investigations, period reports and each period tool, over the default year.

Uses the prepared store (``var/shifts.duckdb``) when it holds data, otherwise generates and loads the default
year into a temporary directory first (about two minutes on the 2-core machine).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.bench import Figure
from shopfloor.settings import get_settings
from shopfloor.shifts import Scope, investigate, period_report
from shopfloor.shifts.catalog import full_registry
from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, store
from shopfloor.shifts.tools.context import RunContext

STATE: dict[str, Any] = {}
DAILY_QUESTIONS = [
    "why was second shift slow",
    "show the downtime by reason",
    "fpm by grade",
    "what were the rejects",
    "where did the money go",
    "show the setup matrix",
]
ANCHOR = date(2026, 9, 16)


def conn() -> Any:
    if "conn" not in STATE:
        path = get_settings().shifts_db_path()
        if not path.is_file():
            root = Path(tempfile.mkdtemp(prefix="bench-investigation-"))
            gen.generate(root / "xml", answer_keys=root / "keys.json")
            path = root / "shifts.duckdb"
            build = store.connect(path)
            ingest.ingest_directory(build, root / "xml")
            build.close()
        STATE["conn"] = store.open_read_only(path)
    return STATE["conn"]


def _percentiles(samples: list[float]) -> dict[str, float]:
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return {"median": statistics.median(samples), "p95": p95, "runs": float(len(samples))}


def daily_investigations() -> dict[str, float]:
    """Every daily question on shift 2 over twenty production days spread across the year."""
    c = conn()
    days = [r[0] for r in c.execute("SELECT day FROM days ORDER BY day").fetchall()][::13]
    samples = []
    for day in days:
        scope = Scope(day=day, shift=2, include="shift")
        for question in DAILY_QUESTIONS:
            t0 = time.perf_counter()
            answer = investigate(question, scope, c)
            samples.append((time.perf_counter() - t0) * 1000)
            assert answer.status in ("complete", "partial"), (question, day, answer.status)
    return _percentiles(samples)


def report_timer(period: str) -> Callable[[], dict[str, float]]:
    def measure() -> dict[str, float]:
        c = conn()
        samples = []
        for _ in range(5):
            t0 = time.perf_counter()
            period_report(c, period, ANCHOR)  # type: ignore[arg-type]
            samples.append((time.perf_counter() - t0) * 1000)
        return _percentiles(samples)

    return measure


W = {"period": "month", "anchor": ANCHOR.isoformat()}
PERIOD_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("get_period_kpis", {"window": W, "compare": True, "shift": None}),
    (
        "compare_periods",
        {"current_window": W, "previous_window": {"period": "month", "anchor": "2026-08-03"}, "shift": None},
    ),
    ("get_downtime_pareto", {"window": W, "group_by": "reason", "measure": "minutes", "shift": None}),
    ("get_waste_breakdown", {"window": W, "shift": None}),
    ("get_stops_profile", {"window": W, "shift": None}),
    ("get_trend", {"metric": "speed_to_target", "weeks": 26, "anchor": ANCHOR.isoformat(), "shift": None}),
    ("get_grade_totals", {"window": W, "shift": None, "measure": "volume"}),
    ("get_overrun", {"window": W, "shift": None}),
    ("get_rollstock", {"window": W, "shift": None}),
    ("get_downtime_review", {"window": W, "shift": None}),
    ("get_speed_opportunity", {"window": W, "shift": None, "slice_by": "width"}),
    ("get_speed_variance", {"window": W, "shift": None, "against": "previous", "against_shift": None}),
    ("get_opportunities", {"window": W, "shift": None, "lens": "all"}),
]
REGISTRY = full_registry()


def tool_call(name: str, args: dict[str, Any]) -> Callable[[], None]:
    def run() -> None:
        result = dispatch(REGISTRY, RunContext(conn(), Scope(day=ANCHOR)), ToolCall("b", name, args))
        assert not result.is_error, result.content

    return run


FIGURES = [
    Figure(
        "offline daily investigation (p50/p95)",
        measure=daily_investigations,
        unit="ms",
        goal=150.0,
        goal_on="p95",
    ),
    Figure("period report: week", measure=report_timer("week"), unit="ms"),
    Figure("period report: month", measure=report_timer("month"), unit="ms"),
    Figure("period report: 4-4-5 period", measure=report_timer("fiscal"), unit="ms", goal=1000.0),
    Figure("period report: whole year", measure=report_timer("year"), unit="ms"),
    *[
        Figure(f"{name} (one month)", tool_call(name, args), repeat=9, unit="ms")
        for name, args in PERIOD_CALLS
    ],
]
