"""What each live planner is offered: inside its provider's strict limits, guarded by the scope in code."""

from __future__ import annotations

from datetime import date

import pytest

from shopfloor.agent.dispatch import dispatch
from shopfloor.agent.providers.base import ToolCall
from shopfloor.agent.providers.profiles import registry_problems
from shopfloor.settings import Settings
from shopfloor.shifts.catalog import model_registry
from shopfloor.shifts.live.catalogs import (
    PREVIEW_ROWS,
    catalog_names,
    live_registry,
    model_view,
    scope_problem,
)
from shopfloor.shifts.live.live import PlannerError, available_planners, chosen_planner, parse_planner
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.tools.context import RunContext

PERIODS = ("day", "week", "month", "fiscal")


@pytest.mark.parametrize("period", PERIODS)
@pytest.mark.parametrize("provider", ("anthropic", "openai", "gemini"))
def test_every_live_catalog_fits_its_providers_strict_limits(provider, period):
    assert registry_problems(provider, live_registry(provider, period).specs()) == []


def test_the_whole_model_catalog_would_be_refused_which_is_why_it_is_split():
    specs = model_registry().specs()
    assert registry_problems("anthropic", specs) != []
    assert any("Gemini enums hold strings only" in p for p in registry_problems("gemini", specs))


def test_the_catalogs_per_scope_and_provider():
    day = catalog_names("anthropic", "day")
    window = catalog_names("anthropic", "week")
    assert "get_shift_overview" in day and "get_shift_overview" not in window
    assert "get_downtime_pareto" in window and "render_chart" in day and "render_chart" in window
    for names in (day, window):
        assert "get_shift_dollars" not in names and "get_day_dollars" not in names
    assert "get_speed_variance" in window and "get_speed_variance" not in catalog_names("openai", "week")
    assert "get_downtime_review" not in catalog_names("openai", "day")


def test_gemini_gets_the_shift_as_a_plain_integer_and_dispatch_still_refuses_others(conn):
    spec = next(s for s in live_registry("gemini", "day").specs() if s["name"] == "get_shift_kpis")
    shift = spec["parameters"]["properties"]["shift"]
    assert "enum" not in shift and shift["type"] == "integer" and "One of: 1, 2, 3." in shift["description"]
    ctx = RunContext(conn, Scope(day=date(2026, 9, 16)))
    result = dispatch(live_registry("gemini", "day"), ctx, ToolCall("c1", "get_shift_kpis", {"shift": 4}))
    assert result.is_error and "Input should be 1, 2 or 3" in result.content


WEEK = Scope(day=date(2026, 9, 16), period="week")  # 2026-09-14..18
SHIFT2 = Scope(day=date(2026, 9, 16), shift=2, include="shift")


@pytest.mark.parametrize(
    ("tool", "args", "scope", "problem"),
    [
        ("get_downtime_pareto", {"window": {"period": "week", "anchor": "2026-09-18"}}, WEEK, None),
        (
            "get_downtime_pareto",
            {"window": {"period": "week", "anchor": "2026-09-21"}},
            WEEK,
            "outside the selected window",
        ),
        (
            "get_downtime_pareto",
            {"window": {"period": "month", "anchor": "2026-09-16"}},
            WEEK,
            "must be the selected week window",
        ),
        (
            "compare_periods",
            {
                "current_window": {"period": "week", "anchor": "2026-09-15"},
                "previous_window": {"period": "week", "anchor": "2026-09-08"},
            },
            WEEK,
            None,
        ),
        (
            "compare_periods",
            {
                "current_window": {"period": "week", "anchor": "2026-09-15"},
                "previous_window": {"period": "week", "anchor": "2026-09-22"},
            },
            WEEK,
            "must lie before",
        ),
        ("get_trend", {"anchor": "2026-10-01", "weeks": 4}, WEEK, "anchor must lie inside"),
        (
            "get_speed_variance",
            {"window": {"period": "day", "anchor": "2026-09-16"}, "shift": 2, "against_shift": 1},
            SHIFT2,
            "shift 1 is outside",
        ),
        ("get_shift_kpis", {"shift": None}, SHIFT2, None),
    ],
)
def test_the_scope_check(tool, args, scope, problem):
    found = scope_problem(tool, args, scope)
    assert (found is None) if problem is None else (problem in (found or ""))


def test_a_window_outside_the_scope_is_refused_by_the_tool_context(conn):
    ctx = RunContext(conn, WEEK)
    call = ToolCall(
        "c1",
        "get_downtime_pareto",
        {
            "window": {"period": "week", "anchor": "2026-09-08"},
            "shift": None,
            "group_by": "reason",
            "measure": "minutes",
        },
    )
    result = dispatch(live_registry("anthropic", "week"), ctx, call)
    assert result.is_error and "outside the selected window" in result.content
    assert ctx.results == {}


def test_the_model_sees_no_sql_and_at_most_twelve_rows():
    envelope = {"result_id": "r1-abc123", "rows": [{"n": i} for i in range(30)], "sql": [{"sql": "SELECT 1"}]}
    view = model_view(envelope)
    assert "sql" not in view and len(view["rows"]) == PREVIEW_ROWS
    assert view["rows_total"] == 30 and view["rows_shown"] == PREVIEW_ROWS
    assert len(envelope["rows"]) == 30  # the run keeps the whole envelope


def test_planner_names():
    assert parse_planner("offline").kind == "offline"
    assert parse_planner("analyst").name == "analyst:claude-opus-5-5"
    assert parse_planner("gpt-6.1-terra").provider == "openai"
    assert parse_planner("gemini-2.5-flash-lite").kind == "loop"
    with pytest.raises(PlannerError):
        parse_planner("analyst:gpt-6.1-terra")
    with pytest.raises(PlannerError):
        parse_planner("llama-3")
    assert chosen_planner(None, Settings(model="offline")).kind == "offline"
    assert chosen_planner("analyst", Settings(model="offline")).kind == "analyst"


def test_available_planners_say_what_each_needs(monkeypatch):
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    planners = {p["name"]: p for p in available_planners(Settings())}
    assert planners["offline"]["ready"] is True
    assert planners["analyst:claude-opus-5-5"] == {
        "name": "analyst:claude-opus-5-5",
        "kind": "analyst",
        "provider": "anthropic",
        "model": "claude-opus-5-5",
        "ready": False,
        "needs": "ANTHROPIC_API_KEY",
    }
    assert planners["gpt-6.1-terra"]["needs"] == "OPENAI_API_KEY"
