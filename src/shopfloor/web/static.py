"""Static files from an allowlist, the one way both apps serve them (src/shopfloor/web/README.md).

An app lists its files by URL name with their media type (:class:`StaticAllowlist`); its static route answers
a listed name with the file and anything else with the 404 envelope, and its OpenAPI document names the media
types it serves. The vendored scripts both apps' pages load live in ``web/static/vendor`` (:func:`vendor_files`).

Pages link a static file by its content (:func:`versioned`: ``app.css?v=<hash of the file>``). A request that
names the file's current hash is answered ``Cache-Control: public, max-age=31536000, immutable``: a phone keeps
it and never asks again, and an upgrade changes the hash, so the page links a new URL. Without the hash (or
with an old one) the answer is ``no-cache``, so a browser revalidates (:func:`cache_control`).

Our scripts and stylesheets are served without their comments and indentation (:func:`packed`); a client
that accepts Brotli gets them compressed once at Brotli's highest quality
(:func:`shopfloor.web.compression.precompressed`), never again per request; any other client gets them packed
by the server's compression as they leave (docs/deploy.md).
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.responses import FileResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from shopfloor.web.compression import MINIMUM_SIZE, choose_encoding, compressible, precompressed
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


@cache
def _data_uri(path: Path, mtime_ns: int, size: int) -> str:
    return "data:image/svg+xml," + quote(path.read_text(encoding="utf-8").strip(), safe=" =:/;,.-'\"")


def icon_data_uri(path: Path) -> str:
    """The small SVG icon at ``path`` as a ``data:`` address for a page's ``<link rel="icon">``: a few hundred
    bytes inside the page instead of one more request with its headers on a slow link (the pages' CSP allows
    ``data:`` images)."""
    stat = path.stat()
    return _data_uri(path, stat.st_mtime_ns, stat.st_size)


def cache_control(path: Path, version: str | None) -> str:
    """``immutable`` for a request naming the file's current content hash, else ``no-cache``."""
    return IMMUTABLE if version and path.is_file() and version == content_hash(path) else REVALIDATE


def media_type(path: Path) -> str:
    """The media type a static file is served as (by its suffix)."""
    return MEDIA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def vendor_files(*names: str) -> dict[str, tuple[Path, str]]:
    """The named vendored files as allowlist entries, under ``vendor/``."""
    return {f"vendor/{name}": (VENDOR / name, media_type(VENDOR / name)) for name in names}


@cache
def _served(path: Path, mtime_ns: int, size: int) -> bytes:
    if path.suffix not in PACKED_SUFFIXES or path.parent == VENDOR:
        return path.read_bytes()
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".css":
        text = _CSS_COMMENT.sub("", text)
    lines = (line.strip() for line in text.splitlines())
    if path.suffix == ".js":
        # Only whole-line comments: our scripts have no template literals or continued strings, so a line
        # that starts with // is a comment (tests/web/test_compression.py checks the scripts still run).
        lines = (line for line in lines if not line.startswith("//"))
    return "\n".join(line for line in lines if line).encode("utf-8") + b"\n"


_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
PACKED_SUFFIXES = (".js", ".css")


def packed(path: Path) -> bytes:
    """A static file as served, read once per version of the file: our own scripts and stylesheets without
    their comments, indentation and blank lines (the comments are for the people who read the source; a phone
    on a slow link should not carry them), every other file (the vendored ones too) as it is."""
    stat = path.stat()
    return _served(path, stat.st_mtime_ns, stat.st_size)


def as_served(response: Response, path: Path, accept_encoding: str) -> Response:
    """``response`` (the file at ``path``) as it is served: a text file worth compressing is answered from
    memory, :func:`packed`, and in Brotli packed once at the highest quality when the client accepts it (the
    server's compression packs the other answers as they leave); anything else unchanged."""
    kind = response.headers.get("content-type", "")
    if response.status_code != 200 or not compressible(kind):
        return response
    body = packed(path)
    if len(body) < MINIMUM_SIZE:
        return response
    headers = {
        name: value for name, value in response.headers.items() if name in ("content-type", "cache-control")
    }
    # Another representation of the file's version: a weak validator, so a revalidation still matches it.
    etag = response.headers.get("etag")
    if etag:
        headers["etag"] = etag if etag.startswith("W/") else f"W/{etag}"
    headers["vary"] = "Accept-Encoding"
    if choose_encoding(accept_encoding) == "br":
        headers["content-encoding"] = "br"
        body = precompressed(body)
    return Response(body, headers=headers)


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

    def response(self, name: str, version: str | None = None, accept_encoding: str = "") -> Response:
        """The file at ``name`` (kept for good when ``version`` is its content hash; in Brotli when
        ``accept_encoding`` accepts it); 404 in the envelope for anything not listed."""
        found = self.files.get(name)
        if found is None:
            raise ApiError(404, "not_found", "No such file.")
        path, kind = found
        plain = FileResponse(path, media_type=kind, headers={"Cache-Control": cache_control(path, version)})
        return as_served(plain, path, accept_encoding)


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
        accept_encoding = dict(scope.get("headers") or []).get(b"accept-encoding", b"").decode("latin-1")
        return as_served(response, self.folder / path, accept_encoding)

    def url(self, root: str, name: str) -> str:
        """The link to ``name`` under ``root`` (where this folder is mounted), with its content hash."""
        return versioned(f"{root}/{name}", self.folder / name)
