"""The offline note reader as a provider: it reads the note and the tool results so far, and returns the next
turn a careful model would return — lookups first, then one proposal or question per event, then the
"I understood: …" summary.

It holds only the run's first user message, as data (input mode, hat tag, note): every call re-reads the note
and the tool calls and results already in ``request.messages``, so it drives the same loop, dispatcher and handlers
as a live model and every rule, quote check, seen-id check and cap applies unchanged. It never guesses: an
ambiguous or empty lookup, or a missing fact, becomes ask_question.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    StopReason,
    ToolCall,
    ToolResults,
    Turn,
    Usage,
)
from shopfloor.workshop import domain
from shopfloor.workshop.agent.offline.reader import HatRef, NoteEvent, Reading, read_note
from shopfloor.workshop.agent.prompt import UserMessage
from shopfloor.workshop.domain import MAX_PROPOSALS

MODEL_NAME = "offline-reader"
MAX_CODES_PER_CALL = 10

FLAG_MESSAGES = {
    "grade_mismatch": "The note says the grade does not match the rows per inch.",
    "too_fast": "The note says this hat moved through the stages too fast.",
    "weaver_not_found": "The note says this hat's weaver is missing.",
    "other": "The note reports a problem with this hat.",
}


@dataclass
class _History:
    """Every tool call made so far in the run, with its result."""

    pairs: list[tuple[ToolCall, Any, bool]] = field(default_factory=list)  # (call, content, is_error)
    turns: int = 0

    def calls(self, *names: str) -> list[tuple[ToolCall, Any, bool]]:
        return [p for p in self.pairs if p[0].name in names]


def _history(request: ModelRequest) -> _History:
    history = _History()
    pending: dict[str, ToolCall] = {}
    for message in request.messages:
        if isinstance(message, AssistantTurn):
            history.turns += 1
            pending.update({c.id: c for c in message.turn.tool_calls})
        elif isinstance(message, ToolResults):
            for result in message.results:
                call = pending.get(result.call_id)
                if call is not None:
                    # A result trimmed to a stub (or any non-object) counts as a failed call: never guess from it.
                    failed = bool(result.is_error) or not isinstance(result.content, dict)
                    history.pairs.append((call, result.content, failed))
    return history


@dataclass
class _Resolved:
    """What a hat reference resolved to: one code, or candidates to ask about."""

    code: str | None = None
    exact: bool = True
    candidates: list[str] = field(default_factory=list)
    failed: str | None = None


class OfflineReader:
    """A deterministic provider for workshop notes (model ``offline-reader``, zero tokens, zero cost).

    ``OfflineReader()`` is what a caller chooses; the run binds it to its note with :meth:`for_message`
    (see ``prompt.ReadsUserMessage``), because the core's ``ModelRequest`` carries only rendered text.
    """

    name = "offline"
    model = MODEL_NAME
    local = True  # computes its turn in process: the loop calls it directly

    def __init__(self, message: UserMessage | None = None) -> None:
        self._message = message

    def for_message(self, message: UserMessage) -> OfflineReader:
        """A reader of ``message``: the run's first user message as data, never parsed back from its text."""
        return OfflineReader(message)

    @property
    def message(self) -> UserMessage:
        """The note this reader reads (a reader not bound to one cannot take a turn)."""
        if self._message is None:
            raise RuntimeError("The offline reader reads one run's note: bind it with for_message() first.")
        return self._message

    def complete(self, request: ModelRequest) -> Turn:
        """The next turn: lookups, then proposals or questions, then the summary."""
        # The reader quotes the note as a live model sees it, inside the <note> tags (escaped).
        reading = read_note(self.message.escaped_note, has_hat_tag=self.message.hat_tag is not None)
        history = _history(request)
        lookups_done = bool(history.calls("find_weaver", "find_hats", "get_hat"))
        proposals_done = bool(
            history.calls("propose_create_hats", "propose_advance_stage", "propose_flag", "ask_question")
        )
        if not lookups_done and not proposals_done:
            lookups = plan_lookups(reading)
            if lookups:
                return _tool_turn(history.turns, lookups)
        if not proposals_done:
            proposals = plan_proposals(reading, self.message, history)
            if proposals:
                return _tool_turn(history.turns, proposals)
        return Turn(
            stop_reason=StopReason.END_TURN,
            text=summarize(reading, history),
            usage=Usage(),
            model=MODEL_NAME,
            raw_stop_reason="end_turn",
        )


