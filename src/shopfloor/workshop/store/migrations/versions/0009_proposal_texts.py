"""Keep the codes of a card's own texts: ``proposals.texts`` (JSON, NULL for a card without them).

The offline reader's cards say their question, reason and flag message as a stable code and params beside the
English (``{"why": {"code", "params"}, "question": …, "message": …}``), so a page says them in its language
without reading the English; a live model's card, and every card stored before this revision, has NULL and is
shown as it came (docs/workshop-pages.md, "Cards").

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``proposals.texts``."""
    op.add_column("proposals", sa.Column("texts", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Back to revision 0008 (the cards' text codes are dropped; their English stays)."""
    with op.batch_alter_table("proposals") as batch:
        batch.drop_column("texts")
