"""Notes sent again make one run: ``agent_runs.idempotency_key`` (unique per workshop, NULL for a note sent
without one), ``agent_runs.said_at`` (when the person said the note, which for a note kept on the phone
while offline is earlier than ``created_at``) and ``agent_runs.response`` (the answer a repeat of the key gets).

docs/workshop.md, "Idempotency keys".

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from shopfloor.workshop.store.types import UTCDateTime

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the three nullable columns and the unique (workshop, key) constraint."""
    with op.batch_alter_table("agent_runs") as batch:
        batch.add_column(sa.Column("idempotency_key", sa.String(length=80), nullable=True))
        batch.add_column(sa.Column("said_at", UTCDateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("response", sa.JSON(), nullable=True))
        batch.create_unique_constraint("uq_agent_runs_idempotency_key", ["workshop_id", "idempotency_key"])


def downgrade() -> None:
    """Back to revision 0006 (the keys, said times and kept answers are dropped)."""
    with op.batch_alter_table("agent_runs") as batch:
        batch.drop_constraint("uq_agent_runs_idempotency_key", type_="unique")
        batch.drop_column("response")
        batch.drop_column("said_at")
        batch.drop_column("idempotency_key")
