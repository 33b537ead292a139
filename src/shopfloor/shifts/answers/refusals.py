"""A refusal's reason and the lines that name what an answer did not use, said from templates
(``answers/sayings.py``), so a page in another language says them with the question's own words kept.

The reasons are the router's (``planning/router.py``, ``planning/scope_words.py``), written there in English;
each is said here from its template when its English is the router's word for word, else kept as it is
(English on every page). The lines that name the words no slot holds (``planning/accounting.py``:
"Not in the records: …", "Not understood: …", "Not applied: …") say their label and fixed wording from a
template; the words the supervisor wrote are the question's own (:class:`~.sayings.Asked`); each item of "Not
applied: …" and "Also read: …" is said from its template when it is the reader's word for word, any other
stays the reader's own account, English (:class:`~.sayings.Quoted`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import (
    N_,
    Asked,
    Phrase,
    Quoted,
    Term,
    phrase,
    say_text,
    template_pattern,
)
from shopfloor.shifts.planning.accounting import HELD, Accounting

# The router's refusals with no value in them, word for word.
REASONS = (
    N_("The question is empty."),
    N_(
        "The investigator reads records; it cannot change settings, schedules or equipment, send messages or "
        "run code."
    ),
    N_(
        "The investigator only reads the records; it cannot change, correct or delete a record (a stop's kind, "
        "reason and minutes stay as the crew recorded them)."
    ),
    N_(
        "The records describe the past: they cannot say what speed, output or downtime will be. Ask about a "
        "production day or a window that has happened."
    ),
    N_("Trends cover 1 to 26 weeks."),
    N_(
        "Dates and date ranges written out in the question are not supported offline; pick the day or a window "
        "with the controls."
    ),
    N_("That question has no window form; ask about one production day."),
    N_("The offline planner does not support that question."),
    N_("Name the shift to compare with, e.g. “compare that with first shift”."),
    N_("Shift comparisons run on one production day; choose the Day period."),
    N_("That is the same shift; name another shift to compare with."),
    N_("The follow-up did not change the shift, day, window, grouping or chart."),
)

# What an answer says first when its run stopped before it finished (investigation.py PREFACE,
# SPEND_PREFACE), word for word.
PREFACES = (
    N_("The planner failed before it finished; what follows uses only the evidence gathered first."),
    N_("The investigation reached its tool-call budget; what follows is the evidence gathered."),
    N_("The investigation ran out of time; what follows is the evidence gathered before it stopped."),
    N_("The evidence outgrew the context limit; what follows is what fitted."),
    N_(
        "The plant's monthly model budget is spent, so the planner could not continue; no answer was written. "
        "What follows is only the evidence gathered before that."
    ),
)

# The router's refusals with a value in them: how its English reads, and the template it is said from.
PATTERNED = (
    (
        re.compile(r"Questions are limited to (?P<limit>\d+) characters\."),
        N_("Questions are limited to {limit} characters."),
    ),
    (
        re.compile(
            r"To compare with yesterday, set the date control to (?P<day>\S+) and ask again, or open "
            r"(?P<address>\S+) beside this answer\."
        ),
        N_(
            "To compare with yesterday, set the date control to {day} and ask again, or open {address} beside "
            "this answer."
        ),
    ),
    (
        re.compile(
            r"That is a daily tool; under the (?P<period>week|month|fiscal) control ask for the window form "
            r"\(for example the downtime pareto or the period KPIs\), or switch the Period to Day\."
        ),
        N_(
            "That is a daily tool; under the {period} control ask for the window form (for example the "
            "downtime pareto or the period KPIs), or switch the Period to Day."
        ),
    ),
)

# A window's control as a sentence names it.
PERIODS = {"week": N_("week"), "month": N_("month"), "fiscal": N_("fiscal")}

# The run's caveats on what the records cannot give (a chart, money, a prescription, a profit).
NO_CHART = N_("A chart was asked for and none could be drawn from this evidence.")
NO_COST_BASIS = N_("Money was asked for but this evidence has no cost basis.")
NO_PRESCRIPTION = N_(
    "The records cannot recommend a machine adjustment; this answer shows what they record about it."
)
NO_PROFIT = N_(
    "Profit needs revenue and a contribution margin: the records hold neither, the cost rates are assumed and "
    "the margin is not set, so this shows the losses, not a profit figure."
)

CLOSEST = N_("Closest questions the investigator answers")
HELD_SAID = N_(
    "the records hold speed and lineal feet, downtime stops (reason, place, kind), setups and paper changes, "
    "dry-end rejects, trim and shear, the order matrix and the crews' notes"
)


def reason(text: str, kind: str = "text") -> Section:
    """A refusal's reason (or a stopped run's preface) said from its template; one this module does not
    know, as it is."""
    if text in REASONS or text in PREFACES:
        return say_text(kind, text)
    for pattern, template in PATTERNED:
        found = pattern.fullmatch(text)
        if found:
            params: dict[str, Any] = dict(found.groupdict())
            if "period" in params:
                params["period"] = phrase(PERIODS[str(params["period"])])
            return _checked(say_text(kind, template, **params), text, kind)
    return {"type": kind, "text": text}


def accounted(accounting: Accounting, kind: str = "caveat") -> list[Section]:
    """The lines of ``accounting`` (its ``lines()``, word for word in English), said from templates: the
    question's own words kept as written, each item not applied from its template (an item in another shape
    kept as the reader wrote it, English)."""
    out: list[Section] = []
    english = accounting.lines()
    said: list[Section] = []
    if accounting.not_in_records:
        said.append(
            say_text(
                kind,
                N_("Not in the records: {words} ({held})."),
                words=_asked(accounting.not_in_records, ", "),
                held=_held(),
            )
        )
    if accounting.not_understood:
        said.append(
            say_text(kind, N_("Not understood: {words}."), words=_asked(accounting.not_understood, ", "))
        )
    if accounting.not_applied:
        said.append(not_applied(accounting.not_applied, kind))
    for line, section in zip(english, said, strict=False):
        out.append(_checked(section, line, kind))
    return out


# What the reader names as not applied and why, in the forms it writes (planning/accounting.py ``not_held``,
# ``_asked_not_answered``), each said from its template; ``{time}`` and ``{year}`` are the question's own words.
NOT_APPLIED_ITEMS = (
    N_(
        "the threshold {value} % (the verdict is held to the grade target, 100 %; no other limit is recorded)"
    ),
    N_(
        "the threshold {value} % (the verdict is held to the owner's band, {band} %; no other limit is "
        "recorded)"
    ),
    N_(
        "the time of day, {time} (this answer reads the whole shift or day; no tool filters the stops by the "
        "clock)"
    ),
    N_(
        "{year} (the windows read are a production day, a Mon–Fri week, a month and a 4-4-5 period; no year "
        "window: ask for a month or this period)"
    ),
    N_(
        "grade {code} (no grade of that name is in the records: the grades are {grades}; this answer reads "
        "every grade)"
    ),
    N_(
        "the {width} in web (no web of that width is in the records: the webs are {webs} in; this answer reads "
        "every width)"
    ),
    N_(
        "the target or threshold asked (a yes/no against target reads speed to target only; losses are shown "
        "against the owner's bands where there is one)"
    ),
    N_(
        "the share of the rejects asked (this answer lists the rejects by family with their area, not as a "
        "share; ask for the share on its own)"
    ),
    N_(
        "the count of shifts asked (this answer states the figure against its band or target over the whole "
        "window or day, not each shift's; no tool counts the shifts past it)"
    ),
)
# What the reader names as not applied of the entities a question names (planning/accounting.py
# ``more_values``, investigation.py ``not_applied``, ``figures_not_led``), each said from its template:
# ``{name}`` is an entity's kind (:data:`ENTITY_WORDS`), ``{measure}`` the answer's measure
# (:data:`MEASURE_WORDS`), a reason's, place's or reject's value a word of the records.
ENTITY_ITEMS = (
    N_("{name} {value} (this answer's tools do not break {measure} down by {name})"),
    N_("{value} in web (this answer's tools do not break {measure} down by width)"),
    N_("by {name} (this answer's tools do not break {measure} down by {name})"),
    N_("{name} {value} (this answer reads every {name}; ask about {value} on its own)"),
    N_("{value} in web (this answer reads every width; ask about {value} on its own)"),
    N_("{name} {value} (one {name} per answer is applied, {name} {applied}; ask about {value} on its own)"),
    N_("{value} in web (one width per answer is applied, {applied} in web; ask about {value} on its own)"),
    N_(
        "crew {value} (one shift runs one crew: this answer reads shift {shift}'s crew; ask about crew "
        "{value} over a window)"
    ),
    N_("shift {value} (this answer reads shift {shift}; ask about shift {value} on its own)"),
    N_("{place} as one total (the rows list each of {members})"),
    N_(
        "grade {grade} (crew {crew}'s speed to target is over every grade it ran; no tool breaks one crew's "
        "speed down by grade, and the row of {grade} holds every crew's)"
    ),
    N_("the {top} asked (every {name} is listed, ranked best first)"),
    N_("the {top} asked (every {name} is listed)"),
    N_(
        "the ranking (two named shifts are shown side by side, not ranked; every shift of the day is ranked: "
        "ask to rank the shifts)"
    ),
    N_(
        "the ranking on trim (the groups are ranked on speed to target, unplanned downtime or dry-end waste; "
        "trim is shown side by side, never ranked: ask to compare them side by side)"
    ),
    N_("the second ask, “{ask}” (one question per answer is read; ask it on its own)"),
    N_("by flute (no tool groups by flute; a grade's code carries its flute, 26-C is C flute: ask by grade)"),
    N_(
        "splicer {value} (no place of that name is in the records: the splicers are Splicer 1 to Splicer "
        "{last}; this answer reads every place)"
    ),
    N_(
        "crew {value} (no crew of that name is in the records: the crews are {crews} and {last}; this answer "
        "reads the crew that ran)"
    ),
    N_("the answer against target (this answer's headline is not its speed to target)"),
    N_("the answer against the band (this answer's headline is not the figure held to it)"),
    N_("the share asked (no row of this answer holds the one asked for)"),
    N_("the figure per {per} asked (a ratio no headline leads with yet)"),
    N_("the verdict asked (this answer's headline states the figure, not whether it is so)"),
    N_("{figure} (this answer's headline states its measure's own figure)"),
    N_("{figure} for the whole window (this answer's headline states one {name}'s)"),
)
# An entity's kind as those items name it (planning/accounting.py, investigation.py ENTITY_COLUMNS).
ENTITY_WORDS = {
    "grade": N_("grade"),
    "crew": N_("crew"),
    "reason": N_("reason"),
    "place": N_("place"),
    "width": N_("width"),
    "reject": N_("reject"),
    "kind": N_("kind"),
    "shift": N_("shift"),
}
# An answer's measure as those items name it (investigation.py MEASURE_NAMES, else the plan's measure).
MEASURE_WORDS = {
    "the diagnosis": N_("the diagnosis"),
    "the KPIs": N_("the KPIs"),
    "downtime": N_("downtime"),
    "rejects": N_("rejects"),
    "fpm": N_("fpm"),
    "volume": N_("volume"),
    "setups": N_("setups"),
    "orders": N_("orders"),
    "notes": N_("notes"),
    "rankings": N_("rankings"),
    "dollars": N_("dollars"),
    "pareto": N_("pareto"),
    "waste": N_("waste"),
    "stops": N_("stops"),
    "overrun": N_("overrun"),
    "rollstock": N_("rollstock"),
    "review": N_("review"),
    "variance": N_("variance"),
    "named_cost": N_("named_cost"),
    # The plan's own measure, as a grouping not applied names it (planning/accounting.py ``more_values``).
    "quality": N_("quality"),
    "kpis": N_("kpis"),
    "overview": N_("overview"),
    "compare_shifts": N_("compare_shifts"),
    "compare": N_("compare"),
    "trend": N_("trend"),
    "opportunities": N_("opportunities"),
    "compare_groups": N_("compare_groups"),
    "speed_opportunity": N_("speed_opportunity"),
}
# The figures a question asks for that a headline may not state (planning/accounting.py ASKED_FIGURES).
FIGURE_WORDS = {
    "the figure in hours": N_("the figure in hours"),
    "the figure in MSF": N_("the figure in MSF"),
    "the figure in square feet": N_("the figure in square feet"),
    "the count asked": N_("the count asked"),
}
# The counts a "top N" is asked in (planning/accounting.py ``more_values``).
TOP_WORDS = {"two": N_("two"), "three": N_("three"), "four": N_("four"), "five": N_("five")}
# The params that are the question's own words, kept as the supervisor wrote them.
_ASKED_PARAMS = ("time", "year", "ask", "per")
# The params that are a word of the records when their entity is one (a reason, a place, a reject).
_RECORD_NAMES = ("reason", "place", "reject")
# The params said from a table of words, and the table.
_WORDED = {"name": ENTITY_WORDS, "measure": MEASURE_WORDS, "figure": FIGURE_WORDS, "top": TOP_WORDS}
# The values a param may take for its item to be one of these (a measure not listed is said as it is).
_ALLOWED = {"name": set(ENTITY_WORDS), "figure": set(FIGURE_WORDS), "top": {"2", "3", "4", "5", *TOP_WORDS}}

# What the reader names as also read: a value of one kind beyond the plan's, which the rows grouped by that
# kind show (planning/accounting.py ``more_values``).
ALSO_READ_ITEMS = (
    N_("{name} {value} (in the rows by {name})"),
    N_("{value} in web (in the rows by width)"),
)


def _patterns(templates: Iterable[str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((template, template_pattern(template)) for template in templates)


_ITEM_PATTERNS = _patterns((*NOT_APPLIED_ITEMS, *ENTITY_ITEMS))
_ALSO_PATTERNS = _patterns(ALSO_READ_ITEMS)


def _param(key: str, value: str, found: dict[str, str]) -> Any:
    """One param of a not-applied item: the question's own words, a word of a table said from its
    template, a word of the records through the glossary, or the value as it is."""
    if key in _ASKED_PARAMS:
        return Asked(value)
    if key in _WORDED:
        return phrase(_WORDED[key][value]) if value in _WORDED[key] else value
    if key == "place" or (key in ("value", "applied") and found.get("name") in _RECORD_NAMES):
        return Term(value)
    if key == "members":
        items = value.split(", ")
        members = ", ".join(f"{{m{i}}}" for i in range(len(items)))
        return Phrase(members, None, {f"m{i}": Term(m) for i, m in enumerate(items)})
    return value


def not_applied_item(item: str) -> Phrase | Quoted:
    """One item the reader names as not applied: said from its template when it is one of
    :data:`NOT_APPLIED_ITEMS` word for word, else the reader's own account (English)."""
    return _item(item, _ITEM_PATTERNS)


