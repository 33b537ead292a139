"""The shared SQL row readers of the tools: a shift's coverage, downtime, rejects and setups.

A tool module reads the record store through these readers or its own fixed statements, never through
another tool module (docs/shifts-agent.md, "Layout"). Every statement binds its values; a grouping column is
chosen from ``GROUP_COLUMNS`` in code, never taken from a caller's string.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Protocol, TypeVar

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.plant.calendar import Window, production_days, window_for
from shopfloor.shifts.plant.metrics import FIGURE_DIGITS, ratio
from shopfloor.shifts.plant.money import board_usd, machine_usd, per_year
from shopfloor.shifts.tools.context import RunContext, Sql, envelope, require_day_control, scoped_shift
from shopfloor.shifts.tools.sums import TRIM_FLAG, params

GROUP_COLUMNS = {"reason": "reason", "place": "place", "kind": "kind"}  # allowlist: name -> column


def shift_coverage(ctx: RunContext, sql: Sql, shift: int) -> dict[str, Any]:
    """complete / incomplete for one shift of the scope day, with its excluded records."""
    key = ("coverage", ctx.scope.day, shift)
    if key in ctx.memo:
        return dict(ctx.memo[key])
    # One statement for the shift row and its excluded records: every daily tool starts here.
    rows = sql.rows(
        ctx,
        """
        SELECT coverage, crew, supervisor_slot,
               (SELECT coalesce(list({'record_id': e.record_id, 'error': e.error} ORDER BY e.record_id), [])
                FROM excluded_records e WHERE e.day = $day AND e.shift = $shift) AS excluded
        FROM shifts WHERE day = $day AND shift = $shift
        """,
        {"day": ctx.scope.day, "shift": shift},
    )
    if not rows:
        raise ToolError(f"No records for shift {shift} on {ctx.scope.day.isoformat()}.")
    excluded = [dict(e) for e in rows[0]["excluded"]]
    status = "complete" if rows[0]["coverage"] == "complete" and not excluded else "incomplete"
    ctx.memo[key] = {
        "status": status,
        "excluded_records": excluded,
        "crew": rows[0]["crew"],
        "supervisor_slot": rows[0]["supervisor_slot"],
    }
    return dict(ctx.memo[key])


def downtime_totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The stops and minutes of every row listed, and the minutes in hours: the totals a question asks for
    as a count ("how many stops") or in hours ("downtime in hours")."""
    minutes = sum(float(r["minutes"] or 0) for r in rows)
    return {
        "stops_total": sum(int(r["stops"] or 0) for r in rows),
        "minutes_total": round(minutes, FIGURE_DIGITS),
        "hours_total": round(minutes / 60, 2),
    }


def downtime_rows(
    ctx: RunContext,
    sql: Sql,
    p: dict[str, Any],
    group_by: str,
    kind: str | None,
    *,
    days: int | None = None,
    reason: str | None = None,
) -> list[dict[str, Any]]:
    """Downtime grouped by an allowlisted column; unplanned first by minutes, then external, then PM.
    ``days`` is the production days held that a window's dollars scale from to a year (default: the
    window's calendar days); ``reason`` keeps only the stops of that reason (the knife jams by place)."""
    column = GROUP_COLUMNS[group_by]  # never a caller's string: the argument model allowed only these keys
    rows = sql.rows(
        ctx,
        f"""
        SELECT {column} AS key, class, string_agg(DISTINCT kind, ', ' ORDER BY kind) AS kinds,
               count(*) AS stops, sum(minutes) AS minutes
        FROM (SELECT *, CASE WHEN kind = 'PM' THEN 'schedule-driven' WHEN kind = 'External' THEN 'external'
                             ELSE 'controllable' END AS class
              FROM stops
              WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
                AND ($kind IS NULL OR kind = $kind OR kind = 'External')
                AND ($reason IS NULL OR reason = $reason))
        GROUP BY {column}, class
        ORDER BY CASE class WHEN 'controllable' THEN 0 WHEN 'external' THEN 1 ELSE 2 END,
                 minutes DESC, key
        """,
        {**p, "kind": kind, "reason": reason},
    )
    sql.source_rows += sum(int(r["stops"]) for r in rows)
    if days is None:
        days = len(production_days(Window("day", p["start"], p["end"]))) if "start" in p else 1
    total = sum(float(r["minutes"] or 0) for r in rows)
    for row in rows:
        row["min_per_stop"] = ratio(row["minutes"], row["stops"], digits=FIGURE_DIGITS)
        # Its share of all the downtime listed ("what percent of downtime was knife jams").
        row["share_pct"] = ratio(row["minutes"], total, 100, digits=FIGURE_DIGITS)
        row["usd"] = machine_usd(row["minutes"])
        row["usd_per_year"] = per_year(row["usd"], max(1, days))
    return rows


