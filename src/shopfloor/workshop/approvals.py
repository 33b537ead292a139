"""Approving proposals: the only code path that writes hats, hat events and hat flags.

Each decision runs in its own transaction. Approval re-reads the proposal and the hat, re-runs every rule of
``domain`` on the fresh row, and writes with a version check (``UPDATE ... WHERE version = :seen``), so a hat
changed since the proposal gives a conflict, never a lost update. A rule that now says no leaves the proposal
``blocked`` with the new reason. Deciding a proposal the same way twice changes nothing.

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

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from shopfloor.logs import request_id_var
from shopfloor.workshop import domain
from shopfloor.workshop.store import Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow
from shopfloor.workshop.store.repo import NotFound, event_view

MAX_DECISIONS = 20
DECIDED = domain.DECIDED_STATUSES

# Fields a person may set per proposal type (by editing a card or answering its question).
EDITABLE: dict[str, frozenset[str]] = {
    "create_hat": frozenset({"weaver_id", "quantity", "grade", "rows_per_inch", "straw"}),
    "advance_stage": frozenset({"hat_code", "to_stage"}),
    "flag_issue": frozenset({"hat_code", "kind", "message"}),
}


class Fields(BaseModel):
    """Payload fields a person can fill in or change; the ranges are the domain's (docs/workshop.md, "Rules")."""

    model_config = ConfigDict(extra="forbid")

    weaver_id: StrictStr | None = Field(default=None, min_length=1, max_length=40)
    quantity: StrictInt | None = Field(default=None, ge=domain.MIN_QUANTITY, le=domain.MAX_QUANTITY)
    grade: domain.Grade | None = None
    rows_per_inch: StrictInt | None = Field(default=None, ge=domain.MIN_ROWS, le=domain.MAX_ROWS)
    straw: domain.Straw | None = None
    hat_code: StrictStr | None = Field(default=None, min_length=1, max_length=20)
    to_stage: domain.Stage | None = None
    kind: domain.FlagKind | None = None
    message: StrictStr | None = Field(default=None, min_length=1, max_length=domain.MAX_FLAG_MESSAGE)

    def given(self) -> dict[str, Any]:
        """Only the fields the client sent."""
        return self.model_dump(exclude_unset=True)


class Decision(BaseModel):
    """One card's decision: approve (optionally with edits or an answer), reject, or answer a question."""

    model_config = ConfigDict(extra="forbid")

    proposal_id: StrictStr = Field(min_length=1, max_length=40)
    action: Literal["approve", "reject", "answer"]
    edits: Fields | None = None
    choice: StrictInt | None = Field(default=None, ge=0, le=3)
    # The "someone else" (or "another hat") choice: the value names a weaver or hat the card did not offer.
    other: bool = False
    value: Fields | None = None
    reason: StrictStr | None = Field(default=None, max_length=500)

    @model_validator(mode="after")
    def _consistent(self) -> Decision:
        if self.action == "reject" and (self.edits or self.value or self.choice is not None or self.other):
            raise ValueError("a rejection carries no edits, choice or value")
        if self.action == "answer" and self.choice is None and not self.value:
            raise ValueError("an answer needs a choice or a value")
        if self.other and self.choice is not None:
            raise ValueError("someone else (other) is not one of the choices: give no choice with it")
        if self.other and not any(
            f is not None and ({"weaver_id", "hat_code"} & set(f.given())) for f in (self.value, self.edits)
        ):
            raise ValueError("someone else (other) needs the weaver_id or hat_code it means")
        return self


class ApplyRequest(BaseModel):
    """Body of ``POST /functions/v1/apply-proposals``."""

    model_config = ConfigDict(extra="forbid")

    decisions: list[Decision] = Field(min_length=1, max_length=MAX_DECISIONS)

    @model_validator(mode="after")
    def _distinct(self) -> ApplyRequest:
        ids = [d.proposal_id for d in self.decisions]
        if len(set(ids)) != len(ids):
            raise ValueError("each proposal may appear once")
        return self


