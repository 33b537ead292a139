"""The page family: ``GET /`` the page, ``GET /guide`` the field guide, ``GET /scope`` the live scope line,
``GET /language`` the language switch."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from shopfloor.shifts.pages import scope_view, work
from shopfloor.shifts.pages.deps import ShiftsDep, page_locale, root_path
from shopfloor.shifts.pages.guard import GUARDED
from shopfloor.shifts.pages.i18n import COOKIE, LOCALES, Words
from shopfloor.shifts.pages.params import SCOPE_PARAMS, parsed_scope, query_params
from shopfloor.web.errors import ApiError
from shopfloor.web.openapi import redirect

router = APIRouter(responses=GUARDED)


@router.get("/", response_class=HTMLResponse, openapi_extra=query_params(*SCOPE_PARAMS))
async def index(request: Request, shifts: ShiftsDep) -> HTMLResponse:
    """The page: scope controls, the question box, the scope's cards (and its window's report)."""
    q = request.query_params
    span = await shifts.days()
    scope = parsed_scope(
        q.get("day") or span["last"], q.get("shift", "2"), q.get("include"), q.get("period", "day")
    )
    form = scope_view.form_state(scope, "", None)
    return shifts.html(
        await shifts.drawn("index.html", None, scope, form, root_path(request), page_locale(request))
    )


@router.get("/guide", response_class=HTMLResponse)
async def guide(request: Request, shifts: ShiftsDep) -> HTMLResponse:
    """The field guide: the plant, the measures, the tools, the loop, the limits, how to ask."""
    days = await shifts.days()
    text = await shifts.runner.run(work.guide, shifts.view, days, root_path(request), page_locale(request))
    return shifts.html(text)


@router.get("/scope", response_class=HTMLResponse, openapi_extra=query_params(*SCOPE_PARAMS))
async def scope_fragment(request: Request) -> HTMLResponse:
    """The live scope line for the controls' current values (htmx swaps it in)."""
    q = request.query_params
    scope = parsed_scope(q.get("day", ""), q.get("shift"), q.get("include"), q.get("period", "day"))
    return HTMLResponse(scope_view.scope_text(scope, Words(page_locale(request))))


# A year: the choice outlives the browser session, as the workshop's saved language does.
LANGUAGE_COOKIE_S = 365 * 24 * 3600


@router.get(
    "/language",
    response_model=None,
    response_class=RedirectResponse,
    status_code=303,
    responses=redirect(
        "Back to `next` (a page of this app; anything else: the page), with the language cookie"
    ),
    openapi_extra=query_params("lang", "next"),
)
async def language(request: Request) -> RedirectResponse:
    """The language switch: keep ``lang`` (``en`` or ``es``) in a cookie and go back to ``next``, a page of
    this app (anything else goes to the page's start)."""
    q = request.query_params
    lang = q.get("lang", "")
    if lang not in LOCALES:
        raise ApiError(400, "bad_request", f"lang must be one of {', '.join(LOCALES)}.")
    root = root_path(request)
    target = q.get("next", "")
    # Only a path of this app: never another site ("//host", "https:"), never a path outside the mount.
    if not target.startswith(root + "/") or target.startswith("//") or "\\" in target:
        target = root + "/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        COOKIE, lang, max_age=LANGUAGE_COOKIE_S, path=root or "/", samesite="lax", httponly=True
    )
    return response
