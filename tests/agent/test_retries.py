"""Retries are the loop's, bounded by the run's time (docs/providers.md, "Retries, timeouts, errors"): through
the real SDK clients the factory builds, a stand-in server on 127.0.0.1 speaking each provider's error format
answers 429s, overloads and calls that never end, and the run stops within its budget, waits the pause the
provider asks for only when it fits, and makes no call once the client has gone."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.providers.factory import make_provider
from shopfloor.agent.trace import Trace
from shopfloor.settings import Settings
from tests.agent.script_server import Hold, Reply, ScriptServer

RECORDINGS = Path(__file__).parent / "recordings"
# Each provider's SDK honours its own base-URL variable; the stand-in answers every path.
PROVIDERS = {
    "gemini": ("gemini-2.5-flash-lite", "GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL", ""),
    "anthropic": ("claude-opus-5-5", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", ""),
    "openai": ("gpt-6.1-terra", "OPENAI_API_KEY", "OPENAI_BASE_URL", "/v1"),
}
BUDGET_S = 12.0


def rate_limited(provider: str, wait_s: int) -> Reply:
    """A 429 as each provider sends it: Gemini says the pause in the body's RetryInfo, the others in
    Retry-After."""
    if provider == "gemini":
        body = {
            "error": {
                "code": 429,
                "message": "Resource has been exhausted (e.g. check quota).",
                "status": "RESOURCE_EXHAUSTED",
                "details": [
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{wait_s}s"}
                ],
            }
        }
        return Reply(429, body)
    if provider == "anthropic":
        body = {
            "type": "error",
            "error": {"type": "rate_limit_error", "message": "Number of requests exceeded."},
        }
        return Reply(429, body, {"retry-after": str(wait_s)})
    body = {"error": {"message": "Rate limit reached.", "type": "requests", "param": None, "code": None}}
    return Reply(429, body, {"retry-after": str(wait_s)})


def overloaded(provider: str, headers: dict[str, str] | None = None) -> Reply:
    """A server error as each provider sends it (Claude's overload is 529)."""
    if provider == "gemini":
        body = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
        return Reply(503, body, headers or {})
    if provider == "anthropic":
        return Reply(
            529,
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            headers or {},
        )
    body = {
        "error": {"message": "The server is overloaded.", "type": "server_error", "param": None, "code": None}
    }
    return Reply(503, body, headers or {})


def answered(provider: str) -> Reply:
    """The provider's recorded end-of-turn answer ("I understood: done.")."""
    exchanges = json.loads((RECORDINGS / provider / "rate_limit_then_ok.json").read_text())["exchanges"]
    return Reply(200, exchanges[-1]["response"])


def live(provider: str, server: ScriptServer, monkeypatch: pytest.MonkeyPatch):
    model, key_env, url_env, suffix = PROVIDERS[provider]
    monkeypatch.setenv(key_env, "test-key-value")
    monkeypatch.setenv(url_env, server.url + suffix)
    return make_provider(model, Settings())  # two retries, the default


def run(provider, registry, ctx, abort=None):
    limits = LoopLimits(call_timeout_s=25.0, run_budget_s=BUDGET_S)
    return run_loop(provider, "sys", "note", registry, ctx, Trace(), limits=limits, abort=abort)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_12_s_run_ends_within_13_s_under_429s_and_timeouts(provider, registry, ctx, monkeypatch):
    with ScriptServer([rate_limited(provider, 1), overloaded(provider), Hold(60)]) as server:
        model = live(provider, server, monkeypatch)
        started = time.monotonic()
        outcome = run(model, registry, ctx)
        ended = time.monotonic() - started
        assert outcome.outcome is Outcome.TIMEOUT and outcome.error == {"type": "timeout"}
        assert ended < BUDGET_S + 1.0
        calls = server.calls
        assert calls.count() == 3
        assert calls.at[1] - calls.at[0] >= 1.0  # the provider's pause was waited
        time.sleep(0.5)
        assert calls.hung_up, "the held call was not cut at the deadline"
        time.sleep(1.0)
        assert calls.count() == 3  # no retry after the run ended


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_pause_past_the_run_budget_is_not_waited(provider, registry, ctx, monkeypatch):
    with ScriptServer([rate_limited(provider, 20), answered(provider)]) as server:
        model = live(provider, server, monkeypatch)
        started = time.monotonic()
        outcome = run(model, registry, ctx)
        assert time.monotonic() - started < 2.0
        assert outcome.outcome is Outcome.PROVIDER_ERROR
        assert (outcome.error["type"], outcome.error["status"], outcome.error["retry_after_s"]) == (
            "rate_limit",
            429,
            20,
        )
        assert outcome.error["message"].endswith("(a retry after 20.0 s would not fit the 12 s run budget)")
        assert server.calls.count() == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_retry_after_as_an_http_date_is_waited(provider, registry, ctx, monkeypatch):
    steps = [overloaded(provider), answered(provider)]
    with ScriptServer(steps) as server:
        model = live(provider, server, monkeypatch)
        when = format_datetime(datetime.now(UTC) + timedelta(seconds=2), usegmt=True)
        server.steps[0] = overloaded(provider, {"retry-after": when})
        outcome = run(model, registry, ctx)
        assert outcome.outcome is Outcome.END_TURN and outcome.text == "I understood: done."
        assert server.calls.count() == 2
        assert server.calls.at[1] - server.calls.at[0] >= 1.0  # the date has whole seconds: 1 to 2 s away


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_client_leaving_during_the_pause_ends_the_run_with_no_further_call(
    provider, registry, ctx, monkeypatch
):
    with ScriptServer([rate_limited(provider, 5), answered(provider)]) as server:
        abort = threading.Event()

        def leave() -> None:
            while server.calls.count() == 0:
                time.sleep(0.01)
            time.sleep(0.3)
            abort.set()

        model = live(provider, server, monkeypatch)
        threading.Thread(target=leave, daemon=True).start()
        started = time.monotonic()
        outcome = run(model, registry, ctx, abort)
        assert outcome.outcome is Outcome.ABORTED
        assert time.monotonic() - started < 2.0  # the 5 s pause ended with the client
        time.sleep(0.5)
        assert server.calls.count() == 1
