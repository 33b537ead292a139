"""Every rule of ``domain`` run again at a decision, on rows read fresh in the deciding transaction: what a
card stores as its ``rule_result`` (with ``checked_at``), and the fields a question still needs
(docs/workshop.md, "Approving"). Reads only (the hat is locked for the transaction); ``approvals`` writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from shopfloor.workshop import domain
from shopfloor.workshop.store import WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.repo import NotFound, event_view


def missing(kind: str, payload: dict[str, Any]) -> list[str]:
    """The fields a card of type ``kind`` needs that ``payload`` leaves empty."""
    need = {
        "create_hat": ("weaver_id", "quantity", "rows_per_inch"),
        "advance_stage": ("hat_code", "to_stage"),
        "flag_issue": ("hat_code", "kind", "message"),
    }.get(kind, ())
    return [k for k in need if payload.get(k) in (None, "")]


def check(
    repo: WorkshopRepo, actor: domain.Actor, kind: str, payload: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """Every rule for ``payload`` on the current rows, as a card stores it (with ``checked_at``)."""
    result: dict[str, Any]
    if kind == "create_hat":
        result = dict(_check_create(repo, payload))
    elif kind == "advance_stage":
        hat = locked_hat(repo, payload)
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
    """The rules for new hats: a weaver still in the workshop, quantity and rows in range, grade, straw."""
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
    """The rules for a flag: the hat exists, a known kind, a message in range, no open flag of that kind."""
    hat = locked_hat(repo, payload)
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


def locked_hat(repo: WorkshopRepo, payload: dict[str, Any]) -> m.Hat | None:
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
