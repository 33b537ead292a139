"""Approving proposals on SQLite and PostgreSQL (as the app role): rules re-checked, conflicts, idempotency."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shopfloor.workshop import domain
from shopfloor.workshop.approvals import (
    ApplyRequest,
    CardResult,
    Decision,
    _advance,
    apply_decision,
    apply_decisions,
)
from shopfloor.workshop.store import Store, WorkshopRepo
from shopfloor.workshop.store import models as m

from .conftest import snapshot
from .helpers import (
    ANA,
    PEDRO,
    advance,
    advance_seen_at,
    card,
    hat_row,
    make_run,
    proposal_row,
    run_status,
    stage_events,
)


def approve(store: Store, pid: str, actor: domain.Actor = ANA, **kw: object):
    return apply_decision(store, actor, Decision(proposal_id=pid, action="approve", **kw))  # type: ignore[arg-type]


def reject(store: Store, pid: str, actor: domain.Actor = ANA):
    return apply_decision(store, actor, Decision(proposal_id=pid, action="reject", reason="not this one"))


def test_approve_advance_writes_stage_version_and_one_event(store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    result = approve(store, pid)
    assert (result.outcome, result.http_status, result.status) == ("applied", 200, "approved")
    assert result.applied == {
        "hat_code": "TQ-7F3K2",
        "from_stage": "Weaving",
        "to_stage": "Washing",
        "version": 2,
    }
    hat = hat_row(store, ANA, "TQ-7F3K2")
    assert (hat.stage, hat.version) == ("Washing", 2)
    [event] = stage_events(store, ANA, "TQ-7F3K2")
    assert (event.from_stage, event.to_stage, event.actor_id, event.proposal_id) == (
        "Weaving",
        "Washing",
        "u-ana",
        pid,
    )
    row = proposal_row(store, ANA, pid)
    assert (row.status, row.decided_by) == ("approved", "u-ana") and row.decided_at is not None
    assert result.run_status == "approved" and run_status(store, ANA, pid) == "approved"


def test_approval_rechecks_the_too_fast_warning(store: Store) -> None:
    # TQ-1P9KD is a Fino created 2 days ago: leaving Weaving now is sooner than the 7 days a Fino takes.
    early, settled = make_run(
        store, ANA, [advance_seen_at("TQ-1P9KD", "Weaving", "Washing"), advance("TQ-7F3K2", "Washing", 1)]
    )
    result = approve(store, early)
    assert result.outcome == "applied" and result.rule_result is not None
    assert result.rule_result["warnings"] == ["too_fast"]
    # The rule_result shape, in its fixed order (docs/workshop.md).
    assert list(result.rule_result) == [
        "allowed",
        "code",
        "message",
        "fix",
        "params",
        "warnings",
        "checked_at",
    ]
    assert proposal_row(store, ANA, early).rule_result == result.rule_result
    calm = approve(store, settled)
    assert calm.rule_result is not None and calm.rule_result["warnings"] == []


def test_replaying_an_approval_changes_nothing(store: Store, owner: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    first = approve(store, pid)
    before = snapshot(owner)
    again = approve(store, pid)
    assert (again.outcome, again.code, again.http_status) == ("unchanged", "already_approved", 409)
    assert again.applied == first.applied
    assert snapshot(owner) == before
    # Rejecting an approved card is refused, also without changes.
    late = reject(store, pid)
    assert (late.outcome, late.code, late.http_status) == ("conflict", "already_decided", 409)
    assert snapshot(owner) == before


def test_changed_hat_gives_a_conflict_and_blocks_the_card(store: Store) -> None:
    first, second = make_run(
        store, ANA, [advance("TQ-7F3K2", "Washing", 1), advance("TQ-7F3KA", "Washing", 1)]
    )
    [stale] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    assert approve(store, first).outcome == "applied"
    result = approve(store, stale)
    assert (result.outcome, result.code, result.http_status) == ("conflict", "conflict", 409)
    assert "changed since this proposal was made" in result.message
    row = proposal_row(store, ANA, stale)
    assert row.status == "blocked" and row.rule_result is not None and row.rule_result["code"] == "conflict"
    assert len(stage_events(store, ANA, "TQ-7F3K2")) == 1
    assert hat_row(store, ANA, "TQ-7F3K2").version == 2
    # Approving again re-checks the rules on the hat as it is now: it is already at Washing.
    again = approve(store, stale)
    assert (again.outcome, again.code) == ("blocked", "same_stage")
    # The person moves on from what they were shown: with the fix they can still approve the next stage.
    onward = approve(store, stale, edits={"to_stage": "Bleaching"})
    assert onward.outcome == "applied", onward.message
    assert hat_row(store, ANA, "TQ-7F3K2").version == 3
    assert second  # the other card of the first run is untouched
    assert proposal_row(store, ANA, second).status == "pending"


def test_a_card_without_a_version_conflicts_when_the_hat_left_the_stage_it_saw(store: Store) -> None:
    # Cards as the agent saves them carry the stage the hat was at, not its version.
    [first] = make_run(store, ANA, [advance_seen_at("TQ-7F3K2", "Weaving", "Washing")])
    [later] = make_run(store, ANA, [advance_seen_at("TQ-7F3K2", "Weaving", "Washing")])
    assert approve(store, first).outcome == "applied"
    result = approve(store, later)
    assert (result.outcome, result.code, result.http_status) == ("conflict", "conflict", 409)
    assert result.message == (
        "TQ-7F3K2 changed since this proposal was made (now at Washing, version 2); review the card again."
    )
    row = proposal_row(store, ANA, later)
    assert row.status == "blocked" and row.edited_payload is not None
    assert row.edited_payload["hat_version"] == 2
    assert len(stage_events(store, ANA, "TQ-7F3K2")) == 1
    # Seen again at version 2, the card is judged by the rules on the hat as it is now.
    again = approve(store, later)
    assert (again.outcome, again.code) == ("blocked", "same_stage")


def test_pointing_a_card_at_another_hat_drops_what_it_knew_of_the_first(store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    # TQ-2C5P0 is at Washing, version 2: the card's version 1 and stage Weaving were about TQ-7F3K2.
    result = approve(store, pid, edits={"hat_code": "TQ-2C5P0", "to_stage": "Bleaching"})
    assert result.outcome == "applied", result.message
    assert result.applied == {
        "hat_code": "TQ-2C5P0",
        "from_stage": "Washing",
        "to_stage": "Bleaching",
        "version": 3,
    }
    assert hat_row(store, ANA, "TQ-7F3K2").version == 1
    assert proposal_row(store, ANA, pid).edited_payload == {"hat_code": "TQ-2C5P0", "to_stage": "Bleaching"}


def test_a_typed_hat_code_is_stored_normalized(store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    result = approve(store, pid, edits={"hat_code": "tq 7f3ka"})
    assert result.outcome == "applied" and result.applied is not None
    assert result.applied["hat_code"] == "TQ-7F3KA"
    assert proposal_row(store, ANA, pid).edited_payload == {"hat_code": "TQ-7F3KA", "to_stage": "Washing"}


def test_a_rule_that_now_says_no_blocks_with_the_new_reason(store: Store) -> None:
    a, b = (
        make_run(store, ANA, [advance("TQ-2C5P0", "Bleaching")]),
        make_run(store, ANA, [advance("TQ-2C5P0", "Bleaching")]),
    )
    assert approve(store, a[0]).outcome == "applied"
    result = approve(store, b[0])
    assert (result.outcome, result.code, result.http_status) == ("blocked", "same_stage", 409)
    row = proposal_row(store, ANA, b[0])
    assert row.status == "blocked" and row.rule_result is not None
    assert row.rule_result["message"] == "TQ-2C5P0 is already at Bleaching."


@pytest.mark.parametrize(
    ("code", "to_stage", "rule"),
    [
        ("TQ-2C5P0", "Finished", "stage_skip"),
        ("TQ-4K9D1", "Washing", "backward"),
        ("TQ-3D8QV", "Washing", "not_owner"),
        ("TQ-6J4YC", "Blocking", "archived"),
        ("TQ-5B7NW", "Finished", "already_finished"),
    ],
)
def test_rules_are_rechecked_at_approval(
    store: Store, owner: Store, code: str, to_stage: str, rule: str
) -> None:
    [pid] = make_run(store, ANA, [advance(code, to_stage)])
    hats_before = snapshot(owner)["hats"]
    result = approve(store, pid)
    assert (result.outcome, result.code) == ("blocked", rule)
    assert snapshot(owner)["hats"] == hats_before
    if rule == "stage_skip":
        assert result.rule_result is not None and result.rule_result["fix"] == {"to_stage": "Bleaching"}


def test_approve_with_edits_uses_the_fix(store: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-2C5P0", "Finished")])
    assert approve(store, pid).code == "stage_skip"
    result = approve(store, pid, edits={"to_stage": "Bleaching"})
    assert result.outcome == "applied" and result.applied is not None
    assert result.applied["to_stage"] == "Bleaching"
    assert proposal_row(store, ANA, pid).edited_payload == {"hat_code": "TQ-2C5P0", "to_stage": "Bleaching"}


def test_edits_outside_the_type_are_refused(store: Store, owner: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-2C5P0", "Bleaching")])
    before = snapshot(owner)
    result = approve(store, pid, edits={"quantity": 3})
    assert (result.outcome, result.http_status, result.code) == ("invalid", 422, "invalid_edit")
    assert snapshot(owner) == before


def test_create_hats_with_new_codes(store: Store) -> None:
    payload = {"weaver_id": "w1", "quantity": 3, "grade": "Fino", "rows_per_inch": 18, "straw": None}
    [pid] = make_run(store, ANA, [card("create_hat", payload, quote="terminó 3 finos de 18 hileras")])
    result = approve(store, pid)
    assert result.outcome == "applied" and result.applied is not None
    codes = result.applied["hat_codes"]
    assert len(codes) == 3 and len(set(codes)) == 3
    with store.transaction(ANA.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, ANA)
        for code in codes:
            assert domain.normalize_code(code) == code and domain.canonical_code(code) == code
            hat = repo.hat_by_code(code)
            assert (hat.stage, hat.grade, hat.rows_per_inch, hat.weaver_id, hat.version) == (
                "Weaving",
                "Fino",
                18,
                "w1",
                1,
            )
            assert [(e.type, e.proposal_id) for e in repo.events(hat.id)] == [("created", pid)]
        assert len(repo.hats()) == 13


def test_create_with_mismatched_grade_is_blocked_with_fix(store: Store) -> None:
    payload = {"weaver_id": "w4", "quantity": 2, "grade": "Superfino", "rows_per_inch": 15, "straw": None}
    [pid] = make_run(store, ANA, [card("create_hat", payload)])
    result = approve(store, pid)
    assert (result.outcome, result.code) == ("blocked", "grade_mismatch")
    assert result.rule_result is not None and result.rule_result["fix"] == {"grade": "Fino"}
    assert result.message == "Superfino needs 21 to 40 rows per inch; 15 rows is Fino."
    fixed = approve(store, pid, edits={"grade": "Fino"})
    assert fixed.outcome == "applied"


def test_an_edit_naming_an_id_outside_the_workshop_is_not_found_and_changes_nothing(
    store: Store, owner: Store
) -> None:
    [move] = make_run(store, ANA, [advance("TQ-2C5P0", "Bleaching")])
    payload = {"weaver_id": "w1", "quantity": 1, "grade": "Fino", "rows_per_inch": 18, "straw": None}
    [create] = make_run(store, ANA, [card("create_hat", payload)])
    before = snapshot(owner)
    for pid, edits, message in (
        (move, {"hat_code": "TQ-7F3K8"}, "No hat TQ-7F3K8 in this workshop."),  # workshop B's hat
        (move, {"hat_code": "tq zzzzz"}, "No hat TQ-ZZZZZ in this workshop."),
        (create, {"weaver_id": "wb1"}, "No weaver wb1 in this workshop."),  # workshop B's weaver
    ):
        result = approve(store, pid, edits=edits)
        assert (result.outcome, result.code, result.http_status, result.message) == (
            "not_found",
            "not_found",
            404,
            message,
        )
    assert snapshot(owner) == before


def test_create_for_another_workshops_weaver_is_blocked(store: Store) -> None:
    payload = {"weaver_id": "wb1", "quantity": 1, "grade": "Fino", "rows_per_inch": 18, "straw": None}
    [pid] = make_run(store, ANA, [card("create_hat", payload)])
    assert approve(store, pid).code == "weaver_not_found"


def test_question_needs_an_answer_then_becomes_pending(store: Store, owner: Store) -> None:
    question = {
        "weaver_id": None,
        "quantity": 2,
        "grade": "Fino",
        "rows_per_inch": 16,
        "straw": None,
        "question": {
            "text": "Which Rosa?",
            "choices": [
                {"label": "Rosa Pillco", "weaver_id": "w1", "hat_code": None},
                {"label": "Rosa Guamán", "weaver_id": "w2", "hat_code": None},
            ],
        },
    }
    [pid] = make_run(store, ANA, [card("create_hat", question, status="question", confidence="check")])
    before = snapshot(owner)
    early = approve(store, pid)
    assert (early.outcome, early.code, early.http_status) == ("invalid", "answer_required", 422)
    bad_choice = apply_decision(store, ANA, Decision(proposal_id=pid, action="answer", choice=3))
    assert bad_choice.http_status == 422
    assert snapshot(owner) == before
    answered = apply_decision(store, ANA, Decision(proposal_id=pid, action="answer", choice=1))
    assert (answered.outcome, answered.status) == ("answered", "pending")
    row = proposal_row(store, ANA, pid)
    assert (
        row.status == "pending" and row.edited_payload is not None and row.edited_payload["weaver_id"] == "w2"
    )
    # The same answer again finds a card that is no longer a question, and changes nothing.
    answered_once = snapshot(owner)
    replay = apply_decision(store, ANA, Decision(proposal_id=pid, action="answer", choice=1))
    assert (replay.outcome, replay.code, replay.http_status) == ("unchanged", "not_a_question", 409)
    assert replay.message == "This card is not an open question (it is pending); nothing changed."
    assert snapshot(owner) == answered_once
    applied = approve(store, pid)
    assert applied.outcome == "applied" and applied.applied is not None
    assert applied.applied["weaver_id"] == "w2"


def test_question_answered_with_a_value(store: Store) -> None:
    draft = {"weaver_id": "w3", "quantity": 2, "grade": "Superfino", "rows_per_inch": None, "straw": None}
    draft["question"] = {"text": "How many rows per inch?", "choices": []}
    [pid] = make_run(store, ANA, [card("create_hat", draft, status="question")])
    answered = apply_decision(
        store,
        ANA,
        Decision.model_validate({"proposal_id": pid, "action": "answer", "value": {"rows_per_inch": 28}}),
    )
    assert answered.status == "pending"
    low = make_run(store, ANA, [card("create_hat", draft, status="question")])[0]
    blocked = apply_decision(
        store,
        ANA,
        Decision.model_validate({"proposal_id": low, "action": "answer", "value": {"rows_per_inch": 15}}),
    )
    assert (blocked.outcome, blocked.status) == ("answered", "blocked")
    assert blocked.rule_result is not None and blocked.rule_result["code"] == "grade_mismatch"


def test_flag_is_raised_once(store: Store) -> None:
    flag = {"hat_code": "TQ-4K9D1", "kind": "grade_mismatch", "message": "Fino with 12 rows."}
    first, second = (
        make_run(store, ANA, [card("flag_issue", flag)]),
        make_run(store, ANA, [card("flag_issue", flag)]),
    )
    result = approve(store, first[0])
    assert result.outcome == "applied"
    with store.transaction(ANA.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, ANA)
        hat = repo.hat_by_code("TQ-4K9D1")
        assert [(f.kind, f.status) for f in repo.flags([hat.id])] == [("grade_mismatch", "open")]
        assert [e.type for e in repo.events(hat.id)][-1] == "flag_raised"
    again = approve(store, second[0])
    assert (again.outcome, again.code) == ("blocked", "flag_exists")


def test_run_status_after_every_card_is_decided(store: Store) -> None:
    a, b = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1), advance("TQ-1P9KD", "Washing", 1)])
    first = approve(store, a)
    assert first.run_status == "proposed"
    assert reject(store, b).run_status == "partially_approved"
    c, d = make_run(store, ANA, [advance("TQ-8H6RT", "Finished", 4), advance("TQ-7F3KA", "Washing", 1)])
    reject(store, c)
    assert reject(store, d).run_status == "rejected"


def test_another_workshop_cannot_decide(store: Store, owner: Store) -> None:
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1)])
    before = snapshot(owner)
    for action in ("approve", "reject"):
        result = apply_decision(store, PEDRO, Decision(proposal_id=pid, action=action))  # type: ignore[arg-type]
        assert (result.outcome, result.http_status) == ("not_found", 404)
    assert snapshot(owner) == before


def test_several_decisions_are_independent(store: Store) -> None:
    good, bad = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", 1), advance("TQ-2C5P0", "Finished")])
    request = ApplyRequest.model_validate(
        {
            "decisions": [
                {"proposal_id": good, "action": "approve"},
                {"proposal_id": bad, "action": "approve"},
                {"proposal_id": "nope", "action": "reject"},
            ]
        }
    )
    outcomes = [r.outcome for r in apply_decisions(store, ANA, request)]
    assert outcomes == ["applied", "blocked", "not_found"]


HAT_MODEL = r"m\.Hat(?:Event|Flag)?\b"
HAT_TABLE = r"\b(?:hats|hat_events|hat_flags)\b"


def record_writes(source: str) -> list[str]:
    """Places in ``source`` that write hats, hat events or hat flags: ORM rows, Core statements on the models
    or on their tables (also through a name bound to ``m.Hat.__table__``), and raw SQL."""
    aliases = re.findall(rf"(\w+)\s*=\s*{HAT_MODEL}\.__table__", source)
    target = "|".join([HAT_MODEL, *(rf"\b{re.escape(a)}\b" for a in aliases)])
    patterns = [
        rf"{HAT_MODEL}\(",
        rf"\b(?:insert|update|delete)\(\s*(?:{target})",
        rf"(?i)\b(?:insert\s+into|update|delete\s+from)\s+{HAT_TABLE}",
    ]
    return [m.group(0) for p in patterns for m in re.finditer(p, source)]


def test_record_write_scan_finds_every_kind_of_write() -> None:
    samples = [
        "s.add(m.HatFlag(kind='other'))",
        "s.execute(update(m.Hat).values(stage='Finished'))",
        "HATS = m.Hat.__table__\ns.execute(insert(HATS).values(code='TQ-00000'))",
        "s.execute(delete(m.HatEvent))",
        "s.execute(text('UPDATE hats SET stage = 1'))",
        "conn.exec_driver_sql('insert into hat_flags values (1)')",
    ]
    assert [bool(record_writes(x)) for x in samples] == [True] * len(samples)
    reads = "HATS = m.Hat.__table__\nselect(HATS.c.code)\nselect(m.HatEvent).where(m.Hat.id == 1)"
    assert record_writes(reads) == []


def test_only_the_approval_path_writes_hats_events_and_flags() -> None:
    root = Path(__file__).parents[2] / "src" / "shopfloor"
    writers = sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*.py")
        if record_writes(path.read_text(encoding="utf-8"))
    )
    # The sample loader writes the fixed demo records, and a person resolves a flag on the hat page
    # (docs/workshop-pages.md); every other write goes through approvals.
    assert writers == ["workshop/approvals.py", "workshop/pages/records.py", "workshop/sample.py"]


def test_question_about_which_hat(store: Store) -> None:
    draft = {
        "hat_code": None,
        "to_stage": "Washing",
        "question": {
            "text": "Which hat did you mean by TQ-7F3KZ?",
            "choices": [
                {"label": "TQ-7F3K2", "weaver_id": None, "hat_code": "TQ-7F3K2"},
                {"label": "TQ-7F3KA", "weaver_id": None, "hat_code": "TQ-7F3KA"},
            ],
        },
    }
    [pid] = make_run(store, ANA, [card("advance_stage", draft, status="question", confidence="check")])
    result = approve(store, pid, choice=1)
    assert result.outcome == "applied" and result.applied is not None
    assert result.applied["hat_code"] == "TQ-7F3KA"
    assert hat_row(store, ANA, "TQ-7F3KA").stage == "Washing"
    assert hat_row(store, ANA, "TQ-7F3K2").stage == "Weaving"


def test_an_update_that_touches_no_row_tells_conflict_from_not_found(store: Store) -> None:
    """The write itself is guarded too: a hat read at version 1 but now at 2 is a conflict; a hat that is
    not there (or not in this workshop) is not found."""
    [pid] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    [other] = make_run(store, ANA, [advance("TQ-7F3K2", "Washing", version=1)])
    assert approve(store, other).outcome == "applied"  # TQ-7F3K2 is now at Washing, version 2
    with store.transaction(ANA.workshop_id) as s:
        repo = WorkshopRepo(s, ANA)
        proposal = repo.proposal(pid)
        stale = m.Hat(id="hat-7f3k2", code="TQ-7F3K2", stage="Weaving", version=1)
        result = _advance(s, ANA, proposal, stale, {"to_stage": "Washing"}, datetime.now(UTC))
        assert isinstance(result, CardResult)
        assert (result.outcome, result.http_status) == ("conflict", 409)
        assert result.extra["current"] == {"stage": "Washing", "version": 2}
        foreign = m.Hat(id="hat-7f3k8", code="TQ-7F3K8", stage="Weaving", version=1)  # workshop B's
        missing = _advance(s, ANA, proposal, foreign, {"to_stage": "Washing"}, datetime.now(UTC))
        assert isinstance(missing, CardResult)
        assert (missing.outcome, missing.http_status) == ("not_found", 404)
    assert hat_row(store, ANA, "TQ-7F3K2").version == 2
    assert len(stage_events(store, ANA, "TQ-7F3K2")) == 1
