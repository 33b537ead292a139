"""The investigator's tool catalog in its fixed order, and the subsets each planner may use."""

from __future__ import annotations

from functools import lru_cache

from shopfloor.agent.tools import ToolRegistry
from shopfloor.shifts.tools.charts import chart_tool
from shopfloor.shifts.tools.context import RunContext
from shopfloor.shifts.tools.daily import daily_tools
from shopfloor.shifts.tools.levers import lever_tools
from shopfloor.shifts.tools.material import material_tools
from shopfloor.shifts.tools.money import money_tools
from shopfloor.shifts.tools.period import period_tools

DAILY = tuple(t.name for t in daily_tools())
PERIOD = tuple(t.name for t in [*period_tools(), *material_tools(), *lever_tools()])
# get_day_dollars is planned by the offline router only: never in a model's catalog.
OFFLINE_ONLY = ("get_day_dollars",)


@lru_cache(maxsize=1)
def full_registry() -> ToolRegistry[RunContext]:
    """Every tool, in catalog order (the offline planner's registry); built once, its schemas with it."""
    return ToolRegistry(
        [*daily_tools(), chart_tool(), *period_tools(), *material_tools(), *lever_tools(), *money_tools()]
    )


@lru_cache(maxsize=1)
def model_registry() -> ToolRegistry[RunContext]:
    """The catalog offered to a live model: everything but the offline-only tools."""
    full = full_registry()
    return full.subset(n for n in full.names if n not in OFFLINE_ONLY)


@lru_cache(maxsize=64)
def plan_registry(names: tuple[str, ...]) -> ToolRegistry[RunContext]:
    """The offline planner's registry for one plan: its steps' tools and render_chart, in catalog order.

    The offline planner reads no tool specs, so a run need not copy the whole catalog's schemas; the plan was
    already checked against the full catalog, and a call outside it is refused by the dispatcher."""
    return full_registry().subset([*names, "render_chart"])
