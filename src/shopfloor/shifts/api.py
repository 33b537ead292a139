"""HTTP routes of Shift Investigator, mounted at /shifts by the main app (docs/URLS.md, docs/security.md).

- ``GET /`` the page; ``GET /guide`` the field guide; ``GET /scope`` the live scope line (a fragment).
- ``GET /q`` resolves a question with the offline router and redirects (303) to its canonical address.
- ``GET /a`` answers an address as the page (``format=pdf``: a PDF, ``format=json``), ``GET /a.json`` as JSON.
- ``POST /ask`` asks from the page (JSON body, the page's request token): the answer's fragment for htmx,
  otherwise the answer as JSON. Its ``planner`` is the page's planner control (offline unless a planner
  whose key is set is chosen; public mode offline only).
- ``GET /report`` a period report (JSON, ``format=pdf`` or ``format=html``).
- ``GET /static/…`` the allowlisted static files.

Apart from a live planner chosen on the page for ``POST /ask``, none of these calls a model, carries a key or keeps a session: follow-up context is the ``after=`` chain inside
the address. Every route sits behind :class:`~shopfloor.shifts.pages.guard.ShiftsGuard`. Investigations, pages
and PDFs are drawn in the investigator's own worker processes, and an address's answer is kept, so the page, its JSON and its PDF are
one retained answer (:mod:`shopfloor.shifts.pages.runner`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from shopfloor.settings import Settings
from shopfloor.shifts.pages import views, work
from shopfloor.shifts.pages.guard import RequestTokens, ShiftsGuard
from shopfloor.shifts.pages.limits import current_day, make_counter, seconds_to_next_day
from shopfloor.shifts.pages.runner import Runner, store_version
from shopfloor.shifts.planning.plans import ADDRESS_KEYS, AddressError, Plan, parse_address
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS, Unavailable, route
from shopfloor.shifts.plant.scope import Scope, ScopeError
from shopfloor.web.errors import ApiError, envelope, install_error_handlers

REPORT_PERIODS = ("week", "month", "fiscal")
SCOPE_PARAMS = ("day", "shift", "include", "period")


def query_params(*names: str) -> dict[str, Any]:
    """The OpenAPI description of query parameters a route reads itself (every value is text: the route checks
    it and answers 400 in the envelope), so the document says what the route takes (docs/URLS.md)."""
    return {
        "parameters": [
            {"name": name, "in": "query", "required": False, "schema": {"type": "string"}} for name in names
        ]
    }


ADDRESS_PARAMS = query_params(*sorted(ADDRESS_KEYS), "format")


def _parsed_scope(day: str, shift: int | str | None, include: str | None, period: str) -> Scope:
    """The request's scope parameters, each rule broken reported in the error envelope (docs/URLS.md)."""
    if isinstance(shift, str):
        if shift.strip() == "":
            shift = None
        elif shift.strip().isdigit():
            shift = int(shift)
        else:
            raise ApiError(400, "bad_scope", "shift must be 1, 2 or 3.")
    if shift is None and include == "shift":
        include = "day"  # "this shift" with every shift selected is every shift
    try:
        return Scope.parse(day, shift, include or None, period or "day")
    except ScopeError as error:
        raise ApiError(400, "bad_scope", f"{error}.") from None


def usable_after(after: str | None, scope: Scope) -> str | None:
    """The follow-up's previous address, unless it belongs to another production day: changing the day
    clears the chain, as it clears the history (docs/shifts-agent.md, "Context and history")."""
    if not after:
        return None
    try:
        plan = parse_address(after)
    except AddressError as error:
        raise ApiError(400, "bad_address", str(error)) from None
    return plan.address() if plan.day == scope.day else None


def scope_of_plan(plan: Plan) -> Scope:
    """The scope controls' values for the answer at ``plan``'s address."""
    return plan.scope()


def scope_for_question(question: str, scope: Scope) -> Scope:
    """The page's "Compare all shifts" button also switches the include control to every shift."""
    if question in views.DAY_SCOPE_EXAMPLES and scope.shift is not None:
        return Scope(day=scope.day, shift=scope.shift, include="day", period=scope.period)
    return scope


