"""Keep each user's page language (``profiles.locale``: ``es`` or ``en``; NULL until the user picks one).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``profiles.locale``."""
    op.add_column(
        "profiles", sa.Column("locale", sa.String(length=5), nullable=True, server_default=sa.text("NULL"))
    )


def downgrade() -> None:
    """Back to revision 0003."""
    with op.batch_alter_table("profiles") as batch:
        batch.drop_column("locale")
