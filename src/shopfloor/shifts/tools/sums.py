"""Fixed SQL templates shared by the tools, and the KPI arithmetic on their sums.

Every statement takes bound values only (``$start``, ``$end``, ``$shift``); a grouping identifier is chosen
from an allowlist in code and never comes from a caller's string. Percentages are ratios of sums.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from shopfloor.shifts.plant import catalog, metrics
from shopfloor.shifts.tools.context import RunContext, Sql

# The owner bands, declared once in the catalog; short names for the SQL templates and messages here.
MAINT_BAND = catalog.MAINTENANCE_BAND_PCT
OPERATOR_BAND = catalog.OPERATOR_BAND_PCT
TRIM_FLAG = catalog.TRIM_FLAG_PCT
DRY_END_BAND = catalog.DRY_END_FLAG_PCT
SHEAR_GUIDE = catalog.SHEAR_GUIDANCE_PCT

SCOPE = "day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)"

# Column names are the fields of ``metrics.Sums`` (read by ``Sums.from_row``), plus the stop count and
# the stop minutes of every kind.
KPI_SUMS = f"""
WITH sh AS (
  SELECT count(*) AS shifts, coalesce(sum(scheduled_min), 0) AS scheduled_min
  FROM shifts WHERE {SCOPE}),
su AS (
  SELECT count(*) AS setups, sum(gross_feet) AS feet, sum(gross_sqft) AS gross_sqft,
         sum(trim_sqft) AS trim_sqft, sum(shear_sqft) AS shear_sqft, sum(reject_sqft) AS reject_sqft,
         sum(target_fpm * elapsed_min) AS target_feet, sum(elapsed_min) AS elapsed_min,
         sum(stop_min) AS stop_min_allocated,
         count(*) FILTER (WHERE gross_sqft > 0 AND 100 * trim_sqft / gross_sqft > {TRIM_FLAG})
           AS setups_above_trim_flag,
         count(DISTINCT (day, shift, run_id)) AS paper_changes
  FROM setups WHERE {SCOPE}),
dt AS (
  SELECT count(*) AS stops, coalesce(sum(minutes), 0) AS stop_min,
         coalesce(sum(minutes) FILTER (WHERE kind = 'Maintenance'), 0) AS maintenance_min,
         coalesce(sum(minutes) FILTER (WHERE kind = 'Operator'), 0) AS operator_min,
         coalesce(sum(minutes) FILTER (WHERE kind = 'PM'), 0) AS pm_min,
         coalesce(sum(minutes) FILTER (WHERE kind = 'External'), 0) AS external_min
  FROM stops WHERE {SCOPE})
