"""What the pages show, as plain data: cards from proposal rows, the run timeline from its steps.

Pure functions over rows and dicts; the templates only lay them out. Every text that a person typed or a
model wrote stays a string here and is escaped by the templates' autoescaping.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from shopfloor.workshop import domain
from shopfloor.workshop.store import models as m

EDIT_FIELDS: dict[str, tuple[str, ...]] = {
    "create_hat": ("weaver_id", "quantity", "grade", "rows_per_inch", "straw"),
    "advance_stage": ("hat_code", "to_stage"),
    "flag_issue": ("hat_code", "kind", "message"),
}
# What an answer to a question must fill in, by proposal type (the approvals' own list).
NEEDED: dict[str, tuple[str, ...]] = {
    "create_hat": ("weaver_id", "quantity", "rows_per_inch"),
    "advance_stage": ("hat_code", "to_stage"),
    "flag_issue": ("hat_code", "kind", "message"),
}


@dataclass
class Card:
    """One proposal card as the review panel shows it."""

    id: str
    run_id: str
    type: str
    status: str
    fields: dict[str, Any]
    quote: str
    why: str
    confidence: str
    rule: dict[str, Any]
    applied: dict[str, Any] | None
    question: str | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    code_heard: str | None = None
    weaver_name: str | None = None
    outcome: str | None = None
    outcome_message: str | None = None
    # The decision's code, params and rule result: what the page says about it (pages/messages.py).
    outcome_code: str | None = None
    outcome_params: dict[str, Any] = field(default_factory=dict)
    outcome_rule: dict[str, Any] | None = None
    # A page-side reason the form was not accepted, already in the page's language.
    outcome_text: str | None = None
    preview_fix: dict[str, Any] | None = None
    # When the note the card came from was said (the run's ``said_at``; the outbox sends it), or None.
    said_at: datetime | None = None
    # The offline reader's codes for the card's own texts (``why``, ``question``, ``message``), which the page
    # says in its language (messages.py, ``Say.reader``); empty for a live model's card (shown as written).
    texts: dict[str, Any] = field(default_factory=dict)

    @property
    def open(self) -> bool:
        """Still waiting for a decision."""
        return self.status in ("pending", "question", "blocked")

    @property
    def fix(self) -> dict[str, Any] | None:
        """The allowed proposal a blocked card offers, as field values."""
        fix = self.rule.get("fix") if self.status == "blocked" else None
        return fix if isinstance(fix, dict) and fix else None

    @property
    def warnings(self) -> list[str]:
        """Warning kinds on the card."""
        return [str(w) for w in self.rule.get("warnings") or []]

    @property
    def new_codes(self) -> list[str]:
        """Codes of the hats an applied create card made."""
        return [str(c) for c in (self.applied or {}).get("hat_codes") or []]

    @property
    def answer_inputs(self) -> list[str]:
        """The missing fields a question asks the person to type (choices already cover a weaver or a hat)."""
        covered = {"weaver_id", "hat_code"} if self.choices else set()
        return [name for name in self.missing if name not in covered]

    @property
    def offers(self) -> str | None:
        """What the question's choices name (``weaver_id`` or ``hat_code``), for its "someone else" choice."""
        for key in ("weaver_id", "hat_code"):
            if any(c.get(key) for c in self.choices):
                return key
        return None

    @property
    def edit_fields(self) -> tuple[str, ...]:
        """Fields a person may edit on this card's type."""
        return EDIT_FIELDS.get(self.type, ())


