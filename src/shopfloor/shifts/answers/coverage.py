"""A window's coverage line (``plant/calendar.py`` ``coverage_line``) said from templates
(``answers/sayings.py``), so a page in another language says why a window is partial with the same days.

The line is built from the coverage's data; when its English is not ``coverage_line``'s word for word (the
calendar's sentence changed), the calendar's line is kept as it is (English on every page). What an
incomplete day has excluded (``tools/context.py`` ``incomplete_why``: its excluded setups with the checks they
failed, its missing shifts) is said from templates too (:func:`why_phrase`); an account in another shape is
the store's own words, English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import N_, NN_, NP_, Named, Phrase, Quoted, Worded, phrase, say_text
from shopfloor.shifts.plant.calendar import LISTED_DAYS, coverage_line

# A window's coverage status as a sentence says it.
COVERAGE = {
    "complete": N_("complete"),
    "partial": N_("partial"),
    "incomplete": N_("incomplete"),
    "unavailable": N_("unavailable"),
}

NONE_HELD = N_("No production day of this window is in the store: its figures are unavailable, never zero.")


def _days(days: list[str]) -> Phrase:
    """Days listed, the rest counted: "2026-09-01, 2026-09-02 and 6 more"."""
    shown = ", ".join(days[:LISTED_DAYS])
    if len(days) <= LISTED_DAYS:
        return phrase("{days}", days=shown)
    return phrase(N_("{days} and {more} more"), days=shown, more=len(days) - LISTED_DAYS)


# The checks an excluded setup fails (records/setup_checks.py ``SetupExcluded``), as the store records them.
EXCLUSIONS = frozenset(
    (
        NP_("excluded", "Invalid web width"),
        NP_("excluded", "Invalid gross geometry"),
        NP_("excluded", "Unknown grade"),
        NP_("excluded", "Target does not match grade"),
        NP_("excluded", "Grade or width changed inside wet-end run"),
        NP_("excluded", "Waste/gross area out of bounds"),
        NP_("excluded", "Invalid knife set"),
        NP_("excluded", "Invalid knife geometry"),
        NP_("excluded", "Knife spans do not fit the web"),
        NP_("excluded", "Invalid continued"),
        NP_("excluded", "Shear does not match setup start"),
        NP_("excluded", "Knife footage does not reconcile"),
        NP_("excluded", "Trim does not reconcile with outs"),
        NP_("excluded", "Invalid reject"),
        NP_("excluded", "Order quantities do not reconcile"),
        NP_("excluded", "Order identity or remaining quantity changed"),
    )
)
# A check that names the record's field it found missing or unreadable ("Missing run", "Invalid upper knife
# cuts"): the field is the record's own name, kept as it is; a knife's level said as the knife column says it.
_FIELD_CHECKS = (
    (re.compile(r"Missing (upper|lower) knife (\w+)"), N_("Missing {level} knife {field}")),
    (re.compile(r"Invalid (upper|lower) knife (\w+)"), N_("Invalid {level} knife {field}")),
    (re.compile(r"Missing (\w+)"), N_("Missing {field}")),
    (re.compile(r"Invalid (\w+)"), N_("Invalid {field}")),
)
# The pieces of an incomplete day's account (tools/context.py ``incomplete_why``).
_EXCLUDED = re.compile(r"(one|\d+) excluded setups? on (shifts?) ([\d, ]+) \((.+)\)")
_SHIFTS_HELD = re.compile(r"(\d+) of (\d+) shifts in the store")


def _check(text: str) -> Phrase | Quoted:
    """One check an excluded setup failed, in the store's words: said through its template or the glossary
    of checks (context ``excluded``)."""
    if text in EXCLUSIONS:
        return phrase("{check}", check=Worded("excluded", text))
    for pattern, template in _FIELD_CHECKS:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        if found.lastindex == 2:
            return phrase(template, level=Worded("knife", found[1]), field=found[2])
        return phrase(template, field=found[1])
    return Quoted(text)


def _piece(text: str) -> Phrase | Quoted:
    found = _EXCLUDED.fullmatch(text)
    if found is not None:
        count = 1 if found[1] == "one" else int(found[1])
        checks = found[4].split("; ")
        params: dict[str, Any] = {f"c{i}": _check(c) for i, c in enumerate(checks)}
        where = (
            phrase(N_("on shift {shift}"), shift=found[3])
            if found[2] == "shift"
            else phrase(N_("on shifts {shifts}"), shifts=found[3])
        )
        return phrase(
            NN_("one excluded setup {where} ({checks})", "{n} excluded setups {where} ({checks})"),
            count,
            where=where,
            checks=phrase("; ".join(f"{{c{i}}}" for i in range(len(checks))), **params),
        )
    found = _SHIFTS_HELD.fullmatch(text)
    if found is not None:
        return phrase(
            NN_("{held} of {n} shift in the store", "{held} of {n} shifts in the store"),
            int(found[2]),
            held=found[1],
        )
    return Quoted(text)


def why_phrase(text: str) -> Phrase | Quoted:
    """What an incomplete day has, as the store's account writes it ("2 excluded setups on shift 2 (Unknown
    grade; Invalid run)", "2 of 3 shifts in the store", both joined by " and "), said from its templates;
    an account in another shape, as it is (English)."""
    pieces = [_piece(piece) for piece in text.split(" and ")]
    said = phrase(N_("{first} and {second}"), first=pieces[0], second=pieces[1]) if len(pieces) == 2 else None
    if len(pieces) == 1:
        said = pieces[0] if isinstance(pieces[0], Phrase) else None
    if said is None or any(isinstance(p, Quoted) for p in pieces):
        return Quoted(text)
    if say_text("why", said.template, said.n, **said.params)["text"] != text:
        return Quoted(text)
    return said


def _explained(days: list[str], why: Mapping[str, Any]) -> Phrase:
    pieces = [phrase(N_("{day} has {why}"), day=d, why=why_phrase(str(why[d]))) for d in days]
    shown = pieces[:LISTED_DAYS]
    params: dict[str, Any] = {f"d{i}": p for i, p in enumerate(shown)}
    template = ", ".join(f"{{d{i}}}" for i in range(len(shown)))
    if len(pieces) > LISTED_DAYS:
        return phrase(
            N_("{days} and {more} more"), days=phrase(template, **params), more=len(pieces) - LISTED_DAYS
        )
    return phrase(template, **params)


def window_named(window: Mapping[str, Any]) -> Named | str:
    """A result's window as a sentence names it: by its label, named in the page's language (``Named``);
    without its period and start, its label as it is ("the window" when it has none)."""
    if {"period", "start", "label"} <= set(window):
        return Named(window)
    return str(window.get("label", "the window"))


def window_line(window: Mapping[str, Any], status: Any) -> Section:
    """ "Window: Mon 2026-09-14; coverage complete.": the window by its label (named in the page's
    language), its coverage status."""
    english = f"Window: {window.get('label')}; coverage {status}."
    said = say_text(
        "text",
        N_("Window: {window}; coverage {status}."),
        window=window_named(window) if "label" in window else str(window.get("label")),
        status=phrase(COVERAGE[status]) if status in COVERAGE else str(status),
    )
    return _checked(said, english, "text")


def coverage_said(cov: Mapping[str, Any], kind: str = "caveat") -> Section | None:
    """The coverage line of ``cov`` said from templates; None for a complete window."""
    if "weeks" in cov and "expected_days" not in cov:
        # A trend's coverage counts weeks, not production days (tools/period.py ``get_trend``); the calendar's
        # line would read "None of None production days".
        if cov.get("status") == "complete":
            return None
        return say_text(kind, TREND_PARTIAL, int(cov.get("weeks") or 0), complete=cov.get("complete_weeks"))
    english = coverage_line(cov)
    if english is None:
        return None
    if cov.get("status") == "unavailable":
        return _checked(say_text(kind, NONE_HELD), english, kind)
    said = say_text(kind, PARTIAL, parts=_partial_parts(cov))
    return _checked(said, english, kind)


# A trend with a week not complete (each week's coverage is on its own row).
TREND_PARTIAL = NN_(
    "The trend is partial: {complete} of {n} week complete; each week's coverage is on its row.",
    "The trend is partial: {complete} of {n} weeks complete; each week's coverage is on its row.",
)
PARTIAL = N_(
    "The window is partial: {parts}. Rankings withheld, deltas withheld, missing days unavailable (never zero)."
)
# The other window of two compared, when it is not complete (investigation.py: the comparison withheld).
WITHHELD = N_("The comparison is withheld: the other window is not complete. {line}")
THAT_NONE_HELD = N_(
    "No production day of that window is in the store: its figures are unavailable, never zero."
)
THAT_PARTIAL = N_(
    "That window is partial: {parts}. Rankings withheld, deltas withheld, missing days unavailable (never zero)."
)


def withheld_said(cov: Mapping[str, Any], english: str) -> Section:
    """ "The comparison is withheld: …" with the other window's coverage line (``english``: the sentence as
    the investigation writes it, kept as it is when the templates do not say it word for word)."""
    if cov.get("status") == "unavailable":
        line = phrase(THAT_NONE_HELD)
    else:
        line = phrase(THAT_PARTIAL, parts=_partial_parts(cov))
    return _checked(say_text("caveat", WITHHELD, line=line), english, "caveat")


def _partial_parts(cov: Mapping[str, Any]) -> Phrase:
    """What a partial window holds: its complete days, the days not in the store, the incomplete days."""
    pieces: list[Phrase] = [
        phrase(
            NN_("{valid} of {n} production day complete", "{valid} of {n} production days complete"),
            int(cov.get("expected_days") or 0),
            valid=cov.get("valid_days"),
        )
    ]
    missing = [str(d) for d in cov.get("missing_days") or []]
    if missing:
        pieces.append(phrase(N_("not in the store: {days}"), days=_days(missing)))
    why = dict(cov.get("incomplete_why") or {})
    incomplete = [str(d) for d in cov.get("incomplete_days") or []]
    explained = [d for d in incomplete if d in why]
    if explained:
        pieces.append(_explained(explained, why))
    bare = [d for d in incomplete if d not in why]
    if bare:
        pieces.append(phrase(N_("incomplete: {days}"), days=_days(bare)))
    params: dict[str, Any] = {f"p{i}": p for i, p in enumerate(pieces)}
    return phrase("; ".join(f"{{p{i}}}" for i in range(len(pieces))), **params)


def _checked(section: Section, english: str, kind: str) -> Section:
    return section if section["text"] == english else {"type": kind, "text": english}
