"""The answers family: ``GET /q`` a question redirected (303) to its canonical address (one not read whole, or
refused, is answered on the page), ``GET /a`` the answer at
an address as the page (``format=pdf``: a PDF, ``format=json``), ``GET /a.json`` the same answer as JSON
(docs/URLS.md)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from shopfloor.shifts.pages import scope_view, work
from shopfloor.shifts.pages.deps import ShiftsDep, by_address, json_answer, page_locale, root_path
from shopfloor.shifts.pages.guard import GUARDED
from shopfloor.shifts.pages.params import (
    ADDRESS_PARAMS,
    SCOPE_PARAMS,
    attachment,
    parsed_scope,
    plan_of,
    query_params,
    scope_for_question,
    scope_of_plan,
    usable_after,
)
from shopfloor.shifts.planning.plans import Unavailable, parse_address
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS, route
from shopfloor.web.errors import ApiError
from shopfloor.web.openapi import answered_as, redirect

router = APIRouter(responses=GUARDED)


@router.get(
    "/q",
    response_model=None,
    responses={
        **redirect("Read whole: to the question's canonical address"),
        **answered_as(
            "application/json",
            "text/html",
            description="Not read whole, or refused: the answer here (the page when the request asks for HTML)",
        ),
    },
    openapi_extra=query_params("question", *SCOPE_PARAMS, "after"),
)
async def resolve(request: Request, shifts: ShiftsDep) -> Response:
    """A question in the scope, redirected to its canonical address when the router reads it whole; a refusal
    or a question with words it did not use is answered here (the partial answer names them)."""
    q = request.query_params
    # An example button beside the question box sends a second `question`; the last, the button's, wins.
    questions = q.getlist("question")
    question = questions[-1] if questions else ""
    if not question.strip():
        raise ApiError(400, "bad_request", "Ask a question (the question parameter is empty).")
    if len(question) > MAX_QUESTION_CHARS:
        raise ApiError(400, "question_too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters.")
    scope = scope_for_question(
        question,
        parsed_scope(q.get("day", ""), q.get("shift"), q.get("include"), q.get("period", "day")),
    )
    after = usable_after(q.get("after"), scope)
    address = by_address(question, scope, after)
    if address is not None:
        return RedirectResponse(root_path(request) + address, status_code=303)
    # A refusal, or a question not read whole, is answered here: its address would drop the line naming
    # the words it did not use.
    html = "text/html" in request.headers.get("accept", "")
    if not html:
        routed = route(question, scope, parse_address(after) if after else None)
        if isinstance(routed, Unavailable):
            return JSONResponse(
                {"status": "unavailable", "reason": routed.reason, "examples": list(routed.examples)}
            )
    answer = await shifts.asked(question, scope, after)
    if not html:
        return json_answer(answer)
    if answer.get("address"):
        scope = scope_of_plan(parse_address(answer["address"]))
    # A refused follow-up keeps the chain: the next one still follows the last answered question.
    form = scope_view.form_state(scope, question, answer.get("address") or after)
    return shifts.html(
        await shifts.drawn("index.html", answer, scope, form, root_path(request), page_locale(request))
    )


@router.get(
    "/a",
    response_model=None,
    responses=answered_as(
        "text/html", "application/pdf", "application/json", description="The page, or format=pdf, format=json"
    ),
    openapi_extra=ADDRESS_PARAMS,
)
async def answer_page(request: Request, shifts: ShiftsDep) -> Response:
    """The answer at an address as the page, or as a PDF (format=pdf) or JSON (format=json)."""
    plan = plan_of(request)
    fmt = request.query_params.get("format")
    if fmt not in (None, "json", "pdf"):
        raise ApiError(400, "bad_format", "format must be json or pdf.")
    address = plan.address()
    root = root_path(request)
    locale = page_locale(request)
    page_key = ("page", root, locale, address, await shifts.version())
    if fmt is None:
        kept = shifts.runner.kept(page_key)
        if kept is not None:
            return shifts.html(kept)
    else:
        answer = await shifts.answer_for(address)
        if fmt == "json":
            return json_answer(answer)
        # Kept per language, as the page is.
        key = ("answer.pdf", locale, address, await shifts.version())
        pdf = await shifts.runner.once(key, work.answer_pdf, answer, locale)
        return Response(pdf, media_type="application/pdf", headers=attachment("answer.pdf"))
    scope = scope_of_plan(plan)
    found = await shifts.kept_answer(address)
    if found is None:
        # A first visit: the answer is investigated in the job that draws the page (and kept by address);
        # an address's answer is asked as its address, so the box shows no question.
        form = scope_view.form_state(scope, "", address)
        text = await shifts.drawn("index.html", None, scope, form, root, locale, address=address)
    else:
        question = found.get("question") or address
        form = scope_view.form_state(scope, question if question != address else "", address)
        text = await shifts.drawn("index.html", found, scope, form, root, locale)
    # Kept: the same address is the same page (its token slot filled per response).
    shifts.runner.keep(page_key, text)
    return shifts.html(text)


@router.get("/a.json", openapi_extra=ADDRESS_PARAMS)
async def answer_json(request: Request, shifts: ShiftsDep) -> JSONResponse:
    """The answer at an address as JSON."""
    return json_answer(await shifts.answer_for(plan_of(request).address()))
