"""Production calendar: days, Mon–Fri weeks, calendar months and 4-4-5 fiscal periods.

Pure functions over dates. A production day runs 07:00 to 07:00 and is named by its starting date;
production days are Monday to Friday. Windows are inclusive date ranges. The 4-4-5 calendar is anchored
at 2026-09-01 (an editable assumption pending the owner's confirmation) and repeats every 52 weeks in
both directions, so the period before P1 is the 5-week P12 of the year before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Literal

Period = Literal["day", "week", "month", "fiscal"]
PERIODS: tuple[Period, ...] = ("day", "week", "month", "fiscal")
CoverageStatus = Literal["complete", "partial", "unavailable"]

DAY_START_HOUR = 7
FISCAL_ANCHOR = date(2026, 9, 1)
# The days a scope may name: every window and comparison window around them stays inside what a date can hold
# (the year before 0001-01-01 or after 9999-12-31 cannot be computed).
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)
FISCAL_PATTERN_WEEKS: tuple[int, ...] = (4, 4, 5) * 4
FISCAL_YEAR_DAYS = 7 * sum(FISCAL_PATTERN_WEEKS)  # 364: 12 periods, 52 weeks
# Day offsets of each period's first day within a fiscal year, plus the year's end.
_FISCAL_STARTS: tuple[int, ...] = tuple(7 * sum(FISCAL_PATTERN_WEEKS[:i]) for i in range(13))


@dataclass(frozen=True)
class Window:
    """An inclusive date range of one period kind; ``fiscal_year`` and ``fiscal_period`` for 4-4-5."""

    period: Period
    start: date
    end: date
    fiscal_year: int | None = None
    fiscal_period: int | None = None

    @property
    def label(self) -> str:
        """A short human label: "Week of 2026-09-14", "September 2026", "4-4-5 P1 FY2026 (4 weeks)"."""
        if self.period == "day":
            return f"{self.start:%a %Y-%m-%d}"
        if self.period == "week":
            return f"Week of {self.start.isoformat()} (Mon–Fri)"
        if self.period == "month":
            return f"{self.start:%B %Y}"
        weeks = ((self.end - self.start).days + 1) // 7
        return f"4-4-5 P{self.fiscal_period} FY{self.fiscal_year} ({weeks} weeks)"

    def contains(self, day: date) -> bool:
        """Whether ``day`` lies in the window."""
        return self.start <= day <= self.end

    def as_dict(self) -> dict[str, object]:
        """JSON form used in tool envelopes and addresses."""
        return {
            "period": self.period,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "label": self.label,
            "production_days": len(production_days(self)),
        }


@dataclass(frozen=True)
class Coverage:
    """How much of a window's expected production days are present and fully valid."""

    status: CoverageStatus
    expected: tuple[date, ...]
    valid: tuple[date, ...]
    missing: tuple[date, ...] = field(default=())
    invalid: tuple[date, ...] = field(default=())
    # Why each invalid day is incomplete ("2 excluded setups on shift 2 (…)"), in day order.
    why: tuple[tuple[date, str], ...] = field(default=())

    @property
    def complete(self) -> bool:
        """True only when every expected day is present and valid."""
        return self.status == "complete"

    @property
    def held_days(self) -> int:
        """The production days the store holds for the window (valid or with excluded records): what a
        window's dollars are scaled from to a year, never the days it should hold (docs/COST_MODEL.md)."""
        return len(self.expected) - len(self.missing)

    def as_dict(self) -> dict[str, object]:
        """JSON form used in tool envelopes."""
        return {
            "status": self.status,
            "expected_days": len(self.expected),
            "valid_days": len(self.valid),
            "missing_days": [d.isoformat() for d in self.missing],
            "incomplete_days": [d.isoformat() for d in self.invalid],
            "held_days": self.held_days,
            "incomplete_why": {d.isoformat(): text for d, text in self.why},
        }


def production_day(moment: datetime) -> date:
    """The production day a timestamp belongs to (07:00 to 07:00, named by its starting date)."""
    return (moment - timedelta(hours=DAY_START_HOUR)).date()


def is_production_day(day: date) -> bool:
    """Monday to Friday."""
    return day.weekday() < 5


def previous_production_day(day: date) -> date:
    """The last Monday–Friday date strictly before ``day``."""
    candidate = day - timedelta(days=1)
    while not is_production_day(candidate):
        candidate -= timedelta(days=1)
    return candidate


def window_for(period: Period, anchor: date) -> Window:
    """The window of kind ``period`` containing ``anchor``."""
    if period == "day":
        return Window("day", anchor, anchor)
    if period == "week":
        monday = anchor - timedelta(days=anchor.weekday())
        return Window("week", monday, monday + timedelta(days=4))
    if period == "month":
        first = anchor.replace(day=1)
        next_first = (first + timedelta(days=32)).replace(day=1)
        return Window("month", first, next_first - timedelta(days=1))
    if period == "fiscal":
        return _fiscal_window(anchor)
    raise ValueError(f"unknown period {period!r}")


