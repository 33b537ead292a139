"""The static family: ``GET /static/…`` the allowlisted static files (``views.STATIC``, served the shared
way of ``shopfloor.web.static``); anything else is 404. The guard does not count them against the
per-minute limit (docs/security.md, "The /shifts routes")."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from shopfloor.shifts.pages import views

router = APIRouter()


# The OpenAPI document names the media types the allowlist serves (docs/security.md, "Input limits").
@router.get(
    "/static/{name:path}",
    response_model=None,
    response_class=FileResponse,
    responses=views.STATIC.responses(),
)
def static(name: str) -> FileResponse:
    """A file from the static allowlist; anything else is 404."""
    return views.STATIC.response(name)
