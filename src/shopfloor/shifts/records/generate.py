"""The synthetic year: one XML file per production day, a manifest, and the planted scenarios.

Every day has its own seed derived from the base seed and its date, and the scenario plan is derived
from the base seed and the as-of date, so a day's bytes never depend on which other days are
generated with it: the whole year and any slice of it agree byte for byte.

The answer keys of the planted scenarios are written to a separate file outside the XML directory and
the store; this module only writes that file and never reads it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from shopfloor.shifts.plant import calendar, catalog

GENERATOR_VERSION = "shopfloor-shifts-1"
DEFAULT_AS_OF = date(2026, 11, 27)
DEFAULT_SEED = 2002
DEFAULT_CORRUPT_DAYS = 3
ANSWER_KEYS_FILENAME = "shifts-answer-keys.json"
MANIFEST_FILENAME = "manifest.json"

GRADE_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("26-C", 0.18),
    ("32-C", 0.20),
    ("55-C", 0.15),
    ("200-C", 0.13),
    ("275-BC", 0.18),
    ("275-EB", 0.16),
)
LENGTH_PAIRS: tuple[tuple[int, int], ...] = (
    (20, 40),
    (24, 36),
    (30, 45),
    (36, 54),
    (40, 60),
    (46, 92),
    (60, 90),
    (32, 64),
    (48, 72),
    (56, 84),
)
NORMAL_FACTOR = (0.84, 0.89)
SLOW_FACTOR = (0.66, 0.73)
EIGHTH = 0.125
ROTATION_EPOCH = date(2024, 1, 1)  # a Monday; crews rotate weekly from here

MAINTENANCE_MIX: tuple[tuple[str, str, float], ...] = (
    ("Upper knife", "Knife jam", 0.10),
    ("Lower knife", "Knife jam", 0.10),
    ("Belt", "Equipment stop", 0.12),
    ("Shear knife", "Equipment stop", 0.10),
    ("Slitter/scorer", "Equipment stop", 0.12),
    ("Double backer", "Equipment stop", 0.12),
    ("Glue dams", "Glue skip", 0.14),
    ("Splicer 1", "Equipment stop", 0.04),
    ("Splicer 2", "Equipment stop", 0.04),
    ("Splicer 3", "Equipment stop", 0.04),
    ("Splicer 4", "Equipment stop", 0.04),
    ("Splicer 5", "Equipment stop", 0.04),
)
OPERATOR_MIX: tuple[tuple[str, str, float], ...] = (
    ("Splicer 1", "Missed splice", 0.08),
    ("Splicer 2", "Missed splice", 0.08),
    ("Splicer 3", "Missed splice", 0.08),
    ("Splicer 4", "Missed splice", 0.08),
    ("Splicer 5", "Missed splice", 0.08),
    ("Wet end", "Paper break", 0.30),
    ("Double backer", "Flute transition", 0.30),
)
PM_PLACES: tuple[str, ...] = ("Double backer", "Glue dams", "Shear knife", "Slitter/scorer", "Belt")
REJECT_MIX: tuple[tuple[str, float], ...] = (
    ("warp", 0.34),
    ("bond", 0.24),
    ("misalignment", 0.20),
    ("moisture", 0.12),
    ("bale", 0.10),
)
ROUTINE_NOTES: tuple[str, ...] = (
    "Normal running; no issues handed over.",
    "Order changes went smoothly; stackers kept up.",
    "Glue pan topped up mid-shift.",
    "Splicer 3 tail tape replaced.",
    "Short on pallets for a few minutes at the lower stacker.",
    "Double backer plates checked; temperatures steady.",
    "New operator on the dry end, shadowing.",
    "Forklift traffic slowed the stack take-away briefly.",
)
STOP_NOTE = "reported symptom; root cause and corrective action need review"


# --------------------------------------------------------------------------------------------
# The scenario plan for a year


@dataclass(frozen=True)
class ScenarioPlan:
    """Where the planted scenarios sit in the year (all derived from seed and as-of date)."""

    seed: int
    as_of: date
    slow_crew: str | None = None
    slow_weeks: tuple[date, ...] = ()  # Mondays
    jam_weeks: tuple[date, ...] = ()
    humid_month: tuple[int, int] | None = None  # (year, month)
    bad_lot_grade: str | None = None
    bad_lot_week: date | None = None
    outage_day: date | None = None
    outage_shift: int = 2
    pm_weekday: int = 2  # Wednesday
    pm_parity: int = 0  # PM on weeks whose rotation index has this parity
    corrupt_days: tuple[date, ...] = ()

    def count(self, days: list[date] | None = None) -> int:
        """How many scenarios are planted (the PM schedule counts as one), or how many of them touch
        ``days`` when given."""
        chosen = set(days) if days is not None else None

        def touches(candidates: list[date]) -> bool:
            return bool(candidates) and (chosen is None or any(d in chosen for d in candidates))

        def week(mondays: tuple[date, ...]) -> list[date]:
            return [m + timedelta(days=i) for m in mondays for i in range(5)]

        every = production_days(self.as_of)
        planted = [
            touches(week(self.slow_weeks)),
            touches(week(self.jam_weeks)),
            touches([d for d in every if self.humid_month == (d.year, d.month)]),
            touches(week((self.bad_lot_week,)) if self.bad_lot_week else []),
            touches([self.outage_day] if self.outage_day else []),
            touches([d for d in every if is_pm_day(d, self)]),
            touches(list(self.corrupt_days)),
        ]
        return sum(planted)


def production_days(as_of: date, days: int | None = None) -> list[date]:
    """Monday–Friday production days of the rolling year ending at ``as_of`` (or the last ``days``)."""
    start = as_of - timedelta(days=364)
    found = [start + timedelta(days=i) for i in range(365)]
    result = [d for d in found if calendar.is_production_day(d)]
    return result[-days:] if days else result


def monday(day: date) -> date:
    """The Monday of the week containing ``day``."""
    return day - timedelta(days=day.weekday())


def week_index(day: date) -> int:
    """Weeks since the rotation epoch."""
    return (monday(day) - ROTATION_EPOCH).days // 7


def plan_scenarios(seed: int, as_of: date, corrupt_days: int = DEFAULT_CORRUPT_DAYS) -> ScenarioPlan:
    """Place the planted scenarios in the rolling year ending at ``as_of`` without overlaps."""
    rng = random.Random(f"{seed}:{as_of.isoformat()}:scenarios")
    days = production_days(as_of)
    weeks = sorted({monday(d) for d in days if monday(d) >= days[0]})
    busy: set[date] = set()

    def take(length: int, lo: int, hi: int) -> tuple[date, ...]:
        candidates = [
            i
            for i in range(max(0, lo), min(len(weeks) - length, hi) + 1)
            if not any(weeks[j] in busy for j in range(max(0, i - 1), min(len(weeks), i + length + 1)))
        ]
        if not candidates:
            return ()
        i = rng.choice(candidates)
        chosen = tuple(weeks[i : i + length])
        busy.update(chosen)
        return chosen

    # A humid month in summer: July if the year holds all of it, else the sixth full month.
    months = sorted({(d.year, d.month) for d in days})
    full = [m for m in months if (date(m[0], m[1], 1) >= days[0]) and (m != (as_of.year, as_of.month))]
    humid = next((m for m in full if m[1] == 7), full[5] if len(full) > 5 else None)
    if humid is not None:
        busy.update(w for w in weeks if (w.year, w.month) == humid or _month_of_friday(w) == humid)

    slow_weeks = take(6, 4, len(weeks) - 8)
    jam_weeks = take(4, 2, len(weeks) - 3)
    bad = take(1, 2, len(weeks) - 2)
    outage_week = take(1, 2, len(weeks) - 2)
    outage_day = outage_week[0] + timedelta(days=rng.randrange(5)) if outage_week else None
    crew = rng.choice(catalog.CREWS)
    grade = rng.choice(["26-C", "32-C", "55-C", "200-C"])
    free_days = [d for d in days if monday(d) not in busy and d.weekday() != 2]
    corrupt = tuple(sorted(rng.sample(free_days, min(corrupt_days, len(free_days))))) if corrupt_days else ()
    return ScenarioPlan(
        seed=seed,
        as_of=as_of,
        slow_crew=crew if slow_weeks else None,
        slow_weeks=slow_weeks,
        jam_weeks=jam_weeks,
        humid_month=humid,
        bad_lot_grade=grade if bad else None,
        bad_lot_week=bad[0] if bad else None,
        outage_day=outage_day,
        outage_shift=rng.choice((1, 2, 3)),
        pm_parity=rng.randrange(2),
        corrupt_days=corrupt,
    )


def _month_of_friday(week: date) -> tuple[int, int]:
    friday = week + timedelta(days=4)
    return (friday.year, friday.month)


def crews_for(day: date, plan: ScenarioPlan) -> dict[int, str]:
    """Crew on each shift: A–D rotate weekly (one crew is off), except the slow-crew stretch."""
    r = week_index(day) % 4
    crews = {s: catalog.CREWS[(r + s - 1) % 4] for s in (1, 2, 3)}
    if plan.slow_crew and monday(day) in plan.slow_weeks and crews[2] != plan.slow_crew:
        for s in (1, 3):
            if crews[s] == plan.slow_crew:
                crews[s] = crews[2]
        crews[2] = plan.slow_crew
    return crews


def is_pm_day(day: date, plan: ScenarioPlan) -> bool:
    """Planned maintenance: every second Wednesday, on shift 1."""
    return day.weekday() == plan.pm_weekday and week_index(day) % 2 == plan.pm_parity


def day_seed(seed: int, day: date) -> int:
    """The day's own seed, stable across Python versions and platforms."""
    digest = hashlib.sha256(f"{seed}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


# --------------------------------------------------------------------------------------------
# One day


@dataclass
class Knife:
    level: str
    order_id: str
    width_in: float
    length_in: int
    outs: int
    start_in: float
    requested: int
    planned: int
    remaining: int  # before the next fragment


@dataclass
class Segment:
    """One physical setup still to run: the knives and the travel left, in inches."""

    setup_id: str
    run_id: str
    grade: str
    width_in: float
    knives: list[Knife]
    remaining_in: int
    common_in: int
    new: bool = True


@dataclass
class StopPlan:
    kind: str
    place: str
    reason: str
    seconds: float
    note: str = STOP_NOTE
    straddle: bool = False


@dataclass
class SetupRec:
    record_id: str
    shift: int
    segment: Segment
    start_ms: int
    end_ms: int
    inches: int
    shear_feet: float
    knives: list[dict[str, Any]]
    rejects: list[dict[str, Any]] = field(default_factory=list)
    corrupt: bool = False


@dataclass
class StopRec:
    stop_id: str
    shift: int
    plan: StopPlan
    start_ms: int
    end_ms: int


@dataclass
class DayData:
    """A simulated day before it is written as XML."""

    day: date
    seed: int
    crews: dict[int, str]
    supervisors: dict[int, str]
    setups: list[SetupRec]
    stops: list[StopRec]
    notes: dict[int, list[str]]
    events: list[dict[str, Any]]


def _eighths(x: float) -> float:
    return math.floor(x / EIGHTH) * EIGHTH


def _trim_target(rng: random.Random) -> float:
    # Most webs carry 1–3 in of side trim; a minority carry more and trip the 3.25 % flag.
    return rng.uniform(1.0, 3.0) if rng.random() < 0.82 else rng.uniform(3.2, 4.6)


def _groups(rng: random.Random) -> Iterator[Segment]:
    """The day's stream of wet-end runs, each yielding its setups lazily."""
    g = 0
    grades = [gw[0] for gw in GRADE_WEIGHTS]
    weights = [gw[1] for gw in GRADE_WEIGHTS]
    while True:
        grade = rng.choices(grades, weights)[0]
        web = rng.choice(catalog.WEB_WIDTHS)
        trim = _trim_target(rng)
        run_id = f"W{g:03d}"
        if g % 5 == 4:
            while True:
                outs = rng.randint(2, 4)
                w = _eighths((web - trim) / outs)
                if 12 <= w <= 60:
                    break
            length = rng.randint(20, 92)
            demand = rng.randint(650, 1750)
            cuts = math.ceil(demand / outs)
            planned = cuts * outs
            start = (web - outs * w) / 2
            knife = Knife("upper", f"O{g}-1", w, length, outs, start, demand, planned, planned)
            yield Segment(f"C{g}-1", run_id, grade, web, [knife], cuts * length, length)
        else:
            while True:
                o1, o2 = rng.randint(1, 3), rng.choices((1, 2, 3), (0.6, 0.3, 0.1))[0]
                w1 = _eighths(rng.uniform(12, 60))
                w2 = _eighths((web - trim - o1 * w1) / o2)
                if 12 <= w2 <= 60:
                    break
            l1, l2 = rng.choice(LENGTH_PAIRS)
            common = math.lcm(l1, l2)
            segments = rng.choice((1, 2, 2, 3, 4))
            travels = []
            demands = []
            for _ in range(segments):
                demand = rng.randint(650, 1750)
                demands.append(demand)
                travels.append(math.ceil(demand / o2 * l2 / common) * common)
            upper_planned = sum(travels) // l1 * o1
            start = (web - (o1 * w1 + o2 * w2)) / 2
            upper = Knife("upper", f"O{g}-U", w1, l1, o1, start, upper_planned, upper_planned, upper_planned)
            for s, (travel, demand) in enumerate(zip(travels, demands, strict=True), start=1):
                planned = travel // l2 * o2
                lower = Knife("lower", f"O{g}-{s}", w2, l2, o2, start + o1 * w1, demand, planned, planned)
                yield Segment(f"C{g}-{s}", run_id, grade, web, [upper, lower], travel, common)
        g += 1


def _poisson(rng: random.Random, lam: float) -> int:
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def _weighted(rng: random.Random, mix: tuple[tuple[str, str, float], ...]) -> tuple[str, str]:
    place, reason, _ = rng.choices(mix, [m[2] for m in mix])[0]
    return place, reason


def _shift_stops(
    rng: random.Random, day: date, shift: int, plan: ScenarioPlan, events: list[dict[str, Any]]
) -> dict[int, StopPlan]:
    """Stops planned for this shift, keyed by the setup index they fall in."""
    planned: list[tuple[int, StopPlan]] = []
    for _ in range(_poisson(rng, 1.5)):
        place, reason = _weighted(rng, MAINTENANCE_MIX)
        planned.append((rng.randint(2, 44), StopPlan("Maintenance", place, reason, rng.uniform(90, 300))))
    for _ in range(_poisson(rng, 1.5)):
        place, reason = _weighted(rng, OPERATOR_MIX)
        planned.append((rng.randint(2, 44), StopPlan("Operator", place, reason, rng.uniform(60, 240))))
    if plan.jam_weeks and monday(day) in plan.jam_weeks:
        week = plan.jam_weeks.index(monday(day))
        for _ in range(1 + week):
            secs = rng.uniform(150, 240) + 75 * week
            planned.append((rng.randint(2, 44), StopPlan("Maintenance", "Upper knife", "Knife jam", secs)))
    if shift == 1 and is_pm_day(day, plan):
        place = PM_PLACES[week_index(day) // 2 % len(PM_PLACES)]
        pm = StopPlan("PM", place, "Scheduled maintenance", 60 * 60.0, "scheduled every second Wednesday")
        planned.append((0, pm))
    if plan.outage_day == day and shift == plan.outage_shift:
        secs = 60 * rng.uniform(75, 110)
        outage = StopPlan("External", "Plant", "Power outage", secs, "utility power lost plant-wide")
        planned.append((rng.randint(15, 25), outage))
        events.append({"scenario": "power_outage", "shift": shift})
    by_index: dict[int, StopPlan] = {}
    for index, stop in planned:
        while index in by_index:
            index += 1
        stop.straddle = index > 0 and stop.kind in {"Maintenance", "Operator"} and rng.random() < 0.25
        by_index[index] = stop
    return by_index


def _rejects(
    rng: random.Random, day: date, shift: int, plan: ScenarioPlan, seg: Segment, knives: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Reject records for one setup record: baseline quality plus any planted quality problem."""
    gross_sqft = sum(k["cuts"] * k["length_in"] for k in knives[:1]) / 12 * seg.width_in / 12
    shares: list[tuple[str, str | None, float]] = []
    base = rng.uniform(0.0015, 0.0065)
    for _ in range(rng.choice((1, 1, 2))):
        family = rng.choices([m[0] for m in REJECT_MIX], [m[1] for m in REJECT_MIX])[0]
        subs = catalog.REJECT_FAMILIES[family]
        reason: str | None = None
        if subs and rng.random() < 0.9:
            reason = subs[0] if rng.random() < 0.8 else subs[1]
        shares.append((family, reason, base / 2 if len(shares) or rng.random() < 0.5 else base))
    humid = plan.humid_month == (day.year, day.month) and shift == 3
    if humid:
        shares.append(("warp", "Up warp" if rng.random() < 0.6 else "Down warp", rng.uniform(0.008, 0.014)))
    if plan.bad_lot_week == monday(day) and seg.grade == plan.bad_lot_grade:
        shares.append(("bond", "Bond - paper/raw-material issue", rng.uniform(0.012, 0.02)))
    out: list[dict[str, Any]] = []
    used = {k["level"]: 0 for k in knives}
    for family, reason, share in shares:
        knife = knives[0] if len(knives) == 1 or rng.random() < 0.7 else knives[1]
        area = knife["width_in"] * knife["length_in"] / 144
        cap = knife["cuts"] * knife["outs"] - used[knife["level"]]
        sheets = min(cap, round(gross_sqft * share / area))
        if sheets <= 0:
            continue
        used[knife["level"]] += sheets
        out.append(
            {"family": family, "reason": reason, "knife": knife["level"], "sheets": sheets, "area": area}
        )
    return out


def simulate_day(day: date, seed: int, plan: ScenarioPlan) -> DayData:
    """Simulate one production day: runs, setups, stops, rejects and notes for the three shifts."""
    dseed = day_seed(seed, day)
    rng = random.Random(dseed)
    crews = crews_for(day, plan)
    supervisors = {s: ("Relief" if rng.random() < 0.04 else f"Lead {crews[s]}") for s in (1, 2, 3)}
    catalog.day_origin(day)
    groups = _groups(rng)
    current: Segment | None = None
    setups: list[SetupRec] = []
    stops: list[StopRec] = []
    events: list[dict[str, Any]] = []
    corrupt_shift = 2 if day in plan.corrupt_days else 0
    for shift in (1, 2, 3):
        shift_start = (shift - 1) * 8 * 3600 * 1000
        shift_end = shift_start + 480 * 60 * 1000
        cursor = shift_start
        n = 0
        slow = (
            plan.slow_crew is not None and crews[shift] == plan.slow_crew and monday(day) in plan.slow_weeks
        )
        lo, hi = SLOW_FACTOR if slow else NORMAL_FACTOR
        stop_plan = _shift_stops(rng, day, shift, plan, events)
        shift_setups: list[SetupRec] = []
        while cursor < shift_end:
            if current is None or current.remaining_in <= 0:
                current = next(groups)
            seg = current
            fpm = catalog.GRADE_TARGETS[seg.grade] * rng.uniform(lo, hi)
            stop = stop_plan.get(n)
            lead_ms = 0  # part of a straddling stop that falls in the previous setup
            if stop is not None and stop.straddle and shift_setups:
                lead_ms = round(stop.seconds * 1000 * rng.uniform(0.2, 0.8))
            stop_ms = round(stop.seconds * 1000) if stop else 0
            remaining_shift = shift_end - cursor - lead_ms
            if stop is not None and stop_ms - lead_ms > remaining_shift - 30_000:
                stop = None  # no room left for it in this shift
                stop_ms = lead_ms = 0
                remaining_shift = shift_end - cursor
            own_stop_ms = stop_ms - lead_ms
            shear = catalog.NEW_SETUP_SHEAR_FEET if seg.new else 0.0
            full_ms = (seg.remaining_in / 12 + shear) / fpm * 60_000 + own_stop_ms
            if full_ms < remaining_shift - 1:
                inches = seg.remaining_in
                end = cursor + lead_ms + round(full_ms)
            else:
                capacity_in = max(0.0, (remaining_shift - own_stop_ms) / 60_000 * fpm - shear) * 12
                inches = min(seg.remaining_in, math.floor(capacity_in / seg.common_in) * seg.common_in)
                end = shift_end
                if inches == 0:
                    # Less than one cutoff quantum fits: the last setup idles to the shift end.
                    shift_setups[-1].end_ms = shift_end
                    break
            if stop is not None:
                # Planned maintenance starts with the shift; other stops fall somewhere in the setup.
                offset = 0.0 if stop.kind == "PM" else rng.uniform(0, max(0.0, end - cursor - stop_ms)) * 0.8
                stop_start = cursor if lead_ms else cursor + round(offset)
                if lead_ms:
                    shift_setups[-1].end_ms += lead_ms
                stops.append(
                    StopRec(
                        f"D{shift}-{len([s for s in stops if s.shift == shift]) + 1:02d}",
                        shift,
                        stop,
                        stop_start,
                        stop_start + stop_ms,
                    )
                )
                cursor += lead_ms
            knives = []
            for k in seg.knives:
                cuts = inches // k.length_in
                produced = cuts * k.outs
                knives.append(
                    {
                        "level": k.level,
                        "order_id": k.order_id,
                        "width_in": k.width_in,
                        "length_in": k.length_in,
                        "outs": k.outs,
                        "cuts": cuts,
                        "start_in": k.start_in,
                        "requested": k.requested,
                        "planned": k.planned,
                        "before": k.remaining,
                        "after": k.remaining - produced,
                    }
                )
                k.remaining -= produced
            rec = SetupRec(f"S{shift}-{n:02d}", shift, seg, cursor, end, inches, shear, knives)
            rec.rejects = _rejects(rng, day, shift, plan, seg, knives)
            if corrupt_shift == shift and n == 0:
                rec.corrupt = True
            # The segment object is shared across fragments; freeze what this record saw.
            rec.segment = Segment(
                seg.setup_id, seg.run_id, seg.grade, seg.width_in, seg.knives, 0, 0, seg.new
            )
            seg.remaining_in -= inches
            seg.new = False
            shift_setups.append(rec)
            cursor = end
            n += 1
        setups.extend(shift_setups)
    notes = _notes(rng, day, plan, crews, events)
    for s in stops:
        s.start_ms, s.end_ms = int(s.start_ms), int(s.end_ms)
    return DayData(day, dseed, crews, supervisors, setups, stops, notes, events)


def _notes(
    rng: random.Random, day: date, plan: ScenarioPlan, crews: dict[int, str], events: list[dict[str, Any]]
) -> dict[int, list[str]]:
    notes: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for shift in (1, 2, 3):
        if rng.random() < 0.45:
            notes[shift].append(rng.choice(ROUTINE_NOTES))
    if plan.humid_month == (day.year, day.month) and rng.random() < 0.6:
        notes[3].append("Humid night; boards coming off bowed at the stacker, crew adjusted the preheaters.")
    if plan.bad_lot_week == monday(day):
        notes[rng.choice((1, 2, 3))].append(
            f"Liner on {plan.bad_lot_grade} peeling at the edges; lot number written on the roll tag."
        )
    if plan.jam_weeks and monday(day) in plan.jam_weeks and rng.random() < 0.5:
        notes[rng.choice((1, 2, 3))].append("Upper knife jammed again; maintenance cleared it.")
    for event in events:
        if event["scenario"] == "power_outage":
            notes[event["shift"]].append("Plant lost power; restarted once the utility restored supply.")
    return notes


# --------------------------------------------------------------------------------------------
# XML


def num(x: float) -> str:
    """A number as written in the XML: integers bare, others with at most four decimals."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4f}".rstrip("0").rstrip(".")


def _ts(origin: datetime, ms: int) -> str:
    moment = origin + timedelta(milliseconds=ms)
    return moment.isoformat(timespec="milliseconds" if ms % 1000 else "seconds")


_NEEDS_ESCAPE = re.compile(r'[&<>"\n\r\t]')


def _quote(value: str) -> str:
    # Most values are numbers and ids; only text that needs it goes through the full escaper.
    return quoteattr(value) if _NEEDS_ESCAPE.search(value) else f'"{value}"'


def _attrs(pairs: list[tuple[str, str]]) -> str:
    return " ".join(f"{k}={_quote(v)}" for k, v in pairs)


def to_xml(data: DayData) -> str:
    """The day as our documented XML (docs/record-format.md)."""
    origin = catalog.day_origin(data.day)
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    root = _attrs(
        [
            ("version", "1"),
            ("synthetic", "true"),
            ("production_day", data.day.isoformat()),
            ("clock", "fixed-demo-local"),
            ("generator", GENERATOR_VERSION),
            ("seed", str(data.seed)),
        ]
    )
    out.append(f"<production {root}>")
    for shift in (1, 2, 3):
        start, end = catalog.shift_window(data.day, shift)
        sattrs = _attrs(
            [
                ("number", str(shift)),
                ("start", start.isoformat()),
                ("end", end.isoformat()),
                ("crew", data.crews[shift]),
                ("supervisor_slot", data.supervisors[shift]),
            ]
        )
        out.append(f"  <shift {sattrs}>")
        for text in data.notes[shift]:
            out.append(f"    <note>{escape(text)}</note>")
        shift_stops = [s for s in data.stops if s.shift == shift]
        for rec in (r for r in data.setups if r.shift == shift):
            out.extend(_setup_xml(rec, origin))
            for stop in [s for s in shift_stops if rec.start_ms <= s.start_ms < rec.end_ms]:
                p = stop.plan
                stattrs = _attrs(
                    [
                        ("id", stop.stop_id),
                        ("kind", p.kind),
                        ("place", p.place),
                        ("reason", p.reason),
                        ("start", _ts(origin, stop.start_ms)),
                        ("end", _ts(origin, stop.end_ms)),
                        ("notes", p.note),
                    ]
                )
                out.append(f"    <stop {stattrs}/>")
        out.append("  </shift>")
    out.append("</production>")
    return "\n".join(out) + "\n"


def _setup_xml(rec: SetupRec, origin: datetime) -> list[str]:
    seg = rec.segment
    web = seg.width_in
    net_feet = rec.inches / 12
    gross_feet = net_feet + rec.shear_feet
    occupied = sum(k["outs"] * k["width_in"] for k in rec.knives)
    trim = net_feet * (web - occupied) / 12
    if rec.corrupt:
        trim = 99999999.0
    attrs = _attrs(
        [
            ("id", rec.record_id),
            ("setup_id", seg.setup_id),
            ("run", seg.run_id),
            ("grade", seg.grade),
            ("target_fpm", num(catalog.GRADE_TARGETS[seg.grade])),
            ("width_in", num(web)),
            ("start", _ts(origin, rec.start_ms)),
            ("end", _ts(origin, rec.end_ms)),
            ("continued", "false" if seg.new else "true"),
            ("gross_feet", num(gross_feet)),
            ("gross_sqft", num(gross_feet * web / 12)),
            ("trim_sqft", num(trim)),
            ("shear_feet", num(rec.shear_feet)),
            ("shear_sqft", num(rec.shear_feet * web / 12)),
        ]
    )
    lines = [f"    <setup {attrs}>"]
    for k in rec.knives:
        kattrs = _attrs(
            [
                ("level", k["level"]),
                ("stacker", k["level"]),
                ("order_id", k["order_id"]),
                ("width_in", num(k["width_in"])),
                ("length_in", num(k["length_in"])),
                ("outs", str(k["outs"])),
                ("cuts", str(k["cuts"])),
                ("start_in", num(k["start_in"])),
                ("order_quantity", str(k["requested"])),
                ("planned_sheets", str(k["planned"])),
                ("produced_sheets", str(k["cuts"] * k["outs"])),
                ("remaining_before", str(k["before"])),
                ("remaining_after", str(k["after"])),
            ]
        )
        lines.append(f"      <knife {kattrs}/>")
    for r in rec.rejects:
        pairs = [("family", r["family"])]
        if r["reason"]:
            pairs.append(("reason", r["reason"]))
        pairs += [("knife", r["knife"]), ("sheets", str(r["sheets"])), ("sqft", num(r["sheets"] * r["area"]))]
        lines.append(f"      <reject {_attrs(pairs)}/>")
    lines.append("    </setup>")
    return lines


# --------------------------------------------------------------------------------------------
# Files


@dataclass
class GenerateResult:
    """What ``generate`` wrote."""

    out_dir: Path
    days: list[date]
    manifest: Path
    answer_keys: Path
    plan: ScenarioPlan


def day_counts(data: DayData) -> dict[str, int]:
    """Record counts of a simulated day (for the manifest)."""
    return {
        "shifts": 3,
        "setups": len(data.setups),
        "wet_end_runs": len({r.segment.run_id for r in data.setups}),
        "stops": len(data.stops),
        "rejects": sum(len(r.rejects) for r in data.setups),
        "notes": sum(len(v) for v in data.notes.values()),
    }


def check_as_of(as_of: date) -> None:
    """Raise ``ValueError`` unless ``as_of`` is a Monday–Friday production day."""
    if not calendar.is_production_day(as_of):
        raise ValueError(f"as-of date {as_of} is not a Monday–Friday production day")


def generate(
    out_dir: Path,
    *,
    as_of: date = DEFAULT_AS_OF,
    days: int | None = None,
    seed: int = DEFAULT_SEED,
    corrupt_days: int = DEFAULT_CORRUPT_DAYS,
    answer_keys: Path | None = None,
    only: list[date] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GenerateResult:
    """Write one XML file per production day, ``manifest.json`` and the answer-key file.

    ``only`` restricts the output to some days of the plan (tests use it to write a few weeks that hold
    a scenario); the bytes of each day are the same as in a full run.
    """
    check_as_of(as_of)
    plan = plan_scenarios(seed, as_of, corrupt_days)
    wanted = production_days(as_of, days)
    if only is not None:
        chosen = set(only)
        wanted = [d for d in production_days(as_of) if d in chosen]
    out_dir.mkdir(parents=True, exist_ok=True)
    keys_path = answer_keys or out_dir.parent / ANSWER_KEYS_FILENAME
    entries = []
    all_events: dict[str, list[dict[str, Any]]] = {}
    for i, day in enumerate(wanted):
        data = simulate_day(day, seed, plan)
        raw = to_xml(data).encode("utf-8")
        name = f"{day.isoformat()}.xml"
        (out_dir / name).write_bytes(raw)
        entries.append(
            {
                "day": day.isoformat(),
                "file": name,
                "seed": data.seed,
                "sha256": hashlib.sha256(raw).hexdigest(),
                "bytes": len(raw),
                "counts": day_counts(data),
            }
        )
        if data.events:
            all_events[day.isoformat()] = _event_keys(data)
        if progress:
            progress(i + 1, len(wanted))
    manifest = {
        "generator": GENERATOR_VERSION,
        "seed": seed,
        "as_of": as_of.isoformat(),
        "planted_scenarios": plan.count(wanted),
        "days": entries,
    }
    manifest_path = out_dir / MANIFEST_FILENAME
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    keys_path.parent.mkdir(parents=True, exist_ok=True)
    keys_path.write_text(
        json.dumps(answer_key_document(plan, all_events), indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    return GenerateResult(out_dir, wanted, manifest_path, keys_path, plan)


def _event_keys(data: DayData) -> list[dict[str, Any]]:
    origin = catalog.day_origin(data.day)
    found = []
    for stop in data.stops:
        if stop.plan.kind == "External":
            found.append(
                {
                    "scenario": "power_outage",
                    "shift": stop.shift,
                    "stop_id": stop.stop_id,
                    "start": _ts(origin, stop.start_ms),
                    "end": _ts(origin, stop.end_ms),
                    "minutes": round((stop.end_ms - stop.start_ms) / 60_000, 3),
                }
            )
    for rec in data.setups:
        if rec.corrupt:
            found.append({"scenario": "corrupt_setup", "shift": rec.shift, "record_id": rec.record_id})
    return found


def answer_key_document(plan: ScenarioPlan, events: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The planted scenarios and their answers (for evals only; never shown to a planner or prompt)."""
    scenarios: list[dict[str, Any]] = []
    if plan.slow_weeks:
        scenarios.append(
            {
                "id": "slow_crew",
                "cause": f"crew {plan.slow_crew} on shift 2 runs at 66–73 % of grade target (others 84–89 %)",
                "crew": plan.slow_crew,
                "shift": 2,
                "weeks": [w.isoformat() for w in plan.slow_weeks],
            }
        )
    if plan.jam_weeks:
        scenarios.append(
            {
                "id": "upper_knife_jam",
                "cause": "Maintenance / Upper knife / Knife jam recurs and grows week by week",
                "weeks": [w.isoformat() for w in plan.jam_weeks],
            }
        )
    if plan.humid_month:
        year, month = plan.humid_month
        scenarios.append(
            {
                "id": "humid_month_warp",
                "cause": "humid month: shift 3 warp rejects rise (dry-end over 1 % of gross)",
                "month": f"{year:04d}-{month:02d}",
                "shift": 3,
                "family": "warp",
            }
        )
    if plan.bad_lot_week:
        scenarios.append(
            {
                "id": "bad_paper_lot",
                "cause": f"bond rejects reported as paper/raw-material on {plan.bad_lot_grade} for one week",
                "grade": plan.bad_lot_grade,
                "week": plan.bad_lot_week.isoformat(),
                "family": "bond",
                "reason": "Bond - paper/raw-material issue",
            }
        )
    if plan.outage_day:
        scenarios.append(
            {
                "id": "power_outage",
                "cause": "a plant-wide power outage (External)",
                "day": plan.outage_day.isoformat(),
                "shift": plan.outage_shift,
                "records": events.get(plan.outage_day.isoformat(), []),
            }
        )
    scenarios.append(
        {
            "id": "pm_schedule",
            "cause": "planned maintenance (PM) every second Wednesday, 60 minutes at the start of shift 1",
            "weekday": "Wednesday",
            "week_parity": plan.pm_parity,
            "minutes": 60,
        }
    )
    if plan.corrupt_days:
        scenarios.append(
            {
                "id": "corrupt_setup",
                "cause": "one setup per listed day carries a giant trim value and is excluded at intake",
                "days": [d.isoformat() for d in plan.corrupt_days],
                "records": {d.isoformat(): events.get(d.isoformat(), []) for d in plan.corrupt_days},
            }
        )
    return {
        "generator": GENERATOR_VERSION,
        "seed": plan.seed,
        "as_of": plan.as_of.isoformat(),
        "scenarios": scenarios,
    }