def card_of(row: m.Proposal, weavers: dict[str, str], said_at: datetime | None = None) -> Card:
    """The card for a proposal row (earlier edits and answers merged into its fields); ``said_at`` is when
    the note of its run was said."""
    payload = dict(row.payload or {})
    question = payload.pop("question", None) or {}
    fields = {**payload, **(row.edited_payload or {})}
    card = Card(
        id=row.id,
        run_id=row.run_id,
        type=row.type,
        status=row.status,
        fields=fields,
        quote=row.quote,
        why=row.why,
        confidence=row.confidence,
        rule=dict(row.rule_result or {}),
        applied=row.applied,
        code_heard=payload.get("code_heard"),
        said_at=said_at,
        texts=dict(row.texts or {}),
    )
    if fields.get("message") != payload.get("message"):
        card.texts.pop("message", None)  # a message the person typed is theirs, shown as typed
    if row.status == "question":
        card.question = str(question.get("text") or "")
        card.choices = [c for c in question.get("choices") or [] if isinstance(c, dict)]
        card.missing = [k for k in NEEDED.get(row.type, ()) if fields.get(k) in (None, "")]
    weaver_id = fields.get("weaver_id")
    card.weaver_name = weavers.get(str(weaver_id)) if weaver_id else None
    return card


def with_fix(card: Card) -> Card:
    """The card as its fix would make it: the fix's values in its fields, for the person to approve."""
    fix = card.fix or {}
    card.fields = {**card.fields, **fix}
    card.preview_fix = fix
    return card


def edit_values(form: dict[str, str], kind: str) -> dict[str, Any]:
    """The edit fields of a card's form as the approvals take them: numbers as ints, empty as None."""
    values: dict[str, Any] = {}
    for name in EDIT_FIELDS.get(kind, ()):
        if name not in form:
            continue
        raw = form[name].strip()
        if name in ("quantity", "rows_per_inch"):
            values[name] = int(raw) if raw.lstrip("-").isdigit() else (None if raw == "" else raw)
        else:
            values[name] = raw or None
    return values


@dataclass
class Step:
    """One numbered entry of a run's timeline."""

    i: int
    kind: str
    title: str
    tag: str | None
    ok: bool
    duration_ms: int | None
    tokens: str | None
    cost_usd: float | None
    detail_in: str | None
    detail_out: str | None


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)


def _model_call_step(i: int, kind: str, raw: dict[str, Any]) -> Step:
    """A model call: model and stop reason, tokens (and cache), cost, the text it wrote."""
    tokens = f"{raw.get('tokens_in', 0)} in · {raw.get('tokens_out', 0)} out"
    if raw.get("cache_read") or raw.get("cache_write"):
        tokens += f" · cache {raw.get('cache_read', 0)} read / {raw.get('cache_write', 0)} written"
    return Step(
        i,
        kind,
        f"{raw.get('model', '')} · {raw.get('stop_reason', '')}",
        None,
        True,
        raw.get("duration_ms"),
        tokens,
        raw.get("cost_usd"),
        None,
        _pretty(raw.get("text")) if raw.get("text") else None,
    )


def _tool_call_step(i: int, kind: str, raw: dict[str, Any]) -> Step:
    """A tool call: the tool, read or propose, its input and output."""
    return Step(
        i,
        kind,
        str(raw.get("tool", "")),
        "read" if raw.get("access") == "read" else "propose",
        not raw.get("is_error"),
        raw.get("duration_ms"),
        None,
        None,
        _pretty(raw.get("input")),
        _pretty(raw.get("output")),
    )


def _rule_check_step(i: int, kind: str, raw: dict[str, Any]) -> Step:
    """A rule check: the rule, hat and code, and what the rule said."""
    title = " · ".join(str(raw[k]) for k in ("rule", "hat_code", "code") if raw.get(k))
    return Step(
        i,
        kind,
        title,
        None,
        bool(raw.get("allowed")),
        raw.get("duration_ms"),
        None,
        None,
        None,
        _pretty({k: raw.get(k) for k in ("allowed", "code", "message")}),
    )


def _proposal_step(i: int, kind: str, raw: dict[str, Any]) -> Step:
    """A proposal: its type and status (a blocked one is not ok)."""
    return Step(
        i,
        kind,
        f"{raw.get('type', '')} · {raw.get('status', '')}",
        None,
        raw.get("status") != "blocked",
        None,
        None,
        None,
        None,
        _pretty(raw),
    )


