"""The spend ledger of both apps: monthly totals, per-tenant caps and one row per model call
(``shopfloor.agent.spend``; docs/pricing.md, "Spend under a cap").

The tables carry a ``tenant`` (a workshop id or the plant id), not a ``workshop_id``: they serve the Shift
Investigator as well, so they are outside the workshop row-level security policies, and every read of them
names its app and tenant.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``spend_months``, ``spend_caps`` and ``spend_calls``."""
    op.create_table(
        "spend_months",
        sa.Column("app", sa.String(length=20), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("spent_nano", sa.BigInteger(), nullable=False),
        sa.Column("reserved_nano", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("app", "tenant", "month"),
    )
    op.create_table(
        "spend_caps",
        sa.Column("app", sa.String(length=20), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("cap_nano", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("app", "tenant"),
    )
    op.create_table(
        "spend_calls",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("app", sa.String(length=20), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("model", sa.String(length=120), nullable=False),
        sa.Column("reserved_nano", sa.BigInteger(), nullable=False),
        sa.Column("cost_nano", sa.BigInteger(), nullable=True),
        sa.Column("charged_nano", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_spend_calls_month", "spend_calls", ["app", "tenant", "month"], unique=False)


def downgrade() -> None:
    """Back to revision 0004."""
    op.drop_index("ix_spend_calls_month", table_name="spend_calls")
    op.drop_table("spend_calls")
    op.drop_table("spend_caps")
    op.drop_table("spend_months")
