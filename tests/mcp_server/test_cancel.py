"""A client that gives up on a call cancels its workshop run: the run ends ``stopped`` and saves no card
(the official client in process, over the SDK's in-memory streams)."""

from __future__ import annotations

import threading
import time

import anyio
import pytest
from mcp import Client
from sqlalchemy import select

from shopfloor import workshop
from shopfloor.agent.providers.base import ModelRequest, Turn
from shopfloor.agent.providers.scripted import text_turn
from shopfloor.mcp.server import build_server
from shopfloor.mcp.tools import Backend
from shopfloor.settings import Settings
from shopfloor.workshop.domain import Actor
from shopfloor.workshop.sample import WORKSHOP_A
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
