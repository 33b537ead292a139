"""Scope words: what a question says about its shift, day and window (docs/shifts-agent.md, "Flow", step 2),
read before its intent; with the one text normalization every reading of a question starts from."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from shopfloor.shifts.planning import dates
from shopfloor.shifts.planning.plans import Unavailable
from shopfloor.shifts.plant.calendar import Period, previous_production_day, previous_window, window_for
from shopfloor.shifts.plant.scope import Scope


def has(text: str, pattern: str) -> bool:
    """Whether ``pattern`` occurs anywhere in ``text``."""
    return re.search(pattern, text) is not None


def normalize(question: str) -> str:
    """Lower case, curly quotes straightened, runs of whitespace collapsed."""
    text = question.replace("’", "'").replace("“", '"').replace("”", '"').lower()
    return re.sub(r"\s+", " ", text).strip()


# --- scope words (docs/shifts-agent.md, Flow) ---------------------------------------------------------------

# A bare ordinal ("on 2nd", "2nd vs 1st", "what did 3rd cost us") names a shift: the plant has no other
# numbered thing people call by an ordinal alone (grades, crews, places and widths have their own words).
_BARE = r"(?<!the )(?<!-)\b{0}\b(?! (?:of|week|day|month|quarter|period|half|time|place|grade|crew)\b)(?!-)"
# "… on 2nd shift three days ago": a number after "shift" that counts days (or weeks …) back is no shift.
_COUNTS_BACK = r"(?! (?:days?|weeks?|wks?|months?|hours?|hrs?|years?|times?|shifts?)\b)"
_SHIFT_WORDS = {
    1: r"\b(first|1st|day) shift\b|\bshift (1|one)\b" + _COUNTS_BACK + "|" + _BARE.format("1st"),
    2: r"\b(second|2nd|swing|evening) shift\b|\bshift (2|two)\b" + _COUNTS_BACK + "|" + _BARE.format("2nd"),
    3: r"\b(third|3rd|night) shift\b|\bshift (3|three)\b" + _COUNTS_BACK + "|" + _BARE.format("3rd"),
}
# "On second", "on third" said alone at the end of the ask ("rejects so far this year on second") is that shift;
# "on second thought" or "on first look" is not.
_ON_ALONE = r"|\bon {0}\b(?=\s*(?:$|[?.!,]|(?:tonight|today|yesterday|last|this|and|vs|or)\b))"
for _n, _word in ((1, "first"), (2, "second"), (3, "third")):
    _SHIFT_WORDS[_n] += _ON_ALONE.format(_word)
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}
_ORD = r"(?:first|1st|second|2nd|third|3rd)"
_RANGE = (
    r"\bbetween\b.*\band\b.*\d|\bfrom\b.*\d.*\b(to|until|through|thru)\b.*\d|\d{4}-\d{2}-\d{2}"
    r"|\b(since|last|past) \d+ (days|months)\b"
    # a date written with slashes ("3/2", "3/13/26")
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
)


# The crew to be told ("anything weird tonight i should tell 3rd?", "pass it on to third shift", "avisarle al
# tercer turno"): the next shift is who hears the answer, never the shift asked about (docs/shifts-agent.md,
# "Reading").
AUDIENCE = (
    r"\b(?:tell|warn|let|remind|brief|pass (?:it |this |that )?(?:on )?to|hand (?:it |this |that )?(?:off |over )?to"
    r"|(?:avisar|decir|contar)(?:le)?(?:\s+al?)?)\s+(?:the\s+)?"
    r"(?:first|1st|second|2nd|third|3rd|night|day|swing|tercer|primer|segundo|tercero|primero)"
    r"(?:\s+(?:shift|turno|crew))?\b"
)


def named_shifts(question: str) -> list[int]:
    """The shifts a question names, in shift order (the crew to be told is no shift named: AUDIENCE)."""
    q = re.sub(AUDIENCE, " ", normalize(question))
    found = {n for n, pattern in _SHIFT_WORDS.items() if has(q, pattern)}
    # "first and second shift": ordinals listed before one shared "shift(s)".
    for listed in re.finditer(
        rf"\b({_ORD}(?:\s*(?:,|and|or|vs\.?|versus|to|with)\s*(?:the\s+)?{_ORD})+)\s+shifts?\b", q
    ):
        found |= {_ORDINALS[w] for w in re.findall(_ORD, listed.group(1))}
    # "shifts 1 and 3", "shift 1, 2 and 3": numbers listed after one "shift(s)".
    for listed in re.finditer(rf"\bshifts? ({_NUM}(?:\s*(?:,|and|or|&|vs\.?|versus)\s*{_NUM})+)\b", q):
        found |= {_NUMBERS[w] for w in re.findall(_NUM, listed.group(1))}
    return sorted(found)


_NUMBERS = {"1": 1, "one": 1, "2": 2, "two": 2, "3": 3, "three": 3}
_NUM = r"(?:[123]|one|two|three)\b"


def named_months(question: str, day: date) -> list[date]:
    """First days of the months a question names (``planning/dates``: full or short names, with or without a
    year), each without a year the latest such month not after ``day``."""
    return dates.named_months(normalize(question), day)


LAST_SHIFT = r"\b(last|previous|prior) shift\b|\bthe shift before\b"
# "Last night" ("anoche") is the night shift before the selected day: the previous production day's third
# shift (a Monday's is Friday's), as "last shift" is from shift 1 (docs/shifts-agent.md, "Dates").
LAST_NIGHT = r"\blast night\b|\byesterday (night|evening)\b"
# The selected shift held against the shift before it ("compared to the previous shift", "than last shift", "vs
# the shift before"): the two shifts compared, never the shift before alone (docs/shifts-agent.md, "Dates").
AGAINST_LAST_SHIFT = (
    r"\b(?:compared? (?:to|with)|than|vs\.?|versus|against) (?:the )?"
    r"(?:(?:last|previous|prior) shift|shift before)\b"
)

# A clock range ("between 2 and 4 pm", "from 2pm to 4pm", "2-4pm"): a time of day, never a date range; no tool
# filters the stops by the clock, so it is named as not applied (planning/accounting.TIME_OF_DAY).
_CLOCK = r"\d{1,2}(?::\d{2})?"
_MARK = r" ?(?:am|pm|a\.m\.|p\.m\.|oclock|o'clock)"
TIME_RANGE = (
    rf"\b(?:(?:between|from) )?{_CLOCK}(?:{_MARK})? ?(?:and|to|until|till|through|thru|-|–) ?{_CLOCK}{_MARK}(?!\w)"
    rf"|\b(?:between|from) {_CLOCK}{_MARK} ?(?:and|to|until|till|through|thru|-|–) ?{_CLOCK}\b"
    rf"|\b(?:between|from) {_CLOCK}:\d{{2}} (?:and|to|until|till) {_CLOCK}:\d{{2}}\b"
)


def clock_said(q: str) -> str:
    """``q`` with a clock's "am" or "pm" said as "oclock" ("4 pm" is no planned-maintenance stop, "pm")."""
    return re.sub(r"(\d) ?(?:a\.m\.|p\.m\.|am|pm)(?!\w)", r"\1 oclock", q)


