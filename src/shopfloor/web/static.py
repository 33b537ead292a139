"""Static files from an allowlist, the one way both apps serve them (src/shopfloor/web/README.md).

An app lists its files by URL name with their media type (:class:`StaticAllowlist`); its static route answers
a listed name with the file and anything else with the 404 envelope, and its OpenAPI document names the media
types it serves. The vendored scripts both apps' pages load live in ``web/static/vendor`` (:func:`vendor_files`).

Pages link a static file by its content (:func:`versioned`: ``app.css?v=<hash of the file>``). A request that
names the file's current hash is answered ``Cache-Control: public, max-age=31536000, immutable``: a phone keeps
it and never asks again, and an upgrade changes the hash, so the page links a new URL. Without the hash (or
with an old one) the answer is ``no-cache``, so a browser revalidates (:func:`cache_control`).
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from fastapi.responses import FileResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from shopfloor.web.errors import ApiError

VENDOR = Path(__file__).resolve().parent / "static" / "vendor"
MEDIA_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@cache
def _hash_of(path: Path, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def content_hash(path: Path) -> str:
    """The first 16 hex digits of the file's sha256 (read again only when the file changes)."""
    stat = path.stat()
    return _hash_of(path, stat.st_mtime_ns, stat.st_size)


def versioned(url: str, path: Path) -> str:
    """``url`` of the static file at ``path`` with its content hash (``?v=``), for a page to link."""
    return f"{url}?v={content_hash(path)}"


def cache_control(path: Path, version: str | None) -> str:
    """``immutable`` for a request naming the file's current content hash, else ``no-cache``."""
    return IMMUTABLE if version and path.is_file() and version == content_hash(path) else REVALIDATE


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

    def url(self, root: str, name: str) -> str:
        """The link to the listed file ``name`` under ``root`` (the app's static prefix), with its hash."""
        path, _kind = self.files[name]
        return versioned(f"{root}/{name}", path)

    def response(self, name: str, version: str | None = None) -> FileResponse:
        """The file at ``name`` (kept for good when ``version`` is its content hash); 404 in the envelope for
        anything not listed."""
        found = self.files.get(name)
        if found is None:
            raise ApiError(404, "not_found", "No such file.")
        path, kind = found
        return FileResponse(path, media_type=kind, headers={"Cache-Control": cache_control(path, version)})


class VersionedStaticFiles(StaticFiles):
    """Starlette's ``StaticFiles`` for a folder, with the cache rule above: ``immutable`` for a request naming
    the file's content hash (``?v=``), ``no-cache`` otherwise."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self.folder = Path(directory)

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file, with its ``Cache-Control``."""
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            query = dict(
                part.split("=", 1)
                for part in scope.get("query_string", b"").decode("latin-1").split("&")
                if "=" in part
            )
            response.headers["Cache-Control"] = cache_control(self.folder / path, query.get("v"))
        return response

    def url(self, root: str, name: str) -> str:
        """The link to ``name`` under ``root`` (where this folder is mounted), with its content hash."""
        return versioned(f"{root}/{name}", self.folder / name)
