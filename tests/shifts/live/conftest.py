"""The hand-built record store of tests/shifts/investigation, and recorded exchanges served to the real SDKs.

A recording's answers may cite result ids: the model learns them from the results it was sent, so a
recording writes ``{run}`` for the run's tag and the replay fills in the tag found in the request it answers.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import httpx2
import pytest

from shopfloor.agent.providers.anthropic_provider import AnthropicProvider
from shopfloor.agent.providers.gemini_provider import GeminiProvider
from shopfloor.agent.providers.openai_provider import OpenAIProvider
from shopfloor.agent.providers.replay import Replay
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.records.store import connect, open_read_only, replace_day
from tests.shifts.investigation.conftest import WEEK_A, WEEK_B, build_day

RECORDINGS = Path(__file__).parent / "recordings"
FAKE_KEY = "sk-test-0123456789abcdef-not-a-real-key"
DAY = date(2026, 9, 16)
SHIFT2 = Scope(day=DAY, shift=2, include="shift")
PROVIDERS = ("anthropic", "openai", "gemini")
MODELS = {"anthropic": "claude-opus-5-5", "openai": "gpt-6.1-terra", "gemini": "gemini-2.5-flash-lite"}
_TAG = re.compile(rb"\br\d+-([0-9a-f]{6})\b")


class RunReplay(Replay):
    """A replay whose recorded answers write ``{run}`` where the run's result-id tag goes."""

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        response = super().handler(request)
        tags = _TAG.findall(request.content)
        body = response.content
        if tags and b"{run}" in body:
            body = body.replace(b"{run}", tags[-1])
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)


def replay(provider: str, scenario: str) -> RunReplay:
    """The recording ``recordings/<provider>/<scenario>.json``."""
    return RunReplay.from_file(RECORDINGS / provider / f"{scenario}.json")  # type: ignore[return-value]


def sdk_provider(provider: str, wire: Replay):
    """The real adapter for ``provider`` on the replay (the SDK's own retries: two, as in production)."""
    client = wire.http_client()
    if provider == "anthropic":
        return AnthropicProvider(FAKE_KEY, model=MODELS[provider], http_client=client)
    if provider == "openai":
        return OpenAIProvider(FAKE_KEY, model=MODELS[provider], http_client=client)
    return GeminiProvider(FAKE_KEY, model=MODELS[provider], http_client=client, retry_initial_delay_s=0.001)


@pytest.fixture(scope="session")
def store_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("live-store") / "shifts.duckdb"
    conn = connect(path)
    for day in WEEK_B:
        replace_day(conn, build_day(day, jam2_minutes=40))
    for day in WEEK_A:
        replace_day(conn, build_day(day))
    conn.close()
    return path


@pytest.fixture()
def conn(store_path):
    c = open_read_only(store_path)
    yield c
    c.close()
