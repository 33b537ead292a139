"""Index the two look-ups every agent run makes, so they stay quick as runs and proposals pile up.

* ``proposals.hat_code``: the hat a proposal is about, copied from its payload when it is written, indexed
  with the workshop, type and status. The duplicate check of the propose tools ("is there already an open
  proposal of this type for this hat?") was a scan of every open proposal's JSON payload.
* ``ix_agent_runs_user_created`` now leads with the workshop, so the per-user hourly count is read from the
  index alone.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add and fill ``proposals.hat_code``; rebuild the runs index."""
    op.add_column("proposals", sa.Column("hat_code", sa.String(length=8), nullable=True))
    code = (
        "json_extract(payload, '$.hat_code')"
        if op.get_bind().dialect.name == "sqlite"
        else "(payload::json ->> 'hat_code')"
    )
    # Only well-formed codes fit the column; anything else stays NULL and simply never matches.
    op.execute(f"UPDATE proposals SET hat_code = {code} WHERE length({code}) <= 8")
    op.create_index(
        "ix_proposals_open_by_hat", "proposals", ["workshop_id", "hat_code", "type", "status"], unique=False
    )
    op.drop_index("ix_agent_runs_user_created", table_name="agent_runs")
    op.create_index(
        "ix_agent_runs_user_created",
        "agent_runs",
        ["workshop_id", "user_id", "agent", "created_at"],
        unique=False,
    )


def downgrade() -> None:
    """Back to revision 0002."""
    op.drop_index("ix_agent_runs_user_created", table_name="agent_runs")
    op.create_index(
        "ix_agent_runs_user_created", "agent_runs", ["user_id", "agent", "created_at"], unique=False
    )
    op.drop_index("ix_proposals_open_by_hat", table_name="proposals")
    with op.batch_alter_table("proposals") as batch:
        batch.drop_column("hat_code")
