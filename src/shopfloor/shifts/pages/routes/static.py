"""The static family: ``GET /static/…`` the allowlisted static files (``views.STATIC``); anything else is 404.
The guard does not count them against the per-minute limit (docs/security.md, "The /shifts routes")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from shopfloor.shifts.pages import views
from shopfloor.web.errors import ApiError

router = APIRouter()

# The OpenAPI document names the media types the allowlist serves (docs/security.md, "Input limits").
STATIC_TYPES: dict[str, Any] = {media_type: {} for _path, media_type in views.STATIC.values()}


@router.get(
    "/static/{name:path}",
    response_model=None,
    response_class=FileResponse,
    responses={200: {"content": STATIC_TYPES, "description": "An allowlisted static file."}},
)
def static(name: str) -> FileResponse:
    """A file from the static allowlist; anything else is 404."""
    found = views.STATIC.get(name)
    if found is None:
        raise ApiError(404, "not_found", "No such file.")
    path, media_type = found
    return FileResponse(path, media_type=media_type, headers={"Cache-Control": "no-cache"})