class AskBody(BaseModel):
    """The page's ask: the question and the scope controls."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=2000)
    day: str
    shift: int | str | None = None
    include: str | None = None
    period: str = "day"
    after: str | None = None
    planner: str | None = Field(default=None, max_length=100)


def create_app(settings: Settings) -> FastAPI:
    """The Shift Investigator sub-app, behind its guard; its lifespan starts and stops the worker processes."""
    workers = 1 if settings.public else settings.shifts_max_concurrency
    runner = Runner(workers, settings.shifts_max_waiting, settings.shifts_answer_cache)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        runner.start()
        try:
            yield
        finally:
            runner.close()

    app = FastAPI(title="Shift Investigator", docs_url=None, redoc_url=None, lifespan=lifespan)
    install_error_handlers(app)
    tokens = RequestTokens(settings.session_secret())
    app.state.runner = runner
    view = views.page_view(settings)
    db = settings.shifts_db_path()

    def html(text: str, headers: dict[str, str] | None = None) -> HTMLResponse:
        """A drawn page with a fresh request token in its slot."""
        return HTMLResponse(text.replace(views.TOKEN_SLOT, tokens.issue()), headers=headers)

    planners = {choice["name"]: choice for choice in view["planners"]}
    # One counter for the shared per-minute limit and the public demo's daily rounds (several processes share it).
    rounds = make_counter(settings.redis_url, settings.var_dir)

    def chosen_planner(name: str | None) -> str:
        """The planner the ask names (the offline one when it names none), if it can run here; else 400."""
        name = (name or "offline").strip() or "offline"
        choice = planners.get(name)
        if choice is None:
            raise ApiError(400, "bad_planner", f"No planner is named {name!r}.")
        if not choice["enabled"]:
            raise ApiError(400, "bad_planner", f"The planner {name} cannot run here: {choice['why']}.")
        return name

    async def version() -> tuple[int, int]:
        return store_version(db)

    async def answer_for(address: str) -> dict[str, Any]:
        key = ("answer", address, await version())
        return await runner.once(key, work.answer, db, address)

    async def asked(question: str, scope: Scope, after: str | None) -> dict[str, Any]:
        previous = parse_address(after) if after else None
        routed = route(question, scope, previous)
        if isinstance(routed, Plan):
            answer = dict(await answer_for(routed.address()))
            answer["question"] = question
            return answer
        return await runner.run(work.ask, db, question, scope)

    async def report_for(period: str, day: date, shift: int | None) -> dict[str, Any]:
        key = ("report", period, day, shift, await version())
        return await runner.once(key, work.report, db, period, day, shift)

    async def days() -> dict[str, str]:
        return await runner.once(("days", await version()), work.days, db)

    async def drawn(template: str, answer: dict[str, Any] | None, scope: Scope, form: dict[str, Any]) -> str:
        """The page or the answer fragment: the answer, its cards, the window's report, laid out and with
        its charts drawn in a worker process, never in the server's."""
        cards_answer = answer
        if answer is None or not views.kpi_groups(answer):
            cards_answer = None
            kpis = views.kpis_address(scope)
            if kpis is not None:
                cards_answer = await answer_for(kpis)
        report = None
        if scope.period in REPORT_PERIODS:
            report = await report_for(scope.period, scope.day, scope.shift)
        parts = {
            "answer": answer,
            "cards_answer": cards_answer,
            "report": report,
            "scope": scope,
            "form": form,
            "days": await days(),
        }
        return await runner.run(work.render, view, template, parts)

    @app.get("/", response_class=HTMLResponse, openapi_extra=query_params(*SCOPE_PARAMS))
    async def index(request: Request) -> HTMLResponse:
        """The page: scope controls, the question box, the scope's cards (and its window's report)."""
        q = request.query_params
        span = await days()
        scope = _parsed_scope(
            q.get("day") or span["last"], q.get("shift", "2"), q.get("include"), q.get("period", "day")
        )
        form = views.form_state(scope, "", None)
        return html(await drawn("index.html", None, scope, form))

    @app.get("/guide", response_class=HTMLResponse)
    async def guide() -> HTMLResponse:
        """The field guide: the plant, the measures, the tools, the loop, the limits, how to ask."""
        return html(await runner.run(work.guide, view, await days()))

    @app.get("/scope", response_class=HTMLResponse, openapi_extra=query_params(*SCOPE_PARAMS))
    async def scope_fragment(request: Request) -> HTMLResponse:
        """The live scope line for the controls' current values (htmx swaps it in)."""
        q = request.query_params
        scope = _parsed_scope(q.get("day", ""), q.get("shift"), q.get("include"), q.get("period", "day"))
        return HTMLResponse(views.scope_text(scope))

    @app.get("/q", response_model=None, openapi_extra=query_params("question", *SCOPE_PARAMS, "after"))
    async def resolve(request: Request) -> Response:
        """A question in the scope, redirected to its canonical address (refusals stay on the page)."""
        q = request.query_params
        # An example button beside the question box sends a second `question`; the last, the button's, wins.
        questions = q.getlist("question")
        question = questions[-1] if questions else ""
        if not question.strip():
            raise ApiError(400, "bad_request", "Ask a question (the question parameter is empty).")
        if len(question) > MAX_QUESTION_CHARS:
            raise ApiError(
                400, "question_too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters."
            )
        scope = scope_for_question(
            question,
            _parsed_scope(q.get("day", ""), q.get("shift"), q.get("include"), q.get("period", "day")),
        )
        after = usable_after(q.get("after"), scope)
        routed = route(question, scope, parse_address(after) if after else None)
        if isinstance(routed, Unavailable):
            if "text/html" not in request.headers.get("accept", ""):
                return JSONResponse(
                    {"status": "unavailable", "reason": routed.reason, "examples": list(routed.examples)}
                )
            answer = await asked(question, scope, after)
            form = views.form_state(scope, question, None)
            return html(await drawn("index.html", answer, scope, form))
        root = request.scope.get("root_path", "")
        return RedirectResponse(root + routed.address(), status_code=303)

    def plan_of(request: Request) -> Plan:
        try:
            return parse_address("/a?" + request.url.query)
        except AddressError as error:
            raise ApiError(400, "bad_address", str(error)) from None

    @app.get("/a", response_model=None, openapi_extra=ADDRESS_PARAMS)
    async def answer_page(request: Request) -> Response:
        """The answer at an address as the page, or as a PDF (format=pdf) or JSON (format=json)."""
        plan = plan_of(request)
        fmt = request.query_params.get("format")
        if fmt not in (None, "json", "pdf"):
            raise ApiError(400, "bad_format", "format must be json or pdf.")
        address = plan.address()
        page_key = ("page", address, await version())
        if fmt is None:
            kept = runner.kept(page_key)
            if kept is not None:
                return html(kept)
        answer = await answer_for(address)
        if fmt == "json":
            return JSONResponse(jsonable_encoder(answer))
        if fmt == "pdf":
            pdf = await runner.once(("answer.pdf", address, await version()), work.answer_pdf, answer)
            return Response(pdf, media_type="application/pdf", headers=_attachment("answer.pdf"))
        scope = scope_of_plan(plan)
        question = answer.get("question") or address
        form = views.form_state(scope, question if question != address else "", address)
        # Kept: the same address is the same page (its token slot filled per response).
        text = await drawn("index.html", answer, scope, form)
        runner.keep(page_key, text)
        return html(text)

    @app.get("/a.json", openapi_extra=ADDRESS_PARAMS)
    async def answer_json(request: Request) -> JSONResponse:
        """The answer at an address as JSON."""
        return JSONResponse(jsonable_encoder(await answer_for(plan_of(request).address())))

    ask_body = {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": AskBody.model_json_schema()}},
        }
    }

    @app.post("/ask", response_model=None, openapi_extra=ask_body)
    async def ask(request: Request) -> Response:
        """Ask from the page: the answer's fragment (htmx) or JSON, with its address."""
        try:
            raw = json.loads(await request.body() or b"null")
        except ValueError:
            raise ApiError(400, "bad_request", "Invalid request: the body is not valid JSON.") from None
        try:
            body = AskBody.model_validate(raw)
        except ValueError as error:
            raise ApiError(400, "bad_request", f"Invalid request: {str(error).splitlines()[0]}.") from None
        if len(body.question) > MAX_QUESTION_CHARS:
            raise ApiError(
                400, "question_too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters."
            )
        scope = scope_for_question(
            body.question, _parsed_scope(body.day, body.shift, body.include, body.period)
        )
        after = usable_after(body.after, scope)
        planner = chosen_planner(body.planner)
        # The daily round guard: in public mode the server's key pays for a bounded number of live rounds a
        # day, whoever asks (docs/deploy.md); a visitor never brings a key.
        live_in_public = settings.public and planner != "offline"
        if (
            live_in_public
            and rounds.hit("public-live-rounds", current_day()) > settings.public_live_rounds_per_day
        ):
            return envelope(
                429,
                "rounds_exhausted",
                "Today's live rounds of this demo are used; ask with the offline planner, or tomorrow.",
                headers={"Retry-After": str(seconds_to_next_day())},
            )
        if planner == "offline":
            answer = await asked(body.question, scope, after)
        else:
            # A live planner's answer costs a model call each time: it is never kept, and its address (if the
            # router reads the question) answers with the offline planner.
            answer = await runner.run(work.ask_live, db, settings, body.question, scope, planner, after)
        if request.headers.get("hx-request") != "true":
            return JSONResponse(jsonable_encoder(answer))
        if answer.get("address"):
            # The controls show the scope the answer used (a named shift or "compare all shifts" moves it);
            # the fragment swaps them out of band.
            scope = scope_of_plan(parse_address(answer["address"]))
        form = views.form_state(scope, body.question, answer.get("address"))
        pushed = answer.get("address") and planner == "offline"
        headers = {"HX-Push-Url": "/shifts" + answer["address"]} if pushed else {}
        return html(await drawn("_main.html", answer, scope, form), headers)

    @app.get("/report", response_model=None, openapi_extra=query_params("period", "day", "shift", "format"))
    async def report(request: Request) -> Response:
        """A period report as JSON, a PDF (format=pdf) or the page (format=html)."""
        q = request.query_params
        period, fmt = q.get("period", ""), q.get("format", "json")
        if period not in REPORT_PERIODS:
            raise ApiError(400, "bad_scope", "period must be week, month or fiscal.")
        if fmt not in ("json", "pdf", "html"):
            raise ApiError(400, "bad_format", "format must be json, pdf or html.")
        scope = _parsed_scope(q.get("day", ""), q.get("shift"), None, "day")
        data = await report_for(period, scope.day, scope.shift)
        if fmt == "pdf":
            key = ("report.pdf", period, scope.day, scope.shift, await version())
            pdf = await runner.once(key, work.report_pdf, data)
            return Response(pdf, media_type="application/pdf", headers=_attachment("period-report.pdf"))
        if fmt == "html":
            page_scope = _parsed_scope(scope.day.isoformat(), scope.shift, None, period)
            return html(await drawn("index.html", None, page_scope, views.form_state(page_scope, "", None)))
        return JSONResponse(data)

    # The OpenAPI document names the media types the allowlist serves (docs/security.md, "Input limits").
    static_types: dict[str, Any] = {media_type: {} for _path, media_type in views.STATIC.values()}

    @app.get(
        "/static/{name:path}",
        response_model=None,
        response_class=FileResponse,
        responses={200: {"content": static_types, "description": "An allowlisted static file."}},
    )
    def static(name: str) -> FileResponse:
        """A file from the static allowlist; anything else is 404."""
        found = views.STATIC.get(name)
        if found is None:
            raise ApiError(404, "not_found", "No such file.")
        path, media_type = found
        return FileResponse(path, media_type=media_type, headers={"Cache-Control": "no-cache"})

    # Outermost of the app's middleware: every route, its errors and its static files pass the guard first.
    app.add_middleware(
        ShiftsGuard,
        settings=settings,
        tokens=tokens,
        counter=rounds,
    )
    return app


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}
