"""Tables of the workshop store (SQLAlchemy 2 declarative models).

Every tenant table carries ``workshop_id`` (hat events and flags too, so PostgreSQL policies stay one simple
comparison). Ids are short strings: sample weavers keep fixed ids (w1..w4, docs/workshop.md, "Sample data"),
other rows get random hex.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from shopfloor.agent import spend
from shopfloor.workshop import domain
from shopfloor.workshop.store.types import UTCDateTime


def new_id() -> str:
    """A random 16-hex-digit id."""
    return secrets.token_hex(8)


def utcnow() -> datetime:
    """Now, timezone-aware in UTC."""
    return datetime.now(UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


RUN_STATUSES = ("running", "proposed", "failed", "stopped", "approved", "partially_approved", "rejected")


class Base(DeclarativeBase):
    """Declarative base of the workshop store."""

    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: UTCDateTime}


class Workshop(Base):
    __tablename__ = "workshops"
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Profile(Base):
    """A user: login email, argon2 password hash, role in one workshop."""

    __tablename__ = "profiles"
    __table_args__ = (CheckConstraint(_in("role", ("member", "admin")), name="ck_profiles_role"),)
    __mapper_args__ = {"eager_defaults": False}  # see ``locale``
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    role: Mapped[str] = mapped_column(String(10), default="member")
    password_hash: Mapped[str] = mapped_column(String(255))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The page language the user chose (docs/workshop-pages.md); None: the default for the role. Deferred and
    # with a server default, so only the pages read or write it and code running against an older revision
    # (sample loading in the migration tests) never names it.
    locale: Mapped[str | None] = mapped_column(
        String(5), nullable=True, deferred=True, server_default=text("NULL")
    )


class ApiToken(Base):
    """A bearer token for the API; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("profiles.id"), index=True)
    name: Mapped[str] = mapped_column(String(120), default="api")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Set when the token is issued (`SHOPFLOOR_TOKEN_TTL_DAYS`); a token without one is refused.
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class UserSession(Base):
    """A signed-in browser session; the cookie names it, and sign-out ends it here (docs/workshop.md)."""

    __tablename__ = "user_sessions"
    __table_args__ = (Index("ix_user_sessions_user", "workshop_id", "user_id"),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"))
    user_id: Mapped[str] = mapped_column(ForeignKey("profiles.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class SigninFailure(Base):
    """Failed sign-ins of one email or one client address, shared by every server process.

    ``key`` is the SHA-256 of the counter's name (no address or unknown email is kept in the clear);
    ``workshop_id`` is set for a known email's counter and None for a client's or an unknown email's, which
    no workshop sees (docs/security.md, throttles).
    """

    __tablename__ = "signin_failures"
    __table_args__ = (CheckConstraint(_in("kind", ("email", "client")), name="ck_signin_failures_kind"),)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    workshop_id: Mapped[str | None] = mapped_column(ForeignKey("workshops.id"), nullable=True, index=True)
    failures: Mapped[int] = mapped_column(Integer, default=1)
    first_failed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_failed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class Weaver(Base):
    __tablename__ = "weavers"
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    village: Mapped[str] = mapped_column(String(120), default="")
    province: Mapped[str] = mapped_column(String(120), default="")
    specialty: Mapped[str | None] = mapped_column(String(20), nullable=True)
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Hat(Base):
    __tablename__ = "hats"
    __table_args__ = (
        CheckConstraint(_in("stage", domain.STAGES), name="ck_hats_stage"),
        CheckConstraint(_in("grade", domain.GRADES), name="ck_hats_grade"),
        CheckConstraint(_in("owner_type", domain.OWNER_TYPES), name="ck_hats_owner_type"),
        CheckConstraint("rows_per_inch BETWEEN 6 AND 40", name="ck_hats_rows"),
        CheckConstraint("version >= 1", name="ck_hats_version"),
    )
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    weaver_id: Mapped[str | None] = mapped_column(ForeignKey("weavers.id"), nullable=True, index=True)
    grade: Mapped[str] = mapped_column(String(10))
    rows_per_inch: Mapped[int] = mapped_column(Integer)
    straw: Mapped[str | None] = mapped_column(String(10), nullable=True)
    stage: Mapped[str] = mapped_column(String(10), default="Weaving")
    owner_type: Mapped[str] = mapped_column(String(10), default="workshop")
    owner_name: Mapped[str | None] = mapped_column(String(120), nullable=True)
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class HatEvent(Base):
    __tablename__ = "hat_events"
    __table_args__ = (
        CheckConstraint(
            _in("type", domain.EVENT_TYPES),
            name="ck_hat_events_type",
        ),
    )
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    hat_id: Mapped[str] = mapped_column(ForeignKey("hats.id"), index=True)
    type: Mapped[str] = mapped_column(String(20))
    from_stage: Mapped[str | None] = mapped_column(String(10), nullable=True)
    to_stage: Mapped[str | None] = mapped_column(String(10), nullable=True)
    actor_id: Mapped[str | None] = mapped_column(ForeignKey("profiles.id"), nullable=True)
    proposal_id: Mapped[str | None] = mapped_column(ForeignKey("proposals.id"), nullable=True, index=True)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class HatFlag(Base):
    __tablename__ = "hat_flags"
    __table_args__ = (
        CheckConstraint(_in("kind", domain.FLAG_KINDS), name="ck_hat_flags_kind"),
        CheckConstraint(_in("status", ("open", "resolved")), name="ck_hat_flags_status"),
        # One open flag per hat and kind, even under concurrent approvals.
        Index(
            "uq_hat_flags_open_kind",
            "hat_id",
            "kind",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
    )
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    hat_id: Mapped[str] = mapped_column(ForeignKey("hats.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    message: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(10), default="open")
    proposal_id: Mapped[str | None] = mapped_column(ForeignKey("proposals.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class AgentRun(Base):
    __tablename__ = "agent_runs"
    __table_args__ = (
        CheckConstraint(_in("status", RUN_STATUSES), name="ck_agent_runs_status"),
        Index("ix_agent_runs_user_created", "workshop_id", "user_id", "agent", "created_at"),
        # A note sent again with its key finds its run (docs/workshop.md, "Idempotency keys").
        UniqueConstraint("workshop_id", "idempotency_key", name="uq_agent_runs_idempotency_key"),
    )
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("profiles.id"))
    agent: Mapped[str] = mapped_column(String(40), default="workshop")
    request_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    input: Mapped[str] = mapped_column(Text)
    input_mode: Mapped[str] = mapped_column(String(10), default="typed")
    hat_code: Mapped[str | None] = mapped_column(String(8), nullable=True)
    model: Mapped[str | None] = mapped_column(String(80), nullable=True)
    status: Mapped[str] = mapped_column(String(20), default="running")
    summary: Mapped[str | None] = mapped_column(Text, nullable=True)
    steps: Mapped[list[Any]] = mapped_column(JSON, default=list)
    tokens_in: Mapped[int] = mapped_column(Integer, default=0)
    tokens_out: Mapped[int] = mapped_column(Integer, default=0)
    latency_ms: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    idempotency_key: Mapped[str | None] = mapped_column(String(80), nullable=True)
    said_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    response: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


def proposal_hat_code(payload: Any) -> str | None:
    """The hat code a proposal payload is about (None when it names none)."""
    code = payload.get("hat_code") if isinstance(payload, dict) else None
    return code if isinstance(code, str) and len(code) <= 8 else None


def _hat_code_default(context: Any) -> str | None:
    return proposal_hat_code(context.get_current_parameters().get("payload"))


class Proposal(Base):
    __tablename__ = "proposals"
    __table_args__ = (
        CheckConstraint(_in("status", domain.PROPOSAL_STATUSES), name="ck_proposals_status"),
        CheckConstraint(_in("type", domain.PROPOSAL_TYPES), name="ck_proposals_type"),
        CheckConstraint(_in("confidence", ("high", "check")), name="ck_proposals_confidence"),
        Index("ix_proposals_open_by_hat", "workshop_id", "hat_code", "type", "status"),
    )
    id: Mapped[str] = mapped_column(String(40), primary_key=True, default=new_id)
    run_id: Mapped[str] = mapped_column(ForeignKey("agent_runs.id"), index=True)
    workshop_id: Mapped[str] = mapped_column(ForeignKey("workshops.id"), index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
    type: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The payload's hat code, filled in on insert for the indexed duplicate check (never edited).
    hat_code: Mapped[str | None] = mapped_column(String(8), nullable=True, default=_hat_code_default)
    status: Mapped[str] = mapped_column(String(10))
    why: Mapped[str] = mapped_column(Text, default="")
    quote: Mapped[str] = mapped_column(Text, default="")
    confidence: Mapped[str] = mapped_column(String(10), default="high")
    rule_result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The offline reader's codes and params for the card's why, question and flag message (migration 0009);
    # NULL for a live model's card and for cards stored before (their English is shown as it came).
    texts: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    decided_by: Mapped[str | None] = mapped_column(ForeignKey("profiles.id"), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    applied: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    edited_payload: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AppLog(Base):
    __tablename__ = "app_logs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ts: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    level: Mapped[str] = mapped_column(String(10))
    source: Mapped[str] = mapped_column(String(60))
    event: Mapped[str] = mapped_column(String(80))
    request_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    user_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    workshop_id: Mapped[str | None] = mapped_column(ForeignKey("workshops.id"), nullable=True, index=True)
    run_id: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    payload: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


# Tables whose rows belong to one workshop: every table with a workshop_id column. Migration 0002 keeps its
# own frozen copy for the policies; the row-level security tests check the database against this list.
TENANT_TABLES: tuple[str, ...] = tuple(t.name for t in Base.metadata.sorted_tables if "workshop_id" in t.c)

# The spend ledger's tables (migration 0005) are defined once, in the core that both apps share; they join
# this metadata so the migrations are checked against them like every other table.
for _spend_table in spend.METADATA.sorted_tables:
    _spend_table.to_metadata(Base.metadata)
