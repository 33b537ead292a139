"""A workshop run from an MCP client, with the official client in process (the SDK's in-memory streams) and a
scripted model: a client that gives up on a call cancels its run (``stopped``, no card), and a run past the
workshop's monthly spend cap is refused 402 ``budget_exhausted`` before any model call."""

from __future__ import annotations

import json
import threading
import time

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from sqlalchemy import select

from shopfloor import workshop
from shopfloor.agent.providers.base import ModelRequest, Turn
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn
from shopfloor.mcp.server import build_server
from shopfloor.mcp.tools import Backend
from shopfloor.settings import Settings
from shopfloor.workshop.domain import Actor
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.spend import ledger_of
from shopfloor.workshop.store import models as m

pytestmark = pytest.mark.slow

ANA = Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")


class SlowModel:
    """A live-like model (not local: the loop waits for it on a worker thread) that takes its time."""

    name = "slow"
    model = "slow"

    def __init__(self, seconds: float = 20) -> None:
        self.seconds = seconds
        self.started = threading.Event()
        self.started_at = 0.0

    def complete(self, request: ModelRequest) -> Turn:
        self.started_at = time.monotonic()
        self.started.set()
        time.sleep(self.seconds)
        return text_turn("done")


def test_a_cancelled_call_stops_its_run_and_saves_no_card(store, workshop_db, records, tmp_path, monkeypatch):
    slow = SlowModel()
    monkeypatch.setattr(workshop, "choose_provider", lambda option, settings: slow)
    settings = Settings(workshop_db=f"sqlite:///{workshop_db}", shifts_db=records, var_dir=tmp_path)
    server = build_server(Backend(settings, store), lambda _ctx: ANA)
    with store.session(WORKSHOP_A) as s:
        before = set(s.scalars(select(m.AgentRun.id)))

    async def scenario() -> None:
        async with Client(server, mode="legacy") as client:
            with anyio.move_on_after(2):
                await client.call_tool("propose_from_note", {"note": "El TQ-7F3K2 pasó a lavado."})
            assert slow.started.is_set()

    started = time.monotonic()
    anyio.run(scenario)
    assert time.monotonic() - started < 15  # the call did not wait for the model
    deadline = time.monotonic() + 15
    while True:
        with store.session(WORKSHOP_A) as s:
            runs = list(s.scalars(select(m.AgentRun).where(m.AgentRun.id.not_in(before))))
            cards = list(s.scalars(select(m.Proposal).where(m.Proposal.run_id.in_([r.id for r in runs]))))
        if runs and runs[0].status != "running":
            break
        assert time.monotonic() < deadline, "the run never ended"
        time.sleep(0.2)
    assert [r.status for r in runs] == ["stopped"]
    assert cards == []


def test_a_run_past_the_spend_cap_is_refused_before_any_model_call(
    store, workshop_db, records, tmp_path, monkeypatch
):
    priced = ScriptedProvider(
        [text_turn("done", model="gemini-2.5-flash-lite")], model="gemini-2.5-flash-lite"
    )
    monkeypatch.setattr(workshop, "choose_provider", lambda option, settings: priced)
    ledger_of(store).set_cap("workshop", WORKSHOP_A, 0.0001)  # below one call's worst case
    settings = Settings(workshop_db=f"sqlite:///{workshop_db}", shifts_db=records, var_dir=tmp_path)
    server = build_server(Backend(settings, store), lambda _ctx: ANA)

    async def scenario() -> None:
        async with Client(server, mode="legacy") as client:
            with pytest.raises(MCPError) as refused:
                await client.call_tool("propose_from_note", {"note": "El TQ-7F3K2 pasó a lavado."})
            assert refused.value.code == 402 and refused.value.data["code"] == "budget_exhausted"
            assert refused.value.message.startswith("This month's model budget for the workshop is spent.")
            assert refused.value.data["run_id"]

    anyio.run(scenario)
    assert priced.requests == []  # no model call was made


ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
CALL = {
    "jsonrpc": "2.0",
    "id": 7,
    "method": "tools/call",
    "params": {"name": "propose_from_note", "arguments": {"note": "El TQ-7F3K2 pasó a lavado."}},
}


def stopped_run(store, before: set[str]) -> list[str]:
    """The statuses of the runs started since ``before``, once none is running (or after 35 s)."""
    deadline = time.monotonic() + 35
    while True:
        with store.session(WORKSHOP_A) as s:
            runs = list(s.scalars(select(m.AgentRun).where(m.AgentRun.id.not_in(before))))
        if (runs and all(r.status != "running" for r in runs)) or time.monotonic() > deadline:
            return [r.status for r in runs]
        time.sleep(0.2)


@pytest.mark.parametrize("era", ["legacy", "2026-07-28"])
def test_a_client_that_vanishes_over_http_stops_its_run(
    store, workshop_db, records, tmp_path, monkeypatch, era
):
    from shopfloor.server.app import create_app
    from shopfloor.workshop import accounts
    from tests.web.live import serving

    slow = SlowModel(40)
    monkeypatch.setattr(workshop, "choose_provider", lambda option, settings: slow)
    token = accounts.issue_token(store, ANA, "desk")
    settings = Settings(workshop_db=f"sqlite:///{workshop_db}", shifts_db=records, var_dir=tmp_path)
    with store.session(WORKSHOP_A) as s:
        before = set(s.scalars(select(m.AgentRun.id)))
    call = json.loads(json.dumps(CALL))
    with serving(create_app(settings), lifespan="on") as port:
        url = f"http://127.0.0.1:{port}/mcp"

        async def scenario() -> None:
            headers = {"authorization": f"Bearer {token}", **ACCEPT}
            async with httpx2.AsyncClient(timeout=60) as http:
                if era == "legacy":
                    init = {
                        "jsonrpc": "2.0",
                        "id": 1,
                        "method": "initialize",
                        "params": {
                            "protocolVersion": "2025-11-25",
                            "capabilities": {},
                            "clientInfo": {"name": "raw", "version": "0"},
                        },
                    }
                    r = await http.post(url, json=init, headers=headers)
                    assert r.status_code == 200, r.text
                    version = {
                        "mcp-session-id": r.headers["mcp-session-id"],
                        "mcp-protocol-version": "2025-11-25",
                    }
                    headers |= version
                    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
                    await http.post(url, json=note, headers=headers)
                else:
                    call["params"]["_meta"] = {
                        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
                        "io.modelcontextprotocol/clientCapabilities": {},
                    }
                    headers |= {
                        "mcp-protocol-version": "2026-07-28",
                        "mcp-method": "tools/call",
                        "mcp-name": "propose_from_note",
                    }
                with anyio.move_on_after(20):
                    async with http.stream("POST", url, json=call, headers=headers) as resp:
                        assert resp.status_code == 200
                        while not slow.started.is_set():
                            await anyio.sleep(0.05)
                # Leaving the block drops the connection: no notifications/cancelled, no DELETE.
            assert slow.started.is_set()

        anyio.run(scenario)
        assert stopped_run(store, before) == ["stopped"]
        # Stopped at the disconnect, not when the model's 40 s were up; a dropped SSE stream is noticed at
        # its next write at the latest (the stream's keep-alive comes every 15 s).
        assert time.monotonic() - slow.started_at < 30