Outcome = Literal[
    "applied", "rejected", "answered", "unchanged", "blocked", "conflict", "not_found", "invalid"
]
STATUS_OF: dict[str, int] = {
    "applied": 200,
    "rejected": 200,
    "answered": 200,
    "unchanged": 409,
    "blocked": 409,
    "conflict": 409,
    "not_found": 404,
    "invalid": 422,
}


@dataclass
class CardResult:
    """What happened to one card."""

    proposal_id: str
    outcome: Outcome
    message: str
    status: str | None = None
    code: str | None = None
    # The parts of ``message`` by name (with ``case`` when one code has several sentences), so a page says the
    # same in its language from ``code`` and ``params`` (docs/workshop-pages.md, "Cards").
    params: dict[str, Any] = field(default_factory=dict)
    rule_result: dict[str, Any] | None = None
    applied: dict[str, Any] | None = None
    run_id: str | None = None
    run_status: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def http_status(self) -> int:
        """The HTTP status this card alone would get."""
        return STATUS_OF[self.outcome]

    @property
    def ok(self) -> bool:
        """True when the decision took effect now."""
        return self.http_status == 200

    def to_dict(self) -> dict[str, Any]:
        """JSON for the response."""
        data: dict[str, Any] = {
            "proposal_id": self.proposal_id,
            "outcome": self.outcome,
            "http_status": self.http_status,
            "code": self.code,
            "message": self.message,
            "params": self.params,
            "status": self.status,
            "rule_result": self.rule_result,
            "applied": self.applied,
            "run_id": self.run_id,
            "run_status": self.run_status,
        }
        data.update(self.extra)
        return data


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
        wanted = (
            "approved"
            if decision.action == "approve"
            else "rejected"
            if decision.action == "reject"
            else None
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

    if decision.action == "reject":
        if not _mark(
            s, proposal, "rejected", actor, now, applied={"rejected": True, "reason": decision.reason}
        ):
            raise _Stop(_decided_meanwhile(proposal))
        base.outcome, base.status, base.message = "rejected", "rejected", "Rejected; nothing was changed."
        return base

    if decision.action == "answer" and proposal.status != "question":
        # Also what a replayed answer meets: the card already took the first one.
        base.outcome, base.code = "unchanged", "not_a_question"
        base.message = f"This card is not an open question (it is {proposal.status}); nothing changed."
        base.params = {"status": proposal.status}
        return base
    payload, problem = _effective_payload(proposal, decision)
    if problem is not None:
        base.code, (base.message, base.params) = "invalid_edit", problem
        return base
    unknown = _unknown_typed_id(repo, decision)
    if unknown is not None:
        # An id the person typed that is not in this workshop is bad input, not a rule: nothing is recorded.
        base.outcome, base.code, (base.message, base.params) = "not_found", "not_found", unknown
        return base
    refused = _not_offered(repo, proposal, decision)
    if refused is not None:
        base.code, (base.message, base.params) = "not_offered", refused
        return base
    if decision.action == "answer":
        return _answer(s, repo, actor, proposal, payload, now, base)
    if (
        proposal.status == "question"
        and decision.choice is None
        and not decision.value
        and not decision.edits
    ):
        # A draft may already hold every field (a weaver the note named): the question still needs its answer.
        missing = _missing(proposal.type, payload)
        base.code = "answer_required"
        base.message = (
            f"Answer the question first (missing: {', '.join(missing)})."
            if missing
            else "Answer the question first."
        )
        base.params = {"fields": list(missing)}
        return base
    return _approve(
        s, repo, actor, proposal, payload, now, base, edits_change=_edits_change(proposal, decision)
    )


Reason = tuple[str, dict[str, Any]]  # a message and its params


def _effective_payload(proposal: m.Proposal, decision: Decision) -> tuple[dict[str, Any], Reason | None]:
    """The payload with earlier edits, the chosen answer and the new edits merged in, or a reason it is wrong."""
    payload = {k: v for k, v in proposal.payload.items() if k != "question"}
    payload.update(proposal.edited_payload or {})
    allowed = EDITABLE.get(proposal.type, frozenset())
    if decision.choice is not None:
        if proposal.status != "question":
            return payload, ("Only a question card has choices.", {"case": "no_choices"})
        choices = (proposal.payload.get("question") or {}).get("choices") or []
        if decision.choice >= len(choices):
            return (
                payload,
                (
                    f"Choice {decision.choice} does not exist; the question has {len(choices)} choices.",
                    {"case": "no_such_choice", "choice": decision.choice, "count": len(choices)},
                ),
            )
        chosen = choices[decision.choice]
        for key in ("weaver_id", "hat_code"):
            if isinstance(chosen, dict) and chosen.get(key):
                payload[key] = chosen[key]
    for fields in (decision.value, decision.edits):
        if fields is None:
            continue
        given = fields.given()
        wrong = sorted(set(given) - allowed)
        if wrong:
            return payload, (
                f"{', '.join(wrong)} cannot be set on a {proposal.type} proposal.",
                {"case": "not_editable", "fields": wrong, "type": proposal.type},
            )
        payload.update(given)
    code = _code_of(payload)
    if code is not None:
        payload["hat_code"] = code  # a typed "tq 7f3ka" is stored as TQ-7F3KA
    if code != _code_of(proposal.payload):
        # The card now names another hat: what it recorded about the first one says nothing about this one.
        payload.pop("hat_version", None)
        payload.pop("from_stage", None)
    return payload, None


def _edits_change(proposal: m.Proposal, decision: Decision) -> bool:
    """True when the decision's edits change something on the card (a form sent back unchanged does not)."""
    if decision.edits is None:
        return False
    current = {k: v for k, v in proposal.payload.items() if k != "question"}
    current.update(proposal.edited_payload or {})
    for key, value in decision.edits.given().items():
        if key == "hat_code":
            if domain.normalize_code(str(value)) != _code_of(current):
                return True
        elif current.get(key) != value:
            return True
    return False


OFFERED_IDS = ("weaver_id", "hat_code")


def _offered(proposal: m.Proposal, key: str) -> list[dict[str, Any]]:
    """The question's choices that offer a ``key`` (a weaver or a hat)."""
    choices = (proposal.payload.get("question") or {}).get("choices") or []
    return [c for c in choices if isinstance(c, dict) and c.get(key)]


def _id_name(repo: WorkshopRepo, key: str, value: object) -> str:
    """How a person knows a weaver id or hat code: the weaver's name, the code itself."""
    if key == "weaver_id":
        try:
            return repo.weaver(str(value)).name
        except NotFound:
            return str(value)
    return _code_of({"hat_code": value}) or str(value)


def _not_offered(repo: WorkshopRepo, proposal: m.Proposal, decision: Decision) -> Reason | None:
    """Why a question's answer may not name a weaver or hat its choices did not offer, unless the decision is
    the explicit "someone else" choice (``other``); None when it may. A question that offered no choice for a
    field asks for it openly, so any value answers it (docs/workshop.md, "Approving")."""
    if proposal.status != "question":
        return ("Only a question card has choices.", {"case": "no_choices"}) if decision.other else None
    if decision.other:
        return None
    for fields in (decision.value, decision.edits):
        given = fields.given() if fields is not None else {}
        for key in OFFERED_IDS:
            offered = _offered(proposal, key)
            if given.get(key) is None or not offered:
                continue
            wanted = given[key] if key == "weaver_id" else _code_of(given)
            if wanted in {c[key] for c in offered}:
                continue
            labels = ", ".join(str(c.get("label") or c[key]) for c in offered)
            other = "someone else" if key == "weaver_id" else "another hat"
            what = "weaver" if key == "weaver_id" else "hat"
            name = _id_name(repo, key, given[key])
            return (
                f"{name} is not one of this card's choices ({labels}); pick one of "
                f'them, or answer "{other}" to name another {what}.',
                {"case": what, "name": name, "labels": [str(c.get("label") or c[key]) for c in offered]},
            )
    return None


def _offer_warnings(repo: WorkshopRepo, proposal: m.Proposal, payload: dict[str, Any]) -> list[str]:
    """Names of what the card holds that its question did not offer (each warns ``not_offered``)."""
    names = []
    for key in OFFERED_IDS:
        offered = _offered(proposal, key)
        if offered and payload.get(key) and payload[key] not in {c[key] for c in offered}:
            names.append(_id_name(repo, key, payload[key]))
    return names


def _warn_not_offered(check: dict[str, Any], names: list[str]) -> dict[str, Any]:
    if not names:
        return check
    return {**check, "warnings": [*check.get("warnings", []), "not_offered"]}


def _unknown_typed_id(repo: WorkshopRepo, decision: Decision) -> Reason | None:
    """Why a hat code or weaver id given in the decision's edits or value is not in the workshop, if it is not."""
    for fields in (decision.edits, decision.value):
        given = fields.given() if fields is not None else {}
        if given.get("hat_code") is not None:
            code = domain.normalize_code(given["hat_code"])
            try:
                repo.hat_by_code(code or "")
            except NotFound:
                typed = code or given["hat_code"]
                return f"No hat {typed} in this workshop.", {"case": "hat", "code": typed}
        if given.get("weaver_id") is not None:
            try:
                repo.weaver(given["weaver_id"])
            except NotFound:
                typed = given["weaver_id"]
                return f"No weaver {typed} in this workshop.", {"case": "weaver", "id": typed}
    return None


def _code_of(payload: dict[str, Any]) -> str | None:
    return domain.normalize_code(str(payload.get("hat_code") or ""))


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
    missing = _missing(proposal.type, payload)
    if missing:
        base.code, base.message = "answer_incomplete", f"Still missing: {', '.join(missing)}."
        base.params = {"fields": list(missing)}
        return base
    not_offered = _offer_warnings(repo, proposal, payload)
    check = _warn_not_offered(_check(repo, actor, proposal.type, payload, now), not_offered)
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


def _missing(kind: str, payload: dict[str, Any]) -> list[str]:
    need = {
        "create_hat": ("weaver_id", "quantity", "rows_per_inch"),
        "advance_stage": ("hat_code", "to_stage"),
        "flag_issue": ("hat_code", "kind", "message"),
    }.get(kind, ())
    return [k for k in need if payload.get(k) in (None, "")]


def _check(
    repo: WorkshopRepo, actor: domain.Actor, kind: str, payload: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """Every rule for ``payload`` on the current rows, as a card stores it (with ``checked_at``)."""
    result: dict[str, Any]
    if kind == "create_hat":
        result = dict(_check_create(repo, payload))
    elif kind == "advance_stage":
        hat = _hat(repo, payload)
        if hat is None:
            code = payload.get("hat_code")
            result = dict(
                domain.refusal("hat_not_found", f"No hat {code} in this workshop.", params={"code": code})
            )
        else:
            to = payload.get("to_stage")
            if not domain.is_stage(to):
                result = dict(
                    domain.refusal("invalid_stage", f"{to!r} is not a stage.", params={"value": to})
                )
            else:
                fresh = repo.hat_domain(hat)
                result = dict(domain.can_advance(fresh, domain.stage_index(str(to)), actor))
                if result["allowed"]:
                    result["warnings"] = _warnings_if_moved(repo, fresh, str(to), now)
    elif kind == "flag_issue":
        result = dict(_check_flag(repo, payload))
    else:
        result = dict(domain.refusal("unknown_type", f"Unknown proposal type {kind}.", params={"type": kind}))
    return domain.checked(result, now)


def _warnings_if_moved(repo: WorkshopRepo, hat: domain.Hat, to_stage: str, now: datetime) -> list[str]:
    """Anomaly kinds the move itself would add to the record now (``too_fast`` when leaving Weaving early)."""
    if hat.stage != "Weaving":
        return []
    events = [event_view(e) for e in repo.events(hat.id)]
    moved = domain.HatEvent("stage_changed", now, hat.stage, to_stage)
    found = domain.detect_anomalies(hat, [*events, moved], now)
    return [a["kind"] for a in found if a["kind"] == "too_fast"]


def _check_create(repo: WorkshopRepo, payload: dict[str, Any]) -> domain.RuleResult:
    weaver_id = payload.get("weaver_id")
    try:
        weaver = repo.weaver(str(weaver_id)) if weaver_id else None
    except NotFound:
        weaver = None
    if weaver is None or weaver.archived:
        return domain.refusal("weaver_not_found", "The weaver is not (or no longer) in this workshop.")
    quantity = payload.get("quantity")
    if not domain.validate_quantity(quantity):
        return domain.refusal(
            "invalid_quantity",
            domain.QUANTITY_ERROR,
            params={"low": domain.MIN_QUANTITY, "high": domain.MAX_QUANTITY},
        )
    rows = payload.get("rows_per_inch")
    if not domain.validate_rows(rows):
        return domain.refusal(
            "invalid_rows", domain.ROWS_ERROR, params={"low": domain.MIN_ROWS, "high": domain.MAX_ROWS}
        )
    assert isinstance(rows, int)
    grade = payload.get("grade") or domain.grade_for(rows)
    if domain.grade_mismatch(grade, rows):
        return domain.refusal(
            "grade_mismatch",
            domain.grade_mismatch_message(grade, rows),
            {"grade": domain.grade_for(rows)},
            domain.grade_mismatch_params(grade, rows),
        )
    straw = payload.get("straw")
    if straw is not None and straw not in domain.STRAWS:
        return domain.refusal(
            "invalid_straw", f"{straw!r} is not a straw (Natural, Bleached or Dyed).", params={"value": straw}
        )
    return domain.rule_result(
        True, None, f"{quantity} {grade} hat(s) of {rows} rows for {weaver.name} can be created."
    )


def _check_flag(repo: WorkshopRepo, payload: dict[str, Any]) -> domain.RuleResult:
    hat = _hat(repo, payload)
    if hat is None:
        code = payload.get("hat_code")
        return domain.refusal("hat_not_found", f"No hat {code} in this workshop.", params={"code": code})
    kind, message = payload.get("kind"), payload.get("message")
    if kind not in domain.FLAG_KINDS:
        return domain.refusal("invalid_kind", f"{kind!r} is not a flag kind.", params={"value": kind})
    if not isinstance(message, str) or not 1 <= len(message.strip()) <= domain.MAX_FLAG_MESSAGE:
        return domain.refusal(
            "invalid_message", domain.FLAG_MESSAGE_ERROR, params={"low": 1, "high": domain.MAX_FLAG_MESSAGE}
        )
    if any(f.kind == kind for f in repo.flags([hat.id])):
        return domain.refusal(
            "flag_exists",
            f"{hat.code} already has an open {kind} flag.",
            params={"code": hat.code, "kind": kind},
        )
    return domain.rule_result(True, None, f"A {kind} flag can be raised on {hat.code}.")


def _hat(repo: WorkshopRepo, payload: dict[str, Any]) -> m.Hat | None:
    """The payload's hat, locked for the rest of the transaction and read fresh.

    The lock makes concurrent approvals on one hat take turns, so each one's version check and rule check
    see the same row (on SQLite the write transaction already holds the database lock).
    """
    code = domain.normalize_code(str(payload.get("hat_code") or ""))
    if code is None:
        return None
    stmt = (
        select(m.Hat)
        .where(m.Hat.code == code, m.Hat.workshop_id == repo.workshop_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return repo.session.scalars(stmt).first()


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
    missing = _missing(proposal.type, payload) if proposal.status == "question" else []
    if missing:
        base.code = "answer_required"
        base.message = f"Answer the question first (missing: {', '.join(missing)})."
        base.params = {"fields": list(missing)}
        return base
    if proposal.type == "advance_stage":
        stale = _stale(proposal, _hat(repo, payload), payload)
        if stale is not None:
            return stale
    check = _warn_not_offered(
        _check(repo, actor, proposal.type, payload, now), _offer_warnings(repo, proposal, payload)
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
        hat = _hat(repo, payload)
        assert hat is not None  # _check found it
        outcome = _advance(s, actor, proposal, hat, payload, now)
        if isinstance(outcome, CardResult):
            outcome.run_id, outcome.rule_result = proposal.run_id, check
            return outcome
        applied = outcome
    else:
        hat = _hat(repo, payload)
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
    """What the flag record says: a message the person typed on the card as typed; otherwise the card's
    message with the note's words (the quote) kept beside it (docs/workshop.md, "Approving")."""
    message = str(payload["message"])
    if message != proposal.payload.get("message"):
        return domain.collapse_spaces(message)[: domain.MAX_FLAG_MESSAGE]
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
