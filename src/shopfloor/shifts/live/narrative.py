"""A model's short narrative over a complete answer, with every figure a placeholder code fills in.

The model sees the cited evidence (its rows as the answer numbers them) and writes at most a few sentences
in which every figure is a placeholder: ``{qN.rM.field}`` (query N, row M, a field of that row) or
``{qN.field}`` (a value of query N's envelope). Code checks every reference against the evidence, refuses
any digit outside a placeholder, then substitutes the values. The prose is labelled model interpretation;
a narrative that fails any check is dropped with a notice, and the calculated evidence is always shown
(docs/shifts-agent.md, "Narrative with fact placeholders"). The checks prove the figures, not the meaning.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.tools import ToolRegistry
from shopfloor.agent.trace import Trace
from shopfloor.shifts.answers.sayings import say_text
from shopfloor.shifts.answers.tool_errors import NARRATIVE_DROPPED, run_error
from shopfloor.shifts.live.catalogs import PREVIEW_ROWS

if TYPE_CHECKING:
    from shopfloor.agent.providers.base import Provider
    from shopfloor.shifts.answers.answer import Answer

LABEL = "Model interpretation"
MAX_CHARS = 700
PLACEHOLDER = re.compile(r"\{q(\d+)(?:\.r(\d+))?\.([A-Za-z_][A-Za-z0-9_]*)\}")
NARRATIVE_LIMITS = LoopLimits(
    max_iterations=1,
    max_tokens=1000,
    call_timeout_s=20.0,
    run_budget_s=20.0,
    max_tool_calls=0,
    max_request_bytes=64 * 1024,
)
SYSTEM = (
    "You write a short interpretation (at most three sentences) of an investigation's calculated evidence "
    "for a corrugator's supervisor. Never write a number: write every figure as a placeholder that refers "
    "to a field of the evidence, {qN.rM.field} for row M of query N or {qN.field} for a value of query N "
    "itself, exactly as the evidence names them. Use no digits anywhere else, no markup and no bold. Say "
    "what the evidence shows; a recorded symptom does not establish a mechanical cause. Answer with the "
    "prose only."
)


@dataclass(frozen=True)
class Checked:
    """A narrative with its values substituted, or why it was refused."""

    text: str | None
    problem: str | None


def _value(evidence: dict[int, dict[str, Any]], query: int, row: int | None, field: str) -> Any:
    env = evidence.get(query)
    if env is None:
        raise LookupError(f"query {query} is not evidence of this answer")
    if row is None:
        holder: Any = env
    else:
        rows = env.get("rows") or []
        if not 1 <= row <= len(rows):
            raise LookupError(f"query {query} has no row {row}")
        holder = rows[row - 1]
    if not isinstance(holder, dict) or field not in holder:
        raise LookupError(f"query {query}{f' row {row}' if row else ''} has no field {field!r}")
    value = holder[field]
    if value is None or isinstance(value, bool) or not isinstance(value, int | float | str):
        raise LookupError(f"{field!r} of query {query} holds no figure")
    return value


def show(value: Any) -> str:
    """A substituted value: grouped integers, at most two decimals, text as it is."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}"


def check_narrative(text: str | None, evidence: list[dict[str, Any]]) -> Checked:
    """Validate every placeholder of ``text`` against ``evidence`` (numbered by ``query``) and substitute."""
    prose = (text or "").strip()
    if not prose:
        return Checked(None, "the narrative is empty")
    if len(prose) > MAX_CHARS:
        return Checked(None, f"the narrative is longer than {MAX_CHARS} characters")
    if "**" in prose or "<" in prose or ">" in prose:
        return Checked(None, "the narrative carries markup")
    by_query = {int(e["query"]): e for e in evidence}
    values: list[str] = []
    try:
        for match in PLACEHOLDER.finditer(prose):
            row = int(match.group(2)) if match.group(2) else None
            values.append(show(_value(by_query, int(match.group(1)), row, match.group(3))))
    except LookupError as error:
        return Checked(None, f"a placeholder refers to nothing: {error}")
    bare = PLACEHOLDER.sub("", prose)
    if "{" in bare or "}" in bare:
        return Checked(None, "a placeholder is malformed")
    if re.search(r"\d", bare):
        return Checked(None, "a number is written outside a placeholder")
    filled = iter(values)
    return Checked(PLACEHOLDER.sub(lambda _m: next(filled), prose), None)


def evidence_brief(evidence: list[dict[str, Any]]) -> str:
    """The evidence as the narrative's model sees it: per query its tool, window, envelope values and rows."""
    lines = []
    for env in evidence:
        scalars = {
            k: v
            for k, v in env.items()
            if k not in ("rows", "sql", "result_id", "query") and isinstance(v, int | float | str)
        }
        rows = {f"r{i}": row for i, row in enumerate(env.get("rows", [])[:PREVIEW_ROWS], 1)}
        lines.append(
            json.dumps({f"q{env['query']}": {**scalars, **rows}}, default=str, separators=(",", ":"))
        )
    return "\n".join(lines)


def write_narrative(
    provider: Provider,
    question: str,
    evidence: list[dict[str, Any]],
    budget: Any = None,
    abort: threading.Event | None = None,
) -> tuple[Checked, Trace]:
    """One model call (through the core loop, no tools; ``abort`` stops it) and the check of what it wrote."""
    trace = Trace()
    message = f"Question: {question}\n\nEvidence:\n{evidence_brief(evidence)}"
    outcome = run_loop(
        provider,
        SYSTEM,
        message,
        ToolRegistry[None]([]),
        None,
        trace,
        limits=NARRATIVE_LIMITS,
        abort=abort,
        **({"budget": budget} if budget is not None else {}),
    )
    if outcome.outcome is not Outcome.END_TURN:
        error = outcome.error or {}
        return Checked(None, f"the model call ended with {error.get('type', outcome.outcome.value)}"), trace
    return check_narrative(outcome.text, evidence), trace


def add_narrative(
    answer: Answer,
    question: str,
    provider: Provider,
    budget: Any = None,
    abort: threading.Event | None = None,
) -> None:
    """Ask for a narrative over ``answer``'s evidence and add it labelled, or a notice that it was dropped.

    The narrative's model call is added to the answer's trace and usage."""
    checked, trace = write_narrative(provider, question, answer.evidence, budget, abort)
    if checked.text is not None:
        section = {"type": "interpretation", "label": LABEL, "text": f"{LABEL}: {checked.text}"}
        answer.usage["narrative"] = "shown"
    else:
        # The problem said by its code's sentence in another language (answers/tool_errors.py RUN_ERRORS).
        section = say_text("caveat", NARRATIVE_DROPPED, problem=run_error(str(checked.problem)))
        answer.usage["narrative"] = "dropped"
    where = next(
        (i for i, s in enumerate(answer.sections) if s["type"] == "label" and s["text"] == "Where to look"),
        len(answer.sections),
    )
    answer.sections.insert(where, section)
    offset = len(answer.trace)
    answer.trace += [{"i": offset + i, **vars(step)} for i, step in enumerate(trace.steps)]
    answer.usage["tokens_in"] = (answer.usage.get("tokens_in") or 0) + trace.tokens_in
    answer.usage["tokens_out"] = (answer.usage.get("tokens_out") or 0) + trace.tokens_out
    before = answer.usage.get("cost_usd")
    answer.usage["cost_usd"] = (
        None if before is None or trace.cost_usd is None else round(before + trace.cost_usd, 8)
    )
    answer.usage["model_calls"] = (answer.usage.get("model_calls") or 0) + sum(
        1 for s in trace.steps if getattr(s, "kind", "") == "model_call"
    )