@dataclass(frozen=True)
class ScopeWords:
    """What the question says about scope: shift, day, window and a second window."""

    shifts: tuple[int, ...]
    day: date
    window: Period | None
    anchor: date | None
    other_anchor: date | None = None
    weeks: int | None = None
    # Date words the dates layer could not place (named "Not understood" by the answer).
    unresolved: tuple[str, ...] = ()


def scope_words(question: str, scope: Scope) -> ScopeWords | Unavailable:
    """Read the scope words of ``question`` against the selected ``scope``."""
    q = normalize(question)
    shifts = tuple(named_shifts(q))
    day = scope.day
    if not shifts and scope.shift is not None and scope.shift > 1 and has(q, AGAINST_LAST_SHIFT):
        shifts = (scope.shift - 1, scope.shift)
    if not shifts and scope.shift is not None and has(q, LAST_SHIFT):
        # "Last shift" from a selected shift is the one before it: shift 1's is the previous production
        # day's third shift.
        if scope.shift > 1:
            shifts = (scope.shift - 1,)
        else:
            shifts, day = (3,), previous_production_day(day)
    if has(q, LAST_NIGHT):
        day = previous_production_day(day)
        shifts = shifts or (3,)
    window: Period | None = None
    anchor: date | None = None
    other: date | None = None
    weeks: int | None = None
    said = dates.resolve(q, scope.day)
    if said.day is not None:
        day = said.day
    if said.window is not None:
        return ScopeWords(shifts, day, said.window, said.anchor, said.other_anchor, None, said.unresolved)
    m = re.search(
        r"\b(?:last|past|over the last|over the past|over|for the last|for the past|for) (\d{1,2}) weeks\b", q
    )
    if m:
        weeks = int(m.group(1))
        if not 1 <= weeks <= 26:
            return Unavailable("Trends cover 1 to 26 weeks.")
    for period, words in (("week", r"week"), ("month", r"month"), ("fiscal", r"(?:fiscal |4-4-5 )?period")):
        if has(q, rf"\blast {words}\b|\bprevious {words}\b|\bprior {words}\b"):
            window = period  # type: ignore[assignment]
            anchor = previous_window(window_for(period, day)).start  # type: ignore[arg-type]
            against = (
                rf"\b(vs\.?|versus|compared (to|with)|than|against) (the )?(last|previous|prior) {words}\b"
            )
            if has(q, against):
                anchor = day  # "speed vs last week": this window against the one before
            elif has(q, rf"\bthis {words}\b"):
                other = anchor
                anchor = day
            break
        # "The month-end pack" names no month: a word joined by a hyphen is another word. "The week after New
        # Year" is a week the dates layer cannot place (its moment is named not understood), never this week.
        if has(
            q,
            rf"\bthis {words}\b(?!-)|\bthe {words}\b(?!-)(?! (?:after|before|around) \w)|\b{words} to date\b|\bcurrent {words}\b(?!-)",
        ):
            window = period  # type: ignore[assignment]
            anchor = day
            break
    if window is None and has(q, r"\b4-4-5\b|\bfiscal\b"):
        window, anchor = "fiscal", day
    if has(re.sub(TIME_RANGE, " ", q), _RANGE):
        return Unavailable(
            "Dates and date ranges written out in the question are not supported offline; pick the day or a "
            "window with the controls."
        )
    months = named_months(q, day)
    if months and window is None:
        window, anchor = "month", months[0]
        if len(months) > 1:
            other = months[1]
    return ScopeWords(shifts, day, window, anchor, other, weeks, said.unresolved)
