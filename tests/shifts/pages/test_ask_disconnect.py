"""A client that leaves ``POST /shifts/ask`` stops its worker's model calls (docs/shifts-agent.md, "The page"):
a real ``shopfloor serve`` process asks a live Gemini planner whose stand-in server (on 127.0.0.1, speaking
Gemini's wire format) is slow to answer; the client hangs up while the first call is held, and the stand-in
sees that call's connection closed and no further call."""

from __future__ import annotations

import http.client
import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from shopfloor.workshop.store import open_store
from tests.agent.script_server import Reply, ScriptServer
from tests.e2e.conftest import free_port, python_command, serve
from tests.e2e.shifts.conftest import build_store, shifts_env

RECORDING = Path(__file__).parents[1] / "live" / "recordings" / "gemini" / "complete.json"
MODEL = "gemini-2.5-flash-lite"
SLOW_S = 2.0  # each model answer takes this long
QUESTION = {"question": "why was second shift slow", "day": "2026-09-16", "shift": 2, "include": "shift"}


def token_of(page: str) -> str:
    found = re.search(r"&#34;x-request-token&#34;: &#34;([^&]+)&#34;|\"x-request-token\": \"([^\"]+)\"", page)
    assert found, "the page carries its request token"
    return found.group(1) or found.group(2)


def slow_gemini() -> ScriptServer:
    """The recorded complete diagnosis (tool calls, a finish, a narrative), each answer SLOW_S late."""
    exchanges = json.loads(RECORDING.read_text())["exchanges"]
    return ScriptServer([Reply(200, e["response"], delay_s=SLOW_S) for e in exchanges])


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.slow
def test_a_client_leaving_the_ask_stops_its_model_calls(tmp_path: Path):
    store = build_store(tmp_path / "shifts.duckdb")
    ledger = f"sqlite:///{tmp_path / 'w.db'}"  # the spend ledger every live call reserves in
    workshop = open_store(ledger)
    workshop.migrate()
    workshop.dispose()
    port = free_port()
    with slow_gemini() as gemini:
        env = shifts_env(
            tmp_path,
            store,
            SHOPFLOOR_WORKSHOP_DB=ledger,
            GEMINI_API_KEY="test-key-value",
            GOOGLE_GEMINI_BASE_URL=gemini.url,
        )
        env.pop("HTTPS_PROXY", None)
        env.pop("HTTP_PROXY", None)
        with serve(
            python_command("serve", "--port", str(port)), env, port, "/healthz", tmp_path / "log"
        ) as server:
            with urllib.request.urlopen(f"{server.base_url}/shifts/?day=2026-09-16", timeout=60) as r:
                token = token_of(r.read().decode())
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request(
                "POST",
                "/shifts/ask",
                body=json.dumps({**QUESTION, "planner": MODEL}),
                headers={
                    "content-type": "application/json",
                    "origin": server.base_url,
                    "x-request-token": token,
                },
            )
            assert wait_for(lambda: gemini.calls.count() >= 1, 30), (
                "the live planner never called the model:\n" + server.log.read_text()
            )
            left_at = time.monotonic()
            conn.sock.close()  # the client hangs up while the first answer is still coming
            conn.close()
            # The worker closes the held call's connection at once (before its answer was due) ...
            assert wait_for(lambda: bool(gemini.calls.hung_up), SLOW_S), "the held call was not cut"
            assert gemini.calls.hung_up[0] - left_at < SLOW_S
            # ... and makes no further call: the recorded run would have made two more, SLOW_S apart.
            time.sleep(3 * SLOW_S)
            assert gemini.calls.count() == 1, server.log.read_text()
