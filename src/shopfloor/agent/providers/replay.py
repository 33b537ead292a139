"""Recorded HTTP exchanges fed through the real SDK clients, and a recorder that writes new ones.

The SDKs speak ``httpx2``; a client built on ``httpx2.MockTransport`` with :meth:`Replay.handler`
answers each request from a recording, so tests exercise each SDK's own request building, retries and
response parsing. A recording is a small JSON file::

    {"description": "...",
     "exchanges": [{"method": "POST", "path": "/v1/messages", "status": 200,
                    "headers": {"content-type": "application/json"},
                    "expect": {"store": false},            # optional: a subset the request body must contain
                    "request": {...},                      # optional: the body sent when it was recorded
                    "response": {...}}]}

With a key in the environment and recording switched on (``shopfloor record``, or ``pytest --record``),
:class:`Recorder` wraps the real transport and writes every exchange in the same format, with the day it was
recorded, auth headers left out and the key scrubbed from bodies, kept headers and paths.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Self

import httpx2

from shopfloor.agent.providers.base import Provider

# Request headers that carry credentials; never captured or written.
SECRET_HEADERS = frozenset({"authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie"})
# Response headers worth keeping in a recording (retry timing, ids, content type).
_TRANSPORT_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})
KEPT_RESPONSE_HEADERS = (
    "content-type",
    "retry-after",
    "retry-after-ms",
    "x-should-retry",
    "request-id",
    "x-request-id",
)
# How a recording captured live describes itself (a hand-written one says it is hand-written instead).
LIVE_LABEL = "Captured live from the provider's API:"


@dataclass
class Exchange:
    """One recorded request and its answer."""

    method: str
    path: str
    status: int
    response: Any
    headers: dict[str, str] = field(default_factory=dict)
    expect: dict[str, Any] | None = None
    request: Any = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Exchange:
        """An exchange from its JSON form."""
        return cls(
            method=data["method"].upper(),
            path=data["path"],
            status=int(data["status"]),
            response=data.get("response"),
            headers={k.lower(): str(v) for k, v in data.get("headers", {}).items()},
            expect=data.get("expect"),
            request=data.get("request"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form written to a recording."""
        data: dict[str, Any] = {"method": self.method, "path": self.path, "status": self.status}
        if self.headers:
            data["headers"] = self.headers
        if self.request is not None:
            data["request"] = self.request
        data["response"] = self.response
        return data


@dataclass
class Captured:
    """A request the SDK sent, with credential headers removed."""

    method: str
    path: str
    body: Any
    headers: dict[str, str]


class Replay:
    """Serves recorded exchanges in order, routed on method and path, and captures every request."""

    def __init__(self, exchanges: list[Exchange], name: str = "replay") -> None:
        self.name = name
        self.exchanges = exchanges
        self.used = [False] * len(exchanges)
        self.calls: list[Captured] = []
        self.problems: list[str] = []
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: Path) -> Self:
        """Load a recording file."""
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls([Exchange.from_dict(e) for e in data["exchanges"]], name=path.stem)

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        """The ``MockTransport`` handler: answer from the next unused exchange for this method and path."""
        body = _json_body(request.content)
        captured = Captured(request.method, request.url.path, body, _public_headers(request.headers))
        with self._lock:
            self.calls.append(captured)
            for index, exchange in enumerate(self.exchanges):
                if self.used[index] or (exchange.method, exchange.path) != (request.method, request.url.path):
                    continue
                self.used[index] = True
                if exchange.expect is not None:
                    self.problems.extend(
                        f"exchange {index}: {p}" for p in subset_problems(exchange.expect, body)
                    )
                return httpx2.Response(
                    exchange.status, headers=exchange.headers, json=exchange.response, request=request
                )
            self.problems.append(f"no recorded exchange left for {request.method} {request.url.path}")
        # x-should-retry: false keeps the SDKs from retrying a request the recording cannot answer.
        return httpx2.Response(
            404,
            headers={"x-should-retry": "false"},
            json={"error": {"message": "not in the recording"}},
            request=request,
        )

    def http_client(self) -> httpx2.Client:
        """An ``httpx2`` client whose every request is answered by this replay."""
        return httpx2.Client(transport=httpx2.MockTransport(self.handler))

    @property
    def remaining(self) -> int:
        """Exchanges not served yet."""
        return self.used.count(False)

    def bodies(self) -> list[Any]:
        """The JSON bodies of every captured request, in order."""
        return [call.body for call in self.calls]


