"""The reports family: ``GET /report`` a period report as JSON, a PDF (``format=pdf``) or the page
(``format=html``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from shopfloor.shifts.pages import scope_view, work
from shopfloor.shifts.pages.deps import ShiftsDep, page_locale, root_path
from shopfloor.shifts.pages.guard import GUARDED
from shopfloor.shifts.pages.params import REPORT_PERIODS, attachment, parsed_scope, query_params
from shopfloor.web.errors import ApiError
from shopfloor.web.openapi import answered_as

router = APIRouter(responses=GUARDED)


@router.get(
    "/report",
    response_model=None,
    responses=answered_as(
        "application/json",
        "application/pdf",
        "text/html",
        description="The report, or format=pdf, format=html",
    ),
    openapi_extra=query_params("period", "day", "shift", "format"),
)
async def report(request: Request, shifts: ShiftsDep) -> Response:
    """A period report as JSON, a PDF (format=pdf) or the page (format=html)."""
    q = request.query_params
    period, fmt = q.get("period", ""), q.get("format", "json")
    if period not in REPORT_PERIODS:
        raise ApiError(400, "bad_scope", "period must be week, month or fiscal.")
    if fmt not in ("json", "pdf", "html"):
        raise ApiError(400, "bad_format", "format must be json, pdf or html.")
    scope = parsed_scope(q.get("day", ""), q.get("shift"), None, "day")
    data = await shifts.report_for(period, scope.day, scope.shift)
    if fmt == "pdf":
        # Drawn in the page's language and kept per language, as the page is.
        locale = page_locale(request)
        key = ("report.pdf", locale, period, scope.day, scope.shift, await shifts.version())
        pdf = await shifts.runner.once(key, work.report_pdf, data, scope.shift, locale)
        return Response(pdf, media_type="application/pdf", headers=attachment("period-report.pdf"))
    if fmt == "html":
        page_scope = parsed_scope(scope.day.isoformat(), scope.shift, None, period)
        form = scope_view.form_state(page_scope, "", None)
        return shifts.html(
            await shifts.drawn("index.html", None, page_scope, form, root_path(request), page_locale(request))
        )
    return JSONResponse(data)
