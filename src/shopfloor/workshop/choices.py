"""What a decision makes of a card before any rule runs: the payload after the chosen answer and the edits,
and why an answer may not name a weaver or hat the question did not offer, or one not in the workshop
(docs/workshop.md, "Approving"). Reads only; ``approvals`` writes.
"""

from __future__ import annotations

from typing import Any

from shopfloor.workshop import domain
from shopfloor.workshop.decisions import EDITABLE, Decision, Reason
from shopfloor.workshop.store import WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.repo import NotFound


def effective_payload(proposal: m.Proposal, decision: Decision) -> tuple[dict[str, Any], Reason | None]:
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
    code = code_of(payload)
    if code is not None:
        payload["hat_code"] = code  # a typed "tq 7f3ka" is stored as TQ-7F3KA
    if code != code_of(proposal.payload):
        # The card now names another hat: what it recorded about the first one says nothing about this one.
        payload.pop("hat_version", None)
        payload.pop("from_stage", None)
    return payload, None


def edits_change(proposal: m.Proposal, decision: Decision) -> bool:
    """True when the decision's edits change something on the card (a form sent back unchanged does not)."""
    if decision.edits is None:
        return False
    current = {k: v for k, v in proposal.payload.items() if k != "question"}
    current.update(proposal.edited_payload or {})
    for key, value in decision.edits.given().items():
        if key == "hat_code":
            if domain.normalize_code(str(value)) != code_of(current):
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
    return code_of({"hat_code": value}) or str(value)


def not_offered(repo: WorkshopRepo, proposal: m.Proposal, decision: Decision) -> Reason | None:
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
            wanted = given[key] if key == "weaver_id" else code_of(given)
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


def offer_warnings(repo: WorkshopRepo, proposal: m.Proposal, payload: dict[str, Any]) -> list[str]:
    """Names of what the card holds that its question did not offer (each warns ``not_offered``)."""
    names = []
    for key in OFFERED_IDS:
        offered = _offered(proposal, key)
        if offered and payload.get(key) and payload[key] not in {c[key] for c in offered}:
            names.append(_id_name(repo, key, payload[key]))
    return names


def warn_not_offered(check: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``check`` with the ``not_offered`` warning added when the card names something not offered (``names``)."""
    if not names:
        return check
    return {**check, "warnings": [*check.get("warnings", []), "not_offered"]}


def unknown_typed_id(repo: WorkshopRepo, decision: Decision) -> Reason | None:
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


def code_of(payload: dict[str, Any]) -> str | None:
    """The payload's hat code, normalized (``tq 7f3ka`` is ``TQ-7F3KA``), or None without a valid one."""
    return domain.normalize_code(str(payload.get("hat_code") or ""))
