"""The protections of every /shifts route (docs/security.md, "The /shifts routes").

In order: the Host check (only the configured host names, so a DNS-rebinding page gets nothing), no body on
a GET, and on a POST to a route that takes one (any other is the router's 405 with ``Allow``) JSON only, at most ``shifts_max_body_bytes``, a same-site Origin and the page's request
token; then the shared per-minute limit. Every 503 carries ``Retry-After``. Every refusal is the one error envelope and happens before the route
runs, so a refused request changes nothing (it is not counted either). Static files are served from an
allowlist by the route itself and are not counted. Answers and pages are never cached (``no-store``).

Public mode (``SHOPFLOOR_PUBLIC=1``, docs/deploy.md) replaces the loopback Host rule with an Origin
allowlist: the Host must be one of the allowed origins' hosts, and a POST's Origin one of the origins.
"""

from __future__ import annotations

import asyncio
import math
from urllib.parse import urlsplit

from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shopfloor.logs import get_logger, request_id_var
from shopfloor.settings import Settings
from shopfloor.shifts.pages.limits import Counter
from shopfloor.web.dependencies import is_json_media_type
from shopfloor.web.errors import envelope
from shopfloor.web.openapi import Responses, error_responses
from shopfloor.web.tokens import RequestTokens

log = get_logger("shopfloor.shifts.guard")

TOKEN_HEADER = "x-request-token"
# Every 503 of the /shifts routes says when to try again (docs/security.md, "The /shifts routes"): the
# investigator busy past its waiting limit, a record store not prepared or held by an ingest, the shared
# count out of reach. All of them pass in seconds or need a person, so one short wait serves.
RETRY_AFTER_S = 1
# The salt of the page tokens (shopfloor.web.tokens), so no other token signed with the server key passes.
TOKEN_SALT = "shopfloor.shifts.request-token"
STATIC_PREFIX = "/static/"
RETRY_503 = {"Retry-After": str(RETRY_AFTER_S)}

GUARDED: Responses = error_responses(421, 429, 503)
"""What the guard may answer for every counted route (its OpenAPI ``responses=``): a host it does not serve,
the per-minute limit, the pace or the count out of reach (and the route's own 503s)."""
STATIC_GUARDED: Responses = error_responses(
    404, 421, meanings={404: "Not a file of the static allowlist (`not_found`)"}
)
"""What a static file's route may answer besides the file: static files are neither paced nor counted."""
POST_GUARDED: Responses = error_responses(
    403,
    415,
    meanings={
        403: "A POST from another origin (`bad_origin`), or without the page's valid request token (`bad_token`)"
    },
)
"""What the guard may answer besides :data:`GUARDED` for a route that takes a JSON body."""


