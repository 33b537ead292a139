"""Shift Investigator measures as pure functions over record values (docs/METRICS.md).

Every ratio sums its numerator and denominator first and divides once; a zero denominator gives
``None`` (shown as "Unavailable"), never 0 and never an error. Percentages of unequal bases are never
averaged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeVar, get_args

from shopfloor.shifts.plant.catalog import (
    NEW_SETUP_SHEAR_FEET,
    SHIFT_MINUTES,
    STOP_KINDS,
    TRIM_FLAG_PCT,
)

K = TypeVar("K")

# The measures a weekly trend may follow (the trend tool's SQL and the address grammar both read these).
TrendMetric = Literal[
    "speed",
    "speed_to_target",
    "lineal_ft",
    "downtime_pct",
    "maintenance_pct",
    "operator_pct",
    "trim_pct",
    "dry_end_pct",
]
# The tuple is read from the type so the plan parser and the trend tool's schema cannot drift apart.
TREND_METRICS: tuple[str, ...] = get_args(TrendMetric)


# ---------------------------------------------------------------------------------------------
# Ratios


# Figures a tool or a report shows carry four decimals; the formulas here keep full precision.
FIGURE_DIGITS = 4


def ratio(
    numerator: float | None, denominator: float | None, scale: float = 1.0, digits: int | None = None
) -> float | None:
    """numerator / denominator × scale, rounded to ``digits`` when given; None for a missing numerator or a
    zero or missing denominator (never a fake zero, docs/METRICS.md)."""
    if numerator is None or not denominator:
        return None
    value = scale * numerator / denominator
    return value if digits is None else round(value, digits)


def pct(numerator: float, denominator: float) -> float | None:
    """100 × numerator / denominator, or None when the denominator is zero."""
    value = ratio(numerator, denominator)
    return None if value is None else 100.0 * value


# ---------------------------------------------------------------------------------------------
# Geometry


def lineal_feet(cuts: float, length_in: float) -> float:
    """Machine travel of one knife: cuts × cutoff length / 12 (outs never multiply travel)."""
    return cuts * length_in / 12.0


def occupied_width(knives: Iterable[tuple[float, float]]) -> float:
    """Width the sheets occupy across the web: Σ outs × sheet width, from (outs, width_in) pairs."""
    return sum(outs * width for outs, width in knives)


def trim_width(web_in: float, knives: Iterable[tuple[float, float]]) -> float:
    """Inches of side trim the outs leave on the web (both sides together)."""
    return web_in - occupied_width(knives)


def gross_sqft(gross_feet: float, web_in: float) -> float:
    """Everything through the shear: gross feet × web width / 12."""
    return gross_feet * web_in / 12.0


def trim_sqft(net_feet: float, web_in: float, occupied_in: float) -> float:
    """Side trim on net feet (after shear): net feet × (web − occupied) / 12."""
    return net_feet * (web_in - occupied_in) / 12.0


def shear_feet(new_setup: bool) -> float:
    """Six 34-inch full-width chops (17 ft) on a new setup; none on a continuation."""
    return NEW_SETUP_SHEAR_FEET if new_setup else 0.0


def shear_sqft(feet: float, web_in: float) -> float:
    """Full-width shear area: shear feet × web width / 12."""
    return feet * web_in / 12.0


def reject_sqft(sheets: int, width_in: float, length_in: float) -> float:
    """Area of individually counted reject sheets: sheets × width × length / 144 (not × outs)."""
    return sheets * width_in * length_in / 144.0


def cuts_for(sheets: int, outs: int) -> int:
    """Knife strokes needed for ``sheets`` at ``outs`` across (rounded up: the surplus is explicit)."""
    return -(-sheets // outs)


# ---------------------------------------------------------------------------------------------
# Speeds


def shift_speed(feet: float, scheduled_min: float = SHIFT_MINUTES) -> float | None:
    """Lineal feet over the shift's scheduled minutes (stops included)."""
    return ratio(feet, scheduled_min)


def target_feet(target_fpm: float, elapsed_min: float) -> float:
    """What a setup would make running at its grade target for its elapsed minutes."""
    return target_fpm * elapsed_min


