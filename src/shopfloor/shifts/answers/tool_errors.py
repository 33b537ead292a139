"""A tool's error as an answer says it (a failed call's text in the trace, and the caveat naming it), said
from its template (``answers/sayings.py``) when its English is the tool's word for word, so a page in
another language says it; any other error (the dispatcher's, a live planner's) is kept as it is (English).

The tools write their errors in English (``ToolError`` in ``tools/``); the templates here are those texts,
each ``{name}`` the value the tool fills in.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import (
    N_,
    NN_,
    Phrase,
    Quoted,
    Translator,
    parts_from,
    say_text,
    template_pattern,
)

# Every ToolError the shift tools raise (tools/rows.py, context.py, levers.py, period.py, groups.py,
# money.py, charts.py), as they write it.
TOOL_ERRORS: tuple[str, ...] = (
    N_("No records for shift {shift} on {day}."),
    N_("shift must be 1, 2 or 3."),
    N_("Shift {shift} is outside the selected scope: only shift {selected} may be read."),
    N_(
        "{tool} is a daily tool and the Period control is {period} ({start}..{end}); use the period tools "
        "with {args} instead."
    ),
    N_("anchor must be a date between 2000 and 2100."),
    N_("The query took longer than two seconds and was stopped."),
    N_("against_shift is required when against is shift."),
    N_("Comparing with another shift needs the production-day scope."),
    N_("No trailing-year baseline or no scheduled time in that window."),
    N_("The reference has no scheduled time or baseline."),
    N_("weeks must be 1 to 26."),
    N_("A reason or place trend follows a downtime metric: {metrics}."),
    N_("A grade trend follows a setup metric: {metrics}."),
    N_("shifts lists the shifts compared by shift; crews are compared over every shift."),
    N_("shifts must name two or more shifts."),
    N_("shifts {chosen} are outside the selected shift {shift}."),
    N_("Under the selected-shift scope, list only shift {shift}."),
    N_("Result {result} has no component {component}."),
    N_("That result has no rows to chart."),
    N_("x and y must be columns of the rows: {columns}."),
    N_("Column {column} is not numeric."),
    N_("Unknown result_id: a chart may only cite a successful result of this investigation."),
    N_("title must be 1 to {limit} characters."),
)
_PATTERNS = tuple((template, template_pattern(template)) for template in TOOL_ERRORS)

# The caveat of an answer some of whose tool calls failed (investigation.py); English says "call(s)" for
# any count, another language chooses its form by the count.
TOOLS_FAILED = NN_(
    "{n} tool call(s) failed; the answer uses the evidence that succeeded.",
    "{n} tool call(s) failed; the answer uses the evidence that succeeded.",
)
# The caveat of a run that gathered no evidence and no tool's error says why.
NO_EVIDENCE = N_("No evidence was found for that scope.")
# A failed call named in a caveat: the tool, then its error.
NAMED_ERROR = "{tool}: {error}"


def tool_error(text: str) -> Phrase | Quoted:
    """A tool's error said from its template when it is one of :data:`TOOL_ERRORS` word for word, else the
    error as it was written (English)."""
    for template, pattern in _PATTERNS:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        said = Phrase(template, None, found.groupdict())
        if "".join(str(p) for p in parts_from({"id": template, "params": said.params})) == text:
            return said
    return Quoted(text)


def error_in(text: str, tr: Translator) -> str | None:
    """A tool's error in ``tr``'s language, or None when no template says it (it stays English)."""
    said = tool_error(text)
    if isinstance(said, Quoted):
        return None
    return "".join(str(p) for p in parts_from({"id": said.template, "params": said.params}, tr))


def tools_failed(n: int) -> Section:
    """The caveat that ``n`` tool calls failed and the answer uses the evidence that succeeded."""
    return say_text("caveat", TOOLS_FAILED, n)


def named_error(error: str, kind: str = "caveat") -> Section:
    """A failed call as the run names it ("get_shift_overview: No records for shift 2 on …"): the tool's
    name as it is and its error said from its template; a line in another form kept as it is (English)."""
    tool, sep, text = error.partition(": ")
    if not sep or " " in tool:
        return {"type": kind, "text": error}
    said: Any = tool_error(text)
    return say_text(kind, NAMED_ERROR, tool=tool, error=said)


def no_evidence() -> Section:
    """The caveat of a run that gathered no evidence, with no tool's error to name."""
    return say_text("caveat", NO_EVIDENCE)
