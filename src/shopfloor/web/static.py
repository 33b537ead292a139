"""Static files from an allowlist, the one way both apps serve them (src/shopfloor/web/README.md).

An app lists its files by URL name with their media type (:class:`StaticAllowlist`); its static route answers
a listed name with the file (``Cache-Control: no-cache``, so a browser revalidates after an upgrade) and
anything else with the 404 envelope, and its OpenAPI document names the media types it serves. The vendored
scripts both apps' pages load live in ``web/static/vendor`` (:func:`vendor_files`).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi.responses import FileResponse

from shopfloor.web.errors import ApiError

VENDOR = Path(__file__).resolve().parent / "static" / "vendor"
MEDIA_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}


def media_type(path: Path) -> str:
    """The media type a static file is served as (by its suffix)."""
    return MEDIA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def vendor_files(*names: str) -> dict[str, tuple[Path, str]]:
    """The named vendored files as allowlist entries, under ``vendor/``."""
    return {f"vendor/{name}": (VENDOR / name, media_type(VENDOR / name)) for name in names}


class StaticAllowlist:
    """An allowlist of static files: URL name -> (file, media type). Nothing else is served."""

    def __init__(self, files: Mapping[str, tuple[Path, str]]) -> None:
        self.files = dict(files)

    def get(self, name: str) -> tuple[Path, str] | None:
        """The file and media type served at ``name``, or None."""
        return self.files.get(name)

    def responses(self) -> dict[int | str, dict[str, Any]]:
        """The static route's documented answer: the media types the allowlist serves."""
        content: dict[str, Any] = {kind: {} for _path, kind in self.files.values()}
        return {200: {"content": content, "description": "An allowlisted static file."}}

    def response(self, name: str) -> FileResponse:
        """The file at ``name``; 404 in the envelope for anything not listed."""
        found = self.files.get(name)
        if found is None:
            raise ApiError(404, "not_found", "No such file.")
        path, kind = found
        return FileResponse(path, media_type=kind, headers={"Cache-Control": "no-cache"})
