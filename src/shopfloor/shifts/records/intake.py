"""Safe intake of one XML day file: untrusted bytes in, store rows (or a clear rejection) out.

Two layers. Structural faults (size, encoding, DTDs and entities, depth, element count, unknown
elements or attributes, shift windows, partitions, overlapping stops, catalogue values) reject the day
whole: ``DayRejected`` is raised and nothing is written. A setup whose numbers fail a check is
**excluded and kept**: it goes to ``excluded_records`` with its raw values and the first error, and its
shift's coverage becomes ``incomplete``. See docs/record-format.md, section 3.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml.common import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from shopfloor.shifts.plant import calendar, catalog, metrics
from shopfloor.shifts.records.store import DayRows

MAX_DAY_BYTES = 1_000_000
MAX_DEPTH = 8
MAX_ELEMENTS = 4000
REL_TOL = 1e-6
ABS_TOL = 0.01

ROOT_ATTRS = {"version", "synthetic", "production_day", "clock"}
ROOT_OPTIONAL = {"generator", "seed"}
SHIFT_ATTRS = {"number", "start", "end", "crew", "supervisor_slot"}
# Every numeric attribute is parsed and checked the same way; the others are names, ids and times.
SETUP_NUMBERS = (
    "target_fpm",
    "width_in",
    "gross_feet",
    "gross_sqft",
    "trim_sqft",
    "shear_feet",
    "shear_sqft",
)
SETUP_ATTRS = {"id", "setup_id", "run", "grade", "start", "end", "continued", *SETUP_NUMBERS}
KNIFE_NUMBERS = (
    "width_in",
    "length_in",
    "outs",
    "cuts",
    "start_in",
    "order_quantity",
    "planned_sheets",
    "produced_sheets",
    "remaining_before",
    "remaining_after",
)
KNIFE_ATTRS = {"level", "stacker", "order_id", *KNIFE_NUMBERS}
# Counts of sheets and strokes: written as plain integers (``outs="1.0"`` is not one; docs/record-format.md).
KNIFE_INTEGERS = frozenset(
    {
        "outs",
        "cuts",
        "order_quantity",
        "planned_sheets",
        "produced_sheets",
        "remaining_before",
        "remaining_after",
    }
)
REJECT_NUMBERS = ("sheets", "sqft")
REJECT_ATTRS = {"family", "reason", "knife", *REJECT_NUMBERS}
STOP_ATTRS = {"id", "kind", "place", "reason", "start", "end", "notes"}
CHILDREN = {
    "production": {"shift"},
    "shift": {"note", "setup", "stop"},
    "setup": {"knife", "reject"},
    "knife": set(),
    "reject": set(),
    "stop": set(),
    "note": set(),
}
# The field formats, matched whole (``fullmatch``: no trailing newline slips past ``$``) and in ASCII digits
# only: ``\d`` and ``float()`` also take other scripts' digits, ``_`` separators, exponents and blanks.
TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
DECIMAL = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,15})?")
INTEGER = re.compile(r"[0-9]{1,18}")
XML_DECL_ENCODING = re.compile(rb"^<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")


class DayRejected(Exception):
    """The day file has a structural fault; nothing of it is written."""


class SetupExcluded(Exception):
    """A setup failed a per-setup check (the message is the recorded error)."""


def parse_timestamp(text: str) -> datetime:
    """A naive ``YYYY-MM-DDTHH:MM:SS[.ffffff]`` time, strictly; raises ``ValueError`` with the reason."""
    if not TIMESTAMP.fullmatch(text):
        raise ValueError("is not a naive YYYY-MM-DDTHH:MM:SS[.fff] time")
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("is not a real time (a month, day or hour out of range)") from None


def parse_date(text: str) -> date:
    """A ``YYYY-MM-DD`` date, strictly; raises ``ValueError`` with the reason."""
    if not DATE.fullmatch(text):
        raise ValueError("is not a YYYY-MM-DD date")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError("is not a real date (a month or day out of range)") from None


def parse_decimal(text: str) -> float:
    """A non-negative decimal written with ASCII digits and at most one point; raises ``ValueError``."""
    if not DECIMAL.fullmatch(text):
        raise ValueError("is not a plain non-negative decimal number")
    return float(text)


def parse_integer(text: str) -> int:
    """A non-negative integer written with ASCII digits only; raises ``ValueError``."""
    if not INTEGER.fullmatch(text):
        raise ValueError("is not a plain non-negative integer")
    return int(text)


def close(a: float, b: float) -> bool:
    """Equality with the intake's tolerance (values are written with at most four decimals)."""
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


