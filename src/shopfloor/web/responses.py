"""Response classes shared by both apps, so a route's OpenAPI document names the media type it serves."""

from __future__ import annotations

from starlette.responses import Response


class CSSResponse(Response):
    """A stylesheet (``text/css; charset=utf-8``); as ``response_class`` it is documented as ``text/css``."""

    media_type = "text/css"