def _tool_turn(turn_index: int, calls: list[tuple[str, dict[str, Any]]]) -> Turn:
    tool_calls = tuple(ToolCall(f"r{turn_index}_{i}", name, args) for i, (name, args) in enumerate(calls))
    return Turn(
        stop_reason=StopReason.TOOL_USE,
        tool_calls=tool_calls,
        usage=Usage(),
        model=MODEL_NAME,
        raw_stop_reason="tool_use",
    )


def _code_refs(reading: Reading) -> list[str]:
    codes: list[str] = []
    for event in reading.events:
        if event.hat is not None and event.hat.code is not None and event.hat.code not in codes:
            codes.append(event.hat.code)
    return codes


def _weaver_refs(reading: Reading) -> list[tuple[str, str | None]]:
    refs: list[tuple[str, str | None]] = []
    for event in reading.events:
        if event.hat is not None and event.hat.weaver_name is not None:
            key = (event.hat.weaver_name, event.hat.stage)
            if key not in refs:
                refs.append(key)
    return refs


def plan_lookups(reading: Reading) -> list[tuple[str, dict[str, Any]]]:
    """The independent lookups of the first turn: every person named, every code, every hat by weaver."""
    calls: list[tuple[str, dict[str, Any]]] = []
    names: list[str] = []
    for event in reading.events:
        if event.kind != "create":
            continue
        for name in event.weavers or ((event.weaver_name,) if event.weaver_name else ()):
            if name not in names:
                names.append(name)
    calls.extend(("find_weaver", {"name": name}) for name in names)
    codes = _code_refs(reading)
    # Codes are looked up with open_only false: a finished or archived hat must reach the rules, which block it.
    for i in range(0, len(codes), MAX_CODES_PER_CALL):
        chunk = codes[i : i + MAX_CODES_PER_CALL]
        calls.append(("find_hats", {"codes": chunk, "weaver_name": None, "stage": None, "open_only": False}))
    for name, stage in _weaver_refs(reading):
        calls.append(("find_hats", {"codes": [], "weaver_name": name, "stage": stage, "open_only": True}))
    return calls


def _weaver_result(history: _History, name: str) -> tuple[Any, bool] | None:
    for call, content, is_error in history.calls("find_weaver"):
        if call.arguments.get("name") == name:
            return content, is_error
    return None


def _resolve_hat(ref: HatRef, message: UserMessage, history: _History) -> _Resolved:
    if ref.code is not None:
        for call, content, is_error in history.calls("find_hats"):
            if ref.code not in call.arguments.get("codes", []):
                continue
            if is_error:
                return _Resolved(failed=str(content))
            for hat in content.get("hats", []):
                if hat.get("matched_from") == ref.code:
                    return _Resolved(code=hat["code"], exact=hat.get("match") == "exact")
            for missing in content.get("not_found", []):
                if missing.get("input") == ref.code:
                    return _Resolved(candidates=list(missing.get("candidates", [])))
        return _Resolved(failed="not looked up")
    if ref.weaver_name is not None:
        for call, content, is_error in history.calls("find_hats"):
            args = call.arguments
            if args.get("weaver_name") == ref.weaver_name and args.get("stage") == ref.stage:
                if is_error:
                    return _Resolved(failed=str(content))
                codes = [hat["code"] for hat in content.get("hats", [])]
                if len(codes) == 1:
                    return _Resolved(code=codes[0])
                return _Resolved(candidates=codes)
        return _Resolved(failed="not looked up")
    if message.hat_tag is not None:
        return _Resolved(code=message.hat_tag)
    return _Resolved(failed="no hat named")


def _draft(**values: Any) -> dict[str, Any]:
    draft: dict[str, Any] = {
        "hat_code": None,
        "quantity": None,
        "grade": None,
        "rows_per_inch": None,
        "to_stage": None,
        "flag_kind": None,
    }
    draft.update(values)
    if draft["quantity"] is not None and not domain.validate_quantity(draft["quantity"]):
        draft["quantity"] = None
    if draft["rows_per_inch"] is not None and not domain.validate_rows(draft["rows_per_inch"]):
        draft["rows_per_inch"] = None
    return draft


def _ask(
    proposal_type: str,
    question: str,
    choices: list[dict[str, Any]],
    draft: dict[str, Any],
    event: NoteEvent,
    why: str,
) -> tuple[str, dict[str, Any]]:
    return (
        "ask_question",
        {
            "proposal_type": proposal_type,
            "question": question[:160],
            "choices": choices[:4],
            "draft": draft,
            "quote": event.quote,
            "why": why,
        },
    )


