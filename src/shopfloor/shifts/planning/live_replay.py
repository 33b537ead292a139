"""Recorded live-planner exchanges served to the real SDKs (tests and ``make bench``).

A recording's answers may cite result ids: the model learns them from the results it was sent, so a
recording writes ``{run}`` for the run's tag (``RunContext.run_tag``) and the replay fills in the tag found
in the request it answers. Recordings live in ``tests/shifts/live/recordings/<provider>/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx2

from shopfloor.agent.providers.base import Provider
from shopfloor.agent.providers.replay import Replay

RECORDINGS = Path(__file__).resolve().parents[4] / "tests" / "shifts" / "live" / "recordings"
FAKE_KEY = "sk-test-0123456789abcdef-not-a-real-key"
MODELS = {"anthropic": "claude-opus-5-5", "openai": "gpt-6.1-terra", "gemini": "gemini-2.5-flash-lite"}
_TAG = re.compile(rb"\br\d+-([0-9a-f]{6})\b")


class RunReplay(Replay):
    """A replay whose recorded answers write ``{run}`` where the run's result-id tag goes."""

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        """Answer from the recording, with ``{run}`` replaced by the tag the request carries."""
        response = super().handler(request)
        tags = _TAG.findall(request.content)
        body = response.content
        if tags and b"{run}" in body:
            body = body.replace(b"{run}", tags[-1])
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)


def recording(provider: str, scenario: str, root: Path = RECORDINGS) -> RunReplay:
    """The recording ``<root>/<provider>/<scenario>.json``."""
    return RunReplay.from_file(root / provider / f"{scenario}.json")  # type: ignore[return-value]


def replayed_provider(provider: str, wire: Replay) -> Provider:
    """The real adapter for ``provider`` on ``wire`` (the SDKs' own retries, as in production)."""
    client = wire.http_client()
    if provider == "anthropic":
        from shopfloor.agent.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(FAKE_KEY, model=MODELS[provider], http_client=client)
    if provider == "openai":
        from shopfloor.agent.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(FAKE_KEY, model=MODELS[provider], http_client=client)
    from shopfloor.agent.providers.gemini_provider import GeminiProvider

    return GeminiProvider(FAKE_KEY, model=MODELS[provider], http_client=client, retry_initial_delay_s=0.001)
