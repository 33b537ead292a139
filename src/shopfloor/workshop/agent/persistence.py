"""The agent's persistence over the workshop store: read-only record views and its own rows.

The agent reads weavers, hats, events, flags and proposals through the actor-scoped repository, and writes
only ``agent_runs``, ``proposals`` and ``app_logs``. There is deliberately no method here that touches a
hat, weaver, hat event or hat flag row for writing (a test greps this package to keep it so).
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from shopfloor.workshop import domain
from shopfloor.workshop.agent.context import OpenFlag
from shopfloor.workshop.agent.run import AGENT, LogRow, RunResult, RunRow
from shopfloor.workshop.store import Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.repo import event_view, hat_view, weaver_view


class StoreReads:
    """Read-only views of one actor's workshop; each call reads fresh in its own short transaction."""

    def __init__(self, store: Store, actor: domain.Actor) -> None:
        self.store = store
        self.actor = actor

    def weavers(self) -> list[domain.Weaver]:
        """Every weaver of the workshop."""
        with self.store.session(self.actor.workshop_id) as session:
            return [weaver_view(w) for w in WorkshopRepo(session, self.actor).weavers()]

    def hats(self) -> list[domain.Hat]:
        """Every hat of the workshop with its weaver."""
        with self.store.session(self.actor.workshop_id) as session:
            repo = WorkshopRepo(session, self.actor)
            weavers = {w.id: w for w in repo.weavers()}
            stmt = select(m.Hat).where(m.Hat.workshop_id == self.actor.workshop_id).order_by(m.Hat.code)
            return [hat_view(h, weavers.get(h.weaver_id or "")) for h in session.scalars(stmt)]

    def hat_by_code(self, code: str) -> domain.Hat | None:
        """The hat with exactly this code, read fresh, or None."""
        with self.store.session(self.actor.workshop_id) as session:
            stmt = select(m.Hat).where(m.Hat.workshop_id == self.actor.workshop_id, m.Hat.code == code)
            row = session.scalars(stmt).first()
            return WorkshopRepo(session, self.actor).hat_domain(row) if row is not None else None

    def events(self, hat: domain.Hat, limit: int) -> list[domain.HatEvent]:
        """The hat's latest events, oldest first."""
        with self.store.session(self.actor.workshop_id) as session:
            rows = WorkshopRepo(session, self.actor).events(hat.id, limit=limit, newest_first=True)
            return [event_view(e) for e in reversed(rows)]

    def open_flags(self, hat: domain.Hat) -> list[OpenFlag]:
        """The hat's open flags."""
        with self.store.session(self.actor.workshop_id) as session:
            rows = WorkshopRepo(session, self.actor).flags([hat.id], open_only=True)
            return [OpenFlag(f.kind, f.message) for f in rows]

    def open_proposal_exists(self, hat_code: str, proposal_type: str, exclude_run_id: str) -> bool:
        """Whether an earlier run left a pending or question proposal of this type for this hat."""
        with self.store.session(self.actor.workshop_id) as session:
            rows = WorkshopRepo(session, self.actor).open_proposals_for_hat(hat_code, exclude_run=exclude_run_id)
            return any(p.type == proposal_type for p in rows)


def _log_row(row: LogRow) -> m.AppLog:
    return m.AppLog(
        ts=row.ts,
        level=row.level,
        source=row.source,
        event=row.event,
        request_id=row.request_id,
        user_id=row.user_id,
        workshop_id=row.workshop_id,
        run_id=row.run_id,
        payload=row.payload,
    )


class StoreAgentStore:
    """:class:`~shopfloor.workshop.agent.run.AgentStore` on the workshop store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def reads(self, actor: domain.Actor) -> StoreReads:
        """Read-only views of the actor's workshop."""
        return StoreReads(self.store, actor)

    def recent_runs(self, actor: domain.Actor, window: timedelta) -> int:
        """Workshop runs the actor started within ``window`` (counted in the database)."""
        with self.store.session(actor.workshop_id) as session:
            return WorkshopRepo(session, actor).count_recent_runs(since=window, agent=AGENT)

    def insert_run(self, row: RunRow, logs: list[LogRow]) -> None:
        """Insert the ``running`` run row and its first log rows in one transaction."""
        with self.store.transaction(row.actor.workshop_id) as session:
            session.add(
                m.AgentRun(
                    id=row.run_id,
                    workshop_id=row.actor.workshop_id,
                    user_id=row.actor.user_id,
                    agent=AGENT,
                    request_id=row.request_id,
                    input=row.note,
                    input_mode=row.input_mode,
                    hat_code=row.hat_code,
                    model=row.model,
                    status="running",
                    steps=[],
                    created_at=row.created_at,
                    updated_at=row.created_at,
                )
            )
            session.flush()
            session.add_all(_log_row(log) for log in logs)

    def save_agent_run(self, actor: domain.Actor, result: RunResult, logs: list[LogRow]) -> list[str]:
        """ONE transaction: the run row update, every proposal, and the run's log rows."""
        with self.store.transaction(actor.workshop_id) as session:
            rows = WorkshopRepo(session, actor).save_agent_run(
                result.run_id,
                status=result.status,
                summary=result.summary,
                steps=result.steps,
                proposals=[
                    {
                        "type": p.type,
                        "payload": p.payload,
                        "status": p.status,
                        "why": p.why,
                        "quote": p.quote,
                        "confidence": p.confidence,
                        "rule_result": p.rule_result,
                    }
                    for p in result.proposals
                ],
                tokens_in=result.tokens_in,
                tokens_out=result.tokens_out,
                latency_ms=result.latency_ms,
                cost_usd=result.cost_usd if result.cost_usd is not None else 0.0,
                model=result.model,
                error=result.error,
            )
            session.add_all(_log_row(log) for log in logs)
            session.flush()
            return [r.id for r in rows]

    def write_logs(self, actor: domain.Actor, logs: list[LogRow]) -> None:
        """Insert log rows that belong to no run (validation and rate-limit errors)."""
        if not logs:
            return
        with self.store.transaction(actor.workshop_id) as session:
            session.add_all(_log_row(log) for log in logs)

