"""Make an app's OpenAPI document say what its routes answer: the error envelope, never FastAPI's 422.

Validation failures answer 400 in the envelope (see ``install_error_handlers``); every operation can also get a
400 from the edge's input checks and a 500, every operation with a body a 413 from the body limit, and every
operation with a path parameter the router's 404 for a value it cannot match (docs/security.md, input limits).

Routes declare the rest with ``responses=``, one way in both apps: :func:`error_responses` for statuses answered
with the envelope (the one ``ErrorEnvelope`` component), :func:`page_errors` for statuses answered only with an
HTML page, :func:`redirect` for a 303 and :func:`answered_as` for a success with more than one media type. In an
app with a browser error page (``install_error_handlers(app, page=...)``) every envelope may also come as that
page, so the document lists ``text/html`` beside the envelope.

A method a path does not serve answers 405 with ``Allow`` listing the methods the document names for that
path; no operation answers it, so no operation lists it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI

ENVELOPE_SCHEMA: dict[str, Any] = {
    "title": "ErrorEnvelope",
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "request_id"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "request_id": {"type": "string"},
            },
        }
    },
}

# The schema of each media type a route may answer (a page's HTML, a PDF, JSON the route builds itself).
MEDIA_SCHEMAS: dict[str, dict[str, Any]] = {
    "text/html": {"type": "string"},
    "application/pdf": {"type": "string", "format": "binary"},
    "application/json": {},
}
PAGE_CONTENT = {"text/html": {"schema": {"type": "string"}}}
ENVELOPE_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}}

EDGE_ERRORS = {
    "400": "Bad request: invalid parameters or body, or text the edge refuses",
    "500": "Unexpected error",
}
BODY_ERRORS = {"413": "The request body is too large (`payload_too_large`)"}
PATH_ERROR = "No such route: a path parameter the router cannot match (`not_found`)"

_VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")

# What each status a route may answer means, for ``responses=`` (docs/errors.md, "Codes at the edge").
STATUS_MEANINGS = {
    401: "No or bad session or token (`unauthorized`); a failed sign-in (`invalid_credentials`)",
    403: "The role may not do this (`forbidden`); a cookie request without its CSRF token (`csrf_failed`)",
    404: "No such row in the caller's workshop (`not_found`)",
    409: (
        "The card changed since it was shown (`conflict`); an idempotency key used for another note"
        " (`idempotency_key_reused`) or whose note is still being read (`idempotency_in_progress`)"
    ),
    413: "The request body is too large (`payload_too_large`)",
    415: "A body that is not JSON where JSON is required (`unsupported_media_type`)",
    421: "A host name this app does not answer for (`bad_host`)",
    429: (
        "A limit counted per user or client (`rate_limited`); the public demo's live rounds used up"
        " (`rounds_exhausted`); `Retry-After` says when to try again"
    ),
    499: "The client went away during the run (`client_closed_request`; the run is stopped)",
    502: "The model failed after its retries (`model_error`)",
    503: (
        "The store does not answer or accepts no writes (`store_unavailable`, `store_read_only`, `no_store`);"
        " the investigator busy or its request count out of reach (`busy`, `rate_limit_unavailable`);"
        " `Retry-After`"
    ),
    504: "The run budget ran out (`timeout`)",
    507: "The store is full (`store_full`; nothing was saved)",
}


Responses = dict[int | str, dict[str, Any]]


def error_responses(*statuses: int, meanings: Mapping[int, str] | None = None) -> Responses:
    """``responses=`` for a route or router: each status answered with the envelope (``meanings`` may say
    what a status means on these routes, else :data:`STATUS_MEANINGS`)."""
    said = {**STATUS_MEANINGS, **(meanings or {})}
    return {status: _envelope_response(said[status]) for status in statuses}


def page_errors(*statuses: int, meanings: Mapping[int, str] | None = None) -> Responses:
    """``responses=`` for statuses a route answers only with an HTML page (never the envelope): a page's own
    error page, or a form shown again with its error."""
    said = {**STATUS_MEANINGS, **(meanings or {})}
    return {
        status: {"description": said[status], "content": copy.deepcopy(PAGE_CONTENT)} for status in statuses
    }


def redirect(description: str) -> Responses:
    """``responses=`` for a 303: no body, the next address in ``Location``."""
    location = {"description": "Where to go next", "schema": {"type": "string"}}
    return {303: {"description": description, "headers": {"Location": location}}}


def answered_as(*media_types: str, description: str = "Successful Response") -> Responses:
    """``responses=`` for a 200 that comes in several media types (a page, a PDF, JSON), as the request asks."""
    content = {media_type: {"schema": copy.deepcopy(MEDIA_SCHEMAS[media_type])} for media_type in media_types}
    return {200: {"description": description, "content": content}}


def _envelope_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": copy.deepcopy(ENVELOPE_CONTENT)}


def _with_envelope_content(responses: dict[str, Any], status: str, description: str) -> None:
    """The envelope among ``status``'s media types (the status documented with ``description`` if it was not)."""
    response = responses.setdefault(status, {"description": description})
    response.setdefault("content", {}).update(copy.deepcopy(ENVELOPE_CONTENT))


def with_envelope(document: dict[str, Any], pages: bool = False) -> dict[str, Any]:
    """``document`` with each 422 replaced by the 400 envelope and the edge's errors on every operation; with
    ``pages`` (the app answers a browser's errors with a page), every envelope may also be ``text/html``."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            responses.pop("422", None)
            errors = {**EDGE_ERRORS, **(BODY_ERRORS if "requestBody" in operation else {})}
            for status, description in errors.items():
                responses.setdefault(status, _envelope_response(description))
            if any(p.get("in") == "path" for p in operation.get("parameters", [])):
                _with_envelope_content(responses, "404", PATH_ERROR)
            if pages:
                for status, response in responses.items():
                    content = response.get("content", {})
                    if (
                        status[:1] in ("4", "5")
                        and content.get("application/json") == ENVELOPE_CONTENT["application/json"]
                    ):
                        content.update(copy.deepcopy(PAGE_CONTENT))
    schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    for name in _VALIDATION_SCHEMAS:
        schemas.pop(name, None)
    schemas["ErrorEnvelope"] = ENVELOPE_SCHEMA
    return document


def install_envelope_openapi(app: FastAPI, pages: bool = False) -> None:
    """Serve ``app``'s OpenAPI document through :func:`with_envelope` (FastAPI builds and caches it once);
    ``pages``: the app answers a browser's errors with a page."""
    build = app.openapi
    rewritten: list[dict[str, Any]] = []

    def document() -> dict[str, Any]:
        if not rewritten:
            rewritten.append(with_envelope(build(), pages))
        return rewritten[0]

    replace: Callable[[], dict[str, Any]] = document
    app.openapi = replace  # type: ignore[method-assign]