def speed_to_target(runs: Iterable[tuple[float, float, float]]) -> float | None:
    """Duration-weighted speed to target from (feet, target_fpm, elapsed_min) rows:
    100 × Σ feet / Σ (target × elapsed)."""
    feet = 0.0
    target = 0.0
    for f, fpm, minutes in runs:
        feet += f
        target += target_feet(fpm, minutes)
    return pct(feet, target)


def running_speed(feet: float, elapsed_min: float, stop_min: float) -> float | None:
    """Running speed with stops taken out: Σ feet / (Σ elapsed − Σ allocated stop minutes)."""
    return ratio(feet, elapsed_min - stop_min)


@dataclass(frozen=True)
class Baseline:
    """A grade's trailing-year running speed and a window's position against it."""

    baseline_fpm: float | None
    running_fpm: float | None
    baseline_gap_ft: float | None
    under_baseline: bool | None


def grade_baseline(history: Iterable[tuple[float, float, float]]) -> float | None:
    """Trailing running speed of a grade from (feet, elapsed_min, stop_min) rows before the window."""
    feet = minutes = 0.0
    for f, elapsed, stops in history:
        feet += f
        minutes += elapsed - stops
    return ratio(feet, minutes)


def against_baseline(
    baseline_fpm: float | None, feet: float, elapsed_min: float, stop_min: float
) -> Baseline:
    """Running speed in the window against the baseline; the gap is the feet the baseline speed would
    have made in the same running minutes, minus the feet made (positive = under baseline)."""
    running = running_speed(feet, elapsed_min, stop_min)
    if baseline_fpm is None or running is None:
        return Baseline(baseline_fpm, running, None, None)
    gap = baseline_fpm * (elapsed_min - stop_min) - feet
    return Baseline(baseline_fpm, running, gap, running < baseline_fpm)


# ---------------------------------------------------------------------------------------------
# Stop allocation


def overlap_seconds(a_start: datetime, a_end: datetime, b_start: datetime, b_end: datetime) -> float:
    """Seconds two half-open intervals share (0 when they do not touch)."""
    return max(0.0, (min(a_end, b_end) - max(a_start, b_start)).total_seconds())


def allocate_stops(
    setups: Sequence[tuple[K, datetime, datetime]], stops: Sequence[tuple[str, datetime, datetime]]
) -> list[tuple[str, K, float]]:
    """Split each stop over the setups it overlaps: (stop id, setup id, seconds) per overlap.

    Each overlapped setup gets the stop once (so stop counts summed over setups can exceed the number
    of stops) and its share of the seconds (so the seconds sum to the stop's covered duration)."""
    out: list[tuple[str, K, float]] = []
    for stop_id, s_start, s_end in stops:
        for setup_id, u_start, u_end in setups:
            if s_start < u_end and s_end > u_start:
                out.append((stop_id, setup_id, overlap_seconds(s_start, s_end, u_start, u_end)))
    return out


# ---------------------------------------------------------------------------------------------
# KPI rows from sums


@dataclass
class Sums:
    """Summed quantities of a set of valid setups and the shifts they belong to."""

    shifts: int = 0
    scheduled_min: float = 0.0
    setups: int = 0
    paper_changes: int = 0  # distinct wet-end runs per day and shift, summed
    feet: float = 0.0
    target_feet: float = 0.0
    elapsed_min: float = 0.0
    stop_min_allocated: float = 0.0
    gross_sqft: float = 0.0
    trim_sqft: float = 0.0
    shear_sqft: float = 0.0
    reject_sqft: float = 0.0
    downtime_min: dict[str, float] = field(default_factory=dict)  # by kind
    setups_above_trim_flag: int = 0

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Sums:
        """The sums of one summing query's row: the one SQL-to-``Sums`` mapping.

        Every summing statement names its columns after these fields, and the stop minutes by kind
        ``maintenance_min``, ``operator_min``, ``pm_min``, ``external_min`` (the columns of the ``shifts``
        table); a missing sum (no rows) is zero."""
        return cls(
            shifts=int(row["shifts"] or 0),
            scheduled_min=float(row["scheduled_min"] or 0.0),
            setups=int(row["setups"] or 0),
            paper_changes=int(row["paper_changes"] or 0),
            feet=float(row["feet"] or 0.0),
            target_feet=float(row["target_feet"] or 0.0),
            elapsed_min=float(row["elapsed_min"] or 0.0),
            stop_min_allocated=float(row["stop_min_allocated"] or 0.0),
            gross_sqft=float(row["gross_sqft"] or 0.0),
            trim_sqft=float(row["trim_sqft"] or 0.0),
            shear_sqft=float(row["shear_sqft"] or 0.0),
            reject_sqft=float(row["reject_sqft"] or 0.0),
            downtime_min={kind: float(row[f"{kind.lower()}_min"] or 0.0) for kind in STOP_KINDS},
            setups_above_trim_flag=int(row["setups_above_trim_flag"] or 0),
        )