# --------------------------------------------------------------------------------------------
# Layer 1: bytes and XML


def preflight(raw: bytes) -> None:
    """Size and encoding checks on the raw bytes, before any XML parser sees them."""
    if len(raw) > MAX_DAY_BYTES:
        raise DayRejected(f"file is {len(raw):,} bytes; the limit is {MAX_DAY_BYTES:,} bytes per day")
    if raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        raise DayRejected("file starts with a byte-order mark; only UTF-8 without a BOM is accepted")
    if b"\x00" in raw:
        raise DayRejected("file contains NUL bytes; only UTF-8 text is accepted")
    try:
        raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise DayRejected(f"file is not valid UTF-8 (byte {exc.start})") from None
    declared = XML_DECL_ENCODING.match(raw)
    if declared and declared.group(1).lower() not in {b"utf-8", b"utf8"}:
        raise DayRejected(
            f"XML declaration names encoding {declared.group(1).decode()!r}; only UTF-8 is accepted"
        )


class _LimitedTreeBuilder(TreeBuilder):
    """Builds the tree while enforcing the depth and element-count limits and refusing processing
    instructions, so the limits cost no second pass over the bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.elements = 0

    def start(self, tag: Any, attrs: Any) -> Element:
        self.depth += 1
        self.elements += 1
        if self.depth > MAX_DEPTH:
            raise DayRejected(f"elements nest deeper than {MAX_DEPTH} levels")
        if self.elements > MAX_ELEMENTS:
            raise DayRejected(f"more than {MAX_ELEMENTS:,} elements")
        return super().start(tag, attrs)

    def end(self, tag: Any) -> Element:
        self.depth -= 1
        return super().end(tag)

    def pi(self, target: Any, text: Any = None) -> Element:
        raise DayRejected("a processing instruction is not allowed")


def parse_tree(raw: bytes) -> Element:
    """Preflight the bytes, then parse once with defusedxml (no DTD, no entities, no external
    references) under the depth and element-count limits."""
    preflight(raw)
    parser = DefusedXMLParser(
        target=_LimitedTreeBuilder(), forbid_dtd=True, forbid_entities=True, forbid_external=True
    )
    try:
        parser.feed(raw)
        root: Element = parser.close()
    except DTDForbidden:
        raise DayRejected("a DOCTYPE is not allowed") from None
    except EntitiesForbidden:
        raise DayRejected("an entity declaration is not allowed") from None
    except ExternalReferenceForbidden:
        raise DayRejected("an external entity is not allowed") from None
    except ParseError as exc:
        raise DayRejected(f"malformed XML: {exc}") from None
    return root


# --------------------------------------------------------------------------------------------
# Layer 2: structure


@dataclass
class ShiftRecord:
    number: int
    start: datetime
    end: datetime
    crew: str
    supervisor_slot: str
    notes: list[str] = field(default_factory=list)
    setups: list[Element] = field(default_factory=list)
    stops: list[dict[str, Any]] = field(default_factory=list)


def _timestamp(value: str | None, where: str) -> datetime:
    try:
        return parse_timestamp(value or "")
    except ValueError as error:
        raise DayRejected(f"{where}: timestamp {value!r} {error}") from None


def _check_element(el: Element, allowed: set[str], required: set[str], where: str) -> None:
    unknown = set(el.attrib) - allowed
    if unknown:
        raise DayRejected(f"{where}: unknown attribute(s) {', '.join(sorted(unknown))}")
    missing = required - set(el.attrib)
    if missing:
        raise DayRejected(f"{where}: missing attribute(s) {', '.join(sorted(missing))}")
    for child in el:
        if child.tag not in CHILDREN.get(el.tag, set()):
            raise DayRejected(f"{where}: unknown element <{child.tag}>")
    if el.tag != "note" and (el.text or "").strip():
        raise DayRejected(f"{where}: unexpected text content")
    for child in el:
        if (child.tail or "").strip():
            raise DayRejected(f"{where}: unexpected text content")


def parse_structure(root: Element, file_day: date | None) -> tuple[date, dict[str, str], list[ShiftRecord]]:
    """Check everything whose failure rejects the day; return the day, root attributes and shifts."""
    if root.tag != "production":
        raise DayRejected(f"root element is <{root.tag}>, expected <production>")
    _check_element(root, ROOT_ATTRS | ROOT_OPTIONAL, ROOT_ATTRS, "production")
    a = root.attrib
    if a["version"] != "1" or a["synthetic"] != "true" or a["clock"] != "fixed-demo-local":
        raise DayRejected("production: version must be 1, synthetic true and clock fixed-demo-local")
    try:
        day = parse_date(a["production_day"])
    except ValueError as error:
        raise DayRejected(f"production_day {a['production_day']!r} {error}") from None
    if not calendar.is_production_day(day):
        raise DayRejected(f"{day} is a {day.strftime('%A')}; production days are Monday to Friday")
    if file_day is not None and file_day != day:
        raise DayRejected(f"file name says {file_day} but production_day is {day}")
    if "seed" in a and not INTEGER.fullmatch(a["seed"]):
        raise DayRejected(f"production: seed {a['seed']!r} must be a non-negative integer in ASCII digits")
    shifts_el = list(root)
    if len(shifts_el) != 3:
        raise DayRejected(f"expected exactly 3 shifts, found {len(shifts_el)}")
    ids: set[str] = set()
    shifts = []
    for position, el in enumerate(shifts_el, start=1):
        shifts.append(_parse_shift(el, position, day, ids))
    return day, dict(a), shifts


def _parse_shift(el: Element, position: int, day: date, ids: set[str]) -> ShiftRecord:
    where = f"shift {position}"
    _check_element(el, SHIFT_ATTRS, SHIFT_ATTRS, where)
    if el.attrib["number"] != str(position):
        raise DayRejected(f"{where}: number is {el.attrib['number']!r}; shifts must be 1, 2, 3 in order")
    start = _timestamp(el.attrib["start"], where)
    end = _timestamp(el.attrib["end"], where)
    expected_start, expected_end = catalog.shift_window(day, position)
    if start != expected_start:
        raise DayRejected(f"{where}: starts at {start}, expected {expected_start}")
    if (end - start).total_seconds() != catalog.SHIFT_MINUTES * 60 or end != expected_end:
        minutes = (end - start).total_seconds() / 60
        raise DayRejected(f"{where}: lasts {minutes:g} minutes; every shift is 480 minutes")
    crew = el.attrib["crew"]
    if crew not in catalog.CREWS:
        raise DayRejected(f"{where}: unknown crew {crew!r}")
    slot = el.attrib["supervisor_slot"].strip()
    if not 1 <= len(slot) <= 40:
        raise DayRejected(f"{where}: supervisor_slot must be 1 to 40 characters")
    record = ShiftRecord(position, start, end, crew, slot)
    for child in el:
        if child.tag == "note":
            _check_element(child, set(), set(), f"{where} note")
            text = child.text or ""
            if len(text) > catalog.MAX_NOTE_CHARS:
                raise DayRejected(f"{where}: a note is {len(text)} characters; the limit is 1,000")
            record.notes.append(text)
        elif child.tag == "setup":
            _check_element(child, SETUP_ATTRS, {"id", "start", "end"}, f"{where} setup")
            for grandchild in child:
                allowed = KNIFE_ATTRS if grandchild.tag == "knife" else REJECT_ATTRS
                _check_element(
                    grandchild, allowed, set(), f"{where} setup {child.attrib['id']} {grandchild.tag}"
                )
            _unique(child.attrib["id"], ids, where)
            record.setups.append(child)
        else:
            record.stops.append(_parse_stop(child, where, start, end, ids))
    _check_partition(record, where)
    _check_stops(record, where)
    return record


def _unique(record_id: str, ids: set[str], where: str) -> None:
    if record_id in ids:
        raise DayRejected(f"{where}: duplicate record id {record_id!r}")
    ids.add(record_id)


def _parse_stop(el: Element, where: str, start: datetime, end: datetime, ids: set[str]) -> dict[str, Any]:
    _check_element(el, STOP_ATTRS, STOP_ATTRS - {"notes"}, f"{where} stop")
    a = el.attrib
    label = f"{where} stop {a['id']}"
    _unique(a["id"], ids, where)
    if a["kind"] not in catalog.STOP_KINDS:
        raise DayRejected(f"{label}: kind {a['kind']!r} is not one of {', '.join(catalog.STOP_KINDS)}")
    if a["place"] not in catalog.STOP_PLACES:
        raise DayRejected(f"{label}: place {a['place']!r} is not in the catalogue")
    if a["reason"] not in catalog.STOP_REASONS:
        raise DayRejected(f"{label}: reason {a['reason']!r} is not in the catalogue")
    notes = a.get("notes")
    if notes is not None and len(notes) > catalog.MAX_NOTE_CHARS:
        raise DayRejected(f"{label}: notes are {len(notes)} characters; the limit is 1,000")
    s, e = _timestamp(a["start"], label), _timestamp(a["end"], label)
    if e <= s:
        raise DayRejected(f"{label}: ends at or before it starts")
    if s < start or e > end:
        raise DayRejected(f"{label}: lies outside its shift (cross-shift records need allocation)")
    return {
        "id": a["id"],
        "kind": a["kind"],
        "place": a["place"],
        "reason": a["reason"],
        "start": s,
        "end": e,
        "notes": notes,
    }


def _check_partition(record: ShiftRecord, where: str) -> None:
    if not record.setups:
        raise DayRejected(f"{where}: has no setups; setups must cover the shift")
    cursor = record.start
    for el in record.setups:
        label = f"{where} setup {el.attrib['id']}"
        s, e = _timestamp(el.attrib["start"], label), _timestamp(el.attrib["end"], label)
        if e <= s:
            raise DayRejected(f"{label}: ends at or before it starts")
        if s != cursor:
            raise DayRejected(
                f"{label}: starts at {s} but the previous setup ended at {cursor}; setups must partition the shift"
            )
        cursor = e
    if cursor != record.end:
        raise DayRejected(f"{where}: setups end at {cursor}, not at the shift end {record.end}")


def _check_stops(record: ShiftRecord, where: str) -> None:
    ordered = sorted(record.stops, key=lambda s: (s["start"], s["end"]))
    for before, after in itertools.pairwise(ordered):
        if after["start"] < before["end"]:
            raise DayRejected(f"{where}: stops {before['id']} and {after['id']} overlap")


# --------------------------------------------------------------------------------------------
# Layer 3: per-setup checks


@dataclass
class Ledger:
    """The day's order ledger and wet-end runs, advanced only by setups that pass every check."""

    orders: dict[str, tuple[tuple[Any, ...], int]] = field(default_factory=dict)
    runs: dict[str, tuple[str, float, float]] = field(default_factory=dict)
    setup_ids_seen: set[str] = field(default_factory=set)


