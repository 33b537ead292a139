"""The agent on PostgreSQL as the non-owner app role (row-level security applies to every read and write)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from shopfloor.web.errors import ApiError
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.store import Store
from shopfloor.workshop.store import models as m

from .conftest import ANA, PEDRO, SAMPLE_NOTE

pytestmark = pytest.mark.postgres


def test_sample_note_on_postgres(pg_store: Store):
    agent_store = StoreAgentStore(pg_store)
    body = run_agent(agent_store, ANA, {"note": SAMPLE_NOTE}, OfflineReader(), "req_pgpgpgpgpgpg", 20)
    assert sorted(p["status"] for p in body["proposals"]) == ["blocked", "pending", "pending", "pending"]
    with pg_store.transaction(ANA.workshop_id, write=False) as session:
        run = session.get(m.AgentRun, body["run_id"])
        assert run is not None and run.status == "proposed"
        assert len(list(session.scalars(select(m.Proposal)))) == 4
        events = [r.event for r in session.scalars(select(m.AppLog).where(m.AppLog.run_id == run.id))]
    assert events[0] == "agent.run.start" and events[-1] == "agent.run.end"
    # A second run sees the first run's open proposal for TQ-7F3K2 (the indexed hat_code column).
    again = run_agent(agent_store, ANA, {"note": "El TQ-7F3K2 pasó a lavado"}, OfflineReader(), "req_pg2", 20)
    assert again["proposals"][0]["rule_result"]["warnings"] == ["open_proposal_exists"]
    # Workshop B's member sees none of it, and the rate limit counts only their own runs.
    with pg_store.transaction(PEDRO.workshop_id, write=False) as session:
        assert list(session.scalars(select(m.AgentRun))) == []
    with pytest.raises(ApiError) as caught:
        run_agent(agent_store, ANA, {"note": "hola"}, OfflineReader(), "req_pg3", 2)
    assert caught.value.status == 429


def test_rate_limit_holds_on_postgres_when_requests_arrive_together(pg_store: Store):
    from .test_run import _race_for_the_last_slots

    statuses = _race_for_the_last_slots(StoreAgentStore(pg_store), limit=2, requests=6)
    assert sorted(statuses) == [200, 200, 429, 429, 429, 429]


def test_a_failed_read_does_not_spoil_the_turns_other_reads(pg_store: Store, monkeypatch):
    """On PostgreSQL an error aborts the transaction it happens in; the reads after it in the same turn take
    their own transaction instead of failing too."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from shopfloor.workshop.agent import persistence

    reads = StoreAgentStore(pg_store).reads(ANA)
    with reads.batch():
        hat = reads.hat_by_code("TQ-7F3K2")
        assert hat is not None
        monkeypatch.setattr(persistence, "_OPEN_FLAGS", text("SELECT no_such_column FROM hat_flags"))
        with pytest.raises(DBAPIError):
            reads.open_flags(hat)
        monkeypatch.undo()
        assert reads.open_flags(hat) == []
        assert [e.to_stage for e in reads.events(hat, 5)][-1] is not None
