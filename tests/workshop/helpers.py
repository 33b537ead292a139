"""Helpers for the workshop tests: actors of the sample data and runs with proposals."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from shopfloor.workshop import domain
from shopfloor.workshop.agent.persistence import save_proposed_run
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B
from shopfloor.workshop.store import Store, WorkshopRepo
from shopfloor.workshop.store import models as m

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
ADMIN = domain.Actor("u-admin", WORKSHOP_A, "admin", "Lucía Sarmiento")
PEDRO = domain.Actor("u-pedro", WORKSHOP_B, "member", "Pedro Anchundia")


def card(kind: str, payload: dict[str, Any], status: str = "pending", **kw: Any) -> dict[str, Any]:
    """A proposal as the agent saves it."""
    return {
        "type": kind,
        "payload": payload,
        "status": status,
        "why": kw.get("why", "Because the note says so."),
        "quote": kw.get("quote", "pasó a lavado"),
        "confidence": kw.get("confidence", "high"),
        "rule_result": kw.get("rule_result"),
    }


# Save a proposed run with the given cards through the agent's own persistence; returns the proposal ids.
make_run = save_proposed_run


def advance(code: str, to_stage: str, version: int | None = None) -> dict[str, Any]:
    """An advance_stage card."""
    payload: dict[str, Any] = {"hat_code": code, "to_stage": to_stage}
    if version is not None:
        payload["hat_version"] = version
    return card("advance_stage", payload)


def advance_seen_at(code: str, from_stage: str, to_stage: str) -> dict[str, Any]:
    """An advance_stage card as the agent saves it: the stage it saw, no version."""
    return card("advance_stage", {"hat_code": code, "from_stage": from_stage, "to_stage": to_stage})


def hat_row(store: Store, actor: domain.Actor, code: str) -> m.Hat:
    with store.transaction(actor.workshop_id, write=False) as s:
        return WorkshopRepo(s, actor).hat_by_code(code)


def stage_events(store: Store, actor: domain.Actor, code: str) -> list[m.HatEvent]:
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        hat = repo.hat_by_code(code)
        return [e for e in repo.events(hat.id) if e.type == "stage_changed"]


def proposal_row(store: Store, actor: domain.Actor, proposal_id: str) -> m.Proposal:
    with store.transaction(actor.workshop_id, write=False) as s:
        return WorkshopRepo(s, actor).proposal(proposal_id)


def run_status(store: Store, actor: domain.Actor, proposal_id: str) -> str:
    with store.transaction(actor.workshop_id, write=False) as s:
        p = WorkshopRepo(s, actor).proposal(proposal_id)
        return str(s.scalar(select(m.AgentRun.status).where(m.AgentRun.id == p.run_id)))


APPLY = "/workshop/functions/v1/apply-proposals"
PASSWORDS = {
    "ana@taller.example": "ana-toquilla-demo",
    "admin@taller.example": "admin-toquilla-demo",
    "pedro@pile.example": "pedro-toquilla-demo",
    "admin@pile.example": "pile-admin-demo",
}


def login(client: TestClient, email: str) -> str:
    """Sign in with a demo account; returns the session's CSRF token."""
    r = client.post("/workshop/auth/login", json={"email": email, "password": PASSWORDS[email]})
    assert r.status_code == 200, r.text
    return str(r.json()["csrf_token"])


def bearer(client: TestClient, email: str) -> dict[str, str]:
    """Headers with a fresh bearer token of a demo account (the cookie is dropped)."""
    csrf = login(client, email)
    r = client.post("/workshop/auth/tokens", json={"name": "tests"}, headers={"x-csrf-token": csrf})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return {"authorization": f"Bearer {r.json()['token']}"}


def assert_envelope(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """``r`` is the error envelope with ``status`` (and ``code``); returns the body."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body["error"]) == {"code", "message", "request_id"}
    assert body["error"]["request_id"] == r.headers["x-request-id"]
    if code is not None:
        assert body["error"]["code"] == code
    return dict(body)