def also_read_item(item: str) -> Phrase | Quoted:
    """One value the reader names as also read: said from its template when it is one of
    :data:`ALSO_READ_ITEMS` word for word, else the reader's own account (English)."""
    return _item(item, _ALSO_PATTERNS)


def _item(item: str, patterns: tuple[tuple[str, re.Pattern[str]], ...]) -> Phrase | Quoted:
    for template, pattern in patterns:
        found = pattern.fullmatch(item)
        if found is None:
            continue
        groups = found.groupdict()
        if any(groups[key] not in allowed for key, allowed in _ALLOWED.items() if key in groups):
            continue  # not a kind, a figure or a count these items name
        params: dict[str, Any] = {k: _param(k, v, groups) for k, v in groups.items()}
        said = phrase(template, **params)
        if say_text("item", template, **params)["text"] == item:
            return said
    return Quoted(item)


def not_applied(items: Iterable[str], kind: str = "caveat") -> Section:
    """ "Not applied: …." with each item said from its template (the threshold, a time of day, the year, a
    grade or a width the records do not hold, …), any other in the reader's own account (English)."""
    listed = list(items)
    params: dict[str, Any] = {f"i{n}": not_applied_item(item) for n, item in enumerate(listed)}
    joined = phrase("; ".join(f"{{i{n}}}" for n in range(len(listed))), **params)
    return say_text(kind, N_("Not applied: {items}."), items=joined)


