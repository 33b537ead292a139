"""The agent's persistence over the workshop store: read-only record views and its own rows.

The agent reads weavers, hats, events, flags and proposals through the actor-scoped repository, and writes
only ``agent_runs``, ``proposals`` and ``app_logs``. There is deliberately no method here that touches a
hat, weaver, hat event or hat flag row for writing (a test greps this package to keep it so).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from shopfloor.workshop import domain
from shopfloor.workshop.agent.context import OpenFlag
from shopfloor.workshop.agent.run import AGENT, LogRow, RunResult, RunRow
from shopfloor.workshop.store import Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.repo import event_view, weaver_view

HATS = m.Hat.__table__


class StoreReads:
    """Read-only views of one actor's workshop for one run.

    One session serves the whole run; every call ends its read transaction, so each call sees the database
    as it is now (a hat reloaded before a proposal is fresh). Weavers are read once per run.
    """

    def __init__(self, store: Store, actor: domain.Actor) -> None:
        self.store = store
        self.actor = actor
        self._session: Session | None = None
        self._weavers: dict[str, domain.Weaver] | None = None

    def _repo(self) -> WorkshopRepo:
        if self._session is None:
            self._session = self.store.session(self.actor.workshop_id)
        return WorkshopRepo(self._session, self.actor)

    def _done(self) -> None:
        if self._session is not None:
            self._session.rollback()  # read-only: ends the snapshot, keeps nothing

    def close(self) -> None:
        """Release the run's session."""
        if self._session is not None:
            self._session.close()
            self._session = None

    def _weaver_views(self, repo: WorkshopRepo) -> dict[str, domain.Weaver]:
        if self._weavers is None:
            self._weavers = {w.id: weaver_view(w) for w in repo.weavers()}
        return self._weavers

    def _hat(self, row: Any, weavers: dict[str, domain.Weaver]) -> domain.Hat:
        # Rows come from plain column selects (no ORM identity map: this is the hot path of every tool).
        return domain.Hat(
            id=row.id,
            code=row.code,
            stage=row.stage,
            grade=row.grade,
            rows_per_inch=row.rows_per_inch,
            workshop_id=row.workshop_id,
            created_at=_utc(row.created_at),
            owner_type=row.owner_type,
            owner_name=row.owner_name,
            archived=bool(row.archived),
            weaver_id=row.weaver_id,
            weaver=weavers.get(row.weaver_id or ""),
            straw=row.straw,
            version=row.version,
        )

    def weavers(self) -> list[domain.Weaver]:
        """Every weaver of the workshop."""
        try:
            return list(self._weaver_views(self._repo()).values())
        finally:
            self._done()

    def hats(self) -> list[domain.Hat]:
        """Every hat of the workshop with its weaver."""
        repo = self._repo()
        try:
            weavers = self._weaver_views(repo)
            stmt = select(HATS).where(HATS.c.workshop_id == self.actor.workshop_id).order_by(HATS.c.code)
            return [self._hat(h, weavers) for h in repo.session.execute(stmt)]
        finally:
            self._done()

    def open_hat_counts(self) -> dict[str, int]:
        """Open (not finished, not archived) hats per weaver id, counted in the database."""
        try:
            return self._repo().open_hat_counts()
        finally:
            self._done()

    def hat_by_code(self, code: str) -> domain.Hat | None:
        """The hat with exactly this code, read fresh, or None."""
        repo = self._repo()
        try:
            stmt = select(HATS).where(HATS.c.workshop_id == self.actor.workshop_id, HATS.c.code == code)
            row = repo.session.execute(stmt).first()
            if row is None:
                return None
            return self._hat(row, self._weaver_views(repo))
        finally:
            self._done()

    def events(self, hat: domain.Hat, limit: int) -> list[domain.HatEvent]:
        """The hat's latest events, oldest first."""
        try:
            rows = self._repo().events(hat.id, limit=limit, newest_first=True)
            return [event_view(e) for e in reversed(rows)]
        finally:
            self._done()

    def open_flags(self, hat: domain.Hat) -> list[OpenFlag]:
        """The hat's open flags."""
        try:
            return [OpenFlag(f.kind, f.message) for f in self._repo().flags([hat.id], open_only=True)]
        finally:
            self._done()

    def open_proposal_exists(self, hat_code: str, proposal_type: str, exclude_run_id: str) -> bool:
        """Whether an earlier run left a pending or question proposal of this type for this hat."""
        repo = self._repo()
        try:
            stmt = (
                select(m.Proposal.id)
                .where(
                    m.Proposal.workshop_id == self.actor.workshop_id,
                    m.Proposal.type == proposal_type,
                    m.Proposal.status.in_(("pending", "question")),
                    m.Proposal.run_id != exclude_run_id,
                    m.Proposal.payload["hat_code"].as_string() == hat_code,
                )
                .limit(1)
            )
            return repo.session.scalars(stmt).first() is not None
        finally:
            self._done()


def _utc(value: datetime) -> datetime:
    """Column selects skip the ORM's UTC type on some backends; make the value aware either way."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _log_values(row: LogRow) -> dict[str, Any]:
    return {
        "ts": row.ts,
        "level": row.level,
        "source": row.source,
        "event": row.event,
        "request_id": row.request_id,
        "user_id": row.user_id,
        "workshop_id": row.workshop_id,
        "run_id": row.run_id,
        "payload": row.payload,
    }


def _insert_logs(session: Session, logs: list[LogRow]) -> None:
    """All log rows of a step in one statement."""
    if logs:
        session.execute(insert(m.AppLog), [_log_values(log) for log in logs])


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
            _insert_logs(session, logs)

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
            _insert_logs(session, logs)
            return [r.id for r in rows]

    def write_logs(self, actor: domain.Actor, logs: list[LogRow]) -> None:
        """Insert log rows that belong to no run (validation and rate-limit errors)."""
        if not logs:
            return
        with self.store.transaction(actor.workshop_id) as session:
            _insert_logs(session, logs)
