"""Argument models of the seven workshop tools.

Dispatch validates every call against these models, so a handler only ever sees well-typed arguments; the
hand-written schemas in ``tools`` describe the same shapes to the model. The literals they accept are the
workshop vocabulary of ``domain``. Import order: args <- handlers <- tools.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from shopfloor.workshop.domain import Confidence, FlagKind, Grade, ProposalType, Stage, Straw


class _Args(BaseModel):
    """Argument models reject unknown fields at every level, like the strict schemas."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class FindWeaverArgs(_Args):
    """Arguments of find_weaver."""

    name: str


class FindHatsArgs(_Args):
    """Arguments of find_hats."""

    codes: list[str]
    weaver_name: str | None
    stage: Stage | None
    open_only: bool


class GetHatArgs(_Args):
    """Arguments of get_hat."""

    code: str


class ProposeCreateHatsArgs(_Args):
    """Arguments of propose_create_hats."""

    weaver_id: str
    quantity: int
    grade: Grade | None
    rows_per_inch: int | None
    straw: Straw | None
    quote: str
    why: str
    confidence: Confidence


class ProposeAdvanceStageArgs(_Args):
    """Arguments of propose_advance_stage."""

    hat_code: str
    to_stage: Stage
    quote: str
    why: str
    confidence: Confidence


class ProposeFlagArgs(_Args):
    """Arguments of propose_flag."""

    hat_code: str
    kind: FlagKind
    message: str
    quote: str
    why: str
    confidence: Confidence


class Choice(_Args):
    """One choice of a question card (ids must come from lookups)."""

    label: str
    weaver_id: str | None
    hat_code: str | None


class Draft(_Args):
    """The draft of the proposal a question card will become once answered."""

    hat_code: str | None
    quantity: int | None
    grade: Grade | None
    rows_per_inch: int | None
    to_stage: Stage | None
    flag_kind: FlagKind | None


class AskQuestionArgs(_Args):
    """Arguments of ask_question."""

    proposal_type: ProposalType
    question: str
    choices: list[Choice]
    draft: Draft
    quote: str
    why: str
