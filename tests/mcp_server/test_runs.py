"""A workshop run from an MCP client, with the official client in process (the SDK's in-memory streams) and a
scripted model: a client that gives up on a call cancels its run (``stopped``, no card), and a run past the
workshop's monthly spend cap is refused 402 ``budget_exhausted`` before any model call."""

from __future__ import annotations

import threading
import time

import anyio
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
    """A live-like model (not local: the loop waits for it on a worker thread) that takes 20 seconds."""

    name = "slow"
    model = "slow"

    def __init__(self) -> None:
        self.started = threading.Event()

    def complete(self, request: ModelRequest) -> Turn:
        self.started.set()
        time.sleep(20)
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
