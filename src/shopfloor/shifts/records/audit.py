"""Fixed store queries that feed the metrics: summed quantities per shift, crew or day and shift.

The SQL only sums; every ratio is computed once, in ``metrics.kpis``, so the formulas live in one place.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb

from shopfloor.shifts.plant import metrics
from shopfloor.shifts.plant.catalog import TRIM_FLAG_PCT
from shopfloor.shifts.records import store

# Allow-listed grouping keys: name -> SQL expression (a struct for day and shift).
GROUPS: dict[str, str] = {
    "all": "'all'",
    "shift": "sh.shift",
    "crew": "sh.crew",
    "day": "sh.day",
    "day_shift": "(sh.day, sh.shift)",
}

SUMS_SQL = """
SELECT {key} AS key_, count(*) AS shifts, sum(scheduled_min) AS scheduled_min, sum(setups) AS setups,
       sum(paper_changes) AS paper_changes, sum(lineal_ft) AS feet, sum(target_ft) AS target_feet,
       sum(elapsed_min) AS elapsed_min, sum(stop_min_allocated) AS stop_min_allocated,
       sum(gross_sqft) AS gross_sqft, sum(trim_sqft) AS trim_sqft, sum(shear_sqft) AS shear_sqft,
       sum(reject_sqft) AS reject_sqft, sum(maintenance_min) AS maintenance_min,
       sum(operator_min) AS operator_min, sum(pm_min) AS pm_min, sum(external_min) AS external_min,
       sum(setups_above_trim_flag) AS setups_above_trim_flag,
       count(*) FILTER (WHERE coverage <> 'complete') AS incomplete
FROM shifts sh
WHERE day BETWEEN $first AND $last AND ($shift IS NULL OR shift = $shift)
GROUP BY 1
ORDER BY 1
"""

# The same sums recomputed from the record tables; the audit checks that both agree.
RAW_SUMS_SQL = """
WITH s AS (
    SELECT day, shift, count(*) AS setups, count(DISTINCT run_id) AS runs, sum(gross_feet) AS feet,
           sum(target_fpm * elapsed_min) AS target_feet, sum(elapsed_min) AS elapsed,
           sum(stop_min) AS stop_min, sum(gross_sqft) AS gross, sum(trim_sqft) AS trim,
           sum(shear_sqft) AS shear, sum(reject_sqft) AS rejects,
           count(*) FILTER (WHERE trim_sqft * 100 > {flag} * gross_sqft) AS above
    FROM setups WHERE day BETWEEN $first AND $last GROUP BY day, shift
), d AS (
    SELECT day, shift,
           sum(minutes) FILTER (WHERE kind = 'Maintenance') AS m,
           sum(minutes) FILTER (WHERE kind = 'Operator') AS o,
           sum(minutes) FILTER (WHERE kind = 'PM') AS p,
           sum(minutes) FILTER (WHERE kind = 'External') AS e
    FROM stops WHERE day BETWEEN $first AND $last GROUP BY day, shift
)
SELECT {key} AS key_, count(*) AS shifts, sum(sh.scheduled_min) AS scheduled_min,
       coalesce(sum(s.setups), 0) AS setups, coalesce(sum(s.runs), 0) AS paper_changes,
       coalesce(sum(s.feet), 0) AS feet, coalesce(sum(s.target_feet), 0) AS target_feet,
       coalesce(sum(s.elapsed), 0) AS elapsed_min, coalesce(sum(s.stop_min), 0) AS stop_min_allocated,
       coalesce(sum(s.gross), 0) AS gross_sqft, coalesce(sum(s.trim), 0) AS trim_sqft,
       coalesce(sum(s.shear), 0) AS shear_sqft, coalesce(sum(s.rejects), 0) AS reject_sqft,
       coalesce(sum(d.m), 0) AS maintenance_min, coalesce(sum(d.o), 0) AS operator_min,
       coalesce(sum(d.p), 0) AS pm_min, coalesce(sum(d.e), 0) AS external_min,
       coalesce(sum(s.above), 0) AS setups_above_trim_flag,
       count(*) FILTER (WHERE sh.coverage <> 'complete') AS incomplete
FROM shifts sh
LEFT JOIN s ON s.day = sh.day AND s.shift = sh.shift
LEFT JOIN d ON d.day = sh.day AND d.shift = sh.shift
WHERE sh.day BETWEEN $first AND $last AND ($shift IS NULL OR sh.shift = $shift)
GROUP BY 1
ORDER BY 1
"""


def sums_sql(group: str, *, from_records: bool = False) -> str:
    """The summing query for one allow-listed grouping (over the shift sums, or the record tables)."""
    template = RAW_SUMS_SQL if from_records else SUMS_SQL
    return template.format(key=GROUPS[group], flag=TRIM_FLAG_PCT)


def window_sums(
    conn: duckdb.DuckDBPyConnection,
    first: date,
    last: date,
    *,
    group: str = "shift",
    shift: int | None = None,
    from_records: bool = False,
) -> dict[Any, tuple[metrics.Sums, int]]:
    """Summed quantities per group over the production days ``first``..``last`` (inclusive), with the
    number of incomplete shifts in each group."""
    if group not in GROUPS:
        raise ValueError(f"unknown grouping {group!r}")
    sql = sums_sql(group, from_records=from_records)
    result = store.bounded_query(conn, sql, {"first": first, "last": last, "shift": shift})
    out: dict[Any, tuple[metrics.Sums, int]] = {}
    for row in result.dicts():
        key = tuple(row["key_"].values()) if isinstance(row["key_"], dict) else row["key_"]
        out[key] = (metrics.Sums.from_row(row), int(row["incomplete"]))
    return out


def window_kpis(
    conn: duckdb.DuckDBPyConnection,
    first: date,
    last: date,
    *,
    group: str = "shift",
    shift: int | None = None,
) -> dict[Any, dict[str, Any]]:
    """KPI rows per group (``metrics.kpis``) with ``incomplete_shifts`` beside them."""
    return {
        key: {**metrics.kpis(s), "incomplete_shifts": incomplete}
        for key, (s, incomplete) in window_sums(conn, first, last, group=group, shift=shift).items()
    }


BASELINE_SQL = """
SELECT grade, sum(gross_feet), sum(elapsed_min), sum(stop_min)
FROM setups
WHERE day >= $since AND day < $before
GROUP BY grade
ORDER BY grade
"""


def grade_baselines(conn: duckdb.DuckDBPyConnection, before: date) -> dict[str, float | None]:
    """Each grade's running speed (stops out) over the trailing year before ``before``: the
    ``baseline_fpm`` a window starting on ``before`` is held against."""
    since = (
        before.replace(year=before.year - 1)
        if not (before.month == 2 and before.day == 29)
        else before.replace(year=before.year - 1, day=28)
    )
    result = store.bounded_query(conn, BASELINE_SQL, {"since": since, "before": before})
    return {
        grade: metrics.grade_baseline([(feet, elapsed, stops)]) for grade, feet, elapsed, stops in result.rows
    }


FAMILY_SQL = """
SELECT family, sum(sqft)
FROM rejects
WHERE day BETWEEN $first AND $last AND ($shift IS NULL OR shift = $shift)
GROUP BY family
ORDER BY family
"""


def family_sqft(
    conn: duckdb.DuckDBPyConnection, first: date, last: date, *, shift: int | None = None
) -> dict[str, float]:
    """Reject area by dry-end family over a window (valid setups only)."""
    result = store.bounded_query(conn, FAMILY_SQL, {"first": first, "last": last, "shift": shift})
    return {family: area for family, area in result.rows}