def yield_sqft(s: Sums) -> float:
    """Area left after trim and shear: the base of the dry-end ``pct_of_yield``."""
    return s.gross_sqft - s.trim_sqft - s.shear_sqft


def estimated_good_sqft(s: Sums) -> float:
    """Gross − trim − shear − rejects: an accounting estimate, not accepted product."""
    return s.gross_sqft - s.trim_sqft - s.shear_sqft - s.reject_sqft


def kpis(s: Sums) -> dict[str, float | int | None]:
    """The KPI row of a set of shifts (METRICS.md): every percentage a ratio of sums."""
    row: dict[str, float | int | None] = {
        "shifts": s.shifts,
        "valid_setups": s.setups,
        "paper_changes": s.paper_changes,
        "lineal_ft": s.feet,
        "shift_fpm": ratio(s.feet, s.scheduled_min),
        "speed_to_target_pct": pct(s.feet, s.target_feet),
        "elapsed_fpm": ratio(s.feet, s.elapsed_min),
        "running_fpm": running_speed(s.feet, s.elapsed_min, s.stop_min_allocated),
        "gross_sqft": s.gross_sqft,
        "estimated_good_sqft": estimated_good_sqft(s),
        "yield_sqft": yield_sqft(s),
        "throughput_in": ratio(12.0 * s.gross_sqft, s.feet),
        "trim_pct": pct(s.trim_sqft, s.gross_sqft),
        "shear_pct": pct(s.shear_sqft, s.gross_sqft),
        "dry_end_pct": pct(s.reject_sqft, s.gross_sqft),
        "dry_end_pct_of_yield": pct(s.reject_sqft, yield_sqft(s)),
        "lineal_per_setup": ratio(s.feet, s.setups),
        "lineal_per_paper_change": ratio(s.feet, s.paper_changes),
        "setups_above_trim_flag": s.setups_above_trim_flag,
    }
    for kind in ("Maintenance", "Operator", "PM", "External"):
        row[f"{kind.lower()}_pct"] = pct(s.downtime_min.get(kind, 0.0), s.scheduled_min)
    row["downtime_pct"] = pct(sum(s.downtime_min.values()), s.scheduled_min)
    return row


def trim_flagged(trim: float, gross: float) -> bool:
    """A setup whose trim is above the owner's 3.25 % flag."""
    value = pct(trim, gross)
    return value is not None and value > TRIM_FLAG_PCT


def waste_breakdown(s: Sums, families: dict[str, float]) -> list[dict[str, float | str | None]]:
    """Trim, shear, each dry-end family and the dry-end total as sq ft, % of gross and (dry end only)
    % of the yield after trim and shear."""
    base = yield_sqft(s)
    rows: list[dict[str, float | str | None]] = [
        {
            "category": "trim",
            "sqft": s.trim_sqft,
            "pct_of_gross": pct(s.trim_sqft, s.gross_sqft),
            "pct_of_yield": None,
        },
        {
            "category": "shear",
            "sqft": s.shear_sqft,
            "pct_of_gross": pct(s.shear_sqft, s.gross_sqft),
            "pct_of_yield": None,
        },
    ]
    for family, area in families.items():
        rows.append(
            {
                "category": family,
                "sqft": area,
                "pct_of_gross": pct(area, s.gross_sqft),
                "pct_of_yield": pct(area, base),
            }
        )
    total = sum(families.values())
    rows.append(
        {
            "category": "dry_end",
            "sqft": total,
            "pct_of_gross": pct(total, s.gross_sqft),
            "pct_of_yield": pct(total, base),
        }
    )
    return rows
