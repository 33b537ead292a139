"""The static family: ``GET /static/…`` the allowlisted static files (``views.STATIC``, served the shared
way of ``shopfloor.web.static``); anything else is 404. The guard does not count them against the
per-minute limit (docs/security.md, "The /shifts routes")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from starlette.responses import Response

from shopfloor.shifts.pages import views
from shopfloor.shifts.pages.guard import STATIC_GUARDED

router = APIRouter(responses=STATIC_GUARDED)


# The OpenAPI document names the media types the allowlist serves (docs/security.md, "Input limits").
@router.get(
    "/static/{name:path}",
    response_model=None,
    response_class=FileResponse,
    responses=views.STATIC.responses(),
)
def static(request: Request, name: str, v: Annotated[str | None, Query(max_length=64)] = None) -> Response:
    """A file from the static allowlist (kept for good when ``v`` is its content hash, in Brotli for a client
    that accepts it); anything else is 404."""
    return views.STATIC.response(name, v, request.headers.get("accept-encoding", ""))
