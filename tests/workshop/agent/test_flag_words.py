"""The handlers that build a flag proposal keep the words they are given (docs/workshop.md, "Approving")."""

from __future__ import annotations

from collections.abc import Callable

from shopfloor.workshop.agent.context import RunContext

from .conftest import call


def test_propose_flag_keeps_the_given_message(make_ctx: Callable[..., RunContext]) -> None:
    ctx = make_ctx("El TQ-7F3K2 tiene una mancha en el ala")
    assert not call(
        ctx, "find_hats", codes=["TQ-7F3K2"], weaver_name=None, stage=None, open_only=True
    ).is_error
    result = call(
        ctx,
        "propose_flag",
        hat_code="TQ-7F3K2",
        kind="other",
        message="  mancha en el ala ",
        quote="tiene una mancha en el ala",
        why="The note reports a stain on the brim.",
        confidence="high",
    )
    assert not result.is_error, result.content
    [proposal] = ctx.proposals
    assert proposal.payload["message"] == "mancha en el ala"


def test_a_flag_question_keeps_the_notes_words_as_its_message(make_ctx: Callable[..., RunContext]) -> None:
    ctx = make_ctx("el TQ-7F3KZ tiene una   mancha")
    found = call(ctx, "find_hats", codes=["TQ-7F3KZ"], weaver_name=None, stage=None, open_only=True)
    assert not found.is_error
    result = call(
        ctx,
        "ask_question",
        proposal_type="flag_issue",
        question="Which hat did you mean by TQ-7F3KZ?",
        choices=[
            {"label": "TQ-7F3K2", "weaver_id": None, "hat_code": "TQ-7F3K2"},
            {"label": "TQ-7F3KA", "weaver_id": None, "hat_code": "TQ-7F3KA"},
        ],
        draft={
            "hat_code": None,
            "quantity": None,
            "grade": None,
            "rows_per_inch": None,
            "to_stage": None,
            "flag_kind": "other",
        },
        quote="el TQ-7F3KZ tiene una   mancha",
        why="The heard code is one edit from two open hats.",
    )
    assert not result.is_error, result.content
    [proposal] = ctx.proposals
    assert proposal.payload["message"] == "el TQ-7F3KZ tiene una mancha"
