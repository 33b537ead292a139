"""Agent runs (admins): the list with filters and one run's numbered timeline (docs/workshop-pages.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from shopfloor.workshop.pages import views
from shopfloor.workshop.pages.page import (
    NO_SUCH,
    AdminDep,
    PageError,
)
from shopfloor.workshop.store import NotFound, WorkshopRepo
from shopfloor.workshop.store import models as m

router = APIRouter()


@router.get("/runs", response_class=HTMLResponse)
def runs_page(
    p: AdminDep,
    status: Annotated[str, Query(max_length=20)] = "",
    user: Annotated[str, Query(max_length=40)] = "",
) -> HTMLResponse:
    """Agent runs, newest first, with status and user filters (admins)."""
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        runs = repo.runs_where(limit=200, user_id=user or None, status=status or None)
        counts = repo.proposal_counts([r.id for r in runs])
        users = {pr.id: pr.name for pr in repo.profiles()}
        return p.html(
            "runs.html",
            runs=runs,
            counts=counts,
            users=users,
            filters={"status": status, "user": user},
            statuses=m.RUN_STATUSES,
        )


@router.get("/runs/{run_id}", response_class=HTMLResponse, responses=NO_SUCH)
def run_page(p: AdminDep, run_id: str) -> HTMLResponse:
    """One run's numbered timeline: model calls, tool calls, rule checks, proposals, errors (admins)."""
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        try:
            run = repo.run(run_id)
        except NotFound:
            raise PageError(404, p.gettext("No such run in this workshop."), p.locale) from None
        users = {pr.id: pr.name for pr in repo.profiles()}
        return p.html(
            "run.html",
            run=run,
            user_name=users.get(run.user_id, run.user_id),
            steps=views.timeline(list(run.steps or [])),
            started=run.created_at.astimezone(UTC) if isinstance(run.created_at, datetime) else None,
        )
