"""HTTP routes of Shift Investigator, mounted at /shifts by the main app.

`GET /q` resolves a question with the offline router and redirects to its canonical address; `GET /a` answers an
address as HTML (or a PDF with `format=pdf`), `GET /a.json` as JSON; `GET /report` returns a period report. None of them calls a model,
carries a key or keeps a session: follow-up context is the `after=` chain inside the address. Offline
answers run one at a time on their own lock.
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from shopfloor.settings import Settings
from shopfloor.shifts.planning.plans import AddressError, Plan, parse_address
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS, Unavailable, route
from shopfloor.shifts.plant.scope import Scope, ScopeError
from shopfloor.shifts.records import store
from shopfloor.web.errors import ApiError, install_error_handlers
from shopfloor.web.responses import CSSResponse

_offline_lock = threading.Lock()


def _parsed_scope(day: str, shift: int | None, include: str | None, period: str) -> Scope:
    """The request's scope parameters, each rule broken reported in the error envelope (docs/URLS.md)."""
    try:
        return Scope.parse(day, shift, include, period)
    except ScopeError as error:
        raise ApiError(400, "bad_scope", f"{error}.") from None


def create_app(settings: Settings) -> FastAPI:
    """The Shift Investigator sub-app."""
    app = FastAPI(title="Shift Investigator", docs_url=None, redoc_url=None)
    install_error_handlers(app)

    def open_store() -> Any:
        path = settings.shifts_db_path()
        if not path.is_file():
            raise ApiError(503, "no_store", "The record store is not prepared; run `shopfloor prepare`.")
        return store.open_read_only(path)

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return (
            "<!doctype html><title>Shift Investigator</title><h1>Shift Investigator</h1>"
            "<p>Synthetic records, offline planning. Ask with <code>/shifts/q?question=…&amp;day=YYYY-MM-DD"
            "</code>; answers live at their addresses (<code>/shifts/a?…</code>).</p>"
        )

    @app.get("/answer.css", response_model=None, response_class=CSSResponse)
    def answer_css() -> Response:
        from shopfloor.shifts.answers.render import ANSWER_CSS

        return Response(ANSWER_CSS, media_type="text/css")

    @app.get("/q", response_model=None)
    def resolve(
        request: Request,
        question: str,
        day: str,
        shift: int | None = None,
        include: str | None = None,
        period: str = "day",
        after: str | None = None,
    ) -> RedirectResponse | dict[str, Any]:
        if len(question) > MAX_QUESTION_CHARS:
            raise ApiError(
                400, "question_too_long", f"Questions are limited to {MAX_QUESTION_CHARS} characters."
            )
        scope = _parsed_scope(day, shift, include, period)
        try:
            previous = parse_address(after) if after else None
        except AddressError as error:
            raise ApiError(400, "bad_address", str(error)) from None
        routed = route(question, scope, previous)
        if isinstance(routed, Unavailable):
            return {"status": "unavailable", "reason": routed.reason, "examples": list(routed.examples)}
        root = request.scope.get("root_path", "")
        return RedirectResponse(root + routed.address(), status_code=303)

    def run_address(request: Request) -> dict[str, Any]:
        from shopfloor.shifts.investigation import investigate_address

        query = request.url.query
        try:
            plan: Plan = parse_address("/a?" + query)
        except AddressError as error:
            raise ApiError(400, "bad_address", str(error)) from None
        conn = open_store()
        try:
            with _offline_lock:
                result = investigate_address(plan.address(), conn)
        finally:
            conn.close()
        return result.as_dict()

    @app.get("/a", response_model=None)
    def answer_page(request: Request) -> Response:
        """The answer at an address as HTML, or as a PDF with format=pdf."""
        from shopfloor.shifts.answers.render import answer_html, answer_pdf

        data = run_address(request)
        if request.query_params.get("format") == "pdf":
            return Response(answer_pdf(data), media_type="application/pdf")
        if request.query_params.get("format") == "json":
            return JSONResponse(data)
        return HTMLResponse(answer_html(data))

    @app.get("/a.json")
    def answer_json(request: Request) -> dict[str, Any]:
        """The answer at an address as JSON."""
        return run_address(request)

    @app.get("/report", response_model=None)
    def report(period: str, day: str, shift: int | None = None, format: str = "json") -> Response:
        from shopfloor.shifts.answers.render import report_pdf
        from shopfloor.shifts.answers.reports import period_report

        if period not in ("week", "month", "fiscal"):
            raise ApiError(400, "bad_scope", "period must be week, month or fiscal.")
        if format not in ("json", "pdf"):
            raise ApiError(400, "bad_format", "format must be json or pdf.")
        scope = _parsed_scope(day, shift, None, "day")
        conn = open_store()
        try:
            data = period_report(conn, period, scope.day, scope.shift)  # type: ignore[arg-type]
        finally:
            conn.close()
        if format == "pdf":
            return Response(report_pdf(data), media_type="application/pdf")
        return JSONResponse(jsonable_encoder(data))

    return app
