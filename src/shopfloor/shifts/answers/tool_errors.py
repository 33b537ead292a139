"""A tool's error as an answer says it (a failed call's text in the trace, and the caveat naming it), said
from its template (``answers/sayings.py``) when its English is the tool's word for word, so a page in
another language says it. An error that is not a tool's (the dispatcher's, a provider's, a finish, a plan or
a narrative the run refused) is said by its code's sentence in another language (:data:`RUN_ERRORS`), as the
error pages say an error by its code (docs/errors.md), and kept as written in English; an error of no known
shape stays English everywhere.

The tools write their errors in English (``ToolError`` in ``tools/``); the templates here are those texts,
each ``{name}`` the value the tool fills in.
"""

from __future__ import annotations

import re
from typing import Any

from shopfloor.agent.dispatch import HANDLER_FAILED
from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import (
    N_,
    NN_,
    Coded,
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


# An error that is not a tool's, by its code: how its English reads (the dispatcher's, agent/dispatch.py; a
# finish or a plan the run refused, investigation.py, live/analyst.py, live/catalogs.py; a narrative dropped,
# live/narrative.py) and the sentence its code is said with in another language. A narrative's problems are
# said inside a sentence, so theirs start in lower case.
RUN_ERRORS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "unknown_tool",
        re.compile(r"Unknown tool .+\. Use one of: .*\."),
        N_("The call named a tool this investigation does not offer."),
    ),
    (
        "bad_arguments",
        re.compile(r"Invalid arguments for \S+: .+\. Fix the call and try again\."),
        N_("The call's arguments did not fit the tool; the planner was told what to fix."),
    ),
    (
        "tool_failed",
        re.compile(re.escape(HANDLER_FAILED)),
        N_("The tool failed while running this call; the failure is logged."),
    ),
    (
        "finish_refused",
        re.compile(
            r"The finish (was not a list of evidence ids|cited evidence this run does not hold: .+)\."
        ),
        N_("The planner's finish was refused: it did not cite this run's evidence."),
    ),
    (
        "plan_refused",
        re.compile(r"The plan was refused whole before any step ran: .+"),
        N_("The plan was refused whole before any step ran: it did not fit the tools or the scope."),
    ),
    ("model_error", re.compile(r"the model call ended with .+"), N_("the model call failed")),
    (
        "narrative_refused",
        re.compile(
            r"the narrative (is empty|is longer than \d+ characters|carries markup)|a placeholder (refers to "
            r"nothing: .+|is malformed)|a number is written outside a placeholder"
        ),
        N_("it did not pass the checks of its figures and words"),
    ),
)


# The caveat of a live narrative the run dropped (live/narrative.py), its problem a run error's.
NARRATIVE_DROPPED = N_("The model's narrative was dropped ({problem}); the calculated evidence stands.")


def run_error(text: str) -> Coded | Quoted:
    """An error that is not a tool's, said by its code's sentence in another language (:data:`RUN_ERRORS`);
    one of no known shape, as it was written (English)."""
    for _code, pattern, sentence in RUN_ERRORS:
        if pattern.fullmatch(text):
            return Coded(text, sentence)
    return Quoted(text)


def run_error_section(text: str, kind: str = "text") -> Section:
    """A section that is an error not a tool's (a plan refused whole, a finish refused): its English as
    written, said by its code's sentence in another language; one of no known shape as it is."""
    said = run_error(text)
    if isinstance(said, Quoted):
        return {"type": kind, "text": text}
    return say_text(kind, "{error}", error=said)


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
    """A failed call's error in ``tr``'s language (a tool's from its template, another by its code's
    sentence), or None when neither says it (it stays English)."""
    said = tool_error(text)
    if isinstance(said, Quoted):
        coded = run_error(text)
        return None if isinstance(coded, Quoted) else tr.gettext(coded.template)
    return "".join(str(p) for p in parts_from({"id": said.template, "params": said.params}, tr))


def tools_failed(n: int) -> Section:
    """The caveat that ``n`` tool calls failed and the answer uses the evidence that succeeded."""
    return say_text("caveat", TOOLS_FAILED, n)


def named_error(error: str, kind: str = "caveat") -> Section:
    """A failed call as the run names it ("get_shift_overview: No records for shift 2 on …"): the tool's
    name as it is and its error said from its template; a line in another form kept as it is (English)."""
    tool, sep, text = error.partition(": ")
    if not sep or " " in tool:
        return run_error_section(error, kind)
    said: Any = tool_error(text)
    if isinstance(said, Quoted):
        said = run_error(text)
    return say_text(kind, NAMED_ERROR, tool=tool, error=said)


def no_evidence() -> Section:
    """The caveat of a run that gathered no evidence, with no tool's error to name."""
    return say_text("caveat", NO_EVIDENCE)
