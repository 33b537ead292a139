"""Approving proposals: the only code path that writes hats, hat events and hat flags.

Each decision runs in its own transaction. Approval re-reads the proposal and the hat, re-runs every rule of
``domain`` on the fresh row, and writes with a version check (``UPDATE ... WHERE version = :seen``), so a hat
changed since the proposal gives a conflict, never a lost update. A rule that now says no leaves the proposal
``blocked`` with the new reason. Deciding a proposal the same way twice changes nothing.

The shapes of a decision and its result are in ``decisions``; what a choice and edits make of the payload in
``choices``; the rules run again on fresh rows in ``rechecks``. Those only read; every write is here.

Proposal payloads (what the agent stores):

- ``create_hat``: ``{weaver_id, quantity, grade, rows_per_inch, straw}``
- ``advance_stage``: ``{hat_code, to_stage, hat_version?, from_stage?, code_heard?}``; ``hat_version`` is the
  version the proposal was made against; without it, a hat no longer at ``from_stage`` is a conflict (and the
  version read at approval guards the write). Both are dropped when a person points the card at another hat.
- ``flag_issue``: ``{hat_code, kind, message}``
- a question (status ``question``) holds the draft fields of its type plus
  ``question: {text, choices: [{label, weaver_id, hat_code}]}``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from shopfloor.logs import request_id_var
from shopfloor.workshop import choices, domain, rechecks
from shopfloor.workshop.decisions import (
    EDITABLE,
    MAX_DECISIONS,
    STATUS_OF,
    ApplyRequest,
    CardResult,
    Decision,
    Fields,
    Outcome,
)
from shopfloor.workshop.store import Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow
from shopfloor.workshop.store.repo import NotFound

# The request and result shapes live in ``decisions``; they stay importable from here.
__all__ = [
    "EDITABLE",
    "MAX_DECISIONS",
    "STATUS_OF",
    "ApplyRequest",
    "CardResult",
    "Decision",
    "Fields",
    "Outcome",
    "apply_decision",
    "apply_decisions",
]

DECIDED = domain.DECIDED_STATUSES


class _Stop(Exception):
    """Ends a decision early with a card result (after rolling back the transaction's writes)."""

    def __init__(self, result: CardResult) -> None:
        super().__init__(result.message)
        self.result = result


def apply_decisions(store: Store, actor: domain.Actor, request: ApplyRequest) -> list[CardResult]:
    """Apply each decision in its own transaction, in order; one card's failure does not undo another's."""
    return [apply_decision(store, actor, decision) for decision in request.decisions]


def apply_decision(
    store: Store, actor: domain.Actor, decision: Decision, now: datetime | None = None
) -> CardResult:
    """Apply one decision in one transaction and say what happened."""
    when = now or utcnow()
    try:
        with store.transaction(actor.workshop_id) as s:
            repo = WorkshopRepo(s, actor)
            result = _decide(s, repo, actor, decision, when)
            # A conflict or a new rule refusal is recorded on the card; other refusals change nothing.
            recorded = result.outcome in ("conflict", "blocked") and result.code != "already_decided"
            if recorded:
                _record_refusal(s, decision.proposal_id, result, when)
            if result.ok or recorded:
                result.run_status = _refresh_run(s, actor, result.run_id, when)
            else:
                # Nothing was decided: roll back, so a refused request leaves every table as it was.
                raise _Stop(result)
            repo.log(
                "workshop.proposal.decided",
                level="info" if result.ok else "warn",
                source="api:apply-proposals",
                request_id=request_id_var.get(),
                run_id=result.run_id,
                payload={
                    "proposal_id": result.proposal_id,
                    "action": decision.action,
                    "outcome": result.outcome,
                }
                | ({"code": result.code} if result.code else {}),
            )
            return result
    except _Stop as stop:
        return stop.result


def _decide(
    s: Session, repo: WorkshopRepo, actor: domain.Actor, decision: Decision, now: datetime
) -> CardResult:
    """Decide one card inside the caller's transaction: the proposal read and locked with its run, then the
    decision's input checked, then the answer saved or the card approved."""
    pid = decision.proposal_id
    try:
        proposal = repo.proposal(pid)
    except NotFound:
        return CardResult(
            pid,
            "not_found",
            "No such proposal in this workshop.",
            code="not_found",
            params={"case": "proposal"},
        )
    # Decisions on one run are serialized, so the run's final status sees every card.
    s.execute(select(m.AgentRun.id).where(m.AgentRun.id == proposal.run_id).with_for_update())
    s.refresh(proposal)
    base = CardResult(pid, "invalid", "", status=proposal.status, run_id=proposal.run_id)

    if proposal.status in DECIDED:
        return _decided_already(proposal, decision, base)
    if decision.action == "reject":
        return _reject(s, actor, proposal, decision, now, base)
    payload = _checked_input(repo, proposal, decision, base)
    if isinstance(payload, CardResult):
        return payload
    if decision.action == "answer":
        return _answer(s, repo, actor, proposal, payload, now, base)
    if (
        proposal.status == "question"
        and decision.choice is None
        and not decision.value
        and not decision.edits
    ):
        # A draft may already hold every field (a weaver the note named): the question still needs its answer.
        missing = rechecks.missing(proposal.type, payload)
        base.code = "answer_required"
        base.message = (
            f"Answer the question first (missing: {', '.join(missing)})."
            if missing
            else "Answer the question first."
        )
        base.params = {"fields": list(missing)}
        return base
    return _approve(
        s, repo, actor, proposal, payload, now, base, edits_change=choices.edits_change(proposal, decision)
    )


def _decided_already(proposal: m.Proposal, decision: Decision, base: CardResult) -> CardResult:
    """A card decided before: the same decision again changes nothing, another one is a conflict."""
    wanted = (
        "approved" if decision.action == "approve" else "rejected" if decision.action == "reject" else None
    )
    if wanted == proposal.status:
        base.outcome, base.code = "unchanged", f"already_{proposal.status}"
        base.message = f"This proposal was already {proposal.status}; nothing changed."
        base.params = {"status": proposal.status}
        base.applied, base.rule_result = proposal.applied, proposal.rule_result
        return base
    base.outcome, base.code = "conflict", "already_decided"
    base.message = f"This proposal was already {proposal.status}."
    base.params = {"status": proposal.status}
    return base


def _reject(
    s: Session, actor: domain.Actor, proposal: m.Proposal, decision: Decision, now: datetime, base: CardResult
) -> CardResult:
    """Reject an undecided card (with the person's reason); nothing else is written."""
    if not _mark(s, proposal, "rejected", actor, now, applied={"rejected": True, "reason": decision.reason}):
        raise _Stop(_decided_meanwhile(proposal))
    base.outcome, base.status, base.message = "rejected", "rejected", "Rejected; nothing was changed."
    return base


def _checked_input(
    repo: WorkshopRepo, proposal: m.Proposal, decision: Decision, base: CardResult
) -> dict[str, Any] | CardResult:
    """The card's payload after the decision's choice and edits, or ``base`` saying why the decision's input
    cannot be used (an answer to a card that asks nothing, a wrong edit, an unknown id, a choice not offered)."""
    if decision.action == "answer" and proposal.status != "question":
        # Also what a replayed answer meets: the card already took the first one.
        base.outcome, base.code = "unchanged", "not_a_question"
        base.message = f"This card is not an open question (it is {proposal.status}); nothing changed."
        base.params = {"status": proposal.status}
        return base
    payload, problem = choices.effective_payload(proposal, decision)
    if problem is not None:
        base.code, (base.message, base.params) = "invalid_edit", problem
        return base
    unknown = choices.unknown_typed_id(repo, decision)
    if unknown is not None:
        # An id the person typed that is not in this workshop is bad input, not a rule: nothing is recorded.
        base.outcome, base.code, (base.message, base.params) = "not_found", "not_found", unknown
        return base
    refused = choices.not_offered(repo, proposal, decision)
    if refused is not None:
        base.code, (base.message, base.params) = "not_offered", refused
        return base
    return payload


def _answer(
    s: Session,
    repo: WorkshopRepo,
    actor: domain.Actor,
    proposal: m.Proposal,
    payload: dict[str, Any],
    now: datetime,
    base: CardResult,
) -> CardResult:
    """A filled-in question becomes a pending card (or blocked, if the rules already say no)."""
    missing = rechecks.missing(proposal.type, payload)
    if missing:
        base.code, base.message = "answer_incomplete", f"Still missing: {', '.join(missing)}."
        base.params = {"fields": list(missing)}
        return base
    not_offered = choices.offer_warnings(repo, proposal, payload)
    check = choices.warn_not_offered(rechecks.check(repo, actor, proposal.type, payload, now), not_offered)
    edited = {k: v for k, v in payload.items() if k in EDITABLE.get(proposal.type, frozenset())}
    status = "pending" if check["allowed"] else "blocked"
    s.execute(
        update(m.Proposal)
        .where(m.Proposal.id == proposal.id, m.Proposal.status == proposal.status)
        .values(status=status, edited_payload=edited, rule_result=dict(check))
    )
    base.outcome, base.status, base.rule_result = "answered", status, dict(check)
    base.message = "Answer saved; the card can be approved." if check["allowed"] else check["message"]
    if not_offered:
        base.message += f" {', '.join(not_offered)} was not one of the card's choices."
        base.params = {"not_offered": not_offered}
    return base


def _approve(
    s: Session,
    repo: WorkshopRepo,
    actor: domain.Actor,
    proposal: m.Proposal,
    payload: dict[str, Any],
    now: datetime,
    base: CardResult,
    edits_change: bool = False,
) -> CardResult:
    """Approve a card (with ``payload``, its fields after the decision's edits); ``edits_change`` when they
    change the card, so a rule refusing them leaves the card as it was (docs/workshop.md, "Approving")."""
    missing = rechecks.missing(proposal.type, payload) if proposal.status == "question" else []
    if missing:
        base.code = "answer_required"
        base.message = f"Answer the question first (missing: {', '.join(missing)})."
        base.params = {"fields": list(missing)}
        return base
    if proposal.type == "advance_stage":
        stale = _stale(proposal, rechecks.locked_hat(repo, payload), payload)
        if stale is not None:
            return stale
    check = choices.warn_not_offered(
        rechecks.check(repo, actor, proposal.type, payload, now),
        choices.offer_warnings(repo, proposal, payload),
    )
    base.rule_result = check
    if not check["allowed"] and edits_change:
        # The person's edit is what the rule refuses, not the card: say why and change nothing.
        base.code = check["code"]
        base.message = f"{check['message']} The card was not changed."
        base.params = {**check.get("params", {}), "unchanged": True}
        return base
    if not check["allowed"]:
        base.outcome, base.code, base.status, base.message = (
            "blocked",
            check["code"],
            "blocked",
            check["message"],
        )
        base.params = dict(check.get("params", {}))
        base.extra["payload"] = payload
        return base
    if proposal.type == "create_hat":
        applied = _create_hats(s, repo, actor, proposal, payload, now)
    elif proposal.type == "advance_stage":
        hat = rechecks.locked_hat(repo, payload)
        assert hat is not None  # rechecks.check found it
        outcome = _advance(s, actor, proposal, hat, payload, now)
        if isinstance(outcome, CardResult):
            outcome.run_id, outcome.rule_result = proposal.run_id, check
            return outcome
        applied = outcome
    else:
        hat = rechecks.locked_hat(repo, payload)
        assert hat is not None
        flagged = _raise_flag(s, actor, proposal, hat, payload, now)
        if flagged is None:
            base.outcome, base.code, base.status = "blocked", "flag_exists", "blocked"
            base.message = f"{hat.code} already has an open {payload['kind']} flag."
            base.params = {"code": hat.code, "kind": payload["kind"]}
            base.rule_result = domain.checked(
                domain.refusal("flag_exists", base.message, params=base.params), now
            )
            return base
        applied = flagged
    edited = {k: v for k, v in payload.items() if k in EDITABLE[proposal.type]}
    changed = (
        edited if any(proposal.payload.get(k) != v for k, v in edited.items()) else proposal.edited_payload
    )
    if not _mark(s, proposal, "approved", actor, now, applied=applied, rule_result=check, edited=changed):
        # Someone decided this card while we worked: undo our writes (the raise rolls back) and say so.
        raise _Stop(_decided_meanwhile(proposal))
    base.outcome, base.status, base.applied = "applied", "approved", applied
    base.message = "Approved and saved."
    return base


def _seen_version(payload: dict[str, Any]) -> int | None:
    seen = payload.get("hat_version")
    return seen if isinstance(seen, int) and not isinstance(seen, bool) else None


def _conflict(
    proposal: m.Proposal, hat_code: str, stage: str, version: int, payload: dict[str, Any]
) -> CardResult:
    return CardResult(
        proposal.id,
        "conflict",
        f"{hat_code} changed since this proposal was made (now at {stage}, version {version}); "
        "review the card again.",
        code="conflict",
        params={"code": hat_code, "stage": stage, "version": version},
        status="blocked",
        run_id=proposal.run_id,
        extra={"current": {"stage": stage, "version": version}, "payload": payload},
    )


def _stale(proposal: m.Proposal, hat: m.Hat | None, payload: dict[str, Any]) -> CardResult | None:
    """A conflict when the hat moved on since the proposal was made: its version differs from the card's
    ``hat_version``, or (for a card that recorded no version) its stage differs from the card's ``from_stage``.
    """
    if hat is None:
        return None
    seen = _seen_version(payload)
    if seen is not None:
        moved = hat.version != seen
    else:
        from_stage = payload.get("from_stage")
        moved = domain.is_stage(from_stage) and from_stage != hat.stage
    return _conflict(proposal, hat.code, hat.stage, hat.version, payload) if moved else None


def _decided_meanwhile(proposal: m.Proposal) -> CardResult:
    return CardResult(
        proposal.id,
        "unchanged",
        "This proposal was decided at the same time; nothing changed.",
        code="already_decided",
        params={"case": "meanwhile"},
        run_id=proposal.run_id,
    )


def _create_hats(
    s: Session,
    repo: WorkshopRepo,
    actor: domain.Actor,
    proposal: m.Proposal,
    payload: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    rows = int(payload["rows_per_inch"])
    grade = payload.get("grade") or domain.grade_for(rows)
    codes: list[str] = []
    for _ in range(int(payload["quantity"])):
        # Codes are unique across workshops, but this transaction sees only its own: retry on a clash.
        for attempt in range(8):
            code = domain.new_code([*repo.hat_codes(), *codes])
            try:
                with s.begin_nested():
                    hat = m.Hat(
                        workshop_id=actor.workshop_id,
                        code=code,
                        weaver_id=payload["weaver_id"],
                        grade=grade,
                        rows_per_inch=rows,
                        straw=payload.get("straw"),
                        stage="Weaving",
                        owner_type="workshop",
                        version=1,
                        created_at=now,
                        updated_at=now,
                    )
                    s.add(hat)
                    s.flush()
                    # A created hat is a delivery ("terminó / entregó N"), woven already (docs/workshop.md,
                    # "Approving"): its first move out of Weaving is not judged too fast.
                    _add_event(
                        s,
                        actor,
                        proposal,
                        hat.id,
                        now,
                        "created",
                        from_stage=domain.WOVEN_AT_DELIVERY,
                        to_stage="Weaving",
                    )
                codes.append(code)
                break
            except IntegrityError:
                if attempt == 7:
                    raise
    return {"hat_codes": codes, "grade": grade, "rows_per_inch": rows, "weaver_id": payload["weaver_id"]}


def _advance(
    s: Session, actor: domain.Actor, proposal: m.Proposal, hat: m.Hat, payload: dict[str, Any], now: datetime
) -> dict[str, Any] | CardResult:
    seen = _seen_version(payload)
    expected = hat.version if seen is None else seen
    from_stage, to_stage = hat.stage, str(payload["to_stage"])
    result = s.execute(
        update(m.Hat)
        .where(m.Hat.id == hat.id, m.Hat.workshop_id == actor.workshop_id, m.Hat.version == expected)
        .values(stage=to_stage, version=m.Hat.version + 1, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        current = s.execute(
            select(m.Hat.stage, m.Hat.version).where(
                m.Hat.id == hat.id, m.Hat.workshop_id == actor.workshop_id
            )
        ).first()
        if current is None:
            return CardResult(
                proposal.id,
                "not_found",
                f"{hat.code} is no longer in this workshop.",
                code="not_found",
                params={"case": "gone", "code": hat.code},
            )
        return _conflict(proposal, hat.code, current[0], current[1], payload)
    _add_event(s, actor, proposal, hat.id, now, "stage_changed", from_stage=from_stage, to_stage=to_stage)
    return {"hat_code": hat.code, "from_stage": from_stage, "to_stage": to_stage, "version": expected + 1}


def _flag_message(proposal: m.Proposal, payload: dict[str, Any]) -> str:
    """What the flag record says: a message the person typed on the card as typed; the person's words alone
    for a card of the offline reader, whose message is the kind's sentence and those words (the flag keeps its
    kind, which the hat page says by its label); otherwise the card's message with the note's words (the
    quote) kept beside it (docs/workshop.md, "Approving")."""
    message = str(payload["message"])
    if message != proposal.payload.get("message"):
        return domain.collapse_spaces(message)[: domain.MAX_FLAG_MESSAGE]
    said = (proposal.texts or {}).get("message")
    params = said.get("params") if isinstance(said, dict) else None
    words = params.get("words") if isinstance(params, dict) else None
    if isinstance(words, str) and words.strip():
        return domain.collapse_spaces(words)[: domain.MAX_FLAG_MESSAGE]
    return domain.flag_record_message(message, proposal.quote)


def _raise_flag(
    s: Session, actor: domain.Actor, proposal: m.Proposal, hat: m.Hat, payload: dict[str, Any], now: datetime
) -> dict[str, Any] | None:
    try:
        with s.begin_nested():
            flag = m.HatFlag(
                workshop_id=actor.workshop_id,
                hat_id=hat.id,
                kind=payload["kind"],
                message=_flag_message(proposal, payload),
                status="open",
                proposal_id=proposal.id,
                created_at=now,
            )
            s.add(flag)
            s.flush()
    except IntegrityError:
        return None  # the unique open-flag index: someone raised the same flag meanwhile
    _add_event(s, actor, proposal, hat.id, now, "flag_raised", detail={"kind": flag.kind})
    return {"hat_code": hat.code, "flag_id": flag.id, "kind": flag.kind}


def _add_event(
    s: Session,
    actor: domain.Actor,
    proposal: m.Proposal,
    hat_id: str,
    now: datetime,
    type: domain.EventType,
    **fields: Any,
) -> None:
    """Write one hat event of an approved card (who approved it, which card, when)."""
    s.add(
        m.HatEvent(
            workshop_id=actor.workshop_id,
            hat_id=hat_id,
            type=type,
            actor_id=actor.user_id,
            proposal_id=proposal.id,
            created_at=now,
            **fields,
        )
    )
    s.flush()


def _mark(
    s: Session,
    proposal: m.Proposal,
    status: str,
    actor: domain.Actor,
    now: datetime,
    applied: dict[str, Any] | None = None,
    rule_result: dict[str, Any] | None = None,
    edited: dict[str, Any] | None = None,
) -> bool:
    """Record a decision, only if the card is still as we read it (so two deciders cannot both win)."""
    values: dict[str, Any] = {
        "status": status,
        "decided_by": actor.user_id,
        "decided_at": now,
        "applied": applied,
    }
    if rule_result is not None:
        values["rule_result"] = rule_result
    if edited is not None:
        values["edited_payload"] = edited
    result = s.execute(
        update(m.Proposal)
        .where(m.Proposal.id == proposal.id, m.Proposal.status == proposal.status)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def _record_refusal(s: Session, proposal_id: str, result: CardResult, now: datetime) -> None:
    """A conflict or a rule that now says no: the card becomes blocked with the reason (still undecided)."""
    payload = result.extra.pop("payload", None)
    if result.outcome == "conflict":
        result.rule_result = domain.checked(
            domain.refusal("conflict", result.message, params=result.params), now
        )
    values: dict[str, Any] = {"status": "blocked", "rule_result": result.rule_result}
    stored = s.get(m.Proposal, proposal_id)
    if stored is not None and isinstance(payload, dict):
        edited = {k: v for k, v in payload.items() if k in EDITABLE.get(stored.type, frozenset())}
        if (stored.edited_payload or {}).get("hat_version") is not None:
            edited["hat_version"] = payload.get("hat_version")  # keep the version the person was shown
        current = result.extra.get("current")
        if current is not None:
            # The person is now shown the hat as it is; a new approval checks against this version.
            edited["hat_version"] = current["version"]
        values["edited_payload"] = edited
    s.execute(
        update(m.Proposal)
        .where(m.Proposal.id == proposal_id, m.Proposal.status.not_in(DECIDED))
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    result.status = "blocked"


def _refresh_run(s: Session, actor: domain.Actor, run_id: str | None, now: datetime) -> str | None:
    """Set the run's status once every card is decided: approved, partially_approved or rejected."""
    if run_id is None:
        return None
    run = s.scalars(
        select(m.AgentRun).where(m.AgentRun.id == run_id, m.AgentRun.workshop_id == actor.workshop_id)
    ).first()
    if run is None:
        return None
    s.flush()
    statuses = list(s.scalars(select(m.Proposal.status).where(m.Proposal.run_id == run_id)))
    if statuses and all(st in DECIDED for st in statuses):
        if all(st == "approved" for st in statuses):
            final = "approved"
        elif all(st == "rejected" for st in statuses):
            final = "rejected"
        else:
            final = "partially_approved"
        if run.status != final:
            run.status = final
            run.updated_at = now
    return run.status