def _number(attrs: dict[str, str], key: str, where: str, integer: bool = False) -> float:
    if key not in attrs:
        raise SetupExcluded(f"Missing {where}{key}")
    try:
        value = float(parse_integer(attrs[key])) if integer else parse_decimal(attrs[key])
    except ValueError:
        raise SetupExcluded(f"Invalid {where}{key}") from None
    if not math.isfinite(value) or value < 0:
        raise SetupExcluded(f"Invalid {where}{key}")
    return value


def _integer(value: float) -> bool:
    return float(value).is_integer()


def check_setup(el: Element, ledger: Ledger) -> dict[str, Any]:
    """Run the per-setup checks in their documented order; return the setup's values or raise
    ``SetupExcluded`` with the first failure. The ledger is advanced only on success."""
    a = el.attrib
    for key in ("setup_id", "run", "grade"):
        if not a.get(key):
            raise SetupExcluded(f"Missing {key}")
    knives_el = [c for c in el if c.tag == "knife"]
    rejects_el = [c for c in el if c.tag == "reject"]
    # 1. numbers
    v = {key: _number(a, key, "") for key in SETUP_NUMBERS}
    knives = []
    for knife_el in knives_el:
        level = knife_el.attrib.get("level", "?")
        kv: dict[str, Any] = {
            key: _number(knife_el.attrib, key, f"{level} knife ", key in KNIFE_INTEGERS)
            for key in KNIFE_NUMBERS
        }
        for key in ("level", "stacker", "order_id"):
            if not knife_el.attrib.get(key):
                raise SetupExcluded(f"Missing {level} knife {key}")
            kv[key] = knife_el.attrib[key]
        knives.append(kv)
    rejects = []
    for reject_el in rejects_el:
        rv: dict[str, Any] = {
            key: _number(reject_el.attrib, key, "reject ", key == "sheets") for key in REJECT_NUMBERS
        }
        rv["family"] = reject_el.attrib.get("family")
        rv["reason"] = reject_el.attrib.get("reason")
        rv["knife"] = reject_el.attrib.get("knife")
        rejects.append(rv)
    width, feet = v["width_in"], v["gross_feet"]
    # 2. web geometry
    if width not in catalog.WEB_WIDTHS:
        raise SetupExcluded("Invalid web width")
    if feet <= 0 or v["gross_sqft"] <= 0:
        raise SetupExcluded("Invalid gross geometry")
    # 3. grade and target
    grade = a["grade"]
    if grade not in catalog.GRADE_TARGETS:
        raise SetupExcluded("Unknown grade")
    if v["target_fpm"] != catalog.GRADE_TARGETS[grade]:
        raise SetupExcluded("Target does not match grade")
    # 4. one grade, width and target per wet-end run
    run = ledger.runs.get(a["run"])
    if run is not None and run != (grade, width, v["target_fpm"]):
        raise SetupExcluded("Grade or width changed inside wet-end run")
    # 5. areas
    reject_sqft = sum(r["sqft"] for r in rejects)
    if (
        not close(v["gross_sqft"], metrics.gross_sqft(feet, width))
        or not close(v["shear_sqft"], metrics.shear_sqft(v["shear_feet"], width))
        or v["trim_sqft"] + v["shear_sqft"] + reject_sqft > v["gross_sqft"] * (1 + REL_TOL) + ABS_TOL
    ):
        raise SetupExcluded("Waste/gross area out of bounds")
    # 6. knife set
    levels = [k["level"] for k in knives]
    if levels not in (["upper"], ["upper", "lower"]) or any(k["stacker"] != k["level"] for k in knives):
        raise SetupExcluded("Invalid knife set")
    # 7. knife geometry
    for k in knives:
        if not (_integer(k["outs"]) and _integer(k["cuts"])) or min(k["outs"], k["cuts"]) < 1:
            raise SetupExcluded("Invalid knife geometry")
        if k["width_in"] <= 0 or k["length_in"] <= 0:
            raise SetupExcluded("Invalid knife geometry")
    # 8. spans contiguous, centred, inside the web
    occupied = metrics.occupied_width([(k["outs"], k["width_in"]) for k in knives])
    edge = knives[0]["start_in"]
    for k in knives:
        if not close(k["start_in"], edge):
            raise SetupExcluded("Knife spans do not fit the web")
        edge = k["start_in"] + k["outs"] * k["width_in"]
    if edge > width + ABS_TOL or not close(knives[0]["start_in"], width - edge):
        raise SetupExcluded("Knife spans do not fit the web")
    # 9. shear on a setup's first record only
    continued = a.get("continued", "false")
    if continued not in {"true", "false"}:
        raise SetupExcluded("Invalid continued")
    first = a["setup_id"] not in ledger.setup_ids_seen
    ledger.setup_ids_seen.add(a["setup_id"])
    expected_shear = catalog.NEW_SETUP_SHEAR_FEET if first else 0.0
    if v["shear_feet"] != expected_shear or (continued == "true") == first:
        raise SetupExcluded("Shear does not match setup start")
    # 10. footage
    travels = [metrics.lineal_feet(k["cuts"], k["length_in"]) for k in knives]
    if any(not close(t, travels[0]) for t in travels) or not close(feet, travels[0] + v["shear_feet"]):
        raise SetupExcluded("Knife footage does not reconcile")
    net_feet = feet - v["shear_feet"]
    # 11. trim
    if not close(v["trim_sqft"], metrics.trim_sqft(net_feet, width, occupied)):
        raise SetupExcluded("Trim does not reconcile with outs")
    # 12. rejects
    used: dict[str, float] = {}
    by_level = {k["level"]: k for k in knives}
    for r in rejects:
        subs = catalog.REJECT_FAMILIES.get(r["family"] or "")
        knife = by_level.get(r["knife"] or "")
        if subs is None or knife is None or (r["reason"] is not None and r["reason"] not in subs):
            raise SetupExcluded("Invalid reject")
        if not _integer(r["sheets"]) or r["sheets"] < 1:
            raise SetupExcluded("Invalid reject")
        used[r["knife"]] = used.get(r["knife"], 0) + r["sheets"]
        if used[r["knife"]] > knife["cuts"] * knife["outs"]:
            raise SetupExcluded("Invalid reject")
        if not close(r["sqft"], metrics.reject_sqft(int(r["sheets"]), knife["width_in"], knife["length_in"])):
            raise SetupExcluded("Invalid reject")
        r["width_in"], r["length_in"] = knife["width_in"], knife["length_in"]
    # 13. order ledger
    updates = {}
    for k in knives:
        counts = (
            "order_quantity",
            "planned_sheets",
            "produced_sheets",
            "remaining_before",
            "remaining_after",
        )
        if not all(_integer(k[c]) for c in counts):
            raise SetupExcluded("Order quantities do not reconcile")
        requested, planned = int(k["order_quantity"]), int(k["planned_sheets"])
        before, after, produced = (
            int(k["remaining_before"]),
            int(k["remaining_after"]),
            int(k["produced_sheets"]),
        )
        if (
            produced != int(k["cuts"]) * int(k["outs"])
            or after != before - produced
            or not planned >= requested > 0
            or before > planned
        ):
            raise SetupExcluded("Order quantities do not reconcile")
        identity = (grade, k["width_in"], k["length_in"], requested, planned)
        known = ledger.orders.get(k["order_id"])
        expected_before = planned if known is None else known[1]
        if (known is not None and known[0] != identity) or before != expected_before:
            raise SetupExcluded("Order identity or remaining quantity changed")
        updates[k["order_id"]] = (identity, after)
    ledger.orders.update(updates)
    ledger.runs.setdefault(a["run"], (grade, width, v["target_fpm"]))
    return {
        "values": v,
        "knives": knives,
        "rejects": rejects,
        "occupied": occupied,
        "net_feet": net_feet,
        "reject_sqft": reject_sqft,
        "continued": continued == "true",
        "travel": travels[0],
    }


