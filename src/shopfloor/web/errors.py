"""The one error envelope: ``{"error": {"code", "message", "request_id"}}``, plus optional extra keys.

Handlers raise :class:`ApiError`; validation failures, unknown routes and unexpected exceptions are turned
into the same envelope, so no route ever answers with another shape (and never with a bare 500 page).

One convention for a browser, the same in both apps: an app that installs an error page
(``install_error_handlers(app, page=...)``) answers a request that asks for ``text/html`` (a browser's
navigation, not an htmx swap) with that HTML page, with the same status and headers; every other client gets
the envelope (src/shopfloor/web/README.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shopfloor.logs import get_logger, request_id_var
from shopfloor.web.openapi import install_envelope_openapi
from shopfloor.web.store_errors import StoreFaultError, fault_headers, store_fault

log = get_logger("shopfloor.web")

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "bad_request",
    429: "rate_limited",
    500: "internal_error",
    502: "model_error",
    503: "unavailable",
    504: "timeout",
}


class ApiError(Exception):
    """An error with an HTTP status, a stable code and a plain message; ``extra`` joins the envelope."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


class BodyError(ApiError):
    """A request body field that fails its rule: 400 ``bad_request`` with a plain message, the same envelope as
    any :class:`ApiError`; ``field`` names the field, so a page can say why in its own language without reading
    the message."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(400, "bad_request", message)
        self.field = field


def envelope(
    status: int,
    code: str,
    message: str,
    request_id: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """The JSON response for an error (``headers``: such as ``Allow`` on a 405)."""
    body: dict[str, Any] = {
        "error": {"code": code, "message": message, "request_id": request_id or request_id_var.get()}
    }
    body.update(extra)
    return JSONResponse(body, status_code=status, headers=headers)


def _request_id(request: Request) -> str | None:
    return getattr(request.state, "request_id", None) or request_id_var.get()


ErrorPage = Callable[[Request, int, str, str], str]
"""An app's browser error page: ``(request, status, code, message)`` to the page's HTML."""


def wants_page(request: Request) -> bool:
    """Whether the client is a browser asking for a page: ``text/html`` in ``Accept`` and not an htmx
    request (htmx swaps fragments and leaves an error response unswapped)."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept.lower() and request.headers.get("hx-request") != "true"


def error_response(
    request: Request,
    status: int,
    code: str,
    message: str,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> Response:
    """An error as this request should see it: the app's error page for a browser asking for a page (when
    the app installed one), else the envelope."""
    page: ErrorPage | None = getattr(getattr(request.scope.get("app"), "state", None), "error_page", None)
    if page is not None and wants_page(request):
        try:
            body = page(request, status, code, message)
        except Exception:
            log.exception("http.error_page_failed", extra={"path": request.url.path})
        else:
            return HTMLResponse(body, status_code=status, headers=headers)
    return envelope(status, code, message, _request_id(request), headers=headers, **extra)


def describe_validation(exc: RequestValidationError) -> str:
    """A short plain sentence for the first validation problems of a request body."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        if err.get("type") == "json_invalid":
            # The location holds only the character position where the JSON breaks.
            parts.append(f"the body is not valid JSON (it breaks at character {loc})")
        elif err.get("type") == "model_attributes_type" and loc == "body":
            # Also what a JSON body sent without `Content-Type: application/json` gets.
            parts.append("the body must be a JSON object sent with Content-Type: application/json")
        else:
            parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "Invalid request: " + "; ".join(parts) + "."


INTERNAL_MESSAGE = "Something went wrong on our side."


class ErrorBoundaryMiddleware:
    """Answers an unexpected exception with one 500 envelope and one log line, and does not re-raise it.

    Starlette's outermost layer always re-raises after answering, so a mounted app's error reached the outer
    app (logged again) and then the server, which logged it a third time and dropped the keep-alive
    connection without a word. Caught here, the response is complete and the connection stays usable.
    See docs/security.md (HTTP errors).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("http.unhandled", extra={"path": scope.get("path")})
            if started:
                # Half a response is out: nothing more can be said on this connection; the server closes it.
                return
            request_id = scope.get("state", {}).get("request_id") or request_id_var.get()
            response = envelope(500, "internal_error", INTERNAL_MESSAGE, request_id)
            await response(scope, receive, send)


# The methods a route of ours may serve (``Allow`` is worked out by asking the routes about each).
_METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


def allowed_methods(routes: list[BaseRoute], scope: Scope) -> set[str]:
    """Every method the routes serve at the scope's path. The router's own 405 names only the methods of
    the first route whose path matches; a path served by two routes (GET and POST) needs both in ``Allow``.
    Mounts are left out: they take every method and answer for themselves."""
    return {
        method
        for method in _METHODS
        for route in routes
        if not isinstance(route, Mount) and route.matches({**scope, "method": method})[0] is Match.FULL
    }


def install_error_handlers(app: FastAPI, page: ErrorPage | None = None) -> None:
    """Make every error of ``app`` answer with the envelope (unexpected ones once, see
    :class:`ErrorBoundaryMiddleware`); with ``page``, a browser asking for a page gets that error page
    instead (:func:`error_response`)."""
    app.add_middleware(ErrorBoundaryMiddleware)
    install_envelope_openapi(app, pages=page is not None)
    app.state.error_page = page

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return error_response(request, exc.status, exc.code, exc.message, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return error_response(request, 400, "bad_request", describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            served = allowed_methods(request.app.router.routes, request.scope)
            if served:
                headers["Allow"] = ", ".join(sorted(served))
        return error_response(request, exc.status_code, code, message, headers=headers or None)

    async def _store(request: Request, exc: Exception) -> Response:
        fault = store_fault(exc)
        if fault is None:
            log.error("http.unhandled", exc_info=exc, extra={"path": request.url.path})
            return error_response(request, 500, "internal_error", INTERNAL_MESSAGE)
        # The transaction was rolled back as the error left it: nothing is half-written.
        log.warning(
            "store.fault",
            extra={"code": fault.code, "error": type(exc).__name__, "path": request.url.path},
        )
        return error_response(request, fault.status, fault.code, fault.message, headers=fault_headers(fault))

    app.add_exception_handler(SQLAlchemyError, _store)
    app.add_exception_handler(StoreFaultError, _store)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Only an error in a middleware outside the boundary gets here; the server logs what is re-raised.
        return envelope(500, "internal_error", INTERNAL_MESSAGE, _request_id(request))
