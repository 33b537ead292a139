"""The actor-scoped repository: every read and write names the actor and filters by the actor's workshop.

Hats, hat events and hat flags are read here but written only by ``shopfloor.workshop.approvals``. Agent runs
and their proposals are written only by the agent (``shopfloor.workshop.agent.persistence``: the run row first,
then the run and its proposals in one transaction); this module reads them and writes log rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from shopfloor.workshop import domain
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow

# Models with a workshop_id column (each tenant table).
_Row = TypeVar("_Row", m.Profile, m.Weaver, m.Hat, m.AgentRun, m.Proposal)


class NotFound(LookupError):
    """No such row in the actor's workshop (rows of other workshops are reported the same way)."""


def weaver_view(row: Any) -> domain.Weaver:
    """The domain value of a weaver row (an ORM row or a plain column select)."""
    return domain.Weaver(
        id=row.id,
        name=row.name,
        village=row.village,
        province=row.province,
        specialty=row.specialty,
        archived=bool(row.archived),
        workshop_id=row.workshop_id,
    )


def hat_value(row: Any, weaver: domain.Weaver | None) -> domain.Hat:
    """The domain value of a hat row (an ORM row or a plain column select) with its weaver's value."""
    return domain.Hat(
        id=row.id,
        code=row.code,
        stage=row.stage,
        grade=row.grade,
        rows_per_inch=row.rows_per_inch,
        workshop_id=row.workshop_id,
        created_at=aware_utc(row.created_at),
        owner_type=row.owner_type,
        owner_name=row.owner_name,
        archived=bool(row.archived),
        weaver_id=row.weaver_id,
        weaver=weaver,
        straw=row.straw,
        version=row.version,
    )


def hat_view(row: m.Hat, weaver: m.Weaver | None) -> domain.Hat:
    """The domain value of a hat row with its weaver row (None when missing)."""
    if weaver is None or weaver.workshop_id != row.workshop_id:
        return hat_value(row, None)
    return hat_value(row, weaver_view(weaver))


