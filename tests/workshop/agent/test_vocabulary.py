"""One workshop vocabulary (docs/workshop-agent.md, "One vocabulary"): the reader, the tools and the matcher
agree on honorifics, stages, grades and bounds because they read them from ``workshop.domain``."""

from __future__ import annotations

from typing import get_args

import pytest

from shopfloor.workshop import domain
from shopfloor.workshop.agent.args import (
    AskQuestionArgs,
    ProposeAdvanceStageArgs,
    ProposeCreateHatsArgs,
    ProposeFlagArgs,
)
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.offline.names import person_name
from shopfloor.workshop.agent.offline.reader import read_note
from shopfloor.workshop.agent.offline.text import Span
from shopfloor.workshop.agent.offline.vocabulary import GRADE_WORDS, STAGE_WORDS
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.agent.tools import TOOLS

from .conftest import ANA, call


@pytest.mark.parametrize("honorific", ["Doña", "Srta", "srta", "Sra"])
def test_a_weaver_named_with_any_honorific_gets_a_pending_create_card(agent_store, honorific):
    note = f"{honorific} Rosa Pillco entregó 3 finos de 18 hileras."
    body = run_agent(agent_store, ANA, {"note": note}, OfflineReader(), "req_srta00000000", 20)
    (card,) = body["proposals"]
    assert (card["type"], card["status"]) == ("create_hat", "pending")
    assert card["payload"] == {
        "weaver_id": "w1",
        "quantity": 3,
        "grade": "Fino",
        "rows_per_inch": 18,
        "straw": None,
    }
    assert card["quote"] == note.rstrip(".")


def _tool(name: str) -> dict:
    return next(t.parameters for t in TOOLS if t.name == name)


def _enum(schema: dict) -> list[str]:
    """The enum of a string schema, or of the string branch of a string-or-null schema."""
    if "enum" in schema:
        return schema["enum"]
    (branch,) = [b for b in schema["anyOf"] if b.get("type") == "string"]
    return branch["enum"]


def test_the_tool_schemas_build_their_enums_and_bounds_from_the_domain():
    create, advance = _tool("propose_create_hats"), _tool("propose_advance_stage")
    flag, ask, hats = _tool("propose_flag"), _tool("ask_question"), _tool("find_hats")
    draft = ask["properties"]["draft"]["properties"]
    for stages in (advance["properties"]["to_stage"], hats["properties"]["stage"], draft["to_stage"]):
        assert _enum(stages) == list(domain.STAGES)
    for grades in (create["properties"]["grade"], draft["grade"]):
        assert _enum(grades) == list(domain.GRADES)
    assert _enum(create["properties"]["straw"]) == list(domain.STRAWS)
    for kinds in (flag["properties"]["kind"], draft["flag_kind"]):
        assert _enum(kinds) == list(domain.FLAG_KINDS)
    assert _enum(ask["properties"]["proposal_type"]) == list(domain.PROPOSAL_TYPES)
    assert _enum(create["properties"]["confidence"]) == list(domain.CONFIDENCES)
    assert (
        create["properties"]["quantity"]["description"] == f"{domain.MIN_QUANTITY} to {domain.MAX_QUANTITY}"
    )
    assert create["properties"]["rows_per_inch"]["description"].startswith(
        f"{domain.MIN_ROWS} to {domain.MAX_ROWS},"
    )
    assert (
        f"{domain.QUOTE_MIN} to {domain.QUOTE_MAX} characters" in create["properties"]["quote"]["description"]
    )


def test_the_argument_models_accept_exactly_the_domain_literals():
    assert get_args(ProposeAdvanceStageArgs.model_fields["to_stage"].annotation) == domain.STAGES
    assert get_args(ProposeFlagArgs.model_fields["kind"].annotation) == domain.FLAG_KINDS
    assert get_args(AskQuestionArgs.model_fields["proposal_type"].annotation) == domain.PROPOSAL_TYPES
    assert get_args(ProposeCreateHatsArgs.model_fields["confidence"].annotation) == domain.CONFIDENCES
    grade = [
        a for a in get_args(ProposeCreateHatsArgs.model_fields["grade"].annotation) if a is not type(None)
    ]
    assert get_args(grade[0]) == domain.GRADES
    straw = [
        a for a in get_args(ProposeCreateHatsArgs.model_fields["straw"].annotation) if a is not type(None)
    ]
    assert get_args(straw[0]) == domain.STRAWS


def test_the_reader_hears_every_domain_honorific_and_the_matcher_drops_it():
    rosa = domain.Weaver("w1", "Rosa Pillco")
    for honorific in sorted(domain.HONORIFICS):
        spoken = honorific.capitalize().replace("Dona", "Doña").replace("Seno", "Seño")
        note = f"{spoken} Rosa Pillco entregó 3 finos de 18 hileras"
        heard = person_name(Span.whole(note), [])
        assert heard == f"{spoken} Rosa Pillco", honorific
        assert domain.match_weavers(heard, [rosa]) == [rosa], honorific


def test_the_reader_knows_only_domain_stages_and_grades_and_quotes_within_the_domain_bounds():
    assert set(STAGE_WORDS.values()) == set(domain.STAGES)
    assert set(GRADE_WORDS.values()) == set(domain.GRADES)
    long_note = "Rosa Pillco entregó 3 finos de 18 hileras " + "y " * 200
    (event,) = read_note(long_note).events
    assert len(event.quote) <= domain.QUOTE_MAX
    assert domain.quote_in_note(event.quote, long_note)


@pytest.mark.parametrize("quantity", [domain.MIN_QUANTITY, domain.MAX_QUANTITY])
def test_the_quantity_bounds_are_the_domains_in_the_handler(make_ctx, quantity):
    ctx = make_ctx(note="Rosa Pillco entregó finos de 18 hileras")
    call(ctx, "find_weaver", name="Rosa Pillco")
    args = {
        "weaver_id": "w1",
        "quantity": quantity,
        "grade": "Fino",
        "rows_per_inch": 18,
        "straw": None,
        "quote": "Rosa Pillco entregó",
        "why": "A test.",
        "confidence": "high",
    }
    assert call(ctx, "propose_create_hats", **args).content["status"] == "pending"
    for outside in (domain.MIN_QUANTITY - 1, domain.MAX_QUANTITY + 1):
        refused = call(ctx, "propose_create_hats", **{**args, "quantity": outside})
        assert refused.is_error and refused.content == domain.QUANTITY_ERROR
