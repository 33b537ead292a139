"""Money tools: where the money went on a shift or a production day, priced at the assumed rates.

Each downtime reason and the speed gap to the reference speed are machine time; side trim, shear and each
dry-end family are board. Planned maintenance and power outages are carried apart: no rank and no part of the
recorded-losses total; ``all_in_usd`` adds them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shopfloor.agent.tools import ToolError
from shopfloor.shifts.plant.calendar import window_for
from shopfloor.shifts.plant.money import (
    COST_NOTE,
    FORMULAS,
    RATES,
    board_usd,
    contribution,
    kind_class,
    machine_usd,
    per_year,
    speed_gap_minutes,
)
from shopfloor.shifts.tools.context import RunContext, Sql, envelope, require_day_control, scoped_shift
from shopfloor.shifts.tools.rows import DayCall, day_tool, shift_coverage

SHIFT_SCOPE = "day = $day AND list_contains($shifts, shift)"


class ShiftDollarArgs(BaseModel):
    """One shift of the selected day."""

    model_config = ConfigDict(extra="forbid")
    shift: Literal[1, 2, 3] = Field(description="Shift number 1, 2 or 3 (inside the selected scope).")


class DayDollarArgs(BaseModel):
    """Shifts of the selected day (null = all three)."""

    model_config = ConfigDict(extra="forbid")
    shifts: list[Literal[1, 2, 3]] | None = Field(description="The shifts to add up, or null for all three.")


def _priced_rows(ctx: RunContext, sql: Sql, shifts: list[int]) -> list[dict[str, Any]]:
    """The day's losses on ``shifts``, each priced: downtime by reason and the speed gap as machine time,
    side trim, shear and each dry-end family as board."""
    stops, totals, rejects = _money_sums(ctx, sql, {"day": ctx.scope.day, "shifts": shifts})
    return _price(stops, totals, rejects)


def _money_sums(
    ctx: RunContext, sql: Sql, p: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """Stops by kind and reason, the setups' feet, running minutes, trim and shear, and rejects by family,
    in query order."""
    stops = sql.rows(
        ctx,
        f"""
        SELECT kind, reason, count(*) AS stops, sum(minutes) AS minutes FROM stops
        WHERE {SHIFT_SCOPE} GROUP BY kind, reason ORDER BY minutes DESC, kind, reason
        """,
        p,
    )
    totals = sql.rows(
        ctx,
        f"""
        SELECT count(*) AS setups, sum(gross_feet) AS feet, sum(elapsed_min - stop_min) AS running_min,
               sum(trim_sqft) AS trim, sum(shear_sqft) AS shear
        FROM setups WHERE {SHIFT_SCOPE}
        """,
        p,
    )[0]
    rejects = sql.rows(
        ctx,
        f"""
        SELECT family, count(*) AS records, sum(sqft) AS sqft FROM rejects WHERE {SHIFT_SCOPE}
        GROUP BY family ORDER BY sqft DESC, family
        """,
        p,
    )
    sql.source_rows += (
        sum(int(r["stops"]) for r in stops)
        + int(totals["setups"] or 0)
        + sum(int(r["records"]) for r in rejects)
    )
    return stops, totals, rejects


def _price(
    stops: list[dict[str, Any]], totals: dict[str, Any], rejects: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One priced row per stop reason, the speed gap, side trim, shear and each dry-end family."""
    rows: list[dict[str, Any]] = []
    for stop in stops:
        rows.append(
            {
                "item": stop["reason"],
                "category": "downtime",
                "kind": stop["kind"],
                "quantity": stop["minutes"],
                "unit": "min",
                "usd": machine_usd(stop["minutes"]),
                "class": kind_class(stop["kind"]),
                "basis": "machine time",
            }
        )
    gap = speed_gap_minutes(totals["feet"] or 0.0, totals["running_min"] or 0.0)
    rows.append(
        {
            "item": f"speed gap to {RATES.reference_fpm:,.0f} ft/min",
            "category": "speed",
            "kind": None,
            "quantity": gap,
            "unit": "min",
            "usd": machine_usd(gap),
            "class": "controllable",
            "basis": "machine time",
        }
    )
    for name, area in (("side trim", totals["trim"]), ("shear", totals["shear"])):
        rows.append(
            {
                "item": name,
                "category": "board",
                "kind": None,
                "quantity": area or 0.0,
                "unit": "sq ft",
                "usd": board_usd(area or 0.0),
                "class": "controllable",
                "basis": "board",
            }
        )
    for reject in rejects:
        rows.append(
            {
                "item": f"dry-end {reject['family']}",
                "category": "board",
                "kind": None,
                "quantity": reject["sqft"],
                "unit": "sq ft",
                "usd": board_usd(reject["sqft"]),
                "class": "controllable",
                "basis": "board",
            }
        )
    return rows


def _shape(rows: list[dict[str, Any]], days: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Rank the recorded losses by dollars; carry schedule-driven and external apart, unranked."""
    recorded = sorted((r for r in rows if r["class"] == "controllable"), key=lambda r: (-r["usd"], r["item"]))
    apart = [r for r in rows if r["class"] != "controllable"]
    for rank, row in enumerate(recorded, 1):
        row["rank"] = rank
    for row in apart:
        row["rank"] = None
    out = recorded + apart
    for row in out:
        row["usd_per_year"] = per_year(row["usd"], days)
        row["contribution"] = contribution(row["quantity"]) if row["basis"] == "board" else None
        row["formula"] = FORMULAS["board" if row["basis"] == "board" else row["category"]]
    total = round(sum(r["usd"] for r in recorded), 2)
    apart_total = round(sum(r["usd"] for r in apart), 2)
    summary = {
        "recorded_losses_usd": total,
        "recorded_losses_per_year_usd": per_year(total, days),
        "apart_usd": apart_total,
        "all_in_usd": round(total + apart_total, 2),
        "rates": RATES.as_dict(),
        "rates_line": RATES.line(),
        "cost_note": COST_NOTE,
        "contribution_status": "margin not set" if RATES.margin_usd_per_msf is None else "margin set",
    }
    return out, summary


@day_tool
def get_shift_dollars(call: DayCall, args: ShiftDollarArgs) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each loss of one shift priced at the assumed rates, the recorded losses ranked by dollars."""
    return _shape(_priced_rows(call.ctx, call.sql, [call.shift]), 1)


def get_day_dollars(ctx: RunContext, args: DayDollarArgs) -> dict[str, Any]:
    """The same gaps summed over the listed complete shifts and priced once on the day."""
    require_day_control(ctx, "get_day_dollars")
    wanted = sorted(set(args.shifts or [1, 2, 3]))
    for shift in wanted:
        scoped_shift(ctx, shift)  # refuses any shift outside the selected scope
    if ctx.scope.include == "shift" and args.shifts is None:
        raise ToolError(f"Under the selected-shift scope, list only shift {ctx.scope.shift}.")
    sql = Sql()
    complete: list[int] = []
    excluded: list[int] = []
    for shift in wanted:
        status = shift_coverage(ctx, sql, shift)["status"]
        (complete if status == "complete" else excluded).append(shift)
    rows, summary = _shape(_priced_rows(ctx, sql, complete), 1) if complete else ([], {})
    return envelope(
        ctx,
        "get_day_dollars",
        sql,
        rows,
        window=window_for("day", ctx.scope.day),
        cover={"status": "complete" if not excluded else "incomplete", "shifts": complete},
        shift=None,
        shifts=complete,
        excluded_shifts=excluded,
        **summary,
    )
