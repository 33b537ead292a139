"""Dates as people say them, mapped to production days and windows (docs/shifts-agent.md, "Reading").

A small explicit layer, pure text: weekdays ("last Tuesday", "on Monday", "the Friday before"), production
days back ("yesterday", "the day before yesterday"), calendar days back ("three days ago"), weeks back ("two weeks ago", "the week before last"), a
named week ("the week of March 16"), month names and their short forms with or without a year ("feb",
"December 2025") and "this quarter" (the 4-4-5 period). Each phrase resolves against the selected day; a
date word this layer cannot resolve ("payday", "the day after the storm") is returned as not understood,
never ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from shopfloor.shifts.plant.calendar import Period, previous_production_day, window_for

# Short weekday forms people write ("last tues"); "sat" and "sun" are left out (no production on them).
WEEKDAY_SHORT = ("mon", "tues?", "wed", "thu(?:rs?)?", "fri", "satur", "sunda")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
)  # fmt: skip
# Short month forms people write ("feb", "sept"); "may" and "mar" only beside a date preposition.
MONTH_SHORT = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}  # fmt: skip
NUMBER_WORDS = {
    "one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10,
}  # fmt: skip
_N = r"(\d{1,2}|one|a|two|three|four|five|six|seven|eight|nine|ten)"
# Day words that name a moment the records cannot place (no calendar of paydays or weather is held).
UNRESOLVED = (
    r"\b(fire drill|drill|payday|pay day|holiday|holidays|storm|snowstorm|blizzard|outage day|inventory day|audit day"
    r"|shutdown week|christmas|thanksgiving|new year'?s?|easter|birthday"
    # A calendar quarter by its number: the plant's quarter is its 4-4-5 period, held only as "this quarter".
    r"|q[1-4]|(?:first|second|third|fourth|1st|2nd|3rd|4th|last|next|previous) quarter)\b"
)


@dataclass(frozen=True)
class DateWords:
    """What the date words of a question resolve to: a production day, or a window and its anchor; and
    the date words that could not be resolved."""

    day: date | None = None
    window: Period | None = None
    anchor: date | None = None
    unresolved: tuple[str, ...] = ()
    # A second named week compared with the first ("wk of jan 12 vs the week of jan 19").
    other_anchor: date | None = None


def _number(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text]


def _weekday_on_or_before(day: date, weekday: int, *, strictly: bool) -> date:
    back = (day.weekday() - weekday) % 7
    if back == 0 and strictly:
        back = 7
    return day - timedelta(days=back)


def month_number(word: str) -> int | None:
    """The month a full or short month name names (``None`` for any other word)."""
    if word in MONTHS:
        return MONTHS.index(word) + 1
    return MONTH_SHORT.get(word)


def resolve(text: str, day: date) -> DateWords:
    """The date words of ``text`` (lower case) resolved against the selected ``day``."""
    unresolved = tuple(dict.fromkeys(m.group(0) for m in re.finditer(UNRESOLVED, text)))
    # "the week of March 16": the Mon-Fri week holding that date (the latest such date not after the day).
    # Two named weeks ("week of jan 12 vs jan 19", "week of march 2 and week of march 9") are compared.
    weeks = list(re.finditer(r"\b(?:week of )?(\w+) (\d{1,2})(?:st|nd|rd|th)?\b", text))
    m = re.search(r"\bweek of (\w+) (\d{1,2})(?:st|nd|rd|th)?\b", text)
    if m and month_number(m.group(1)) is not None:
        starts: list[date] = []
        for found in (w for w in weeks if w.start() >= m.start()):
            if month_number(found.group(1)) is None:
                continue
            month = month_number(found.group(1)) or 1
            try:
                named = date(day.year, month, int(found.group(2)))
                if named > day:
                    named = date(day.year - 1, month, int(found.group(2)))
            except ValueError:
                return DateWords(unresolved=(*unresolved, found.group(0)))
            start = window_for("week", named).start
            if start not in starts:
                starts.append(start)
        other = starts[1] if len(starts) > 1 else None
        return DateWords(window="week", anchor=starts[0], unresolved=unresolved, other_anchor=other)
    # "the week before last", "two weeks ago": the week that many weeks before the day's week.
    back: int | None = None
    if re.search(r"\bweek before last\b", text):
        back = 2
    m = re.search(rf"\b{_N} weeks? ago\b", text)
    if m:
        back = _number(m.group(1))
    if back is not None:
        start = window_for("week", day).start - timedelta(weeks=back)
        # "last week against the week before last", "this week vs two weeks ago": two weeks named, compared.
        rest = re.sub(rf"\bweek before last\b|\b{_N} weeks? ago\b", " ", text)
        weeks_back = {"last": 1, "previous": 1, "prior": 1, "this": 0, "current": 0}
        m = re.search(r"\b(last|previous|prior|this|current) week\b", rest)
        if m and weeks_back[m.group(1)] != back:
            first = window_for("week", day).start - timedelta(weeks=weeks_back[m.group(1)])
            return DateWords(window="week", anchor=first, unresolved=unresolved, other_anchor=start)
        return DateWords(window="week", anchor=start, unresolved=unresolved)
    if re.search(r"\b(this|the current|current) quarter\b|\bquarter to date\b|\bso far this quarter\b", text):
        # The plant's quarter is its 4-4-5 period (docs/METRICS.md, "Windows").
        return DateWords(window="fiscal", anchor=day, unresolved=unresolved)
    # "three days ago", "the day before yesterday": calendar days before the selected day.
    m = re.search(rf"\b{_N} days? ago\b", text)
    if m:
        return DateWords(day=day - timedelta(days=_number(m.group(1))), unresolved=unresolved)
    # "yesterday" is the previous production day, and "the day before yesterday" the production day
    # before that: one rule for both, so on a Monday or Tuesday they never land on a weekend between them.
    if re.search(r"\bday before yesterday\b", text):
        return DateWords(day=previous_production_day(previous_production_day(day)), unresolved=unresolved)
    if re.search(r"\byesterday\b", text):
        return DateWords(day=previous_production_day(day), unresolved=unresolved)
    # A weekday: "last Tuesday", "the Friday before" (strictly before the day); "on Monday" (this week's
    # Monday, the selected day itself when it is one).
    for index, name in enumerate(WEEKDAYS):
        short = WEEKDAY_SHORT[index]
        m = re.search(rf"\b(last |previous |the |on )?(?:{name}s?|{short})( before)?\b", text)
        if m is None:
            continue
        strictly = bool(m.group(2)) or (m.group(1) or "").strip() in ("last", "previous")
        return DateWords(day=_weekday_on_or_before(day, index, strictly=strictly), unresolved=unresolved)
    return DateWords(unresolved=unresolved)


def named_months(text: str, day: date) -> list[date]:
    """First days of the months ``text`` names, in the order named: with a year when one follows ("December
    2025"), else the latest such month not after ``day``."""
    found: list[tuple[int, date]] = []
    words = "|".join((*MONTHS, *MONTH_SHORT))
    for m in re.finditer(rf"\b({words})\b(?:\.?,? (\d{{4}})\b)?", text):
        word = m.group(1)
        # "may" is mostly the verb and "mar" a word of its own: each is a month beside a date preposition,
        # with a year, or listed with another month ("feb vs mar", "march and may").
        listed = rf"\b({words})\.?,? (vs\.?|versus|and|or|to|with|against|compared (to|with)) {word}\b"
        listed += rf"|\b{word}\.?,? (vs\.?|versus|and|or|to|with|against|compared (to|with)) ({words})\b"
        if word == "may" and not re.search(
            rf"\b(in|of|for|during|since) may\b|\bmay \d{{4}}\b|{listed}", text
        ):
            continue
        if word == "mar" and not re.search(rf"\b(in|of|for|during) mar\b|\bmar \d{{4}}\b|{listed}", text):
            continue
        month = month_number(word) or 1
        latest = day.year if month <= day.month else day.year - 1
        year = int(m.group(2)) if m.group(2) else latest
        first = date(year, month, 1)
        if first not in (d for _p, d in found):
            found.append((m.start(), first))
    return [d for _p, d in sorted(found)]
