"""Window tools about material: knife overrun against the order quantities, and rollstock consumed.

An order line is (production day, order id, knife); its requested sheets repeat on every fragment, so they
are read once per line and only produced sheets are summed. A line still open at the end of its day
(sheets remaining) is counted apart, not judged against the band.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.plant.metrics import FIGURE_DIGITS, ratio
from shopfloor.shifts.tools.context import (
    PeriodArgs,
    RunContext,
    Sql,
    args_window,
    envelope,
    scoped_shift,
    window_coverage,
)
from shopfloor.shifts.tools.sums import params

BAND_PCT = 2.0

OVERRUN_SQL = f"""
WITH line AS (
  SELECT day, order_id, knife, any_value(requested_sheets) AS requested, any_value(outs) AS outs,
         sum(cuts) AS cuts, sum(produced_sheets) AS sheets, min(remaining_after) AS remaining
  FROM knives WHERE day BETWEEN $start AND $end AND ($shift IS NULL OR shift = $shift)
  GROUP BY day, order_id, knife),
judged AS (
  SELECT *, ceil(requested / outs) AS nominal_cuts,
         CASE WHEN remaining > 0 THEN 'open'
              WHEN 100 * (sheets - requested) / requested > {BAND_PCT} THEN 'over'
              WHEN 100 * (sheets - requested) / requested < -{BAND_PCT} THEN 'under'
              ELSE 'inside' END AS band
  FROM line WHERE requested > 0)
SELECT coalesce(knife, 'all knives') AS knife, count(*) AS lines,
       count(*) FILTER (WHERE band <> 'open') AS closed_lines,
       sum(nominal_cuts) FILTER (WHERE band <> 'open') AS nominal_cuts,
       sum(cuts) FILTER (WHERE band <> 'open') AS cuts,
       sum(requested) FILTER (WHERE band <> 'open') AS requested_sheets,
       sum(sheets) FILTER (WHERE band <> 'open') AS sheets,
       count(*) FILTER (WHERE band = 'inside') AS inside,
       count(*) FILTER (WHERE band = 'over') AS over,
       count(*) FILTER (WHERE band = 'under') AS under,
       count(*) FILTER (WHERE band = 'open') AS open
FROM judged GROUP BY ROLLUP (knife) ORDER BY knife IS NULL, knife DESC
"""


def get_overrun(ctx: RunContext, args: PeriodArgs) -> dict[str, Any]:
    """Nominal versus actual cuts per knife with the share of customer lines inside, over and under ±2 %."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    rows = sql.rows(ctx, OVERRUN_SQL, params(current.start, current.end, shift))
    for row in rows:
        closed = row["closed_lines"]
        row["pct_of_nominal"] = ratio(row["cuts"], row["nominal_cuts"], 100, digits=FIGURE_DIGITS)
        row["sheets_pct_of_requested"] = ratio(
            row["sheets"], row["requested_sheets"], 100, digits=FIGURE_DIGITS
        )
        for band in ("inside", "over", "under"):
            row[f"share_{band}"] = ratio(row[band], closed, digits=FIGURE_DIGITS)
    if rows:
        sql.source_rows += int(rows[-1]["lines"])
    return envelope(
        ctx,
        "get_overrun",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        band_pct=BAND_PCT,
        note="Lines still open at the end of their day are counted apart, not judged against the band. With "
        "one shift, a line that also ran on another shift counts only this shift's cuts.",
    )


ROLL_ALL_SQL = """
SELECT grade, width_in, count(*) AS runs, sum(gross_feet) AS lineal_ft
FROM wet_end_runs WHERE day BETWEEN $start AND $end
GROUP BY grade, width_in ORDER BY lineal_ft DESC, grade, width_in
"""
ROLL_SHIFT_SQL = """
SELECT grade, width_in, count(DISTINCT (day, run_id)) AS runs, sum(gross_feet) AS lineal_ft
FROM setups WHERE day BETWEEN $start AND $end AND shift = $shift
GROUP BY grade, width_in ORDER BY lineal_ft DESC, grade, width_in
"""


def get_rollstock(ctx: RunContext, args: PeriodArgs) -> dict[str, Any]:
    """Paper consumed per board grade and web width: lineal feet, MSF footprint, runs, feet per run."""
    shift = scoped_shift(ctx, args.shift)
    current, previous = args_window(args.window)
    sql = Sql()
    cover = window_coverage(sql, ctx, current, shift)
    template = ROLL_ALL_SQL if shift is None else ROLL_SHIFT_SQL
    now = sql.rows(ctx, template, params(current.start, current.end, shift))
    before = {
        (r["grade"], r["width_in"]): r
        for r in sql.rows(ctx, template, params(previous.start, previous.end, shift))
    }
    rows = []
    for r in now:
        sql.source_rows += int(r["runs"])
        prev = before.get((r["grade"], r["width_in"]))
        msf = round(r["lineal_ft"] * r["width_in"] / 12 / 1000, 4)
        prev_msf = round(prev["lineal_ft"] * prev["width_in"] / 12 / 1000, 4) if prev else None
        rows.append(
            {
                "grade": r["grade"],
                "width_in": r["width_in"],
                "runs": r["runs"],
                "lineal_ft": r["lineal_ft"],
                "msf": msf,
                "ft_per_run": ratio(r["lineal_ft"], r["runs"], digits=FIGURE_DIGITS),
                "previous_lineal_ft": prev["lineal_ft"] if prev else None,
                "previous_msf": prev_msf,
                "previous_runs": prev["runs"] if prev else None,
                "delta_lineal_ft": round(r["lineal_ft"] - prev["lineal_ft"], 4) if prev else None,
                "delta_msf": round(msf - prev_msf, 4) if prev_msf is not None else None,
                "delta_runs": r["runs"] - prev["runs"] if prev else None,
            }
        )
    return envelope(
        ctx,
        "get_rollstock",
        sql,
        rows,
        window=current,
        previous=previous,
        cover=cover,
        shift=shift,
        note="MSF is the paper footprint (feet × width / 12 / 1,000); the records carry no basis weight, so "
        "no tons. All shifts count whole runs on the day they started; one shift counts the runs it ran.",
    )