def quality_rows(ctx: RunContext, sql: Sql, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Rejected area by family and reported reason, as % of gross and of the yield after trim and shear."""
    rows = sql.rows(
        ctx,
        """
        WITH g AS (SELECT sum(gross_sqft) AS gross, sum(gross_sqft - trim_sqft - shear_sqft) AS yield_sqft
                   FROM setups WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift))
        SELECT family, reason, count(*) AS records, sum(sheets) AS sheets, sum(sqft) AS sqft,
               any_value(g.gross) AS gross, any_value(g.yield_sqft) AS yield_sqft
        FROM rejects, g
        WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
        GROUP BY family, reason ORDER BY sqft DESC, family, reason
        """,
        p,
    )
    days = len(production_days(Window("day", p["start"], p["end"])))
    for row in rows:
        sql.source_rows += int(row["records"])
        row["pct_of_gross"] = ratio(row["sqft"], row.pop("gross"), 100, digits=FIGURE_DIGITS)
        row["pct_of_yield"] = ratio(row["sqft"], row.pop("yield_sqft"), 100, digits=FIGURE_DIGITS)
        row["usd"] = board_usd(row["sqft"])
        row["usd_per_year"] = per_year(row["usd"], max(1, days))
    return rows


def setup_rows(ctx: RunContext, sql: Sql, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Per setup of the shift: timing, footage, allocated stops, trim flag and speed against target."""
    rows = sql.rows(
        ctx,
        """
        SELECT record_id, setup_id, run_id, grade, width_in, started, elapsed_min, gross_feet, stop_count,
               stop_min, trim_sqft, gross_sqft, reject_sqft, target_fpm, continued
        FROM setups WHERE day = $start AND shift = $shift ORDER BY started
        """,
        p,
    )
    sql.source_rows += len(rows)
    for row in rows:
        row["started"] = str(row["started"])
        row["trim_pct"] = ratio(row["trim_sqft"], row["gross_sqft"], 100, digits=FIGURE_DIGITS)
        row["trim_flag"] = row["trim_pct"] is not None and row["trim_pct"] > TRIM_FLAG
        row["pct_of_target"] = ratio(
            row["gross_feet"], row["target_fpm"] * row["elapsed_min"], 100, digits=FIGURE_DIGITS
        )
        row["running_fpm"] = ratio(
            row["gross_feet"], row["elapsed_min"] - row["stop_min"], digits=FIGURE_DIGITS
        )
    return rows


class ShiftArg(Protocol):
    """An argument model naming one shift of the selected day."""

    @property
    def shift(self) -> int: ...


A = TypeVar("A", bound=ShiftArg)


@dataclass
class DayCall:
    """One daily tool call after its common opening: the checked shift, its bound values and coverage."""

    ctx: RunContext
    sql: Sql
    shift: int
    params: dict[str, Any]
    cover: dict[str, Any]


DayBody = Callable[[DayCall, A], tuple[list[dict[str, Any]], dict[str, Any]]]


def day_tool(body: DayBody[A]) -> Callable[[RunContext, A], dict[str, Any]]:
    """A daily tool from its body: the opening (the Period control, the shift against the scope, the
    shift's coverage) and the closing (the envelope over the scope's day) are written once, here.

    The body returns its rows and the envelope's extra fields; the tool is named after the body."""
    name = body.__name__

    @wraps(body)
    def handler(ctx: RunContext, args: A) -> dict[str, Any]:
        require_day_control(ctx, name)
        shift = scoped_shift(ctx, args.shift)
        assert shift is not None
        sql = Sql()
        call = DayCall(ctx, sql, shift, params(ctx.scope.day, ctx.scope.day, shift), {})
        call.cover = shift_coverage(ctx, sql, shift)
        rows, extra = body(call, args)
        window = window_for("day", ctx.scope.day)
        return envelope(ctx, name, sql, rows, window=window, cover=call.cover, shift=shift, **extra)

    return handler
