"""An aborted run cancels the model's HTTP call itself, not only the loop's wait (docs/providers.md, "Retries,
timeouts, errors"): through the real SDK clients the factory builds, a real local server sees the connection
closed promptly after a client disconnect or the run budget, so no answer is generated for nobody."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

from shopfloor.agent.loop import LoopLimits, Outcome, run_loop
from shopfloor.agent.providers.factory import make_provider
from shopfloor.agent.trace import Trace
from shopfloor.settings import Settings
from tests.agent.slow_server import SlowServer

# Each provider's SDK honours its own base-URL variable; the local server answers every path.
PROVIDERS = {
    "gemini-2.5-flash-lite": ("GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL", ""),
    "claude-opus-5-5": ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", ""),
    "gpt-6.1-terra": ("OPENAI_API_KEY", "OPENAI_BASE_URL", "/v1"),
}
HELD_S = 20.0  # the server would answer after this long; a call timeout longer still
PROMPTLY_S = 2.0


def live_provider(model: str, server: SlowServer, monkeypatch: pytest.MonkeyPatch):
    if model == "local-model":
        settings = Settings(provider="openai-compatible", base_url=server.url + "/v1", provider_max_retries=2)
        return make_provider(model, settings)
    key_env, url_env, suffix = PROVIDERS[model]
    monkeypatch.setenv(key_env, "test-key-value")
    monkeypatch.setenv(url_env, server.url + suffix)
    return make_provider(model, Settings(provider_max_retries=2))


def run(provider, registry, ctx, abort, budget_s=30.0):
    limits = LoopLimits(call_timeout_s=HELD_S + 10, run_budget_s=budget_s)
    return run_loop(provider, "sys", "note", registry, ctx, Trace(), limits=limits, abort=abort)


@pytest.mark.parametrize("model", [*PROVIDERS, "local-model"])
def test_a_client_disconnect_closes_the_model_connection(model, registry, ctx, monkeypatch):
    with SlowServer(delay_s=HELD_S) as server:
        provider = live_provider(model, server, monkeypatch)
        abort = threading.Event()

        def disconnect() -> None:
            assert server.seen.got_request.wait(10), "the call never reached the server"
            abort.set()

        threading.Thread(target=disconnect, daemon=True).start()
        outcome = run(provider, registry, ctx, abort)
        aborted_at = time.monotonic()
        assert outcome.outcome is Outcome.ABORTED
        deadline = aborted_at + PROMPTLY_S
        while not server.seen.closed_early and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.seen.closed_early, "the server still held an open call after the abort"
        assert server.seen.closed_early[0] - aborted_at < PROMPTLY_S
        time.sleep(1.2)  # a retry's pause passes; no retry of an aborted run reaches the server
        assert len(server.seen.requests) == 1


def test_the_run_budget_closes_the_model_connection(registry, ctx, monkeypatch):
    with SlowServer(delay_s=HELD_S) as server:
        provider = live_provider("local-model", server, monkeypatch)
        started = time.monotonic()
        outcome = run(provider, registry, ctx, threading.Event(), budget_s=1.0)
        assert outcome.outcome is Outcome.TIMEOUT
        assert time.monotonic() - started < 1.0 + PROMPTLY_S
        deadline = time.monotonic() + PROMPTLY_S
        while not server.seen.closed_early and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.seen.closed_early, "the server still held an open call after the run budget"
        time.sleep(2.5)  # past any retry pause: no retry of a run that has ended reaches the server
        assert len(server.seen.requests) == 1


def test_an_interrupted_command_closes_the_model_connection(registry, ctx, monkeypatch):
    # Ctrl+C in the CLI interrupts the thread waiting on the call; the call itself must stop too.
    with SlowServer(delay_s=HELD_S) as server:
        provider = live_provider("claude-opus-5-5", server, monkeypatch)

        def interrupt() -> None:
            assert server.seen.got_request.wait(10), "the call never reached the server"
            _thread.interrupt_main()

        threading.Thread(target=interrupt, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            run(provider, registry, ctx, abort=None)
        interrupted_at = time.monotonic()
        deadline = interrupted_at + PROMPTLY_S
        while not server.seen.closed_early and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.seen.closed_early, "the call went on after the command was interrupted"
