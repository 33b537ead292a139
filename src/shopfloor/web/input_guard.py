"""The edge's text rules: no NUL characters, no unpaired surrogates, UTF-8 only, JSON nested at most so deep.

PostgreSQL cannot store a NUL in text and no database driver can encode an unpaired surrogate, so such text
used to fail deep inside a route (a 500 on PostgreSQL, a different answer on SQLite). A JSON body nested
thousands of levels deep exhausted the parser's recursion. :class:`InputGuardMiddleware` checks everything a
route can read — the path, the query string, the headers, a JSON or form body — and answers 400 in the
envelope before the route runs, the same on every store. See docs/security.md (input limits).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shopfloor.logs import request_id_var
from shopfloor.web.errors import envelope

_SURROGATE = re.compile("[\ud800-\udfff]")
# A JSON string (escapes included); what is left once strings are blanked is structure only.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_FORM = "application/x-www-form-urlencoded"


def text_problem(text: str) -> str | None:
    """What makes ``text`` unacceptable (``"a NUL character"``, ``"an unpaired surrogate"``), or None."""
    if "\x00" in text:
        return "a NUL character"
    if _SURROGATE.search(text):
        return "an unpaired surrogate"
    return None


def json_too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects in ``text`` nest deeper than ``limit`` (brackets inside strings do not count).

    Counted without parsing, so a hostile body never reaches the recursive decoder."""
    depth = 0
    for match in _BRACKET.finditer(_JSON_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def json_strings(value: Any) -> Iterator[str]:
    """Every string in a decoded JSON value, object keys included (iteratively: depth is already bounded)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def form_problem(raw: bytes) -> str | None:
    """What is wrong with the names and values of a query string or form body (percent-decoded), or None."""
    for pair in raw.split(b"&"):
        for part in pair.split(b"=", 1):
            try:
                text = unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
            except UnicodeDecodeError:
                return "text that is not UTF-8"
            if problem := text_problem(text):
                return problem
    return None


def body_problem(raw: bytes, content_type: str, max_depth: int) -> str | None:
    """What the edge refuses in a request body, or None; a body that is not JSON at all is left to the route.

    Every body but a form is read as a route's JSON decoder would read it (some routes decode any body)."""
    if not raw:
        return None
    media = content_type.split(";", 1)[0].strip().lower()
    if media == _FORM:
        return form_problem(raw)
    if media.startswith("multipart/"):
        return None  # no route reads one (docs/security.md); the route answers it
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return "text that is not UTF-8"
    if problem := text_problem(text):  # raw NULs: also what a UTF-16 or UTF-32 body holds
        return problem
    if json_too_deep(text, max_depth):
        return f"JSON nested deeper than {max_depth} levels"
    try:
        value = json.loads(text)
    except ValueError:
        return None
    for string in json_strings(value):
        if problem := text_problem(string):
            return problem
    return None


def request_problem(scope: Scope) -> str | None:
    """What the edge refuses in the path, query string or headers of a request, as a sentence, or None."""
    if problem := text_problem(scope.get("path", "")):
        return f"The path holds {problem}."
    if problem := form_problem(scope.get("query_string", b"")):
        return f"The query string holds {problem}."
    for name, value in scope.get("headers") or []:
        if b"\x00" in name or b"\x00" in value:
            return "A header holds a NUL character."
    return None


class InputGuardMiddleware:
    """Refuses, with a 400 envelope, a request whose text breaks the rules above; the route never runs.

    Sits inside the body limit, which has already read the (bounded) body."""

    def __init__(self, app: ASGIApp, max_json_depth: int) -> None:
        self.app = app
        self.max_json_depth = max_json_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = request_problem(scope)
        if message:
            await self._refuse(message, scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            received = await receive()
            if received["type"] != "http.request":
                break
            chunks.append(received.get("body", b""))
            more = received.get("more_body", False)
        raw = b"".join(chunks)
        content_type = dict(scope.get("headers") or []).get(b"content-type", b"").decode("latin-1")
        problem = body_problem(raw, content_type, self.max_json_depth)
        if problem:
            await self._refuse(f"The request body holds {problem}.", scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(message: str, scope: Scope, receive: Receive, send: Send) -> None:
        request_id = scope.get("state", {}).get("request_id") or request_id_var.get()
        response = envelope(400, "bad_request", message + " It is not accepted.", request_id)
        await response(scope, receive, send)
