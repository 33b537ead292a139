"""One SDK client per provider per process, reused across runs and closed on shutdown (docs/providers.md,
"Clients and connections"): a real local server counts the connections and sees them closed."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from shopfloor.agent.providers.base import ModelRequest, UserText
from shopfloor.agent.providers.factory import close_providers, make_provider
from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from tests.agent.slow_server import SlowServer

ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1796032800,
    "model": "local-model",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "done"}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
}


def local(server: SlowServer) -> Settings:
    return Settings(provider="openai-compatible", base_url=server.url + "/v1", provider_max_retries=0)


def ask(provider) -> str | None:
    return provider.complete(ModelRequest(system="sys", tools=[], messages=[UserText("hi")])).text


def wait_for(check, seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def test_runs_share_one_client_and_one_connection():
    with SlowServer(body=ANSWER) as server:
        first = make_provider("local-model", local(server))
        second = make_provider("local-model", local(server))
        assert ask(first) == "done" and ask(second) == "done"
        assert first._client is second._client
        assert server.seen.connections == 1  # the second call reused the kept-alive connection
        assert len(server.seen.requests) == 2


def test_close_providers_closes_the_kept_alive_connection():
    with SlowServer(body=ANSWER) as server:
        assert ask(make_provider("local-model", local(server))) == "done"
        assert not wait_for(lambda: server.seen.closed_idle, 0.3)  # kept alive while the process runs
        close_providers()
        assert wait_for(lambda: server.seen.closed_idle), "the connection stayed open after close_providers"
        # A later run builds a new client.
        assert ask(make_provider("local-model", local(server))) == "done"
        assert server.seen.connections == 2


@pytest.mark.slow
def test_the_web_app_closes_the_clients_when_it_shuts_down(tmp_path):
    with SlowServer(body=ANSWER) as server:
        app = create_app(Settings(var_dir=tmp_path, secret_key="k" * 40))  # type: ignore[arg-type]
        with TestClient(app):
            assert ask(make_provider("local-model", local(server))) == "done"
        assert wait_for(lambda: server.seen.closed_idle), "shutting the app down left the connection open"


def test_the_cli_closes_the_clients_when_its_command_ends():
    from typer.testing import CliRunner

    from shopfloor.cli import app

    with SlowServer(body=ANSWER) as server:
        assert ask(make_provider("local-model", local(server))) == "done"
        result = CliRunner().invoke(app, ["prepare", "--help"])
        assert result.exit_code == 0, result.output
        assert wait_for(lambda: server.seen.closed_idle), "the command ended with the connection open"