def raw_record(el: Element) -> str:
    """The setup's original attributes and children as JSON text (kept, never rewritten)."""
    return json.dumps(
        {
            "attributes": dict(el.attrib),
            "children": [{"tag": c.tag, "attributes": dict(c.attrib)} for c in el],
        },
        sort_keys=True,
    )


# --------------------------------------------------------------------------------------------
# Whole day


@dataclass
class IntakeResult:
    """A day ready to write, with what was excluded."""

    day: date
    rows: DayRows
    sha256: str
    setups: int
    excluded: list[dict[str, Any]]


def read_day(raw: bytes, *, file_name: str | None = None, file_day: date | None = None) -> IntakeResult:
    """Turn one day file into store rows. Raises ``DayRejected`` for a structural fault."""
    root = parse_tree(raw)
    day, attrs, shifts = parse_structure(root, file_day)
    rows = DayRows(day)
    t = rows.tables
    ledger = Ledger()
    runs: dict[str, dict[str, Any]] = {}
    for shift in shifts:
        setups: list[dict[str, Any]] = []
        excluded = 0
        for el in shift.setups:
            try:
                checked = check_setup(el, ledger)
            except SetupExcluded as exc:
                excluded += 1
                t["excluded_records"].append(_excluded_row(day, shift.number, el, str(exc)))
                continue
            setup = _setup_row(day, shift, el, checked)
            setups.append(setup)
            t["knives"].extend(_knife_rows(setup, checked))
            t["rejects"].extend(_reject_rows(setup, checked))
            _add_to_run(runs, setup)
        t["stop_allocations"].extend(_allocate(setups, shift))
        t["setups"].extend(setups)
        t["stops"].extend(_stop_rows(day, shift))
        t["notes"].extend(
            {"day": day, "shift": shift.number, "seq": i, "text": n} for i, n in enumerate(shift.notes)
        )
        t["shifts"].append(_shift_row(day, shift, setups, excluded))
    t["wet_end_runs"] = list(runs.values())
    digest = hashlib.sha256(raw).hexdigest()
    valid = len(t["setups"])
    t["days"] = [
        {
            "day": day,
            "file": file_name,
            "sha256": digest,
            "bytes": len(raw),
            "generator": attrs.get("generator"),
            "seed": parse_integer(attrs["seed"]) if "seed" in attrs else None,
            "shifts": 3,
            "setups": valid,
            "excluded": len(t["excluded_records"]),
            "stops": len(t["stops"]),
            "ingested_at": datetime.now().replace(microsecond=0),
        }
    ]
    return IntakeResult(day, rows, digest, valid, list(t["excluded_records"]))