def _plan_create(event: NoteEvent, history: _History) -> tuple[str, dict[str, Any]] | None:
    name = event.weaver_name or ""
    found = _weaver_result(history, name)
    if found is None or found[1]:
        return None
    content = found[0]
    matches = content.get("matches", [])
    draft = _draft(quantity=event.quantity, grade=event.grade, rows_per_inch=event.rows)
    choices = [{"label": m["name"], "weaver_id": m["weaver_id"], "hat_code": None} for m in matches]
    what = f"new hats from {name}"
    if not matches:
        return _ask(
            "create_hat",
            f"I found no weaver called {name} in this workshop. Who made these hats?",
            [],
            draft,
            event,
            f"The note mentions {what}, but no weaver with that name exists here, so I did not create one.",
        )
    if len(matches) > 1:
        return _ask(
            "create_hat",
            f"Which weaver is {name}?",
            choices,
            draft,
            event,
            f"The note mentions {what}, and {len(matches)} weavers match that name.",
        )
    weaver = matches[0]
    if event.rows is None:
        said = f" The note says grado {event.grado}, which is not a row count." if event.grado else ""
        return _ask(
            "create_hat",
            f"How many rows per inch (hileras) do these hats from {weaver['name']} have?{said}",
            choices,
            draft,
            event,
            f"The note says {weaver['name']} delivered hats but does not give the rows per inch.",
        )
    if event.quantity is None:
        return _ask(
            "create_hat",
            f"How many hats did {weaver['name']} deliver?",
            choices,
            draft,
            event,
            f"The note says {weaver['name']} delivered hats but not how many.",
        )
    grade = f"{event.grade} " if event.grade else ""
    return (
        "propose_create_hats",
        {
            "weaver_id": weaver["weaver_id"],
            "quantity": event.quantity,
            "grade": event.grade,
            "rows_per_inch": event.rows,
            "straw": None,
            "quote": event.quote,
            "why": f"{weaver['name']} delivered {event.quantity} new {grade}hats of {event.rows} rows per inch.",
            "confidence": "high",
        },
    )


def _plan_shared_batch(event: NoteEvent, history: _History) -> list[tuple[str, dict[str, Any]]]:
    """One batch said of several weavers. With "cada una" each weaver gets the batch; otherwise the note does
    not say whose hats they are (all of them together? split how?), so the reader asks instead of guessing."""
    if event.each:
        single = [
            _plan_create(replace(event, weaver_name=name, weavers=()), history) for name in event.weavers
        ]
        return [call for call in single if call is not None]
    choices: list[dict[str, Any]] = []
    for name in event.weavers:
        found = _weaver_result(history, name)
        matches = found[0].get("matches", []) if found is not None and not found[1] else []
        for match in matches:
            if all(c["weaver_id"] != match["weaver_id"] for c in choices):
                choices.append({"label": match["name"], "weaver_id": match["weaver_id"], "hat_code": None})
    names = ", ".join(event.weavers[:-1]) + f" and {event.weavers[-1]}"
    count = f"{event.quantity} hats" if event.quantity is not None else "hats"
    return [
        _ask(
            "create_hat",
            f"The note names {names} for one batch of {count}. Whose hats are they?",
            choices,
            _draft(quantity=event.quantity, grade=event.grade, rows_per_inch=event.rows),
            event,
            "Several weavers are named for one batch and the note does not say how it splits, so I did not "
            "divide it myself.",
        )
    ]


def _plan_hat_event(
    event: NoteEvent, message: UserMessage, history: _History
) -> tuple[str, dict[str, Any]] | None:
    assert event.hat is not None
    resolved = _resolve_hat(event.hat, message, history)
    if resolved.failed is not None:
        return None
    heard = event.hat.code or (f"the hat of {event.hat.weaver_name}" if event.hat.weaver_name else "the hat")
    proposal_type = "advance_stage" if event.kind == "advance" else "flag_issue"
    if resolved.code is None:
        choices = [{"label": code, "weaver_id": None, "hat_code": code} for code in resolved.candidates]
        draft = (
            _draft(to_stage=event.to_stage) if event.kind == "advance" else _draft(flag_kind=event.flag_kind)
        )
        question = (
            f"Which hat did you mean by {heard}?"
            if choices
            else f"I found no hat for {heard}. Which hat is it?"
        )
        why = (
            f"The note names {heard}, and {len(choices)} hats could match it, so I did not pick one."
            if choices
            else f"The note names {heard}, but no hat of this workshop matches it."
        )
        return _ask(proposal_type, question, choices, draft, event, why)
    confidence = "high" if resolved.exact else "check"
    heard_note = "" if resolved.exact else f" (heard as {event.hat.code})"
    if event.kind == "advance":
        return (
            "propose_advance_stage",
            {
                "hat_code": resolved.code,
                "to_stage": event.to_stage,
                "quote": event.quote,
                "why": f"The note says {resolved.code}{heard_note} is now at {event.to_stage}.",
                "confidence": confidence,
            },
        )
    kind = event.flag_kind or "other"
    return (
        "propose_flag",
        {
            "hat_code": resolved.code,
            "kind": kind,
            "message": FLAG_MESSAGES[kind],
            "quote": event.quote,
            "why": f"The note reports {kind.replace('_', ' ')} on {resolved.code}{heard_note}.",
            "confidence": confidence,
        },
    )