def _error_step(i: int, kind: str, raw: dict[str, Any]) -> Step:
    """Any other step (an error): its error type and body."""
    return Step(
        i,
        kind,
        str((raw.get("error") or {}).get("type", kind)),
        None,
        False,
        None,
        None,
        None,
        None,
        _pretty(raw.get("error", raw)),
    )


_STEP_OF: dict[str, Callable[[int, str, dict[str, Any]], Step]] = {
    "model_call": _model_call_step,
    "tool_call": _tool_call_step,
    "rule_check": _rule_check_step,
    "proposal": _proposal_step,
}


def timeline(steps: list[dict[str, Any]]) -> list[Step]:
    """The run's trace steps as timeline entries (model call, tool call, rule check, proposal, error)."""
    out: list[Step] = []
    for n, raw in enumerate(steps, start=1):
        kind = str(raw.get("kind"))
        # Shown from 1; the stored ``i`` counts from 0.
        out.append(_STEP_OF.get(kind, _error_step)(n, kind, raw))
    return out


def delivered_woven(event_type: str, from_stage: str | None) -> bool:
    """A ``created`` event that records a delivery: the hat arrived woven (from Weaving, docs/workshop.md,
    "Approving"), so the page says "Delivered woven" rather than "Weaving → Weaving"."""
    return event_type == "created" and from_stage == domain.WOVEN_AT_DELIVERY


def hat_stepper(stage: str) -> list[tuple[str, str]]:
    """Each stage with its state for the stepper: ``done``, ``current`` or ``todo``."""
    at = domain.stage_index(stage)
    return [(s, "done" if n < at else "current" if n == at else "todo") for n, s in enumerate(domain.STAGES)]


@dataclass
class SpendDay:
    """One day of a month's spend: what counted against the cap, and the bar's length out of ``BAR_WIDTH``."""

    day: str
    calls: int
    charged_usd: float
    bar: int


@dataclass
class SpendView:
    """A workshop's month of model spend as the spend page shows it."""

    month: str
    spent_usd: float
    reserved_usd: float
    cap_usd: float | None
    left_usd: float | None
    rows: list[dict[str, Any]]
    days: list[SpendDay]
    previous: str
    next: str


BAR_WIDTH = 200


def _shift_month(month: str, by: int) -> str:
    year, number = (int(x) for x in month.split("-"))
    index = year * 12 + number - 1 + by
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def spend_view(body: dict[str, Any]) -> SpendView:
    """The spend page's figures from the answer of ``GET /workshop/spend`` (docs/pricing.md): the month's
    totals with the cap and what is left, the rows by app, model and day, and one bar per day scaled to the
    dearest day."""
    month = str(body["month"])
    totals = body.get("totals") or [{}]
    spent = sum(float(t.get("spent_usd") or 0) for t in totals)
    reserved = sum(float(t.get("reserved_usd") or 0) for t in totals)
    cap = totals[0].get("cap_usd")
    left = None if cap is None else max(0.0, float(cap) - spent - reserved)
    rows = sorted(body.get("rows") or [], key=lambda r: (r["day"], r["app"], r["model"]))
    by_day: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_day.setdefault(str(row["day"]), []).append(row)
    charged = {d: sum(float(r["charged_usd"]) for r in rs) for d, rs in by_day.items()}
    top = max(charged.values(), default=0.0)
    days = [
        SpendDay(
            d,
            sum(int(r["calls"]) for r in by_day[d]),
            charged[d],
            round(BAR_WIDTH * charged[d] / top) if top > 0 else 0,
        )
        for d in sorted(by_day)
    ]
    return SpendView(
        month, spent, reserved, cap, left, rows, days, _shift_month(month, -1), _shift_month(month, 1)
    )
