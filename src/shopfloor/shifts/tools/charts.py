"""Chart specifications: a bar or line chart whose points are copied from one successful result of this run.

A chart never carries a number its rows do not hold: the x and y columns must exist in the cited result's
rows (or one of its components), and each point records the row it came from.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.tools.context import RunContext

MAX_TITLE = 120


class DefaultChart(NamedTuple):
    """The chart a tool's result gets when one is asked for: x column, y column, kind and title."""

    x: str
    y: str
    kind: str
    title: str


class ChartArgs(BaseModel):
    """A chart over one earlier result of this run."""

    model_config = ConfigDict(extra="forbid")
    result_id: str = Field(description="The result_id of a successful result of this investigation.")
    component: str | None = Field(description="A component id of that result (overview charts), or null.")
    kind: Literal["bar", "line"] = Field(description="bar or line.")
    x: str = Field(description="Column of the rows for the x axis.")
    y: str = Field(description="Numeric column of the rows for the y axis.")
    title: str = Field(description="Short title, at most 120 characters.")


def chart_rows(result: dict[str, Any], component: str | None) -> list[dict[str, Any]]:
    """The rows a chart over ``result`` (and ``component``) draws from."""
    if component is None:
        rows: list[dict[str, Any]] = result["rows"]
        return rows
    for comp in result.get("components") or []:
        if comp["id"] == component:
            comp_rows: list[dict[str, Any]] = comp["rows"]
            return comp_rows
    raise ToolError(f"Result {result['result_id']} has no component {component!r}.")


def build_chart(
    result: dict[str, Any], component: str | None, kind: str, x: str, y: str, title: str, chart_id: str
) -> dict[str, Any]:
    """A validated chart spec from one result's rows."""
    rows = chart_rows(result, component)
    if not rows:
        raise ToolError("That result has no rows to chart.")
    columns = set(rows[0])
    if x not in columns or y not in columns:
        raise ToolError(f"x and y must be columns of the rows: {', '.join(sorted(columns))}.")
    points = []
    for index, row in enumerate(rows):
        value = row[y]
        if value is not None and not isinstance(value, int | float):
            raise ToolError(f"Column {y!r} is not numeric.")
        if value is None or isinstance(value, bool):
            continue
        points.append({"x": str(row[x]), "y": value, "row": index})
    return {
        "chart_id": chart_id,
        "kind": kind,
        "title": title[:MAX_TITLE],
        "source": result["result_id"],
        "component": component,
        "x": x,
        "y": y,
        "points": points,
    }


def render_chart(ctx: RunContext, args: ChartArgs) -> dict[str, Any]:
    """Validate and return a chart spec over a successful result of this run."""
    result = ctx.results.get(args.result_id)
    if result is None:
        raise ToolError("Unknown result_id: a chart may only cite a successful result of this investigation.")
    if len(args.title) > MAX_TITLE or not args.title.strip():
        raise ToolError(f"title must be 1 to {MAX_TITLE} characters.")
    chart = build_chart(
        result, args.component, args.kind, args.x, args.y, args.title, f"chart-{ctx.new_result_id()}"
    )
    ctx.charts.append(chart)
    return chart
