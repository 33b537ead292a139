"""Layer 2 of the intake: everything whose failure rejects the whole day (docs/record-format.md, section 3).

The root and its attributes, the three shift windows, unknown elements or attributes, the setups'
partition of each shift, overlapping stops and the catalogue values of stops. A fault raises
``DayRejected``; nothing of the day is written.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from xml.etree.ElementTree import Element

from shopfloor.shifts.plant import calendar, catalog
from shopfloor.shifts.records.fields import (
    CHILDREN,
    INTEGER,
    KNIFE_ATTRS,
    REJECT_ATTRS,
    ROOT_ATTRS,
    ROOT_OPTIONAL,
    SETUP_ATTRS,
    SHIFT_ATTRS,
    STOP_ATTRS,
    DayRejected,
    parse_date,
    parse_timestamp,
)


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
