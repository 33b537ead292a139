"""A window's coverage line (``plant/calendar.py`` ``coverage_line``) said from templates
(``answers/sayings.py``), so a page in another language says why a window is partial with the same days.

The line is built from the coverage's data; when its English is not ``coverage_line``'s word for word (the
calendar's sentence changed), the calendar's line is kept as it is (English on every page). What an
incomplete day has excluded is the records' own account (English).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import N_, NN_, Named, Phrase, Quoted, phrase, say_text
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


def _explained(days: list[str], why: Mapping[str, Any]) -> Phrase:
    pieces = [phrase(N_("{day} has {why}"), day=d, why=Quoted(str(why[d]))) for d in days]
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
    english = coverage_line(cov)
    if english is None:
        return None
    if cov.get("status") == "unavailable":
        return _checked(say_text(kind, NONE_HELD), english, kind)
    said = say_text(kind, PARTIAL, parts=_partial_parts(cov))
    return _checked(said, english, kind)


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
