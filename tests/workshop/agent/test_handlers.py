"""Every branch of the seven handlers (docs/workshop-agent.md, "The seven tools") on the seeded sample data."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from shopfloor.agent.trace import ProposalStep, RuleCheckStep
from shopfloor.workshop.domain import MAX_PROPOSALS
from shopfloor.workshop.store import models as m

from .conftest import PEDRO, SAMPLE_NOTE, call

NOTE = SAMPLE_NOTE
Q_CREATE = "Doña Rosa Pillco terminó 3 finos de 18 hileras"
Q_WASH = "El TQ-7F3K2 pasó a lavado"
Q_FLAG = "el de Carmen en blanqueo tiene la hilera abierta"


def draft(**values):
    base = dict.fromkeys(["hat_code", "quantity", "grade", "rows_per_inch", "to_stage", "flag_kind"])
    base.update(values)
    return base


def look_up(ctx, *codes, open_only=False):
    result = call(ctx, "find_hats", codes=list(codes), weaver_name=None, stage=None, open_only=open_only)
    assert not result.is_error, result.content
    return result.content


def weaver(ctx, name):
    result = call(ctx, "find_weaver", name=name)
    assert not result.is_error, result.content
    return result.content


def create(ctx, **overrides):
    args = {
        "weaver_id": "w1",
        "quantity": 3,
        "grade": "Fino",
        "rows_per_inch": 18,
        "straw": None,
        "quote": Q_CREATE,
        "why": "Rosa delivered hats.",
        "confidence": "high",
    }
    args.update(overrides)
    return call(ctx, "propose_create_hats", **args)


def advance(ctx, code, to_stage, quote=Q_WASH, confidence="high"):
    return call(
        ctx,
        "propose_advance_stage",
        hat_code=code,
        to_stage=to_stage,
        quote=quote,
        why="The note says so.",
        confidence=confidence,
    )


def flag(ctx, code, kind="grade_mismatch", message="Grade does not match rows.", quote=Q_FLAG):
    return call(
        ctx,
        "propose_flag",
        hat_code=code,
        kind=kind,
        message=message,
        quote=quote,
        why="The note reports it.",
        confidence="high",
    )


def ask(ctx, **overrides):
    args = {
        "proposal_type": "create_hat",
        "question": "Which Rosa?",
        "choices": [],
        "draft": draft(quantity=3, grade="Fino", rows_per_inch=18),
        "quote": Q_CREATE,
        "why": "Two weavers match.",
    }
    args.update(overrides)
    return call(ctx, "ask_question", **args)


# ------------------------------------------------------------------ find_weaver


def test_find_weaver_returns_every_match_and_remembers_ids(make_ctx):
    ctx = make_ctx()
    content = weaver(ctx, "Rosa")
    assert content["query"] == "Rosa"
    assert content["match_count"] == 2
    assert {w["weaver_id"] for w in content["matches"]} == {"w1", "w2"}
    assert ctx.seen_weaver_ids == {"w1", "w2"}
    rosa = next(w for w in content["matches"] if w["weaver_id"] == "w1")
    assert rosa == {
        "weaver_id": "w1",
        "name": "Rosa Pillco",
        "village": "Sígsig",
        "province": "Azuay",
        "specialty": "Fino",
        "open_hats": 3,
    }


def test_find_weaver_honorifics_and_accents(make_ctx):
    ctx = make_ctx()
    assert [w["weaver_id"] for w in weaver(ctx, "Doña Rosa Guaman")["matches"]] == ["w2"]
    assert weaver(ctx, "Mercedes")["match_count"] == 0


def test_find_weaver_never_sees_another_workshop(make_ctx):
    ctx = make_ctx()
    assert weaver(ctx, "Rosa Chávez")["match_count"] == 0
    other = make_ctx(actor=PEDRO)
    assert [w["weaver_id"] for w in weaver(other, "Rosa")["matches"]] == ["wb1"]


@pytest.mark.parametrize("name", ["", "   ", "Doña", "x" * 61])
def test_find_weaver_name_length(make_ctx, name):
    result = call(make_ctx(), "find_weaver", name=name)
    assert result.is_error
    assert result.content == "name must be 1 to 60 characters."


# ------------------------------------------------------------------ find_hats


def test_find_hats_needs_a_filter(make_ctx):
    result = call(make_ctx(), "find_hats", codes=[], weaver_name=None, stage=None, open_only=True)
    assert result.is_error
    assert result.content == "Give at least one filter: codes, weaver_name or stage."


def test_find_hats_at_most_ten_codes(make_ctx):
    codes = [f"TQ-{i}AAAA" for i in range(11)]
    result = call(make_ctx(), "find_hats", codes=codes, weaver_name=None, stage=None, open_only=True)
    assert result.is_error
    assert result.content == "At most 10 codes per call."


def test_find_hats_exact_confusable_and_fuzzy(make_ctx):
    ctx = make_ctx()
    content = look_up(ctx, "tq 7f3k2", "TQ-2C5PO", "TQ-7F3KZ", "TQ-ZZZZZ", open_only=True)
    by_code = {h["code"]: h for h in content["hats"]}
    assert by_code["TQ-7F3K2"]["match"] == "exact"
    assert by_code["TQ-7F3K2"]["matched_from"] == "tq 7f3k2"
    assert by_code["TQ-7F3K2"]["weaver"] == {"id": "w1", "name": "Rosa Pillco"}
    assert by_code["TQ-2C5P0"]["match"] == "confusable"
    assert by_code["TQ-2C5P0"]["matched_from"] == "TQ-2C5PO"
    assert content["not_found"] == [
        {"input": "TQ-7F3KZ", "candidates": ["TQ-7F3K2", "TQ-7F3KA"]},
        {"input": "TQ-ZZZZZ", "candidates": []},
    ]
    assert content["truncated"] is False
    assert set(ctx.seen_hats) == {"TQ-7F3K2", "TQ-2C5P0", "TQ-7F3KA"}
    assert ctx.seen_hats["TQ-2C5P0"].match == "confusable"
    assert ctx.seen_hats["TQ-2C5P0"].heard == "TQ-2C5PO"


def test_find_hats_never_returns_another_workshops_hat(make_ctx):
    ctx = make_ctx()
    content = look_up(ctx, "TQ-7F3K8", "TQ-QR7YE")
    assert content["hats"] == []
    assert content["not_found"][0] == {"input": "TQ-7F3K8", "candidates": ["TQ-7F3K2", "TQ-7F3KA"]}
    assert "TQ-7F3K8" not in ctx.seen_hats and "TQ-QR7YE" not in ctx.seen_hats


def test_find_hats_by_weaver_and_stage(make_ctx):
    ctx = make_ctx()
    content = call(ctx, "find_hats", codes=[], weaver_name="Carmen", stage=None, open_only=True).content
    assert [h["code"] for h in content["hats"]] == ["TQ-1P9KD", "TQ-4K9D1", "TQ-9M2XA"]
    content = call(
        ctx, "find_hats", codes=[], weaver_name="Carmen", stage="Bleaching", open_only=True
    ).content
    assert [h["code"] for h in content["hats"]] == ["TQ-4K9D1"]
    content = call(ctx, "find_hats", codes=[], weaver_name=None, stage="Washing", open_only=True).content
    assert [h["code"] for h in content["hats"]] == ["TQ-2C5P0", "TQ-9M2XA"]


def test_find_hats_open_only_hides_finished_and_archived(make_ctx):
    ctx = make_ctx()
    content = look_up(ctx, "TQ-5B7NW", "TQ-6J4YC", open_only=True)
    assert content["hats"] == []
    assert [n["input"] for n in content["not_found"]] == ["TQ-5B7NW", "TQ-6J4YC"]
    content = look_up(ctx, "TQ-5B7NW", "TQ-6J4YC", open_only=False)
    assert [(h["code"], h["archived"]) for h in content["hats"]] == [("TQ-5B7NW", False), ("TQ-6J4YC", True)]
    listed = call(ctx, "find_hats", codes=[], weaver_name="Rosa Guamán", stage=None, open_only=True).content
    assert [h["code"] for h in listed["hats"]] == ["TQ-2C5P0"]


def test_find_hats_caps_at_twenty(make_ctx, raw_store):
    with raw_store.transaction("ws-sigsig") as session:
        for i in range(25):
            session.add(
                m.Hat(
                    workshop_id="ws-sigsig",
                    code=f"TQ-X{i:02d}ZZ",
                    weaver_id="w3",
                    grade="Superfino",
                    rows_per_inch=25,
                    stage="Washing",
                )
            )
    ctx = make_ctx()
    content = call(ctx, "find_hats", codes=[], weaver_name=None, stage="Washing", open_only=True).content
    assert len(content["hats"]) == 20
    assert content["truncated"] is True
    assert [h["code"] for h in content["hats"]] == sorted(h["code"] for h in content["hats"])


# ------------------------------------------------------------------ get_hat


def test_get_hat_bad_and_unknown_codes(make_ctx):
    ctx = make_ctx()
    assert call(ctx, "get_hat", code="hat twelve").content == "Codes look like TQ-7F3K2."
    missing = call(ctx, "get_hat", code="tq zzzzz")
    assert missing.is_error
    assert missing.content == "No hat TQ-ZZZZZ in this workshop. Use find_hats to look for close matches."
    assert call(ctx, "get_hat", code="TQ-7F3K8").content.startswith("No hat TQ-7F3K8 in this workshop.")
    assert "TQ-7F3K8" not in ctx.seen_hats


def test_get_hat_history_flags_and_anomalies(make_ctx):
    ctx = make_ctx()
    content = call(ctx, "get_hat", code="TQ-9M2XA").content
    assert content["code"] == "TQ-9M2XA"
    assert content["open_flags"][0]["kind"] == "grade_mismatch"
    assert [e["type"] for e in content["events"]][:1] == ["created"]
    assert "TQ-9M2XA" in ctx.seen_hats
    anomalies = call(ctx, "get_hat", code="TQ-4K9D1").content["anomalies"]
    assert [a["kind"] for a in anomalies] == ["grade_mismatch"]


# ------------------------------------------------------------------ propose_create_hats


def test_create_pending_with_rule_step(make_ctx):
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    result = create(ctx)
    assert not result.is_error
    assert result.content["proposal_id"] == "p1"
    assert result.content["status"] == "pending"
    assert result.content["rule_result"]["allowed"] is True
    (proposal,) = ctx.proposals
    assert proposal.payload == {
        "weaver_id": "w1",
        "quantity": 3,
        "grade": "Fino",
        "rows_per_inch": 18,
        "straw": None,
    }
    kinds = [type(s) for s in ctx.trace.steps]
    assert RuleCheckStep in kinds and ProposalStep in kinds


def test_create_derives_grade_from_rows(make_ctx):
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    result = create(ctx, grade=None, rows_per_inch=12)
    assert result.content["status"] == "pending"
    assert ctx.proposals[0].payload["grade"] == "Standard"


def test_create_grade_mismatch_is_blocked_with_fix(make_ctx):
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    result = create(ctx, grade="Superfino", rows_per_inch=15)
    assert not result.is_error
    assert result.content["status"] == "blocked"
    rule = result.content["rule_result"]
    assert rule["code"] == "grade_mismatch"
    assert rule["fix"] == {"grade": "Fino"}
    assert rule["message"] == "Superfino needs 21 to 40 rows per inch; 15 rows is Fino."


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"quote": "Doña Rosa entregó"}, "The quote must be words copied exactly from the note."),
        ({"quote": "Do"}, "The quote must be words copied exactly from the note."),
        ({"weaver_id": "w2"}, "Unknown weaver_id. Call find_weaver first and use an id it returned."),
        ({"weaver_id": "wb1"}, "Unknown weaver_id. Call find_weaver first and use an id it returned."),
        ({"quantity": 0}, "quantity must be between 1 and 20."),
        ({"quantity": 21}, "quantity must be between 1 and 20."),
        (
            {"rows_per_inch": None},
            "rows_per_inch is required to create hats. If the note does not say it, call ask_question with "
            "proposal_type create_hat.",
        ),
        ({"rows_per_inch": 5}, "Rows per inch must be between 6 and 40."),
        ({"rows_per_inch": 41}, "Rows per inch must be between 6 and 40."),
    ],
)
def test_create_bad_calls_are_errors(make_ctx, overrides, message):
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    result = create(ctx, **overrides)
    assert result.is_error
    assert result.content == message
    assert ctx.proposals == []


def test_create_duplicate_and_limit(make_ctx):
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    assert not create(ctx).is_error
    duplicate = create(ctx)
    assert duplicate.is_error
    assert duplicate.content == "This create proposal already exists in this run."
    for rows in range(21, 21 + MAX_PROPOSALS - 1):
        assert not create(ctx, grade=None, rows_per_inch=rows).is_error
    assert len(ctx.proposals) == MAX_PROPOSALS
    over = create(ctx, grade=None, rows_per_inch=35)
    assert over.is_error
    assert over.content == "Limit of 10 proposals per note reached. Stop and summarize."


# ------------------------------------------------------------------ propose_advance_stage


def test_advance_pending(make_ctx):
    ctx = make_ctx()
    look_up(ctx, "TQ-7F3K2")
    result = advance(ctx, "TQ-7F3K2", "Washing")
    assert result.content["status"] == "pending"
    proposal = ctx.proposals[0]
    assert proposal.payload == {
        "hat_code": "TQ-7F3K2",
        "from_stage": "Weaving",
        "to_stage": "Washing",
        "hat_version": 1,  # the sample hat as read at proposal time
    }
    assert proposal.confidence == "high"
    assert proposal.rule_result["warnings"] == []


def test_advance_must_be_looked_up_first(make_ctx):
    ctx = make_ctx()
    result = advance(ctx, "TQ-7F3K2", "Washing")
    assert result.is_error
    assert result.content == "Look this hat up with find_hats first and use the code it returned."


def test_advance_quote_check(make_ctx):
    ctx = make_ctx()
    look_up(ctx, "TQ-7F3K2")
    result = advance(ctx, "TQ-7F3K2", "Washing", quote="TQ-7F3K2 moved to washing")
    assert result.content == "The quote must be words copied exactly from the note."


@pytest.mark.parametrize(
    ("code", "to_stage", "rule", "fix"),
    [
        ("TQ-2C5P0", "Finished", "stage_skip", {"to_stage": "Bleaching"}),
        ("TQ-8H6RT", "Washing", "backward", None),
        ("TQ-3D8QV", "Washing", "not_owner", None),
        ("TQ-6J4YC", "Blocking", "archived", None),
        ("TQ-5B7NW", "Washing", "already_finished", None),
    ],
)
def test_advance_blocked_is_a_result_not_an_error(make_ctx, code, to_stage, rule, fix):
    ctx = make_ctx()
    look_up(ctx, code)
    result = advance(ctx, code, to_stage)
    assert not result.is_error
    assert result.content["status"] == "blocked"
    assert result.content["rule_result"]["code"] == rule
    assert result.content["rule_result"]["allowed"] is False
    assert result.content["rule_result"]["fix"] == fix
    if rule == "not_owner":
        assert result.content["rule_result"]["message"] == "Only the current owner can change the stage."
    assert ctx.proposals[0].status == "blocked"
    checks = [s for s in ctx.trace.steps if isinstance(s, RuleCheckStep)]
    assert checks[-1].rule == "can_advance" and checks[-1].code == rule


def test_advance_same_stage_is_an_error(make_ctx):
    ctx = make_ctx()
    look_up(ctx, "TQ-8H6RT")
    result = advance(ctx, "TQ-8H6RT", "Blocking")
    assert result.is_error
    assert result.content == "TQ-8H6RT is already at Blocking. Nothing to propose; mention it in the summary."


def test_advance_duplicate_and_gone(make_ctx, raw_store):
    ctx = make_ctx()
    look_up(ctx, "TQ-7F3K2", "TQ-1P9KD")
    assert not advance(ctx, "TQ-7F3K2", "Washing").is_error
    again = advance(ctx, "TQ-7F3K2", "Bleaching")
    assert again.content == "You already proposed a stage change for TQ-7F3K2 in this note."
    with raw_store.transaction("ws-sigsig") as session:
        session.execute(update(m.Hat).where(m.Hat.code == "TQ-1P9KD").values(archived=True))
    gone = advance(ctx, "TQ-1P9KD", "Washing")
    assert gone.is_error
    assert gone.content == "TQ-1P9KD is no longer available."


def test_advance_too_fast_warning(make_ctx):
    ctx = make_ctx(note="TQ-1P9KD moved to washing")
    look_up(ctx, "TQ-1P9KD")
    result = advance(ctx, "TQ-1P9KD", "Washing", quote="TQ-1P9KD moved to washing")
    assert result.content["status"] == "pending"
    assert result.content["rule_result"]["warnings"] == ["too_fast"]


def test_advance_confusable_forces_check_and_code_heard(make_ctx):
    ctx = make_ctx(note="el tq 2c5po pasó a blanqueo")
    look_up(ctx, "tq 2c5po")
    result = advance(ctx, "TQ-2C5P0", "Bleaching", quote="el tq 2c5po pasó a blanqueo", confidence="high")
    assert result.content["status"] == "pending"
    proposal = ctx.proposals[0]
    assert proposal.confidence == "check"
    assert proposal.payload["code_heard"] == "tq 2c5po"


def test_advance_warns_about_open_proposal_of_an_earlier_run(make_ctx, raw_store):
    with raw_store.transaction("ws-sigsig") as session:
        session.add(
            m.AgentRun(id="earlier", workshop_id="ws-sigsig", user_id="u-ana", input="x", status="proposed")
        )
        session.flush()
        session.add(
            m.Proposal(
                run_id="earlier",
                workshop_id="ws-sigsig",
                type="advance_stage",
                payload={"hat_code": "TQ-7F3K2", "to_stage": "Washing"},
                status="pending",
            )
        )
    ctx = make_ctx()
    look_up(ctx, "TQ-7F3K2")
    result = advance(ctx, "TQ-7F3K2", "Washing")
    assert result.content["rule_result"]["warnings"] == ["open_proposal_exists"]


def test_advance_limit(make_ctx):
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    for rows in range(21, 21 + MAX_PROPOSALS):
        create(ctx, grade=None, rows_per_inch=rows)
    look_up(ctx, "TQ-7F3K2")
    result = advance(ctx, "TQ-7F3K2", "Washing")
    assert result.content == "Limit of 10 proposals per note reached. Stop and summarize."


# ------------------------------------------------------------------ propose_flag


def test_flag_confirmed_by_record(make_ctx):
    ctx = make_ctx()
    call(ctx, "find_hats", codes=[], weaver_name="Carmen", stage="Bleaching", open_only=True)
    result = flag(ctx, "TQ-4K9D1")
    assert result.content["status"] == "pending"
    rule = result.content["rule_result"]
    assert rule["confirmed_by_record"] is True
    assert rule["allowed"] is True
    assert ctx.proposals[0].confidence == "high"
    assert ctx.proposals[0].payload == {
        "hat_code": "TQ-4K9D1",
        "kind": "grade_mismatch",
        "message": "Grade does not match rows.",
    }


def test_flag_not_confirmed_forces_check(make_ctx):
    ctx = make_ctx()
    look_up(ctx, "TQ-7F3K2")
    result = flag(ctx, "TQ-7F3K2", quote=Q_WASH)
    assert result.content["status"] == "pending"
    assert result.content["rule_result"]["confirmed_by_record"] is False
    assert result.content["rule_result"]["warnings"] == ["not_confirmed_by_record"]
    assert ctx.proposals[0].confidence == "check"


def test_flag_errors(make_ctx):
    ctx = make_ctx()
    assert (
        flag(ctx, "TQ-4K9D1").content == "Look this hat up with find_hats first and use the code it returned."
    )
    look_up(ctx, "TQ-4K9D1", "TQ-9M2XA")
    assert flag(ctx, "TQ-4K9D1", quote="no coincide nada").content.startswith("The quote must")
    assert flag(ctx, "TQ-4K9D1", message=" ").content == "message must be 1 to 200 characters."
    assert flag(ctx, "TQ-4K9D1", message="x" * 201).content == "message must be 1 to 200 characters."
    assert flag(ctx, "TQ-9M2XA").content == "TQ-9M2XA already has an open grade_mismatch flag."
    assert not flag(ctx, "TQ-4K9D1").is_error
    assert (
        flag(ctx, "TQ-4K9D1").content
        == "You already proposed a grade_mismatch flag for TQ-4K9D1 in this note."
    )
    assert not flag(ctx, "TQ-4K9D1", kind="other").is_error


# ------------------------------------------------------------------ ask_question


def test_ask_question_with_weaver_choices(make_ctx):
    ctx = make_ctx(note="Rosa entregó 2 finos de 16 hileras")
    weaver(ctx, "Rosa")
    choices = [
        {"label": "Rosa Pillco", "weaver_id": "w1", "hat_code": None},
        {"label": "Rosa Guamán", "weaver_id": "w2", "hat_code": None},
    ]
    result = ask(
        ctx,
        choices=choices,
        draft=draft(quantity=2, grade="Fino", rows_per_inch=16),
        quote="Rosa entregó 2 finos de 16 hileras",
    )
    assert result.content == {"proposal_id": "p1", "status": "question", "rule_result": None}
    proposal = ctx.proposals[0]
    assert (proposal.type, proposal.status, proposal.confidence) == ("create_hat", "question", "check")
    assert proposal.payload["question"] == {"text": "Which Rosa?", "choices": choices}
    assert proposal.payload["quantity"] == 2


def test_ask_question_hat_choices_must_be_seen(make_ctx):
    ctx = make_ctx()
    choice = [{"label": "TQ-7F3K2", "weaver_id": None, "hat_code": "TQ-7F3K2"}]
    assert ask(ctx, choices=choice).content == "Choices must come from lookup results."
    look_up(ctx, "TQ-7F3KZ")  # candidates of a fuzzy lookup count as returned by the tool
    result = ask(ctx, proposal_type="advance_stage", choices=choice, draft=draft(to_stage="Washing"))
    assert result.content["status"] == "question"
    assert ctx.proposals[0].payload["hat_code"] is None


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"question": ""}, "question must be 1 to 160 characters."),
        ({"question": "?" * 161}, "question must be 1 to 160 characters."),
        ({"choices": [{"label": "x", "weaver_id": None, "hat_code": None}] * 5}, "At most 4 choices."),
        (
            {"choices": [{"label": "x", "weaver_id": "w9", "hat_code": None}]},
            "Choices must come from lookup results.",
        ),
        ({"draft": draft(quantity=21)}, "quantity must be between 1 and 20."),
        ({"draft": draft(rows_per_inch=41)}, "Rows per inch must be between 6 and 40."),
        ({"quote": "Rosa Chávez"}, "The quote must be words copied exactly from the note."),
    ],
)
def test_ask_question_bad_calls(make_ctx, overrides, message):
    ctx = make_ctx()
    result = ask(ctx, **overrides)
    assert result.is_error
    assert result.content == message


def test_ask_question_warns_on_draft_grade_mismatch(make_ctx):
    ctx = make_ctx()
    result = ask(ctx, draft=draft(quantity=2, grade="Superfino", rows_per_inch=15))
    assert result.content["rule_result"]["warnings"] == ["grade_mismatch"]


def test_no_handler_writes_records(make_ctx, raw_store):
    """Running every propose tool leaves hats, weavers, events and flags exactly as they were."""

    def snapshot():
        with raw_store.session("ws-sigsig") as session:
            return [
                sorted((r.id, r.stage, r.version, r.archived) for r in session.scalars(select(m.Hat))),
                sorted(r.id for r in session.scalars(select(m.Weaver))),
                sorted(r.id for r in session.scalars(select(m.HatEvent))),
                sorted((r.id, r.status) for r in session.scalars(select(m.HatFlag))),
            ]

    before = snapshot()
    ctx = make_ctx()
    weaver(ctx, "Rosa Pillco")
    look_up(ctx, "TQ-7F3K2", "TQ-2C5P0", "TQ-4K9D1")
    create(ctx)
    advance(ctx, "TQ-7F3K2", "Washing")
    advance(ctx, "TQ-2C5P0", "Finished", quote="el TQ-2C5P0 ya está listo")
    flag(ctx, "TQ-4K9D1")
    assert len(ctx.proposals) == 4
    assert snapshot() == before
    assert datetime.now(UTC) >= ctx.now