def _excluded_row(day: date, shift: int, el: Element, error: str) -> dict[str, Any]:
    return {
        "day": day,
        "shift": shift,
        "record_id": el.attrib["id"],
        "kind": "setup",
        "error": error,
        "raw": raw_record(el),
    }


def _setup_row(day: date, shift: ShiftRecord, el: Element, checked: dict[str, Any]) -> dict[str, Any]:
    a = el.attrib
    v = checked["values"]
    start, end = datetime.fromisoformat(a["start"]), datetime.fromisoformat(a["end"])
    return {
        "day": day,
        "shift": shift.number,
        "record_id": a["id"],
        "setup_id": a["setup_id"],
        "run_id": a["run"],
        "crew": shift.crew,
        "grade": a["grade"],
        "target_fpm": v["target_fpm"],
        "width_in": v["width_in"],
        "occupied_in": checked["occupied"],
        "started": start,
        "ended": end,
        "elapsed_min": (end - start).total_seconds() / 60,
        "gross_feet": v["gross_feet"],
        "net_feet": checked["net_feet"],
        "gross_sqft": v["gross_sqft"],
        "trim_sqft": v["trim_sqft"],
        "shear_feet": v["shear_feet"],
        "shear_sqft": v["shear_sqft"],
        "reject_sheets": int(sum(r["sheets"] for r in checked["rejects"])),
        "reject_sqft": checked["reject_sqft"],
        "stop_count": 0,
        "stop_min": 0.0,
        "knives": len(checked["knives"]),
        "continued": checked["continued"],
    }


