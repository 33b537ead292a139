"""One compression for both apps' responses: Brotli where the client accepts it, else gzip (docs/deploy.md).

Brotli is what phones on a slow link gain most from: htmx, our scripts and styles travel about a tenth
smaller than under gzip. Dynamic answers (pages, JSON) are compressed as they leave, Brotli at quality 5 and
gzip at level 6 (nearly the size of the highest settings for a fraction of the CPU); static files are
compressed once at Brotli's highest quality and kept per version of the file (:func:`precompressed`), so a
request for them costs no compression at all. Event streams, images and PDFs (compressed inside already)
travel as they are, as does any body that already says its encoding.

The responders are Starlette's own (``starlette.middleware.gzip``): its identity responder decides when a
body is worth compressing and handles streamed bodies; ours adds only the Brotli stream.
"""

from __future__ import annotations

import re
from functools import lru_cache

import brotli
from starlette.datastructures import Headers
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipResponder, IdentityResponder
from starlette.types import ASGIApp, Receive, Scope, Send

MINIMUM_SIZE = 1000  # bytes: a smaller body gains less than the encoding costs
GZIP_LEVEL = 6
BROTLI_QUALITY = 5  # for answers made per request
BROTLI_STATIC_QUALITY = 11  # for static files, compressed once
EXCLUDED = (*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/pdf", "image/png", "image/jpeg")


def accepted(accept_encoding: str) -> set[str]:
    """The encodings an ``Accept-Encoding`` header accepts (those not refused with ``q=0``), lower case."""
    names = set()
    for item in accept_encoding.split(","):
        name, _, params = item.partition(";")
        quality = params.strip().lower()
        if name.strip() and not re.fullmatch(r"q\s*=\s*0(\.0*)?", quality):
            names.add(name.strip().lower())
    return names


def choose_encoding(accept_encoding: str) -> str | None:
    """``br`` when the client accepts it, else ``gzip`` when it does, else None (the body as it is)."""
    names = accepted(accept_encoding)
    if "br" in names:
        return "br"
    if "gzip" in names:
        return "gzip"
    return None


class BrotliResponder(IdentityResponder):
    """Starlette's responder with a Brotli stream: each streamed part is flushed so it reaches the client."""

    content_encoding = "br"

    def __init__(self, app: ASGIApp, minimum_size: int, *, exclude_content_types: tuple[str, ...]) -> None:
        super().__init__(app, minimum_size, exclude_content_types=exclude_content_types)
        self._compressor: brotli.Compressor | None = None

    async def apply_compression(self, body: bytes, *, more_body: bool) -> bytes:
        """The body's next compressed bytes (the stream ends with the last part)."""
        if self._compressor is None:
            self._compressor = brotli.Compressor(quality=BROTLI_QUALITY)
        out = self._compressor.process(body)
        if more_body:
            # brotli-stubs leaves out ``flush``, which every brotli 1.x Compressor has.
            return out + self._compressor.flush()  # type: ignore[attr-defined,no-any-return]
        return out + self._compressor.finish()


class CompressionMiddleware:
    """Compresses every response over :data:`MINIMUM_SIZE` bytes in the best encoding the client accepts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        encoding = choose_encoding(Headers(scope=scope).get("accept-encoding", ""))
        responder: ASGIApp
        if encoding == "br":
            responder = BrotliResponder(self.app, MINIMUM_SIZE, exclude_content_types=EXCLUDED)
        elif encoding == "gzip":
            responder = GZipResponder(
                self.app, MINIMUM_SIZE, compresslevel=GZIP_LEVEL, exclude_content_types=EXCLUDED
            )
        else:
            responder = IdentityResponder(self.app, MINIMUM_SIZE, exclude_content_types=EXCLUDED)
        await responder(scope, receive, send)


@lru_cache(maxsize=64)
def precompressed(data: bytes) -> bytes:
    """A static file's bytes at Brotli's highest quality, compressed once and kept (``data`` is the one bytes
    object :func:`shopfloor.web.static.packed` keeps per version of a file, so its hash is computed once)."""
    return brotli.compress(data, quality=BROTLI_STATIC_QUALITY)


def compressible(media_type: str) -> bool:
    """Whether a static file of this media type is worth compressing (text, not images that are packed)."""
    kind = media_type.partition(";")[0].strip().lower()
    return kind.startswith("text/") or kind in ("image/svg+xml", "application/javascript", "application/json")