def aware_utc(value: datetime) -> datetime:
    """Column selects skip the ORM's UTC type on some backends; make the value aware either way."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def event_view(row: m.HatEvent) -> domain.HatEvent:
    """The domain value of a hat event row."""
    return domain.HatEvent(
        type=row.type, created_at=row.created_at, from_stage=row.from_stage, to_stage=row.to_stage
    )


class WorkshopRepo:
    """Reads and writes of one actor, always inside the actor's workshop."""

    def __init__(self, session: Session, actor: domain.Actor) -> None:
        if not actor.workshop_id:
            raise ValueError("An actor without a workshop can read nothing.")
        bound = session.info.get("workshop_id")
        if bound is not None and bound != actor.workshop_id:
            raise ValueError("The session is bound to another workshop.")
        session.info["workshop_id"] = actor.workshop_id
        self.session = session
        self.actor = actor
        self.workshop_id = actor.workshop_id

    def _one(self, model: type[_Row], what: str, *where: ColumnElement[bool]) -> _Row:
        """The one row of ``model`` in the actor's workshop matching ``where``; ``NotFound(what)`` otherwise."""
        stmt = select(model).where(model.workshop_id == self.workshop_id, *where)
        row = self.session.scalars(stmt).first()
        if row is None:
            raise NotFound(what)
        return row

    # --- workshop and people --------------------------------------------------------------------------

    def workshop(self) -> m.Workshop:
        """The actor's workshop row."""
        row = self.session.get(m.Workshop, self.workshop_id)
        if row is None:
            raise NotFound("workshop")
        return row

    def profiles(self) -> list[m.Profile]:
        """Users of the workshop, by name."""
        stmt = select(m.Profile).where(m.Profile.workshop_id == self.workshop_id).order_by(m.Profile.name)
        return list(self.session.scalars(stmt))

    def profile(self, user_id: str) -> m.Profile:
        """One user of the workshop."""
        return self._one(m.Profile, f"user {user_id}", m.Profile.id == user_id)

    # --- weavers ----------------------------------------------------------------------------------------

    def weavers(self, include_archived: bool = True) -> list[m.Weaver]:
        """Weavers of the workshop, by id."""
        stmt = select(m.Weaver).where(m.Weaver.workshop_id == self.workshop_id)
        if not include_archived:
            stmt = stmt.where(m.Weaver.archived.is_(False))
        return list(self.session.scalars(stmt.order_by(m.Weaver.id)))

    def weaver(self, weaver_id: str) -> m.Weaver:
        """One weaver of the workshop."""
        return self._one(m.Weaver, f"weaver {weaver_id}", m.Weaver.id == weaver_id)

    def find_weavers(self, query: str) -> list[m.Weaver]:
        """Weavers matching a heard name (``domain.match_weavers``), at most 5, archived skipped."""
        rows = self.weavers(include_archived=False)
        by_id = {r.id: r for r in rows}
        return [by_id[w.id] for w in domain.match_weavers(query, [weaver_view(r) for r in rows])]

    def open_hat_counts(self) -> dict[str, int]:
        """Open (not finished, not archived) hats per weaver id."""
        stmt = (
            select(m.Hat.weaver_id, func.count())
            .where(
                m.Hat.workshop_id == self.workshop_id, m.Hat.archived.is_(False), m.Hat.stage != "Finished"
            )
            .group_by(m.Hat.weaver_id)
        )
        return {wid: n for wid, n in self.session.execute(stmt) if wid is not None}

    # --- hats --------------------------------------------------------------------------------------------

    def hats(
        self,
        *,
        stage: str | None = None,
        weaver_id: str | None = None,
        weaver_ids: Iterable[str] | None = None,
        code: str | None = None,
        codes: Iterable[str] | None = None,
        open_only: bool = False,
        limit: int | None = None,
    ) -> list[m.Hat]:
        """Hats of the workshop, sorted by code, filtered by any of the arguments."""
        stmt = select(m.Hat).where(m.Hat.workshop_id == self.workshop_id)
        if stage is not None:
            stmt = stmt.where(m.Hat.stage == stage)
        if weaver_id is not None:
            stmt = stmt.where(m.Hat.weaver_id == weaver_id)
        if weaver_ids is not None:
            stmt = stmt.where(m.Hat.weaver_id.in_(list(weaver_ids)))
        if code is not None:
            stmt = stmt.where(m.Hat.code == code)
        if codes is not None:
            stmt = stmt.where(m.Hat.code.in_(list(codes)))
        if open_only:
            stmt = stmt.where(m.Hat.archived.is_(False), m.Hat.stage != "Finished")
        stmt = stmt.order_by(m.Hat.code)
        if limit is not None:
            stmt = stmt.limit(limit)
        return list(self.session.scalars(stmt))

    def hat_codes(self, open_only: bool = False) -> list[str]:
        """Codes of the workshop's hats (open ones only when asked)."""
        stmt = select(m.Hat.code).where(m.Hat.workshop_id == self.workshop_id)
        if open_only:
            stmt = stmt.where(m.Hat.archived.is_(False), m.Hat.stage != "Finished")
        return list(self.session.scalars(stmt.order_by(m.Hat.code)))

    def hat_by_code(self, code: str) -> m.Hat:
        """The hat with this exact (normalized) code."""
        return self._one(m.Hat, f"hat {code}", m.Hat.code == code)

    def hat(self, hat_id: str) -> m.Hat:
        """The hat with this id."""
        return self._one(m.Hat, f"hat {hat_id}", m.Hat.id == hat_id)

    def hat_domain(self, row: m.Hat) -> domain.Hat:
        """The domain view of ``row`` with its weaver."""
        weaver = None
        if row.weaver_id is not None:
            try:
                weaver = self.weaver(row.weaver_id)
            except NotFound:
                weaver = None
        return hat_view(row, weaver)

    def events(self, hat_id: str, limit: int | None = None, newest_first: bool = False) -> list[m.HatEvent]:
        """Events of one hat, oldest first (or newest first), at most ``limit``."""
        order = m.HatEvent.created_at.desc() if newest_first else m.HatEvent.created_at
        stmt = (
            select(m.HatEvent)
            .where(m.HatEvent.hat_id == hat_id, m.HatEvent.workshop_id == self.workshop_id)
            .order_by(order, m.HatEvent.id)
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        return list(self.session.scalars(stmt))

    def events_for(self, hat_ids: Sequence[str]) -> dict[str, list[m.HatEvent]]:
        """Events of several hats, oldest first, by hat id."""
        out: dict[str, list[m.HatEvent]] = {h: [] for h in hat_ids}
        if not hat_ids:
            return out
        stmt = (
            select(m.HatEvent)
            .where(m.HatEvent.hat_id.in_(list(hat_ids)), m.HatEvent.workshop_id == self.workshop_id)
            .order_by(m.HatEvent.created_at, m.HatEvent.id)
        )
        for row in self.session.scalars(stmt):
            out[row.hat_id].append(row)
        return out

    def flags(self, hat_ids: Sequence[str] | None = None, open_only: bool = True) -> list[m.HatFlag]:
        """Flags of the workshop (of some hats), open ones only unless asked."""
        stmt = select(m.HatFlag).where(m.HatFlag.workshop_id == self.workshop_id)
        if hat_ids is not None:
            stmt = stmt.where(m.HatFlag.hat_id.in_(list(hat_ids)))
        if open_only:
            stmt = stmt.where(m.HatFlag.status == "open")
        return list(self.session.scalars(stmt.order_by(m.HatFlag.created_at, m.HatFlag.id)))

    def hat_list(
        self,
        *,
        stage: str | None = None,
        weaver_id: str | None = None,
        grade: str | None = None,
        code: str | None = None,
        flagged: bool = False,
        limit: int | None = None,
    ) -> list[m.Hat]:
        """Hats for the hats page, sorted by code: by stage, weaver, grade, code, and (``flagged``) only
        those with an open flag, each filter in the query."""
        stmt = select(m.Hat).where(m.Hat.workshop_id == self.workshop_id)
        if stage is not None:
            stmt = stmt.where(m.Hat.stage == stage)
        if weaver_id is not None:
            stmt = stmt.where(m.Hat.weaver_id == weaver_id)
        if grade is not None:
            stmt = stmt.where(m.Hat.grade == grade)
        if code is not None:
            stmt = stmt.where(m.Hat.code == code)
        if flagged:
            open_flag = select(m.HatFlag.id).where(
                m.HatFlag.workshop_id == self.workshop_id,
                m.HatFlag.hat_id == m.Hat.id,
                m.HatFlag.status == "open",
            )
            stmt = stmt.where(open_flag.exists())
        stmt = stmt.order_by(m.Hat.code)
        if limit is not None:
            stmt = stmt.limit(limit)
        return list(self.session.scalars(stmt))

    def open_flag_counts(self, hat_ids: Sequence[str] | None = None) -> dict[str, int]:
        """Open flags per hat id (of some hats, or of the whole workshop), counted in the query."""
        stmt = select(m.HatFlag.hat_id, func.count()).where(
            m.HatFlag.workshop_id == self.workshop_id, m.HatFlag.status == "open"
        )
        if hat_ids is not None:
            stmt = stmt.where(m.HatFlag.hat_id.in_(list(hat_ids)))
        return {hat_id: int(n) for hat_id, n in self.session.execute(stmt.group_by(m.HatFlag.hat_id))}

    def anomalies(self, row: m.Hat, now: datetime | None = None) -> list[domain.Anomaly]:
        """``domain.detect_anomalies`` on the stored record."""
        events = [event_view(e) for e in self.events(row.id)]
        return domain.detect_anomalies(self.hat_domain(row), events, now or utcnow())

    # --- agent runs and proposals ------------------------------------------------------------------------

    def runs(self, limit: int = 50, user_id: str | None = None) -> list[m.AgentRun]:
        """Newest runs of the workshop (of one user when given)."""
        stmt = select(m.AgentRun).where(m.AgentRun.workshop_id == self.workshop_id)
        if user_id is not None:
            stmt = stmt.where(m.AgentRun.user_id == user_id)
        return list(self.session.scalars(stmt.order_by(m.AgentRun.created_at.desc()).limit(limit)))

    def run(self, run_id: str) -> m.AgentRun:
        """One run of the workshop."""
        return self._one(m.AgentRun, f"run {run_id}", m.AgentRun.id == run_id)

    def proposals(
        self, run_id: str | None = None, statuses: Iterable[str] | None = None, limit: int = 200
    ) -> list[m.Proposal]:
        """Proposals of the workshop (of one run), newest run first, in card order."""
        stmt = select(m.Proposal).where(m.Proposal.workshop_id == self.workshop_id)
        if run_id is not None:
            stmt = stmt.where(m.Proposal.run_id == run_id)
        if statuses is not None:
            stmt = stmt.where(m.Proposal.status.in_(list(statuses)))
        stmt = stmt.order_by(m.Proposal.created_at.desc(), m.Proposal.position).limit(limit)
        return list(self.session.scalars(stmt))

    def runs_where(
        self, limit: int = 50, user_id: str | None = None, status: str | None = None
    ) -> list[m.AgentRun]:
        """Newest runs of the workshop, filtered by user and status in the query."""
        stmt = select(m.AgentRun).where(m.AgentRun.workshop_id == self.workshop_id)
        if user_id is not None:
            stmt = stmt.where(m.AgentRun.user_id == user_id)
        if status is not None:
            stmt = stmt.where(m.AgentRun.status == status)
        return list(self.session.scalars(stmt.order_by(m.AgentRun.created_at.desc()).limit(limit)))

    def proposal_counts(self, run_ids: Sequence[str]) -> dict[str, int]:
        """How many proposals each of these runs has, counted in the query."""
        if not run_ids:
            return {}
        stmt = (
            select(m.Proposal.run_id, func.count())
            .where(m.Proposal.workshop_id == self.workshop_id, m.Proposal.run_id.in_(list(run_ids)))
            .group_by(m.Proposal.run_id)
        )
        return {run_id: int(n) for run_id, n in self.session.execute(stmt)}

    def proposals_about_hat(self, hat_id: str, code: str, limit: int = 100) -> list[m.Proposal]:
        """Cards about one hat, newest first: those naming its code (the indexed ``hat_code``) and those whose
        approval wrote one of its events (the create card that made it, say)."""
        wrote = select(m.HatEvent.proposal_id).where(
            m.HatEvent.workshop_id == self.workshop_id,
            m.HatEvent.hat_id == hat_id,
            m.HatEvent.proposal_id.is_not(None),
        )
        stmt = (
            select(m.Proposal)
            .where(
                m.Proposal.workshop_id == self.workshop_id,
                or_(m.Proposal.hat_code == code, m.Proposal.id.in_(wrote)),
            )
            .order_by(m.Proposal.created_at.desc(), m.Proposal.position)
            .limit(limit)
        )
        return list(self.session.scalars(stmt))

    def proposal(self, proposal_id: str) -> m.Proposal:
        """One proposal of the workshop."""
        return self._one(m.Proposal, f"proposal {proposal_id}", m.Proposal.id == proposal_id)

    def open_proposals_for_hat(self, code: str, exclude_run: str | None = None) -> list[m.Proposal]:
        """Pending or question proposals (any run but ``exclude_run``) about hat ``code``, newest first."""
        stmt = select(m.Proposal).where(
            m.Proposal.workshop_id == self.workshop_id,
            m.Proposal.hat_code == code,
            m.Proposal.status.in_(("pending", "question")),
        )
        if exclude_run is not None:
            stmt = stmt.where(m.Proposal.run_id != exclude_run)
        return list(self.session.scalars(stmt.order_by(m.Proposal.created_at.desc(), m.Proposal.position)))

    # --- logs ----------------------------------------------------------------------------------------------

    def log(
        self,
        event: str,
        *,
        level: str = "info",
        source: str = "workshop",
        request_id: str | None = None,
        run_id: str | None = None,
        payload: dict[str, Any] | None = None,
    ) -> m.AppLog:
        """Add an ``app_logs`` row for the actor (flushed with the session)."""
        row = m.AppLog(
            level=level,
            source=source,
            event=event,
            request_id=request_id,
            user_id=self.actor.user_id,
            workshop_id=self.workshop_id,
            run_id=run_id,
            payload=payload,
        )
        self.session.add(row)
        return row

    def logs(
        self, run_id: str | None = None, request_id: str | None = None, limit: int = 500
    ) -> list[m.AppLog]:
        """Log rows of the workshop, oldest first."""
        stmt = select(m.AppLog).where(m.AppLog.workshop_id == self.workshop_id)
        if run_id is not None:
            stmt = stmt.where(m.AppLog.run_id == run_id)
        if request_id is not None:
            stmt = stmt.where(m.AppLog.request_id == request_id)
        return list(self.session.scalars(stmt.order_by(m.AppLog.id).limit(limit)))