class Recorder(httpx2.BaseTransport):
    """Wraps a real transport and writes each exchange to ``path`` (credentials removed)."""

    def __init__(
        self,
        path: Path,
        secret: str | None,
        inner: httpx2.BaseTransport | None = None,
        recorded: date | None = None,
    ) -> None:
        self.path = path
        self.secret = secret
        self.recorded = recorded or datetime.now(UTC).date()  # the day the recording stands for
        self.inner = inner or httpx2.HTTPTransport()
        self.exchanges: list[Exchange] = []

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Forward the request, then record it and its answer."""
        response = self.inner.handle_request(request)
        content = response.read()
        headers = {
            k: scrub(response.headers[k], self.secret) for k in KEPT_RESPONSE_HEADERS if k in response.headers
        }
        self.exchanges.append(
            Exchange(
                method=request.method,
                path=scrub(request.url.path, self.secret),
                status=response.status_code,
                response=scrub(_json_body(content), self.secret),
                headers=headers,
                request=scrub(_json_body(request.content), self.secret),
            )
        )
        self.save()
        # The body is already decoded, so the encoding and length headers no longer describe it.
        passed = [(k, v) for k, v in response.headers.items() if k.lower() not in _TRANSPORT_HEADERS]
        return httpx2.Response(response.status_code, headers=passed, content=content, request=request)

    def save(self) -> None:
        """Write the recording (after every exchange, so an interrupted run keeps what it saw)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "description": f"{LIVE_LABEL} {self.path.stem}, with auth headers left out and the key redacted.",
            "recorded": self.recorded.isoformat(),
            "exchanges": [e.to_dict() for e in self.exchanges],
        }
        self.path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    def http_client(self) -> httpx2.Client:
        """An ``httpx2`` client that records through this transport."""
        return httpx2.Client(transport=self)


def scrub(value: Any, secret: str | None) -> Any:
    """``value`` with every occurrence of ``secret`` replaced, at any depth."""
    if not secret:
        return value
    if isinstance(value, str):
        return value.replace(secret, "[redacted]")
    if isinstance(value, dict):
        return {k: scrub(v, secret) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, secret) for v in value]
    return value


def subset_problems(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` differs from ``expected``; dicts match as subsets, lists and scalars exactly."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {type(actual).__name__}"]
        problems: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing")
            else:
                problems.extend(subset_problems(value, actual[key], f"{path}.{key}"))
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected a list of {len(expected)}, got {actual!r:.80}"]
        return [
            p
            for i, (e, a) in enumerate(zip(expected, actual, strict=True))
            for p in subset_problems(e, a, f"{path}[{i}]")
        ]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r:.80}"]


def _json_body(content: bytes) -> Any:
    if not content:
        return None
    try:
        return json.loads(content)
    except ValueError:
        return content.decode("utf-8", "replace")


def _public_headers(headers: httpx2.Headers) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items() if k.lower() not in SECRET_HEADERS}


# Replays that the tests and `make bench` run through the real adapters (docs/providers.md, "Recordings").
FAKE_KEY = "sk-test-0123456789abcdef-not-a-real-key"
REPLAY_MODELS = {"anthropic": "claude-opus-5-5", "openai": "gpt-6.1-terra", "gemini": "gemini-2.5-flash-lite"}
_RUN_TAG = re.compile(rb"\br\d+-([0-9a-f]{6})\b")


class TaggedReplay(Replay):
    """A replay whose recorded answers write ``{run}`` where a run's result-id tag goes.

    A model learns result ids (``r1-3fa9c0``) from the results it was sent, and the tag changes with every run,
    so a recording cannot hold it: the replay fills in the tag found in the request it answers.
    """

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        """Answer from the recording, with ``{run}`` replaced by the tag the request carries."""
        response = super().handler(request)
        tags = _RUN_TAG.findall(request.content)
        body = response.content
        if tags and b"{run}" in body:
            body = body.replace(b"{run}", tags[-1])
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)


def recording(root: Path, provider: str, scenario: str) -> TaggedReplay:
    """The recording ``<root>/<provider>/<scenario>.json``."""
    return TaggedReplay.from_file(root / provider / f"{scenario}.json")


def replayed_provider(provider: str, wire: Replay) -> Provider:
    """The real adapter for ``provider`` (with its replay model) on ``wire``, the SDKs' own retries kept."""
    client = wire.http_client()
    model = REPLAY_MODELS[provider]
    if provider == "anthropic":
        from shopfloor.agent.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(FAKE_KEY, model=model, http_client=client)
    if provider == "openai":
        from shopfloor.agent.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(FAKE_KEY, model=model, http_client=client)
    from shopfloor.agent.providers.gemini_provider import GeminiProvider

    return GeminiProvider(FAKE_KEY, model=model, http_client=client, retry_initial_delay_s=0.001)
