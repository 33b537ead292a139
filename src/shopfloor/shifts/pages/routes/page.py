"""The page family: ``GET /`` the page, ``GET /guide`` the field guide, ``GET /scope`` the live scope line."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from shopfloor.shifts.pages import views, work
from shopfloor.shifts.pages.deps import ShiftsDep, root_path
from shopfloor.shifts.pages.params import SCOPE_PARAMS, parsed_scope, query_params

router = APIRouter()


@router.get("/", response_class=HTMLResponse, openapi_extra=query_params(*SCOPE_PARAMS))
async def index(request: Request, shifts: ShiftsDep) -> HTMLResponse:
    """The page: scope controls, the question box, the scope's cards (and its window's report)."""
    q = request.query_params
    span = await shifts.days()
    scope = parsed_scope(
        q.get("day") or span["last"], q.get("shift", "2"), q.get("include"), q.get("period", "day")
    )
    form = views.form_state(scope, "", None)
    return shifts.html(await shifts.drawn("index.html", None, scope, form, root_path(request)))


@router.get("/guide", response_class=HTMLResponse)
async def guide(request: Request, shifts: ShiftsDep) -> HTMLResponse:
    """The field guide: the plant, the measures, the tools, the loop, the limits, how to ask."""
    days = await shifts.days()
    return shifts.html(await shifts.runner.run(work.guide, shifts.view, days, root_path(request)))


@router.get("/scope", response_class=HTMLResponse, openapi_extra=query_params(*SCOPE_PARAMS))
async def scope_fragment(request: Request) -> HTMLResponse:
    """The live scope line for the controls' current values (htmx swaps it in)."""
    q = request.query_params
    scope = parsed_scope(q.get("day", ""), q.get("shift"), q.get("include"), q.get("period", "day"))
    return HTMLResponse(views.scope_text(scope))