SELECT * FROM sh, su, dt
"""


def params(start: date, end: date, shift: int | None) -> dict[str, Any]:
    """The bound values of a window and shift scope."""
    return {"start": start, "end": end, "shift": shift}


def kpi_sums(ctx: RunContext, sql: Sql, start: date, end: date, shift: int | None) -> dict[str, Any]:
    """The summed numerators and denominators of every KPI over a date range and shift scope."""
    row = sql.rows(ctx, KPI_SUMS, params(start, end, shift))[0]
    sql.source_rows += int(row["shifts"] or 0) + int(row["setups"] or 0) + int(row["stops"] or 0)
    return row


def kpis(s: dict[str, Any]) -> dict[str, float | None]:
    """Every KPI from the sums, through the one set of formulas in ``metrics.kpis``."""
    sums = metrics.Sums.from_row(s)
    m = metrics.kpis(sums)
    values: dict[str, Any] = {
        "lineal_ft": m["lineal_ft"],
        "gross_sqft": m["gross_sqft"],
        "shift_fpm": m["shift_fpm"],
        "speed_to_target_pct": m["speed_to_target_pct"],
        "running_fpm": m["running_fpm"],
        "downtime_pct": m["downtime_pct"],
        "maintenance_pct": m["maintenance_pct"],
        "operator_pct": m["operator_pct"],
        "op_maint_pct": metrics.pct(
            sums.downtime_min["Maintenance"] + sums.downtime_min["Operator"], sums.scheduled_min
        ),
        "pm_pct": m["pm_pct"],
        "external_pct": m["external_pct"],
        "trim_pct": m["trim_pct"],
        "shear_pct": m["shear_pct"],
        "dry_end_pct": m["dry_end_pct"],
        "dry_end_pct_of_yield": m["dry_end_pct_of_yield"],
        "yield_sqft": m["yield_sqft"],
        "estimated_good_sqft": m["estimated_good_sqft"],
        "throughput_in": m["throughput_in"],
        "valid_setups": m["valid_setups"],
        "setups_above_trim_flag": m["setups_above_trim_flag"],
        "paper_changes": m["paper_changes"],
        "lineal_per_setup": m["lineal_per_setup"],
        "lineal_per_paper_change": m["lineal_per_paper_change"],
        "stops": s["stops"],
        "downtime_min": s["stop_min"],
    }
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in values.items()}


UNITS = {
    "lineal_ft": "ft",
    "gross_sqft": "sq ft",
    "shift_fpm": "ft/min",
    "speed_to_target_pct": "%",
    "running_fpm": "ft/min",
    "downtime_pct": "%",
    "maintenance_pct": "%",
    "operator_pct": "%",
    "op_maint_pct": "%",
    "pm_pct": "%",
    "external_pct": "%",
    "trim_pct": "%",
    "shear_pct": "%",
    "dry_end_pct": "%",
    "dry_end_pct_of_yield": "%",
    "yield_sqft": "sq ft",
    "estimated_good_sqft": "sq ft",
    "throughput_in": "in",
    "valid_setups": "setups",
    "setups_above_trim_flag": "setups",
    "paper_changes": "runs",
    "lineal_per_setup": "ft",
    "lineal_per_paper_change": "ft",
    "stops": "stops",
    "downtime_min": "min",
}
# Which way is better for each KPI (None: context, not a direction).
BETTER = {
    "lineal_ft": "higher",
    "gross_sqft": "higher",
    "shift_fpm": "higher",
    "speed_to_target_pct": "higher",
    "running_fpm": "higher",
    "downtime_pct": "lower",
    "maintenance_pct": "lower",
    "operator_pct": "lower",
    "op_maint_pct": "lower",
    "pm_pct": None,
    "external_pct": None,
    "trim_pct": "lower",
    "shear_pct": "lower",
    "dry_end_pct": "lower",
    "dry_end_pct_of_yield": "lower",
    "yield_sqft": "higher",
    "estimated_good_sqft": "higher",
    "throughput_in": None,
    "valid_setups": None,
    "setups_above_trim_flag": "lower",
    "paper_changes": None,
    "lineal_per_setup": "higher",
    "lineal_per_paper_change": "higher",
    "stops": "lower",
    "downtime_min": "lower",
}


def band(measure: str, value: float | None) -> tuple[float | None, str | None, bool]:
    """The owner's band for a measure: (band value, band text, flagged)."""
    if value is None:
        return None, None, False
    if measure == "maintenance_pct":
        return MAINT_BAND, f"maintenance band {MAINT_BAND} % of scheduled minutes", value > MAINT_BAND
    if measure == "operator_pct":
        return OPERATOR_BAND, f"operator band {OPERATOR_BAND} % of scheduled minutes", value > OPERATOR_BAND
    if measure == "dry_end_pct":
        return DRY_END_BAND, f"dry-end waste flags above {DRY_END_BAND} % of gross", value > DRY_END_BAND
    if measure == "trim_pct":
        return TRIM_FLAG, f"trim flags above {TRIM_FLAG} % per setup (guidance for the total)", False
    if measure == "shear_pct":
        return SHEAR_GUIDE[1], "shear 0.4–1 % is guidance, not an alarm", False
    if measure == "speed_to_target_pct":
        return 100.0, "speed to target below 100 % is highlighted", value < 100.0
    return None, None, False


def kpi_rows(values: dict[str, float | None]) -> list[dict[str, Any]]:
    """One row per KPI with unit, band and flag."""
    rows = []
    for measure, value in values.items():
        band_value, band_text, flagged = band(measure, value)
        rows.append(
            {
                "measure": measure,
                "value": value,
                "unit": UNITS[measure],
                "band": band_value,
                "band_text": band_text,
                "flag": flagged,
            }
        )
    return rows


def change_label(delta: float | None, better: str | None) -> str | None:
    """better / worse / unchanged for a delta, by the measure's better direction."""
    if delta is None or better is None:
        return None
    if abs(delta) < 1e-9:
        return "unchanged"
    improved = delta > 0 if better == "higher" else delta < 0
    return "better" if improved else "worse"