def _knife_rows(setup: dict[str, Any], checked: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "day": setup["day"],
            "shift": setup["shift"],
            "record_id": setup["record_id"],
            "setup_id": setup["setup_id"],
            "knife": k["level"],
            "order_id": k["order_id"],
            "grade": setup["grade"],
            "width_in": k["width_in"],
            "length_in": k["length_in"],
            "outs": int(k["outs"]),
            "cuts": int(k["cuts"]),
            "start_in": k["start_in"],
            "requested_sheets": int(k["order_quantity"]),
            "planned_sheets": int(k["planned_sheets"]),
            "produced_sheets": int(k["produced_sheets"]),
            "remaining_before": int(k["remaining_before"]),
            "remaining_after": int(k["remaining_after"]),
            "lineal_feet": checked["travel"],
        }
        for k in checked["knives"]
    ]


def _reject_rows(setup: dict[str, Any], checked: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "day": setup["day"],
            "shift": setup["shift"],
            "record_id": setup["record_id"],
            "seq": seq,
            "grade": setup["grade"],
            "family": r["family"],
            "reason": r["reason"],
            "knife": r["knife"],
            "sheets": int(r["sheets"]),
            "width_in": r["width_in"],
            "length_in": r["length_in"],
            "sqft": r["sqft"],
        }
        for seq, r in enumerate(checked["rejects"])
    ]