def also_read(items: Iterable[str], kind: str = "caveat") -> Section:
    """ "Also read: …." with each value the reader also read said from its template (a grade, a crew, a
    reason, a place or a web width in the rows by its kind), any other in the reader's own account
    (English)."""
    listed = list(items)
    params: dict[str, Any] = {f"i{n}": also_read_item(item) for n, item in enumerate(listed)}
    joined = phrase("; ".join(f"{{i{n}}}" for n in range(len(listed))), **params)
    return say_text(kind, N_("Also read: {items}."), items=joined)


def weeks_not_held(empty: int, weeks: int, first: str) -> Section:
    """A trend whose weeks reach where no day is held (before the records' first day): partial, said so."""
    return say_text(
        "caveat",
        N_(
            "Weeks with no day in the records: {empty} of the {weeks} asked, from the week of {first}; the trend "
            "reads the weeks held."
        ),
        empty=empty,
        weeks=weeks,
        first=first,
    )


def caveat(template: str) -> Section:
    """One of the run's fixed caveats (:data:`NO_CHART`, …) said from its template."""
    return say_text("caveat", template)


def closest() -> Section:
    """The label over a refusal's closest questions."""
    return say_text("label", CLOSEST)


def _asked(words: Iterable[str], sep: str) -> Asked:
    return Asked(sep.join(words))


def _held() -> Phrase | Quoted:
    """What the records hold: said from its template while it is the reader's words, else the reader's."""
    return phrase(HELD_SAID) if HELD == HELD_SAID else Quoted(HELD)


def _checked(section: Section, english: str, kind: str) -> Section:
    """``section`` when its English is ``english`` word for word, else ``english`` as it is."""
    return section if section["text"] == english else {"type": kind, "text": english}
