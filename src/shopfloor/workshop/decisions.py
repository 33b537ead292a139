"""A person's decisions on cards and what each one did: the body of ``POST /functions/v1/apply-proposals``
(``ApplyRequest`` of ``Decision``s, with the ``Fields`` a person may fill in) and the ``CardResult`` per card.

What a decision does is ``approvals``' (the only writer); this module holds the shapes both the API and the
pages validate with (docs/workshop.md, "Approving").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from shopfloor.workshop import domain

MAX_DECISIONS = 20

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


Reason = tuple[str, dict[str, Any]]  # a message and its params