def _add_to_run(runs: dict[str, dict[str, Any]], setup: dict[str, Any]) -> None:
    """Fold a valid setup into its wet-end run's row (a run may span shifts)."""
    run = runs.setdefault(
        setup["run_id"],
        {
            "day": setup["day"],
            "run_id": setup["run_id"],
            "grade": setup["grade"],
            "target_fpm": setup["target_fpm"],
            "width_in": setup["width_in"],
            "started": setup["started"],
            "ended": setup["ended"],
            "first_shift": setup["shift"],
            "last_shift": setup["shift"],
            "setups": 0,
            "gross_feet": 0.0,
            "gross_sqft": 0.0,
        },
    )
    run["ended"] = max(run["ended"], setup["ended"])
    run["last_shift"] = setup["shift"]
    run["setups"] += 1
    run["gross_feet"] += setup["gross_feet"]
    run["gross_sqft"] += setup["gross_sqft"]


def _allocate(setups: list[dict[str, Any]], shift: ShiftRecord) -> list[dict[str, Any]]:
    """Allocation rows of the shift's stops over its valid setups; updates each setup's stop count
    and minutes."""
    by_id = {s["record_id"]: s for s in setups}
    stops = {s["id"]: s for s in shift.stops}
    intervals = [(s["record_id"], s["started"], s["ended"]) for s in setups]
    out = []
    for stop_id, record_id, seconds in metrics.allocate_stops(
        intervals, [(s["id"], s["start"], s["end"]) for s in shift.stops]
    ):
        stop = stops[stop_id]
        by_id[record_id]["stop_count"] += 1
        by_id[record_id]["stop_min"] += seconds / 60
        out.append(
            {
                "day": by_id[record_id]["day"],
                "shift": shift.number,
                "stop_id": stop_id,
                "record_id": record_id,
                "kind": stop["kind"],
                "place": stop["place"],
                "reason": stop["reason"],
                "minutes": seconds / 60,
            }
        )
    return out


