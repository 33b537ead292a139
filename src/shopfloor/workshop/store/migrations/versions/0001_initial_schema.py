"""Initial schema: workshops, users, weavers, hats with events and flags, agent runs, proposals, logs.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from shopfloor.workshop.store.types import UTCDateTime

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "workshops",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "app_logs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("ts", UTCDateTime(timezone=True), nullable=False),
        sa.Column("level", sa.String(length=10), nullable=False),
        sa.Column("source", sa.String(length=60), nullable=False),
        sa.Column("event", sa.String(length=80), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("user_id", sa.String(length=40), nullable=True),
        sa.Column("workshop_id", sa.String(length=40), nullable=True),
        sa.Column("run_id", sa.String(length=40), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_app_logs_request_id"), "app_logs", ["request_id"], unique=False)
    op.create_index(op.f("ix_app_logs_run_id"), "app_logs", ["run_id"], unique=False)
    op.create_index(op.f("ix_app_logs_ts"), "app_logs", ["ts"], unique=False)
    op.create_index(op.f("ix_app_logs_workshop_id"), "app_logs", ["workshop_id"], unique=False)
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('member', 'admin')", name="ck_profiles_role"),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
    )
    op.create_index(op.f("ix_profiles_workshop_id"), "profiles", ["workshop_id"], unique=False)
    op.create_table(
        "weavers",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("village", sa.String(length=120), nullable=False),
        sa.Column("province", sa.String(length=120), nullable=False),
        sa.Column("specialty", sa.String(length=20), nullable=True),
        sa.Column("archived", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_weavers_workshop_id"), "weavers", ["workshop_id"], unique=False)
    op.create_table(
        "agent_runs",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("agent", sa.String(length=40), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("input", sa.Text(), nullable=False),
        sa.Column("input_mode", sa.String(length=10), nullable=False),
        sa.Column("hat_code", sa.String(length=8), nullable=True),
        sa.Column("model", sa.String(length=80), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("tokens_in", sa.Integer(), nullable=False),
        sa.Column("tokens_out", sa.Integer(), nullable=False),
        sa.Column("latency_ms", sa.Integer(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=False),
        sa.Column("error", sa.JSON(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('running', 'proposed', 'failed', 'stopped', 'approved', 'partially_approved', 'rejected')",
            name="ck_agent_runs_status",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["profiles.id"],
        ),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_agent_runs_user_created", "agent_runs", ["user_id", "agent", "created_at"], unique=False
    )
    op.create_index(op.f("ix_agent_runs_workshop_id"), "agent_runs", ["workshop_id"], unique=False)
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["profiles.id"],
        ),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index(op.f("ix_api_tokens_user_id"), "api_tokens", ["user_id"], unique=False)
    op.create_index(op.f("ix_api_tokens_workshop_id"), "api_tokens", ["workshop_id"], unique=False)
    op.create_table(
        "hats",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("weaver_id", sa.String(length=40), nullable=True),
        sa.Column("grade", sa.String(length=10), nullable=False),
        sa.Column("rows_per_inch", sa.Integer(), nullable=False),
        sa.Column("straw", sa.String(length=10), nullable=True),
        sa.Column("stage", sa.String(length=10), nullable=False),
        sa.Column("owner_type", sa.String(length=10), nullable=False),
        sa.Column("owner_name", sa.String(length=120), nullable=True),
        sa.Column("archived", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("grade IN ('Standard', 'Fino', 'Superfino')", name="ck_hats_grade"),
        sa.CheckConstraint("owner_type IN ('workshop', 'seller', 'buyer')", name="ck_hats_owner_type"),
        sa.CheckConstraint(
            "stage IN ('Weaving', 'Washing', 'Bleaching', 'Blocking', 'Finished')", name="ck_hats_stage"
        ),
        sa.CheckConstraint("rows_per_inch BETWEEN 6 AND 40", name="ck_hats_rows"),
        sa.CheckConstraint("version >= 1", name="ck_hats_version"),
        sa.ForeignKeyConstraint(
            ["weaver_id"],
            ["weavers.id"],
        ),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
    )
    op.create_index(op.f("ix_hats_weaver_id"), "hats", ["weaver_id"], unique=False)
    op.create_index(op.f("ix_hats_workshop_id"), "hats", ["workshop_id"], unique=False)
    op.create_table(
        "proposals",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("run_id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=20), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.Column("confidence", sa.String(length=10), nullable=False),
        sa.Column("rule_result", sa.JSON(), nullable=True),
        sa.Column("decided_by", sa.String(length=40), nullable=True),
        sa.Column("decided_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("applied", sa.JSON(), nullable=True),
        sa.Column("edited_payload", sa.JSON(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("confidence IN ('high', 'check')", name="ck_proposals_confidence"),
        sa.CheckConstraint(
            "status IN ('pending', 'question', 'blocked', 'approved', 'rejected')", name="ck_proposals_status"
        ),
        sa.CheckConstraint("type IN ('create_hat', 'advance_stage', 'flag_issue')", name="ck_proposals_type"),
        sa.ForeignKeyConstraint(
            ["decided_by"],
            ["profiles.id"],
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["agent_runs.id"],
        ),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_proposals_run_id"), "proposals", ["run_id"], unique=False)
    op.create_index(op.f("ix_proposals_workshop_id"), "proposals", ["workshop_id"], unique=False)
    op.create_table(
        "hat_events",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("hat_id", sa.String(length=40), nullable=False),
        sa.Column("type", sa.String(length=20), nullable=False),
        sa.Column("from_stage", sa.String(length=10), nullable=True),
        sa.Column("to_stage", sa.String(length=10), nullable=True),
        sa.Column("actor_id", sa.String(length=40), nullable=True),
        sa.Column("proposal_id", sa.String(length=40), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "type IN ('created', 'stage_changed', 'flag_raised', 'flag_resolved', 'owner_changed')",
            name="ck_hat_events_type",
        ),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["profiles.id"],
        ),
        sa.ForeignKeyConstraint(
            ["hat_id"],
            ["hats.id"],
        ),
        sa.ForeignKeyConstraint(
            ["proposal_id"],
            ["proposals.id"],
        ),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_hat_events_hat_id"), "hat_events", ["hat_id"], unique=False)
    op.create_index(op.f("ix_hat_events_proposal_id"), "hat_events", ["proposal_id"], unique=False)
    op.create_index(op.f("ix_hat_events_workshop_id"), "hat_events", ["workshop_id"], unique=False)
    op.create_table(
        "hat_flags",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workshop_id", sa.String(length=40), nullable=False),
        sa.Column("hat_id", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("message", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("proposal_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", UTCDateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "kind IN ('grade_mismatch', 'too_fast', 'weaver_not_found', 'other')", name="ck_hat_flags_kind"
        ),
        sa.CheckConstraint("status IN ('open', 'resolved')", name="ck_hat_flags_status"),
        sa.ForeignKeyConstraint(
            ["hat_id"],
            ["hats.id"],
        ),
        sa.ForeignKeyConstraint(
            ["proposal_id"],
            ["proposals.id"],
        ),
        sa.ForeignKeyConstraint(
            ["workshop_id"],
            ["workshops.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_hat_flags_hat_id"), "hat_flags", ["hat_id"], unique=False)
    op.create_index(op.f("ix_hat_flags_workshop_id"), "hat_flags", ["workshop_id"], unique=False)
    op.create_index(
        "uq_hat_flags_open_kind",
        "hat_flags",
        ["hat_id", "kind"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index(
        "uq_hat_flags_open_kind",
        table_name="hat_flags",
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.drop_index(op.f("ix_hat_flags_workshop_id"), table_name="hat_flags")
    op.drop_index(op.f("ix_hat_flags_hat_id"), table_name="hat_flags")
    op.drop_table("hat_flags")
    op.drop_index(op.f("ix_hat_events_workshop_id"), table_name="hat_events")
    op.drop_index(op.f("ix_hat_events_proposal_id"), table_name="hat_events")
    op.drop_index(op.f("ix_hat_events_hat_id"), table_name="hat_events")
    op.drop_table("hat_events")
    op.drop_index(op.f("ix_proposals_workshop_id"), table_name="proposals")
    op.drop_index(op.f("ix_proposals_run_id"), table_name="proposals")
    op.drop_table("proposals")
    op.drop_index(op.f("ix_hats_workshop_id"), table_name="hats")
    op.drop_index(op.f("ix_hats_weaver_id"), table_name="hats")
    op.drop_table("hats")
    op.drop_index(op.f("ix_api_tokens_workshop_id"), table_name="api_tokens")
    op.drop_index(op.f("ix_api_tokens_user_id"), table_name="api_tokens")
    op.drop_table("api_tokens")
    op.drop_index(op.f("ix_agent_runs_workshop_id"), table_name="agent_runs")
    op.drop_index("ix_agent_runs_user_created", table_name="agent_runs")
    op.drop_table("agent_runs")
    op.drop_index(op.f("ix_weavers_workshop_id"), table_name="weavers")
    op.drop_table("weavers")
    op.drop_index(op.f("ix_profiles_workshop_id"), table_name="profiles")
    op.drop_table("profiles")
    op.drop_index(op.f("ix_app_logs_workshop_id"), table_name="app_logs")
    op.drop_index(op.f("ix_app_logs_ts"), table_name="app_logs")
    op.drop_index(op.f("ix_app_logs_run_id"), table_name="app_logs")
    op.drop_index(op.f("ix_app_logs_request_id"), table_name="app_logs")
    op.drop_table("app_logs")
    op.drop_table("workshops")
