"""Make an app's OpenAPI document say what the edge answers: the error envelope, never FastAPI's 422.

Validation failures answer 400 in the envelope (see ``install_error_handlers``); every operation can also get a
400 from the edge's input checks and a 500, and every operation with a body a 413 from the body limit
(docs/security.md, input limits).
"""

from __future__ import annotations

from collections.abc import Callable
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

EDGE_ERRORS = {
    "400": "Bad request: invalid parameters or body, or text the edge refuses",
    "500": "Unexpected error",
}
BODY_ERRORS = {"413": "The request body is too large"}

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
    429: "A limit counted per user or client (`rate_limited`)",
    499: "The client went away during the run (`client_closed_request`; the run is stopped)",
    502: "The model failed after its retries (`model_error`)",
    503: "The store does not answer or accepts no writes (`store_unavailable`, `store_read_only`; `Retry-After`)",
    504: "The run budget ran out (`timeout`)",
    507: "The store is full (`store_full`; nothing was saved)",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route or router: each status answered with the envelope."""
    return {status: _envelope_response(STATUS_MEANINGS[status]) for status in statuses}


def _envelope_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
    }


def with_envelope(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with each 422 replaced by the 400 envelope and the edge's errors on every operation."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            responses.pop("422", None)
            errors = {**EDGE_ERRORS, **(BODY_ERRORS if "requestBody" in operation else {})}
            for status, description in errors.items():
                responses.setdefault(status, _envelope_response(description))
    schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    for name in _VALIDATION_SCHEMAS:
        schemas.pop(name, None)
    schemas["ErrorEnvelope"] = ENVELOPE_SCHEMA
    return document


def install_envelope_openapi(app: FastAPI) -> None:
    """Serve ``app``'s OpenAPI document through :func:`with_envelope` (FastAPI builds and caches it once)."""
    build = app.openapi
    rewritten: list[dict[str, Any]] = []

    def document() -> dict[str, Any]:
        if not rewritten:
            rewritten.append(with_envelope(build()))
        return rewritten[0]

    replace: Callable[[], dict[str, Any]] = document
    app.openapi = replace  # type: ignore[method-assign]
