"""Plans and canonical addresses (docs/URLS.md).

A plan is what the offline router decided: the measure, the scope it runs in and its few options. Every plan
has one canonical address and an address resolves to the same plan, so a question and its address answer with
the same tools and sections. Follow-ups chain with ``after=`` (the previous plan's own address).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date
from urllib.parse import parse_qsl, quote, urlsplit

from shopfloor.shifts.planning.measures import MEASURE_NAMES
from shopfloor.shifts.plant.calendar import FIRST_DAY, LAST_DAY, PERIODS, Period, in_calendar, parse_day
from shopfloor.shifts.plant.catalog import (
    CREWS,
    DRY_END_FLAG_PCT,
    GRADE_TARGETS,
    MAINTENANCE_BAND_PCT,
    OPERATOR_BAND_PCT,
    PLACE_FAMILIES,
    REJECT_FAMILIES,
    STOP_PLACES,
    STOP_REASONS,
    WEB_WIDTHS,
)
from shopfloor.shifts.plant.metrics import TREND_METRICS
from shopfloor.shifts.plant.scope import Include, Scope

MEASURES = MEASURE_NAMES  # one row per measure in planning/measures.py
BY = ("reason", "place", "kind", "grade", "width", "crew", "shift")
KINDS = ("Maintenance", "Operator", "PM")
RANK_METRICS = ("speed", "downtime", "quality")
ENTITY_FIELDS = ("grade", "crew", "reason", "place", "width", "reject")
# A dry-end reject as the catalogue names it: a family ("warp") or a reported reason of one ("Up warp").
REJECTS = (*REJECT_FAMILIES, *(sub for subs in REJECT_FAMILIES.values() for sub in subs))
LENSES = ("all", "supervisor", "ownership")
# The figure a question asks for when it is not the measure's own (docs/URLS.md): a share of the whole, or a
# yes/no against the target ("is 2nd shift below target?"); the headline answers it first.
ASKS = ("share", "below_target", "at_target", "over_band", "within_band", "most", "least")
# The losses with an owner band (plant/catalog.py), each KPI tile with its band in percent: a yes/no against
# the band ("was maint dt over the band") is answered from the tile's value and flag.
BAND_TILES = {
    "maintenance_pct": MAINTENANCE_BAND_PCT,
    "operator_pct": OPERATOR_BAND_PCT,
    "dry_end_pct": DRY_END_FLAG_PCT,
}
# The measures each asked figure has a meaning on: a share of the downtime rows listed or of the dry-end
# rejects (the waste breakdown), a yes/no from the speed to target; on any other measure nothing would
# answer it, so the address is refused.
ASK_MEASURES = {
    "share": ("downtime", "pareto", "waste"),
    "below_target": ("fpm",),
    "at_target": ("fpm",),
    "over_band": ("kpis",),
    "within_band": ("kpis",),
    # Which shift or crew had the most or the least of the metric compared: that group leads the comparison.
    "most": ("compare_groups", "rankings"),
    "least": ("compare_groups", "rankings"),
}
END_METRICS = ("downtime", "quality", "lineal_ft")


@dataclass(frozen=True)
class Plan:
    """One routed question: measure, scope and options."""

    measure: str
    day: date
    shift: int | None = None
    include: Include = "day"
    window: Period = "day"
    anchor: date | None = None
    chart: bool = False
    by: str | None = None
    kind: str | None = None
    metric: str | None = None
    weeks: int | None = None
    lens: str | None = None
    count: bool = False
    other_shift: int | None = None
    other_anchor: date | None = None
    # Entities the question named (docs/shifts-agent.md, "Reading"): the answer applies each or says it did not.
    grade: str | None = None
    crew: str | None = None
    reason: str | None = None
    place: str | None = None
    width: int | None = None
    reject: str | None = None
    ask: str | None = None
    after: str | None = None

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"unknown measure {self.measure!r}")
        if self.window != "day" and self.anchor is None:
            object.__setattr__(self, "anchor", self.day)
        if self.window != "day" and self.anchor is not None:
            # A window plan is identified by its window; its day is the anchor.
            object.__setattr__(self, "day", self.anchor)
        if self.window == "day":
            object.__setattr__(self, "anchor", None)
        if self.shift is None and self.include == "shift":
            object.__setattr__(self, "include", "day")

    def scope(self) -> Scope:
        """The scope this plan reads: its day (a window's anchor), shift, include rule and window."""
        return Scope(day=self.day, shift=self.shift, include=self.include, period=self.window)

    def address(self) -> str:
        """The canonical address, e.g. ``/a?day=2026-09-14&shift=2&measure=overview``."""
        parts: list[tuple[str, str]] = []
        if self.window == "day":
            parts.append(("day", self.day.isoformat()))
        else:
            assert self.anchor is not None
            parts += [("window", self.window), ("anchor", self.anchor.isoformat())]
        if self.shift is not None:
            parts.append(("shift", str(self.shift)))
            if self.include == "day":
                parts.append(("include", "day"))
        parts.append(("measure", self.measure))
        for name in ("by", "kind", "metric", "weeks", "lens", "other_shift", *ENTITY_FIELDS, "ask"):
            value = getattr(self, name)
            if value is not None:
                parts.append((name, str(value)))
        if self.count:
            parts.append(("count", "1"))
        if self.other_anchor is not None:
            parts.append(("other_anchor", self.other_anchor.isoformat()))
        if self.chart:
            parts.append(("chart", "1"))
        if self.after:
            parts.append(("after", self.after))
        return "/a?" + "&".join(f"{k}={quote(v, safe='-')}" for k, v in parts)


class AddressError(ValueError):
    """An address that is not in the grammar."""


class CalendarError(AddressError):
    """An address whose date (``day``, ``anchor``, ``other_anchor``) lies outside the plant calendar
    (``FIRST_DAY`` to ``LAST_DAY``): every window and comparison around it could not be computed."""


def _calendar_day(data: dict[str, str], key: str) -> date:
    day = parse_day(data[key])
    if not in_calendar(day):
        raise CalendarError(f"{key} must be between {FIRST_DAY} and {LAST_DAY}")
    return day


# The keys an address may carry: one per field of the plan (docs/URLS.md).
ADDRESS_KEYS = frozenset(f.name for f in fields(Plan))
_ALLOWED_KEYS = ADDRESS_KEYS


def parse_address(address: str) -> Plan:
    """The plan an address names; raises :class:`AddressError` for anything outside the grammar."""
    split = urlsplit(address)
    if split.path not in ("/a", "/a.json", "") or split.scheme or split.netloc:
        raise AddressError("addresses start with /a?")
    try:
        pairs = parse_qsl(split.query, keep_blank_values=True, strict_parsing=bool(split.query))
    except ValueError as error:
        raise AddressError(f"malformed address: {error}") from None
    data: dict[str, str] = {}
    for key, value in pairs:
        if key not in _ALLOWED_KEYS and key not in ("format",):
            raise AddressError(f"unknown address field {key!r}")
        if key in data:
            raise AddressError(f"repeated address field {key!r}")
        data[key] = value
    data.pop("format", None)
    try:
        return _plan_from(data)
    except AddressError:
        raise
    except ValueError as error:
        raise AddressError(str(error)) from None


def _choice(value: str | None, allowed: tuple[str, ...], name: str) -> str | None:
    if value is None:
        return None
    if value not in allowed:
        raise AddressError(f"{name} must be one of {', '.join(allowed)}")
    return value


def _plan_from(data: dict[str, str]) -> Plan:
    measure = _choice(data.get("measure"), MEASURES, "measure")
    if measure is None:
        raise AddressError("measure is required")
    window = data.get("window", "day")
    if window not in PERIODS:
        raise AddressError(f"window must be one of {', '.join(PERIODS)}")
    if window == "day":
        if "anchor" in data or "day" not in data:
            raise AddressError("a day address has day= and no anchor=")
        day = _calendar_day(data, "day")
        anchor = None
    else:
        if "day" in data or "anchor" not in data:
            raise AddressError("a window address has anchor= and no day=")
        anchor = _calendar_day(data, "anchor")
        day = anchor
    shift = _int(data.get("shift"), (1, 2, 3), "shift")
    include = data.get("include", "shift" if shift is not None else "day")
    if include not in ("shift", "day") or (include == "day" and "include" in data and shift is None):
        raise AddressError("include=day only beside shift=")
    if data.get("include") == "shift":
        raise AddressError("include=shift is the default and is not written")
    weeks = _int(data.get("weeks"), tuple(range(1, 27)), "weeks")
    other_anchor = _calendar_day(data, "other_anchor") if "other_anchor" in data else None
    for flag in ("count", "chart"):
        if data.get(flag, "1") != "1":
            raise AddressError(f"{flag} is 1 or absent")
    ask = _choice(data.get("ask"), ASKS, "ask")
    if ask is not None and measure not in ASK_MEASURES[ask]:
        raise AddressError(f"ask={ask} is only for measure={' or measure='.join(ASK_MEASURES[ask])}")
    if ask in ("over_band", "within_band") and data.get("metric") not in BAND_TILES:
        raise AddressError(f"ask={ask} needs a metric with an owner band: {', '.join(BAND_TILES)}")
    if ask in ("most", "least") and data.get("metric") not in END_METRICS:
        raise AddressError(f"ask={ask} needs a metric the groups are compared on: {', '.join(END_METRICS)}")
    other_shift = _int(data.get("other_shift"), (1, 2, 3), "other_shift")
    if measure == "compare_shifts" and shift is not None and other_shift is None:
        # One shift has nothing beside it: the answer would be that shift's own (docs/URLS.md).
        raise AddressError("measure=compare_shifts with shift= names the other shift (other_shift=)")
    after = data.get("after")
    if after is not None:
        parse_address(after)  # the chain must itself be in the grammar
    return Plan(
        measure=measure,
        day=day,
        shift=shift,
        include=include,  # type: ignore[arg-type]
        window=window,  # type: ignore[arg-type]
        anchor=anchor,
        chart="chart" in data,
        by=_choice(data.get("by"), BY, "by"),
        kind=_choice(data.get("kind"), KINDS, "kind"),
        metric=_choice(data.get("metric"), RANK_METRICS + TREND_METRICS, "metric"),
        weeks=weeks,
        lens=_choice(data.get("lens"), LENSES, "lens"),
        count="count" in data,
        other_shift=other_shift,
        other_anchor=other_anchor,
        grade=_choice(data.get("grade"), tuple(GRADE_TARGETS), "grade"),
        crew=_choice(data.get("crew"), CREWS, "crew"),
        reason=_choice(data.get("reason"), STOP_REASONS, "reason"),
        place=_choice(data.get("place"), STOP_PLACES + tuple(PLACE_FAMILIES), "place"),
        width=_int(data.get("width"), tuple(int(w) for w in WEB_WIDTHS), "width"),
        reject=_choice(data.get("reject"), REJECTS, "reject"),
        ask=ask,
        after=after,
    )


def _int(value: str | None, allowed: tuple[int, ...], name: str) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or int(value) not in allowed:
        raise AddressError(f"{name} must be one of {allowed[0]}..{allowed[-1]}")
    return int(value)


# The router's examples and its refusal live beside the plan: a reading becomes one or the other.
EXAMPLES = (
    "Why was second shift slow?",
    "Show the downtime by reason",
    "fpm by grade",
    "Where did the money go this shift?",
    "Downtime pareto this month",
    "How much did we make last week?",
)


@dataclass(frozen=True)
class Unavailable:
    """The router's honest refusal: why, and questions it does answer."""

    reason: str
    examples: tuple[str, ...] = EXAMPLES
