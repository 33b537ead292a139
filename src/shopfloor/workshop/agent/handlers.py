"""The seven tool handlers, step by step, with their fixed error messages.

docs/workshop-agent.md, "The seven tools", lists the checks and the messages.

Read tools add what they return to the run's seen ids; propose tools only buffer proposals, after the
quote check, the seen-id check, the range checks, the cap and the duplicate check, and after the domain rules
decide. A rule saying no is a *blocked* proposal returned as a normal result; ``ToolError`` (an ``is_error``
result) is only for a bad call the model can fix. Nothing here writes a record.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime
from typing import Any

from shopfloor.agent.dispatch import planner_data
from shopfloor.agent.tools import ToolError
from shopfloor.agent.trace import ProposalStep, RuleCheckStep
from shopfloor.workshop import domain
from shopfloor.workshop.agent.args import (
    AskQuestionArgs,
    FindHatsArgs,
    FindWeaverArgs,
    GetHatArgs,
    ProposeAdvanceStageArgs,
    ProposeCreateHatsArgs,
    ProposeFlagArgs,
)
from shopfloor.workshop.agent.context import BufferedProposal, RunContext, SeenHat
from shopfloor.workshop.domain import (
    MAX_FLAG_MESSAGE,
    MAX_PROPOSALS,
    QUANTITY_ERROR,
    ROWS_ERROR,
    BufferedStatus,
    Hat,
    HatEvent,
    Weaver,
)

MAX_CODES = 10
MAX_HATS = 20
MAX_WEAVER_NAME = 60
MAX_QUESTION = 160
MAX_CHOICES = 4
EVENTS_SHOWN = 10

QUOTE_ERROR = "The quote must be words copied exactly from the note."
LIMIT_ERROR = f"Limit of {MAX_PROPOSALS} proposals per note reached. Stop and summarize."
UNKNOWN_WEAVER = "Unknown weaver_id. Call find_weaver first and use an id it returned."
ROWS_REQUIRED = (
    "rows_per_inch is required to create hats. If the note does not say it, call ask_question with "
    "proposal_type create_hat."
)
LOOK_UP_FIRST = "Look this hat up with find_hats first and use the code it returned."
CHOICES_ERROR = "Choices must come from lookup results."
HIDDEN_BY_OPEN_ONLY = "finished or archived; call again with open_only false to see it"


# ---------------------------------------------------------------- read tools


def find_weaver(ctx: RunContext, args: FindWeaverArgs) -> dict[str, Any]:
    """Weavers of the workshop matching a heard name (0 to 5); their ids become usable in this run."""
    name = args.name.strip()
    if not domain.query_words(name) or len(name) > MAX_WEAVER_NAME:
        raise ToolError("name must be 1 to 60 characters.")
    matches = domain.match_weavers(name, ctx.reads.weavers())
    open_counts = ctx.reads.open_hat_counts() if matches else {}
    ctx.seen_weaver_ids.update(w.id for w in matches)
    return {
        "query": args.name,
        "match_count": len(matches),
        "matches": [
            {
                "weaver_id": w.id,
                "name": w.name,
                "village": w.village,
                "province": w.province,
                "specialty": w.specialty,
                "open_hats": open_counts.get(w.id, 0),
            }
            for w in matches
        ],
    }


def _is_open(hat: Hat) -> bool:
    return not hat.archived and hat.stage != "Finished"


def hat_brief(hat: Hat, weavers: dict[str, Weaver], matched_from: str | None, match: str) -> dict[str, Any]:
    """A hat as the read tools show it."""
    weaver = weavers.get(hat.weaver_id) if hat.weaver_id else None
    return {
        "code": hat.code,
        "matched_from": matched_from,
        "match": match,
        "grade": hat.grade,
        "rows_per_inch": hat.rows_per_inch,
        "stage": hat.stage,
        "weaver": {"id": weaver.id, "name": weaver.name} if weaver is not None else None,
        "owner_type": hat.owner_type,
        "archived": hat.archived,
    }


def find_hats(ctx: RunContext, args: FindHatsArgs) -> dict[str, Any]:
    """Hats by codes (exact, then common mishearings among open hats), by weaver name or by stage."""
    if not args.codes and args.weaver_name is None and args.stage is None:
        raise ToolError("Give at least one filter: codes, weaver_name or stage.")
    if len(args.codes) > MAX_CODES:
        raise ToolError("At most 10 codes per call.")
    hats = ctx.reads.hats()
    by_code = {h.code: h for h in hats}
    open_codes = sorted(h.code for h in hats if _is_open(h))
    weavers = {w.id: w for w in ctx.reads.weavers()}

    found: dict[str, tuple[Hat, str | None, str]] = {}  # code -> (hat, matched_from, match)
    not_found: list[dict[str, Any]] = []
    candidates_seen: list[tuple[Hat, str, str]] = []
    for heard in args.codes:
        code = domain.normalize_code(heard)
        if code is not None and code in by_code:
            found.setdefault(code, (by_code[code], heard, "exact"))
            continue
        result = domain.match_code(heard, open_codes)
        if result.code is not None:
            found.setdefault(result.code, (by_code[result.code], heard, result.step or "fuzzy"))
            continue
        not_found.append({"input": heard, "candidates": list(result.candidates)})
        candidates_seen.extend((by_code[c], heard, result.step or "fuzzy") for c in result.candidates)

    listed: list[Hat] = []
    if args.weaver_name is not None:
        named = domain.match_weavers(args.weaver_name, list(weavers.values()))
        ids = {w.id for w in named}
        listed = [h for h in hats if h.weaver_id in ids]
    elif args.stage is not None:
        listed = list(hats)
    if args.stage is not None:
        listed = [h for h in listed if h.stage == args.stage]
    for hat in listed:
        found.setdefault(hat.code, (hat, None, "filter"))

    rows = [item for item in found.values() if not args.open_only or _is_open(item[0])]
    hidden = [item for item in found.values() if args.open_only and not _is_open(item[0])]
    for _hat, hidden_from, _match in hidden:
        if hidden_from is not None:
            not_found.append({"input": hidden_from, "candidates": [], "reason": HIDDEN_BY_OPEN_ONLY})
    rows.sort(key=lambda item: item[0].code)
    truncated = len(rows) > MAX_HATS
    rows = rows[:MAX_HATS]
    for item in [*rows, *candidates_seen]:
        _remember(ctx, item[0], item[2], item[1])
    return {
        "hats": [hat_brief(hat, weavers, heard, match) for hat, heard, match in rows],
        "not_found": not_found,
        "truncated": truncated,
    }


def _remember(ctx: RunContext, hat: Hat, match: str, heard: str | None) -> None:
    exact = match in {"exact", "filter", "tag"}
    current = ctx.seen_hats.get(hat.code)
    if current is None or (exact and current.match not in {"exact", "filter", "tag"}):
        ctx.seen_hats[hat.code] = SeenHat(hat, "exact" if exact else match, None if exact else heard)


def get_hat(ctx: RunContext, args: GetHatArgs) -> dict[str, Any]:
    """One hat (exact code only) with its last 10 events, open flags and the anomalies code finds."""
    code = domain.normalize_code(args.code)
    if code is None:
        raise ToolError("Codes look like TQ-7F3K2.")
    hat = ctx.reads.hat_by_code(code)
    if hat is None:
        raise ToolError(f"No hat {code} in this workshop. Use find_hats to look for close matches.")
    _remember(ctx, hat, "exact", None)
    weavers = {w.id: w for w in ctx.reads.weavers()}
    events = ctx.reads.events(hat, EVENTS_SHOWN)
    return {
        **hat_brief(hat, weavers, args.code, "exact"),
        "events": [
            {
                "type": e.type,
                "from_stage": e.from_stage,
                "to_stage": e.to_stage,
                "created_at": _iso(e.created_at),
            }
            for e in events
        ],
        "open_flags": [{"kind": f.kind, "message": f.message} for f in ctx.reads.open_flags(hat)],
        "anomalies": [dict(a) for a in domain.detect_anomalies(hat, events, ctx.now)],
    }


# ---------------------------------------------------------------- shared checks


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _check_quote(ctx: RunContext, quote: str) -> None:
    if not domain.quote_in_note(quote, ctx.note):
        raise ToolError(QUOTE_ERROR)


def _check_limit(ctx: RunContext) -> None:
    if len(ctx.proposals) >= MAX_PROPOSALS:
        raise ToolError(LIMIT_ERROR)


def _seen_hat(ctx: RunContext, heard: str) -> SeenHat:
    code = domain.normalize_code(heard)
    seen = ctx.seen_hats.get(code) if code is not None else None
    if seen is None:
        raise ToolError(LOOK_UP_FIRST)
    return seen


def _record_rule(
    ctx: RunContext, rule: str, hat_code: str | None, allowed: bool, code: str | None, message: str, t0: float
) -> None:
    duration_ms = int((time.perf_counter() - t0) * 1000)
    ctx.trace.add(RuleCheckStep(rule, hat_code, allowed, code, message, duration_ms))
    ctx.emit(
        "agent.rule.check",
        "info",
        {"rule": rule, "hat_code": hat_code, "allowed": allowed, "code": code, "duration_ms": duration_ms},
    )


def _buffer(
    ctx: RunContext,
    type_: str,
    status: BufferedStatus,
    payload: dict[str, Any],
    why: str,
    quote: str,
    confidence: str,
    rule_result: dict[str, Any] | None,
    dedupe_key: tuple[Any, ...],
) -> dict[str, Any]:
    proposal = BufferedProposal(
        ctx.next_temp_id(), type_, status, payload, why, quote, confidence, rule_result, dedupe_key, _texts()
    )
    ctx.proposals.append(proposal)
    ctx.trace.add(ProposalStep(proposal.temp_id, type_, status))
    return {"proposal_id": proposal.temp_id, "status": status, "rule_result": rule_result}


CARD_TEXTS = ("why", "question", "message")


def _texts() -> dict[str, Any] | None:
    """The codes and params of the card's texts the offline reader attached to this call (planner data, which
    only a local provider's calls carry); None for a model's call. The page says them in its language."""
    attached = planner_data().get("card_texts")
    if not isinstance(attached, dict):
        return None
    texts = {
        key: {"code": said["code"], "params": dict(said.get("params") or {})}
        for key, said in attached.items()
        if key in CARD_TEXTS and isinstance(said, dict) and isinstance(said.get("code"), str)
    }
    return texts or None


def _duplicate(ctx: RunContext, key: tuple[Any, ...]) -> bool:
    return any(p.dedupe_key == key for p in ctx.proposals)


# ---------------------------------------------------------------- propose tools


def propose_create_hats(ctx: RunContext, args: ProposeCreateHatsArgs) -> dict[str, Any]:
    """Buffer a create proposal for new hats from one looked-up weaver; blocked when grade and rows disagree."""
    _check_quote(ctx, args.quote)
    if args.weaver_id not in ctx.seen_weaver_ids:
        raise ToolError(UNKNOWN_WEAVER)
    if not domain.validate_quantity(args.quantity):
        raise ToolError(QUANTITY_ERROR)
    if args.rows_per_inch is None:
        raise ToolError(ROWS_REQUIRED)
    rows = args.rows_per_inch
    if not domain.validate_rows(rows):
        raise ToolError(ROWS_ERROR)
    _check_limit(ctx)
    t0 = time.perf_counter()
    final_grade = args.grade or domain.grade_for(rows)
    key = ("create_hat", args.weaver_id, final_grade, rows)
    if _duplicate(ctx, key):
        raise ToolError("This create proposal already exists in this run.")
    if final_grade is None or domain.grade_mismatch(final_grade, rows):
        message = domain.grade_mismatch_message(final_grade, rows)
        refused = domain.refusal(
            "grade_mismatch",
            message,
            {"grade": domain.grade_for(rows)},
            domain.grade_mismatch_params(final_grade, rows),
        )
        rule_result = domain.checked(refused, ctx.now, [])
        status: BufferedStatus = "blocked"
    else:
        message = f"{final_grade} fits {rows} rows per inch."
        rule_result = domain.checked(domain.rule_result(True, None, message), ctx.now, [])
        status = "pending"
    _record_rule(ctx, "grade_rows", None, status == "pending", rule_result["code"], message, t0)
    payload = {
        "weaver_id": args.weaver_id,
        "quantity": args.quantity,
        "grade": final_grade,
        "rows_per_inch": rows,
        "straw": args.straw,
    }
    return _buffer(
        ctx, "create_hat", status, payload, args.why, args.quote, args.confidence, rule_result, key
    )


def propose_advance_stage(ctx: RunContext, args: ProposeAdvanceStageArgs) -> dict[str, Any]:
    """Buffer a stage change for a looked-up hat; the stage rules decide pending or blocked."""
    _check_quote(ctx, args.quote)
    seen = _seen_hat(ctx, args.hat_code)
    code = seen.row.code
    key = ("advance_stage", code)
    if _duplicate(ctx, key):
        raise ToolError(f"You already proposed a stage change for {code} in this note.")
    _check_limit(ctx)
    fresh = ctx.reads.hat_by_code(code)
    if fresh is None or (fresh.archived and not seen.row.archived):
        raise ToolError(f"{code} is no longer available.")
    t0 = time.perf_counter()
    decision = domain.can_advance(fresh, domain.stage_index(args.to_stage), ctx.actor)
    _record_rule(ctx, "can_advance", code, decision["allowed"], decision["code"], decision["message"], t0)
    if decision["code"] == "same_stage":
        raise ToolError(f"{code} is already at {fresh.stage}. Nothing to propose; mention it in the summary.")
    warnings: list[str] = []
    if not decision["allowed"]:
        status: BufferedStatus = "blocked"
    else:
        status = "pending"
        if fresh.stage == "Weaving" and args.to_stage == "Washing":
            warnings.extend(_warnings_if_washed_now(ctx, fresh))
    confidence = args.confidence
    # The version read here lets approval tell "changed since this card was made" exactly (a conflict).
    payload: dict[str, Any] = {
        "hat_code": code,
        "from_stage": fresh.stage,
        "to_stage": args.to_stage,
        "hat_version": fresh.version,
    }
    if seen.match in {"confusable", "fuzzy"}:
        confidence = "check"
        payload["code_heard"] = seen.heard
    if ctx.reads.open_proposal_exists(code, "advance_stage", ctx.run_id):
        warnings.append("open_proposal_exists")
    rule_result = domain.checked(decision, ctx.now, warnings)
    return _buffer(ctx, "advance_stage", status, payload, args.why, args.quote, confidence, rule_result, key)


def _warnings_if_washed_now(ctx: RunContext, hat: Hat) -> list[str]:
    """Anomalies the record would show if the hat left Weaving now (too_fast)."""
    events = ctx.reads.events(hat, EVENTS_SHOWN)
    moved = dataclasses.replace(hat, stage="Washing")
    washed = HatEvent("stage_changed", ctx.now, "Weaving", "Washing")
    found = domain.detect_anomalies(moved, [*events, washed], ctx.now)
    return [a["kind"] for a in found if a["kind"] == "too_fast"]


def propose_flag(ctx: RunContext, args: ProposeFlagArgs) -> dict[str, Any]:
    """Buffer a flag on a looked-up hat; never blocked, but checked against what the record shows."""
    _check_quote(ctx, args.quote)
    seen = _seen_hat(ctx, args.hat_code)
    code = seen.row.code
    if not 1 <= len(args.message.strip()) <= MAX_FLAG_MESSAGE:
        raise ToolError(domain.FLAG_MESSAGE_ERROR)
    fresh = ctx.reads.hat_by_code(code)
    if fresh is None:
        raise ToolError(f"{code} is no longer available.")
    if any(f.kind == args.kind for f in ctx.reads.open_flags(fresh)):
        raise ToolError(f"{code} already has an open {args.kind} flag.")
    key = ("flag_issue", code, args.kind)
    if _duplicate(ctx, key):
        raise ToolError(f"You already proposed a {args.kind} flag for {code} in this note.")
    _check_limit(ctx)
    t0 = time.perf_counter()
    anomalies = domain.detect_anomalies(fresh, ctx.reads.events(fresh, EVENTS_SHOWN), ctx.now)
    found = next((a for a in anomalies if a["kind"] == args.kind), None)
    confidence = args.confidence
    warnings: list[str] = []
    if found is not None:
        message = found["message"]
    else:
        message = f"The record of {code} does not show {args.kind.replace('_', ' ')}."
        confidence = "check"
        warnings.append("not_confirmed_by_record")
    _record_rule(ctx, "detect_anomalies", code, True, args.kind if found else None, message, t0)
    payload: dict[str, Any] = {"hat_code": code, "kind": args.kind, "message": args.message.strip()}
    if seen.match in {"confusable", "fuzzy"}:
        confidence = "check"
        payload["code_heard"] = seen.heard
    rule_result = domain.checked(
        domain.rule_result(True, None, message), ctx.now, warnings, confirmed_by_record=found is not None
    )
    return _buffer(ctx, "flag_issue", "pending", payload, args.why, args.quote, confidence, rule_result, key)


def _flag_words(quote: str) -> str:
    """The note's words for a flag's message: the quote, white space collapsed, within the message bound."""
    return domain.collapse_spaces(quote)[:MAX_FLAG_MESSAGE]


def ask_question(ctx: RunContext, args: AskQuestionArgs) -> dict[str, Any]:
    """Buffer a question card (with a draft) instead of a guess; choices must come from lookups."""
    _check_quote(ctx, args.quote)
    question = args.question.strip()
    if not 1 <= len(question) <= MAX_QUESTION:
        raise ToolError("question must be 1 to 160 characters.")
    if len(args.choices) > MAX_CHOICES:
        raise ToolError("At most 4 choices.")
    choices: list[dict[str, Any]] = []
    for choice in args.choices:
        hat_code = None
        if choice.weaver_id is not None and choice.weaver_id not in ctx.seen_weaver_ids:
            raise ToolError(CHOICES_ERROR)
        if choice.hat_code is not None:
            normal = domain.normalize_code(choice.hat_code)
            if normal is None or normal not in ctx.seen_hats:
                raise ToolError(CHOICES_ERROR)
            hat_code = ctx.seen_hats[normal].row.code
        choices.append({"label": choice.label, "weaver_id": choice.weaver_id, "hat_code": hat_code})
    draft = args.draft
    if draft.quantity is not None and not domain.validate_quantity(draft.quantity):
        raise ToolError(QUANTITY_ERROR)
    if draft.rows_per_inch is not None and not domain.validate_rows(draft.rows_per_inch):
        raise ToolError(ROWS_ERROR)
    draft_code = None
    if draft.hat_code is not None:
        normal = domain.normalize_code(draft.hat_code)
        if normal is None or normal not in ctx.seen_hats:
            raise ToolError(CHOICES_ERROR)
        draft_code = ctx.seen_hats[normal].row.code
    _check_limit(ctx)
    key = ("question", args.proposal_type, question, draft_code)
    if _duplicate(ctx, key):
        raise ToolError("You already asked this question in this note.")
    warnings: list[str] = []
    if (
        draft.grade is not None
        and draft.rows_per_inch is not None
        and domain.grade_mismatch(draft.grade, draft.rows_per_inch)
    ):
        warnings.append("grade_mismatch")
    payload: dict[str, Any]
    if args.proposal_type == "create_hat":
        # A question about something else (the rows, say) whose choices name one weaver already knows who
        # wove the hats: the answer then fills only what was asked (docs/workshop.md, "Approving").
        offered = {c["weaver_id"] for c in choices if c["weaver_id"] is not None}
        payload = {
            "weaver_id": offered.pop() if len(offered) == 1 else None,
            "quantity": draft.quantity,
            "grade": draft.grade,
            "rows_per_inch": draft.rows_per_inch,
            "straw": None,
        }
    elif args.proposal_type == "advance_stage":
        payload = {"hat_code": draft_code, "to_stage": draft.to_stage}
    else:
        # The draft has no message: the flag keeps the note's own words, which the quote holds.
        payload = {"hat_code": draft_code, "kind": draft.flag_kind, "message": _flag_words(args.quote)}
    payload["question"] = {"text": question, "choices": choices}
    rule_result = (
        domain.checked(domain.rule_result(True, None, "Waiting for an answer."), ctx.now, warnings)
        if warnings
        else None
    )
    return _buffer(
        ctx, args.proposal_type, "question", payload, args.why, args.quote, "check", rule_result, key
    )