def host_name(host_header: str) -> str:
    """The host name of a ``Host`` header value, lower case, without the port (``[::1]`` keeps brackets)."""
    value = host_header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end > 0 else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def host_allowed(host_header: str | None, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names one of the allowed hosts (a missing Host never does)."""
    return bool(host_header) and host_name(host_header or "") in names


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an Origin (or URL) in lower case, or None when it is not one."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc or "@" in parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_origin(
    origin: str | None, host_header: str | None, names: frozenset[str], scheme: str = "http"
) -> bool:
    """Loopback rule for a POST: the Origin is this very server (its scheme, and its host and port as the
    Host says) and names an allowed host. A missing or ``null`` Origin is refused."""
    found = origin_of(origin) if origin else None
    if found is None or not host_header:
        return False
    return found == f"{scheme}://{host_header.strip().lower()}" and host_allowed(host_header, names)


def public_host_allowed(host_header: str | None, origins: frozenset[str]) -> bool:
    """Public rule for every request: the Host is the host (and port) of one of the allowed origins."""
    if not host_header:
        return False
    return host_header.strip().lower() in {o.split("://", 1)[1] for o in origins}


def route_path(scope: Scope) -> str:
    """The path inside the mounted app (the mount's prefix removed)."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class ShiftsGuard:
    """Pure-ASGI middleware in front of the Shift Investigator sub-app (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        tokens: RequestTokens,
        counter: Counter,
        routes: list[BaseRoute] | None = None,
    ) -> None:
        self.app = app
        self.routes = routes or []
        self.settings = settings
        self.tokens = tokens
        self.counter = counter
        self.names = settings.shifts_host_names()
        self.origins = settings.shifts_origin_list()
        self.max_body = settings.shifts_max_body_bytes
        self.interval = 1.0 / settings.shifts_max_requests_per_s
        self._next_slot = 0.0

    async def pace(self) -> bool:
        """Space /shifts requests at most ``shifts_max_requests_per_s`` apart in this process, waiting without
        holding a thread; False when the wait would pass two seconds (the caller answers 503). This bounds
        the share of the event loop a flood of /shifts requests can take from the other apps."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        slot = max(now, self._next_slot)
        if slot - now > 2.0:
            return False
        self._next_slot = slot + self.interval
        if slot > now:
            await asyncio.sleep(slot - now)
        return True

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        """Why the request is refused before it is read further (status, code, message), or None."""
        host = _header(scope, b"host")
        method = scope.get("method", "GET")
        if self.settings.public:
            if not public_host_allowed(host, self.origins):
                return 421, "bad_host", "This server does not answer for that host name."
        elif not host_allowed(host, self.names):
            return 421, "bad_host", "This server does not answer for that host name."
        length = _header(scope, b"content-length")
        chunked = _header(scope, b"transfer-encoding") is not None
        if method in ("GET", "HEAD"):
            if chunked or (length is not None and length.strip() not in ("", "0")):
                return 400, "body_not_allowed", "A GET request carries no body."
            return None
        if method != "POST" or not self._serves(scope):
            return None  # the router answers 405 with Allow: no body could make a POST to a GET route right
        if not is_json_media_type(_header(scope, b"content-type")):
            return 415, "unsupported_media_type", "A POST body must be JSON (Content-Type: application/json)."
        if length is not None and (not length.strip().isdigit() or int(length) > self.max_body):
            return 413, "payload_too_large", f"The request body is larger than {self.max_body} bytes."
        origin = _header(scope, b"origin")
        if self.settings.public:
            if (origin_of(origin) if origin else None) not in self.origins:
                return 403, "bad_origin", "Requests from that origin are not accepted."
        elif not same_origin(origin, host, self.names, str(scope.get("scheme", "http"))):
            return 403, "bad_origin", "Requests from that origin are not accepted."
        if not self.tokens.valid(_header(scope, TOKEN_HEADER.encode())):
            return 403, "bad_token", "The page's request token is missing or expired; reload the page."
        return None

    def _serves(self, scope: Scope) -> bool:
        """Whether a route serves the request's method at its path (every route, without a route list)."""
        if not self.routes:
            return True
        return any(route.matches(scope)[0] is Match.FULL for route in self.routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is not None:
            await envelope(*refused, scope.get("state", {}).get("request_id"))(scope, receive, send)
            return
        static = route_path(scope).startswith(STATIC_PREFIX)
        if not static and not await self.pace():
            await envelope(
                503, "busy", "The investigator is busy; try again in a moment.", headers=RETRY_503
            )(scope, receive, send)
            return
        if not static:
            client = (scope.get("client") or ("unknown", 0))[0]
            try:
                # One short write on the event loop: a worker thread would borrow the shared pool.
                wait = self.counter.allow(str(client), self.settings.shifts_rate_limit_per_minute)
            except Exception:
                # The count lives outside the process; when it cannot be reached, refuse rather than run
                # unlimited.
                log.exception("shifts.rate_limit_unavailable")
                await envelope(
                    503,
                    "rate_limit_unavailable",
                    "The request limit cannot be checked right now.",
                    headers=RETRY_503,
                )(scope, receive, send)
                return
            if wait > 0:
                limit = self.settings.shifts_rate_limit_per_minute
                await envelope(
                    429,
                    "rate_limited",
                    f"More than {limit} requests in a minute; try again shortly.",
                    scope.get("state", {}).get("request_id") or request_id_var.get(),
                    headers={"Retry-After": str(max(1, math.ceil(wait)))},
                )(scope, receive, send)
                return
        receive_body = receive
        if scope.get("method") == "POST":
            # Read the whole body first (a chunked POST has no length to check up front): over the limit,
            # the route never runs.
            chunks: list[bytes] = []
            total, more = 0, True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    break
                total += len(message.get("body", b""))
                if total > self.max_body:
                    await envelope(
                        413, "payload_too_large", f"The request body is larger than {self.max_body} bytes."
                    )(scope, receive, send)
                    return
                chunks.append(message.get("body", b""))
                more = message.get("more_body", False)
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                return await receive()

            receive_body = replay

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start" and not static:
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers.append((b"cache-control", b"no-store"))
                if message.get("status") == 503 and not any(k.lower() == b"retry-after" for k, _ in headers):
                    headers.append((b"retry-after", str(RETRY_AFTER_S).encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive_body, send_no_store)