def _fiscal_window(anchor: date) -> Window:
    offset = (anchor - FISCAL_ANCHOR).days
    year_index, within = divmod(offset, FISCAL_YEAR_DAYS)  # floor division extends backward too
    index = max(i for i in range(12) if _FISCAL_STARTS[i] <= within)
    year_start = FISCAL_ANCHOR + timedelta(days=year_index * FISCAL_YEAR_DAYS)
    start = year_start + timedelta(days=_FISCAL_STARTS[index])
    end = year_start + timedelta(days=_FISCAL_STARTS[index + 1] - 1)
    return Window("fiscal", start, end, fiscal_year=FISCAL_ANCHOR.year + year_index, fiscal_period=index + 1)


def previous_window(window: Window) -> Window:
    """The window before ``window``, computed the same way (previous production day for a day)."""
    if window.period == "day":
        return window_for("day", previous_production_day(window.start))
    return window_for(window.period, window.start - timedelta(days=1))


def windows_back(window: Window, count: int) -> list[Window]:
    """``count`` consecutive windows ending with ``window``, oldest first."""
    out = [window]
    while len(out) < count:
        out.insert(0, previous_window(out[0]))
    return out


def production_days(window: Window) -> list[date]:
    """The Monday–Friday dates of ``window`` (a day window on a weekend holds none)."""
    days: list[date] = []
    current = window.start
    while current <= window.end:
        if is_production_day(current):
            days.append(current)
        current += timedelta(days=1)
    return days


def coverage(
    window: Window,
    present: Iterable[date],
    invalid: Iterable[date] = (),
    why: Mapping[date, str] | None = None,
) -> Coverage:
    """Complete when every expected production day is present and not invalid; otherwise partial.

    ``present`` are the days the store holds, ``invalid`` the present days (for the scope in question)
    with excluded records. Missing days are unavailable, never zero; a window with no valid day at all
    is ``unavailable``.
    """
    expected = tuple(production_days(window))
    present_set = set(present)
    invalid_set = set(invalid) & present_set
    missing = tuple(d for d in expected if d not in present_set)
    bad = tuple(d for d in expected if d in invalid_set)
    valid = tuple(d for d in expected if d in present_set and d not in invalid_set)
    if not expected or len(missing) == len(expected):
        status: CoverageStatus = "unavailable"
    elif missing or bad:
        status = "partial"
    else:
        status = "complete"
    reasons = tuple((d, (why or {})[d]) for d in bad if d in (why or {}))
    return Coverage(status, expected, valid, missing, bad, reasons)


LISTED_DAYS = 5  # days a coverage line names before it counts the rest


def _days_text(days: list[str]) -> str:
    shown = ", ".join(days[:LISTED_DAYS])
    return shown + (f" and {len(days) - LISTED_DAYS} more" if len(days) > LISTED_DAYS else "")


def coverage_line(cov: Mapping[str, object]) -> str | None:
    """The one sentence that says a window is not complete, and why (docs/METRICS.md, "Windows"): the days
    missing from the store, each incomplete day with its excluded records, and what is withheld. ``None``
    for a complete window. Every answer and report says a partial or empty window this way."""
    status = cov.get("status")
    if status == "complete" or status is None:
        return None
    if status == "unavailable":
        return "No production day of this window is in the store: its figures are unavailable, never zero."
    parts = [f"{cov.get('valid_days')} of {cov.get('expected_days')} production days complete"]
    missing = [str(d) for d in cov.get("missing_days") or []]  # type: ignore[attr-defined]
    if missing:
        parts.append(f"not in the store: {_days_text(missing)}")
    why = dict(cov.get("incomplete_why") or {})  # type: ignore[call-overload]
    incomplete = [str(d) for d in cov.get("incomplete_days") or []]  # type: ignore[attr-defined]
    explained = [f"{d} has {why[d]}" for d in incomplete if d in why]
    if explained:
        parts.append(_days_text(explained))
    bare = [d for d in incomplete if d not in why]
    if bare:
        parts.append(f"incomplete: {_days_text(bare)}")
    return (
        "The window is partial: " + "; ".join(parts) + ". Rankings withheld, deltas withheld, missing days "
        "unavailable (never zero)."
    )


def in_calendar(day: date) -> bool:
    """Whether ``day`` lies in the plant calendar (``FIRST_DAY`` to ``LAST_DAY``)."""
    return FIRST_DAY <= day <= LAST_DAY


def parse_day(text: str) -> date:
    """A YYYY-MM-DD date, with a clear error for anything else."""
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ValueError(f"not a date (YYYY-MM-DD): {text!r}") from None