def _stop_rows(day: date, shift: ShiftRecord) -> list[dict[str, Any]]:
    return [
        {
            "day": day,
            "shift": shift.number,
            "stop_id": s["id"],
            "kind": s["kind"],
            "place": s["place"],
            "reason": s["reason"],
            "started": s["start"],
            "ended": s["end"],
            "minutes": (s["end"] - s["start"]).total_seconds() / 60,
            "notes": s["notes"],
        }
        for s in shift.stops
    ]


def _shift_row(day: date, shift: ShiftRecord, setups: list[dict[str, Any]], excluded: int) -> dict[str, Any]:
    """The shift with its coverage and the sums of its valid setups and its stops."""
    by_kind = dict.fromkeys(catalog.STOP_KINDS, 0.0)
    for s in shift.stops:
        by_kind[s["kind"]] += (s["end"] - s["start"]).total_seconds() / 60
    return {
        "day": day,
        "shift": shift.number,
        "crew": shift.crew,
        "supervisor_slot": shift.supervisor_slot,
        "started": shift.start,
        "ended": shift.end,
        "scheduled_min": catalog.SHIFT_MINUTES,
        "setups": len(setups),
        "excluded": excluded,
        "coverage": "incomplete" if excluded else "complete",
        "paper_changes": len({u["run_id"] for u in setups}),
        "lineal_ft": sum(u["gross_feet"] for u in setups),
        "target_ft": sum(metrics.target_feet(u["target_fpm"], u["elapsed_min"]) for u in setups),
        "elapsed_min": sum(u["elapsed_min"] for u in setups),
        "stop_min_allocated": sum(u["stop_min"] for u in setups),
        "gross_sqft": sum(u["gross_sqft"] for u in setups),
        "trim_sqft": sum(u["trim_sqft"] for u in setups),
        "shear_sqft": sum(u["shear_sqft"] for u in setups),
        "reject_sqft": sum(u["reject_sqft"] for u in setups),
        "maintenance_min": by_kind["Maintenance"],
        "operator_min": by_kind["Operator"],
        "pm_min": by_kind["PM"],
        "external_min": by_kind["External"],
        "setups_above_trim_flag": sum(metrics.trim_flagged(u["trim_sqft"], u["gross_sqft"]) for u in setups),
    }


def iter_day_files(names: Iterable[str]) -> list[str]:
    """The ``YYYY-MM-DD.xml`` names among ``names``, in date order."""
    pattern = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\.xml")
    return sorted(n for n in names if pattern.fullmatch(n))
