"""The records: hats with filters, one hat's page, and resolving its flags (docs/workshop-pages.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Query
from fastapi.responses import HTMLResponse

from shopfloor.workshop import domain
from shopfloor.workshop.pages import records, views
from shopfloor.workshop.pages.page import (
    NO_SUCH,
    Page,
    PageDep,
    PageError,
    weaver_names,
)
from shopfloor.workshop.store import NotFound, WorkshopRepo
from shopfloor.workshop.store.models import utcnow

router = APIRouter()


@router.get("/hats", response_class=HTMLResponse)
def hats_page(
    p: PageDep,
    stage: Annotated[str, Query(max_length=12)] = "",
    weaver: Annotated[str, Query(max_length=40)] = "",
    grade: Annotated[str, Query(max_length=12)] = "",
    flagged: bool = False,
    q: Annotated[str, Query(max_length=20)] = "",
) -> HTMLResponse:
    """Hats with filters (stage, weaver, grade, open flags) and search by code."""
    error = None
    code = None
    if q.strip():
        code = domain.normalize_code(q)
        if code is None:
            error = p.gettext("Codes look like TQ-7F3K2.")
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        weavers = repo.weavers()
        rows = (
            []
            if error
            else repo.hat_list(
                stage=stage if domain.is_stage(stage) else None,
                weaver_id=weaver or None,
                grade=grade if grade in domain.GRADES else None,
                code=code,
                flagged=flagged,
            )
        )
        open_flags = repo.open_flag_counts()
        names = {w.id: w.name for w in weavers}
        return p.html(
            "hats.html",
            hats=rows,
            names=names,
            open_flags=open_flags,
            weavers=weavers,
            filters={"stage": stage, "weaver": weaver, "grade": grade, "flagged": flagged, "q": q},
            stages=domain.STAGES,
            grades=domain.GRADES,
            error=error,
        )


def _hat_context(p: Page, code: str) -> dict[str, Any]:
    normalized = domain.normalize_code(code)
    if normalized is None:
        raise PageError(404, p.gettext("Codes look like TQ-7F3K2."), p.locale)
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        try:
            hat = repo.hat_by_code(normalized)
        except NotFound:
            raise PageError(404, p.gettext("No such hat in this workshop."), p.locale) from None
        names = weaver_names(repo)
        events = repo.events(hat.id, newest_first=True)
        proposals = [views.card_of(row, names) for row in repo.proposals_about_hat(hat.id, hat.code)]
        return {
            "hat": hat,
            "weaver_name": names.get(hat.weaver_id or ""),
            "stepper": views.hat_stepper(hat.stage),
            "events": events,
            "delivered": {e.id for e in events if views.delivered_woven(e.type, e.from_stage)},
            "flags": repo.flags([hat.id]),
            "anomalies": repo.anomalies(hat, utcnow()),
            "proposals": proposals,
            "names": {pr.id: pr.name for pr in repo.profiles()},
        }


@router.get("/hats/{code}", response_class=HTMLResponse, responses=NO_SUCH)
def hat_page(p: PageDep, code: str) -> HTMLResponse:
    """One hat: stage stepper, events, flags (to resolve) and the cards that touched it."""
    return p.html("hat.html", **_hat_context(p, code), error=None)


@router.post("/hats/{code}/flags/{flag_id}/resolve", response_class=HTMLResponse, responses=NO_SUCH)
def resolve_flag(
    p: PageDep, code: str, flag_id: str, note: Annotated[str, Form(max_length=1000)] = ""
) -> HTMLResponse:
    """Resolve an open flag with the person's note; the hat page comes back."""
    error = None
    try:
        records.resolve_flag(p.store, p.actor, domain.normalize_code(code) or code, flag_id, note)
    except ValueError as e:
        error = p.gettext(str(e))  # the records' messages are catalogue entries
    except NotFound:
        error = p.gettext("This flag is no longer open.")
    return p.html("_hat_body.html", **_hat_context(p, code), error=error)