def plan_proposals(
    reading: Reading, message: UserMessage, history: _History
) -> list[tuple[str, dict[str, Any]]]:
    """One proposal or question per event, from the lookup results (at most 10)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for event in reading.events:
        if len(calls) >= MAX_PROPOSALS:
            break
        if event.kind == "create" and len(event.weavers) > 1:
            calls.extend(_plan_shared_batch(event, history))
            continue
        call = (
            _plan_create(event, history)
            if event.kind == "create"
            else _plan_hat_event(event, message, history)
        )
        if call is not None:
            calls.append(call)
    return calls[:MAX_PROPOSALS]


def _clean(text: str, limit: int = 60) -> str:
    """Note text made safe for a one-line, two-sentence summary (no periods, no line breaks)."""
    flat = " ".join(text.replace(".", " ").replace("?", " ").replace("!", " ").split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _weaver_names(history: _History) -> dict[str, str]:
    names: dict[str, str] = {}
    for _call, content, is_error in history.calls("find_weaver"):
        if not is_error:
            names.update({m["weaver_id"]: m["name"] for m in content.get("matches", [])})
    return names


def _describe(call: ToolCall, content: Any, is_error: bool, names: dict[str, str]) -> str:
    args = call.arguments
    if is_error:
        target = args.get("hat_code") or names.get(args.get("weaver_id", ""), "one event")
        reason = str(content).split(". ")[0]
        return f"I skipped {target} because {_clean(reason, 120)}"
    status = content.get("status") if isinstance(content, dict) else None
    if call.name == "propose_create_hats":
        grade = f"{args['grade']} " if args.get("grade") else ""
        weaver = names.get(args["weaver_id"], "a weaver")
        noun = "hat" if args["quantity"] == 1 else "hats"
        what = f"{args['quantity']} new {grade}{noun} of {args['rows_per_inch']} rows from {weaver}"
    elif call.name == "propose_advance_stage":
        what = f"{args['hat_code']} to {args['to_stage']}"
    elif call.name == "propose_flag":
        kind = "problem" if args["kind"] == "other" else args["kind"].replace("_", " ")
        what = f"a {kind} flag on {args['hat_code']}"
    else:
        what = f"a question ({_clean(args['question'], 70)})"
    if status == "blocked":
        return f"{what} (blocked by the rules)"
    return what


def summarize(reading: Reading, history: _History) -> str:
    """The two-sentence English summary: what was prepared, and what was ignored, skipped or not read."""
    done = history.calls("propose_create_hats", "propose_advance_stage", "propose_flag", "ask_question")
    prepared = [(c, content) for c, content, err in done if not err]
    names = _weaver_names(history)
    parts = [_describe(c, content, err, names) for c, content, err in done]
    count = len(prepared)
    if parts:
        first = "I understood: " + "; ".join(parts) + "."
    else:
        first = "I understood: nothing in this note to record."
    notes: list[str] = []
    reasons = {s.reason for s in reading.skipped}
    if "injection" in reasons:
        notes.append("I ignored instructions written inside the note")
    future = [s.text for s in reading.skipped if s.reason == "future"]
    if future:
        notes.append(f"I did not propose future events ({_clean(future[0], 50)})")
    negated = [s.text for s in reading.skipped if s.reason == "negated"]
    if negated:
        notes.append(f"I did not propose what the note says did not happen ({_clean(negated[0], 50)})")
    unread = [s.text for s in reading.skipped if s.reason == "unread"]
    if unread:
        notes.append(f"I could not read {len(unread)} part(s) of the note ({_clean(unread[0], 50)})")
    lookup_errors = [c for c, _, err in history.calls("find_weaver", "find_hats", "get_hat") if err]
    if lookup_errors:
        notes.append(f"{len(lookup_errors)} lookup(s) failed")
    plural = "action" if count == 1 else "actions"
    second = f"I prepared {count} {plural} for you to review"
    if notes:
        second += "; " + "; ".join(notes)
    return f"{first} {second}."
