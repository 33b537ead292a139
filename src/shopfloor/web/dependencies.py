"""FastAPI dependencies shared by both apps' routes."""

from __future__ import annotations

import email.message
from functools import lru_cache

from fastapi import Request

from shopfloor.web.errors import ApiError

NOT_JSON = "Invalid request: the body must be a JSON object sent with Content-Type: application/json."


def is_json_media_type(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` value names JSON (``application/json`` or ``application/<x>+json``)."""
    if not content_type:
        return False
    return _names_json(content_type)


@lru_cache(maxsize=256)
def _names_json(content_type: str) -> bool:
    # Parsed with the standard library's header rules once per distinct value: clients send a handful.
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


async def require_json(request: Request) -> None:
    """For a route that reads its JSON body itself: refuse any other content type, with the same 400 the
    routes with a body model answer (``Depends(require_json)`` in the route's ``dependencies``).

    Async only so that FastAPI calls it on the event loop: a plain function would cost every request a trip
    to the thread pool and back for a header check."""
    if not is_json_media_type(request.headers.get("content-type")):
        raise ApiError(400, "bad_request", NOT_JSON)
